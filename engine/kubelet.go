package engine

import (
	"maps"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// ControllerKubelet is the kubelet's name in `controllers:`.
const ControllerKubelet = "kubelet"

// kubeletRegistration registers the kubelet. It is no controller of
// kube-controller-manager, so a scenario cannot restart it.
var kubeletRegistration = registration{
	name:   ControllerKubelet,
	queues: []string{ControllerKubelet},
	new:    newKubelet,
}

// kubelet is the simulated kubelet of every node: it finishes the graceful
// deletion of scheduled Pods (those with spec.nodeName) once their grace
// period has passed, by writing their terminal status and then, once it
// observes that update, deleting them with grace 0 (R18). Without it, such
// a Pod stays terminating, as on a node that stopped answering. It also
// plays kube-scheduler for Pods that have a controller, makes bound Pods
// Running and Ready on the virtual clock, and keeps Ready in step with
// their readiness gates (podlife.go says how).
type kubelet struct {
	env *env
	q   *workqueue[string]
	// starting holds the stage ("unscheduled", "starting" or "readiness")
	// of each Pod that has one, as events showed it, to say what the next
	// step does.
	starting map[string]string
	// conds and gen are reportTerminated's: the condition objects it
	// wrote last (stored objects share them), and its generated
	// conditions' map, reused.
	conds map[condKey]any
	gen   map[string]podCondition
	// lastEnded is the containerStatuses entry it made last, and of what.
	lastEnded struct {
		key endedContainer
		obj any
	}
}

func newKubelet(e *env) controller {
	k := &kubelet{env: e, starting: map[string]string{}}
	k.setQueue(newWorkqueue[string](ControllerKubelet))
	return k
}

func (k *kubelet) setQueue(q *workqueue[string]) {
	k.q = q
	q.onAdd = func(key string, d time.Duration) {
		if !k.env.discard {
			k.env.enqueued(ControllerKubelet, podRef(key), d)
		}
	}
}

func podKey(o *fakeapi.Object) string { return o.Metadata.Namespace + "/" + o.Metadata.Name }

func nodeName(o *fakeapi.Object) string {
	return nestedString(o.Fields, "spec", "nodeName")
}

func (k *kubelet) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	if o.Kind != "Pod" || o.APIVersion != "v1" {
		return
	}
	if ev.Type == fakeapi.Deleted {
		if len(k.starting) > 0 {
			delete(k.starting, k.env.podKeyOf(o))
		}
		return
	}
	stage := lifeStage(o)
	if stage == "" {
		// Nothing for the kubelet to do: forget any stage the Pod had.
		if len(k.starting) > 0 {
			delete(k.starting, k.env.podKeyOf(o))
		}
		return
	}
	key := k.env.podKeyOf(o)
	if stage == "unscheduled" || stage == "starting" || stage == "readiness" {
		k.starting[key] = stage
	} else {
		delete(k.starting, key)
	}
	switch {
	case stage == "terminating" && podFinished(o):
		// Its phase is terminal (the kubelet's own report, observed, or
		// an exit step): the delete is due now, unless the Pod was
		// deleted with grace 0 already (the kubelet's own delete, seen
		// before the Pod is removed or while a finalizer holds it: the
		// status manager forgets a Pod once its delete succeeded).
		if g := o.Metadata.DeletionGracePeriodSeconds; g == nil || *g != 0 {
			k.q.AddAfter(key, 0, k.env.now())
		}
	case stage == "terminating":
		due := o.Metadata.DeletionTimestamp.Sub(k.env.clock.start())
		k.q.AddAfter(key, due-k.env.now(), k.env.now())
	case ev.Old == nil || lifeStage(ev.Old) != stage:
		// Scheduling and starting are due a fixed time after the Pod
		// enters the stage.
		k.q.AddAfter(key, stageDelay(stage), k.env.now())
	}
}

func (k *kubelet) promote(now time.Duration)      { k.q.Promote(now) }
func (k *kubelet) ready(string) bool              { return k.q.Len() > 0 }
func (k *kubelet) nextDue() (time.Duration, bool) { return k.q.NextDue() }

func (k *kubelet) describeNext(string) string {
	if items := k.q.Items(); len(items) > 0 {
		switch k.starting[items[0]] {
		case "unscheduled":
			return "kubelet: bind Pod " + items[0] + " to " + defaultNodeName
		case "starting":
			return "kubelet: start the containers of Pod " + items[0]
		case "readiness":
			return "kubelet: sync the Ready condition of Pod " + items[0]
		}
		return "kubelet: finish terminating Pod " + items[0]
	}
	return ""
}

func (k *kubelet) items(string) []queuePart {
	return []queuePart{shownQueue[string]{q: k.q,
		ready: func(it string) QueueItem { return QueueItem{Item: podRef(it)} },
		waiting: func(w waitingItem[string]) QueueItem {
			return QueueItem{Item: podRef(w.item), Due: w.due, Waiting: true}
		},
	}}
}

func podRef(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return fakeapi.RefString("Pod", key[:i], key[i+1:])
		}
	}
	return "Pod/" + key
}

func (k *kubelet) step(_ string, rec *Record) {
	key, ok := k.q.Get()
	if !ok {
		return
	}
	defer k.q.Done(key)
	ns, name := splitKey(key)
	rec.Item = k.env.ref(objectReference{Kind: "Pod", Namespace: ns, Name: name})
	ref := fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: ns, Name: name}
	// The kubelet only reads the Pod (bind and start send patches built
	// from it): storage's snapshot, not a copy.
	pod, err := k.env.api.GetShared(ControllerKubelet, ref)
	if fakeapi.IsNotFound(err) {
		rec.Reason = rec.BecauseItem(Reason{Code: "PodGone", Rule: "R18", Func: "kubelet"},
			"%s is already gone")
		return
	}
	if err != nil {
		d := k.q.AddRateLimited(key, k.env.now())
		rec.Err = err.Error()
		rec.Reason = Reason{Code: "Requeued", Rule: "R18", Func: "kubelet"}.Say("could not read %s: retried in %s", rec.Item, d)
		return
	}
	if pod.Metadata.DeletionTimestamp == nil {
		switch lifeStage(pod) {
		case "unscheduled":
			k.bind(rec, key, pod)
			return
		case "starting":
			k.start(rec, key, pod)
			return
		case "readiness":
			k.reconcileReadiness(rec, key, pod)
			return
		}
		rec.Reason = Reason{Code: "PodRunning", Func: "kubelet"}.Say("%s is not terminating: nothing to do", rec.Item)
		return
	}
	// A Pod whose containers all ended (an exit step) needs no more
	// waiting: the kubelet's kill returns at once.
	if left := pod.Metadata.DeletionTimestamp.Sub(k.env.clock.start()) - k.env.now(); left > 0 && !podFinished(pod) {
		k.q.AddAfter(key, left, k.env.now())
		rec.Reason = rec.Because(Reason{Code: "GracePeriodRunning", Rule: "R18", Func: "kubelet"},
			"%s's grace period has %s left", rec.Item, left)
		return
	}
	// The status manager deletes a terminating Pod only once the
	// apiserver holds a terminal phase (canBeDeleted); until then the
	// kubelet writes the status SyncTerminatingPod generates for the
	// stopped containers, and the update, once observed, brings the Pod
	// back here.
	if !podFinished(pod) {
		k.reportTerminated(rec, key, pod)
		return
	}
	uid := pod.Metadata.UID
	_, err = k.env.api.DeleteShared(ControllerKubelet, ref, &fakeapi.DeleteOptions{GracePeriodSeconds: fakeapi.Int64(0), Preconditions: &fakeapi.Preconditions{UID: &uid}})
	switch {
	case err == nil || fakeapi.IsNotFound(err):
		k.q.Forget(key)
		why := Reason{Code: "PodDeleted", Rule: "R18", Func: "kubelet statusManager syncPod, canBeDeleted"}
		if nestedString(pod.Fields, "status", "phase") == podSucceeded {
			rec.Reason = rec.BecauseItem(why, "%s is terminating and the apiserver holds its phase Succeeded: the kubelet deletes it with grace 0")
		} else {
			rec.Reason = rec.BecauseItem(why, "%s is terminating and the apiserver holds its phase Failed: the kubelet deletes it with grace 0")
		}
	default:
		d := k.q.AddRateLimited(key, k.env.now())
		rec.Err = err.Error()
		rec.Reason = Reason{Code: "Requeued", Rule: "R18", Func: "kubelet"}.Say("deleting %s failed: retried in %s", rec.Item, d)
	}
}

func splitKey(key string) (ns, name string) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:]
		}
	}
	return "", key
}

func (k *kubelet) restart(rec *Record) {
	k.setQueue(newWorkqueue[string](ControllerKubelet))
	k.starting = map[string]string{}
	pods, err := k.env.api.ListShared(ControllerKubelet, "v1", "Pod", "")
	if err != nil {
		rec.Err = err.Error()
		return
	}
	for _, p := range pods {
		k.observe(fakeapi.WatchEvent{Type: fakeapi.Added, Object: p})
	}
}

func (k *kubelet) clone(e *env) controller {
	c := &kubelet{env: e, starting: maps.Clone(k.starting)}
	c.setQueue(k.q.clone(func(s string) string { return s }))
	return c
}
