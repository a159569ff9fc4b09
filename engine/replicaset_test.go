package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/gcplay/gcplay/fakeapi"
)

// manifest reads one YAML manifest into an object in namespace default.
func manifest(tb testing.TB, y string) *fakeapi.Object {
	tb.Helper()
	js, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		tb.Fatal(err)
	}
	var o fakeapi.Object
	if err := json.Unmarshal(js, &o); err != nil {
		tb.Fatal(err)
	}
	if o.Metadata.Namespace == "" {
		o.Metadata.Namespace = "default"
	}
	return &o
}

func replicaSetYAML(name string, replicas int) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: %s}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`, name, replicas)
}

// checkedSettle settles w, checking the graph invariant after every step.
func checkedSettle(t *testing.T, w *World) SettleResult {
	t.Helper()
	res, err := Settle(checkedDoer{t, w}, 100000)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// podsOf returns the Pods whose controller is the named object, and how
// many of them are terminating.
func podsOf(w *World, kind, name string) (pods []*fakeapi.Object, terminating int) {
	for _, o := range w.Store().Objects() {
		if !isKind(o, "v1", "Pod") {
			continue
		}
		if ref := controllerOf(o); ref != nil && ref.Kind == kind && ref.Name == name {
			pods = append(pods, o)
			if o.Metadata.DeletionTimestamp != nil {
				terminating++
			}
		}
	}
	return pods, terminating
}

func rsRef(name string) fakeapi.Ref {
	return fakeapi.Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: name}
}

func podRefOf(o *fakeapi.Object) fakeapi.Ref { return fakeapi.RefOf(o) }

// TestReplicaSetExpectations checks the expectations semantics: a sync is
// held back until every expected creation and deletion is observed, a
// deletion counts once however often it is seen, and everything expires
// after five minutes of virtual time.
func TestReplicaSetExpectations(t *testing.T) {
	e := newExpectations()
	if ok, _ := e.satisfied("ns/rs", 0); !ok {
		t.Fatal("no expectations must mean satisfied")
	}
	e.expectCreations("ns/rs", 2, 0)
	if ok, _ := e.satisfied("ns/rs", time.Second); ok {
		t.Fatal("2 creations expected: not satisfied")
	}
	e.creationObserved("ns/rs")
	e.creationObserved("ns/rs")
	if ok, why := e.satisfied("ns/rs", time.Second); !ok || English(why) != "expectations fulfilled" {
		t.Fatalf("both creations observed: got %v (%s)", ok, English(why))
	}
	e.expectDeletions("ns/rs", []string{"ns/a", "ns/b"}, 10*time.Second)
	e.deletionObserved("ns/rs", "ns/a")
	e.deletionObserved("ns/rs", "ns/a") // terminating, then deleted: once
	e.deletionObserved("ns/rs", "ns/other")
	if ok, _ := e.satisfied("ns/rs", 11*time.Second); ok {
		t.Fatal("ns/b's deletion is still expected")
	}
	if ok, why := e.satisfied("ns/rs", 10*time.Second+expectationsTimeout+time.Nanosecond); !ok || !strings.Contains(English(why), "expired") {
		t.Fatalf("expectations must expire after %s: got %v (%s)", expectationsTimeout, ok, English(why))
	}
	c := e.clone()
	c.deletionObserved("ns/rs", "ns/b")
	if ok, _ := e.satisfied("ns/rs", 11*time.Second); ok {
		t.Fatal("a clone must not share state with the original")
	}
	if ok, _ := c.satisfied("ns/rs", 11*time.Second); !ok {
		t.Fatal("the clone observed every deletion")
	}
	e.drop("ns/rs")
	if ok, _ := e.satisfied("ns/rs", 11*time.Second); !ok {
		t.Fatal("dropped expectations are satisfied")
	}
}

// TestReplicaSetSlowStartBatch checks batches of 1, 2, 4, ... that stop
// after the first batch with a failure, every call of that batch made.
func TestReplicaSetSlowStartBatch(t *testing.T) {
	calls := 0
	batches, ok, err := slowStartBatch(10, 1, func() error {
		calls++
		if calls == 5 { // the second call of the third batch
			return errors.New("quota exceeded")
		}
		return nil
	})
	if fmt.Sprint(batches) != "[1 2 4]" || ok != 6 || calls != 7 || err == nil {
		t.Fatalf("batches %v, successes %d, calls %d, err %v", batches, ok, calls, err)
	}
	batches, ok, err = slowStartBatch(10, 1, func() error { return nil })
	if fmt.Sprint(batches) != "[1 2 4 3]" || ok != 10 || err != nil {
		t.Fatalf("batches %v, successes %d, err %v", batches, ok, err)
	}
}

// TestReplicaSetVictimRanking checks each rule of ActivePodsWithRanks in
// order, on Pods that differ in that rule only.
func TestReplicaSetVictimRanking(t *testing.T) {
	now := fakeapi.Epoch.Add(time.Hour)
	base := func(uid string) *podInfo {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: uid, UID: uid,
			CreationTimestamp: &fakeapi.Time{Time: fakeapi.Epoch}}, Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"nodeName": "node-1"}})}
		p := &podInfo{obj: o, phaseCode: phaseRunning, ready: true}
		p.setReadyTime(fakeapi.Epoch)
		return p
	}
	cases := []struct {
		rule   string
		first  func(p *podInfo)
		second func(p *podInfo)
		rankA  int
		rankB  int
	}{
		{rule: "unassigned before assigned", first: func(p *podInfo) { p.obj.Fields = fakeapi.Fields{} }},
		{rule: "Pending before Unknown before Running", first: func(p *podInfo) { p.setPhase(podUnknown) }},
		{rule: "not ready before ready", first: func(p *podInfo) { p.ready = false }},
		{rule: "lower controller.kubernetes.io/pod-deletion-cost first", second: func(p *podInfo) { p.cost = 10 }},
		{rule: "more Pods of the same owner on its node first", rankA: 3, rankB: 1},
		{rule: "ready for less time first", first: func(p *podInfo) { p.setReadyTime(now.Add(-time.Second)) }},
		{rule: "more container restarts first", first: func(p *podInfo) { p.restarts = 2 }},
		{rule: "more sidecar container restarts first", first: func(p *podInfo) {
			p.obj.Fields = fakeapi.FieldsOf(map[string]any{
				"spec": map[string]any{"nodeName": "node-1", "initContainers": []any{
					map[string]any{"name": "init", "restartPolicy": "Never"},
					map[string]any{"name": "proxy", "restartPolicy": "Always"}}},
				"status": map[string]any{"initContainerStatuses": []any{
					map[string]any{"name": "init", "restartCount": int64(9)},
					map[string]any{"name": "proxy", "restartCount": int64(1)}}}})
		}},
		{rule: "newer first", first: func(p *podInfo) { p.obj.Metadata.CreationTimestamp = &fakeapi.Time{Time: now.Add(-time.Minute)} }},
		{rule: "newer first (same log2 age bucket: by UID)", first: func(p *podInfo) {
			p.obj.Metadata.CreationTimestamp = &fakeapi.Time{Time: fakeapi.Epoch.Add(time.Second)}
		}},
	}
	for _, c := range cases {
		a, b := base("uid-a"), base("uid-b")
		if c.first != nil {
			c.first(a)
		}
		if c.second != nil {
			c.second(b)
		}
		got, rule := compareForDeletion(a, b, c.rankA, c.rankB, now)
		if got != -1 || rule != c.rule {
			t.Errorf("%s: got %d (%q)", c.rule, got, rule)
		}
		back, _ := compareForDeletion(b, a, c.rankB, c.rankA, now)
		if back != 1 {
			t.Errorf("%s: the reverse comparison gave %d", c.rule, back)
		}
	}
	if got, _ := compareForDeletion(base("uid-a"), base("uid-a"), 0, 0, now); got != 0 {
		t.Fatalf("equal Pods compared %d", got)
	}
}

// TestReplicaSetReplacesDeletedPod checks that a deleted Pod is replaced
// while it terminates, that the replacement is bound and started, and that
// the old one is gone after its grace period.
func TestReplicaSetReplacesDeletedPod(t *testing.T) {
	w := newTestWorld(t)
	mustDo(t, w, Create{Object: manifest(t, replicaSetYAML("web", 3))})
	checkedSettle(t, w)
	pods, _ := podsOf(w, "ReplicaSet", "web")
	if len(pods) != 3 {
		t.Fatalf("%d Pods, want 3", len(pods))
	}
	victim := pods[0]
	mustDo(t, w, Delete{Ref: podRefOf(victim), Options: &fakeapi.DeleteOptions{}})
	if _, err := AdvanceBy(checkedDoer{t, w}, 5*time.Second, 100000); err != nil {
		t.Fatal(err)
	}
	pods, terminating := podsOf(w, "ReplicaSet", "web")
	if len(pods) != 4 || terminating != 1 {
		t.Fatalf("%d Pods (%d terminating), want 4 (1 terminating) while the victim's grace period runs", len(pods), terminating)
	}
	checkedSettle(t, w)
	pods, terminating = podsOf(w, "ReplicaSet", "web")
	if len(pods) != 3 || terminating != 0 || w.Store().ByUID(victim.Metadata.UID) != nil {
		t.Fatalf("%d Pods (%d terminating); the victim must be gone", len(pods), terminating)
	}
	for _, p := range pods {
		if info := newPodInfo(p); !info.ready || info.node() != defaultNodeName {
			t.Fatalf("%s is not running on %s", p, defaultNodeName)
		}
	}
	st := readRSStatus(w.Store().Lookup(rsRef("web")))
	if st.Replicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 3 || st.ObservedGeneration != 1 {
		t.Fatalf("status %+v", st)
	}
}

// TestReplicaSetInvalidSpecLeftAlone checks that a ReplicaSet the
// apiserver would have refused (here: no selector, as the collector's
// tests write them) gets no Pods and no retries.
func TestReplicaSetInvalidSpecLeftAlone(t *testing.T) {
	w := newTestWorld(t)
	mustDo(t, w, Create{Object: manifest(t, "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: bare}\n")})
	res := checkedSettle(t, w)
	if pods, _ := podsOf(w, "ReplicaSet", "bare"); len(pods) != 0 {
		t.Fatalf("%d Pods for an invalid ReplicaSet", len(pods))
	}
	found := false
	for _, r := range res.Records {
		if r.Actor == ControllerReplicaSet {
			found = found || r.Reason.Code == "InvalidSpec"
			if r.Err != "" {
				t.Fatalf("an invalid ReplicaSet must not be retried: %s", r)
			}
		}
	}
	if !found {
		t.Fatal("no InvalidSpec record")
	}
}

// TestReplicaSetCloneAndRestart checks that a clone taken mid-scale-up
// evolves exactly as the original (the controller's caches, queue and
// expectations are copied), and that a restarted controller relists and
// finds nothing to do.
func TestReplicaSetCloneAndRestart(t *testing.T) {
	w := newTestWorld(t)
	mustDo(t, w, Create{Object: manifest(t, replicaSetYAML("web", 5))})
	for range 8 {
		mustDo(t, w, Step{})
	}
	c := w.Clone()
	r1, r2 := checkedSettle(t, w), checkedSettle(t, c)
	if len(r1.Records) != len(r2.Records) {
		t.Fatalf("clone took %d steps, original %d", len(r2.Records), len(r1.Records))
	}
	for i := range r1.Records {
		if r1.Records[i].Detail() != r2.Records[i].Detail() {
			t.Fatalf("step %d differs:\n%s\n%s", i, r1.Records[i].Detail(), r2.Records[i].Detail())
		}
	}
	if worldState(w) != worldState(c) {
		t.Fatal("clone and original ended in different states")
	}
	mustDo(t, w, Restart{Controller: ControllerReplicaSet})
	res := checkedSettle(t, w)
	for _, r := range res.Records {
		if r.Actor == ControllerReplicaSet && r.Reason.Code != "InSync" {
			t.Fatalf("after a restart the ReplicaSet must be in sync: %s", r)
		}
	}
	if pods, _ := podsOf(w, "ReplicaSet", "web"); len(pods) != 5 {
		t.Fatalf("%d Pods after the restart, want 5", len(pods))
	}
}

// TestReplicaSetHistoryRewind checks that a History rewinds and replays
// a scale-up and down exactly.
func TestReplicaSetHistoryRewind(t *testing.T) {
	tl := newTimeline(t, newTestWorld(t))
	tl.after = (*World).CheckGraphInvariants
	tl.do(Create{Object: manifest(t, replicaSetYAML("web", 4))})
	tl.settle()
	tl.do(Advance{D: 3 * time.Second})
	tl.settle()
	tl.do(Patch{Ref: rsRef("web"), Merge: []byte(`{"spec":{"replicas":1}}`)})
	tl.settle()
	n := tl.h.Len()
	for _, pos := range []int{0, n, 5, n / 2, 1, n - 1, n} {
		tl.goTo(pos)
	}
}

// TestKubeletSchedulesOnlyControlledPods checks the stand-in scheduler:
// a Pod with a controller is bound and started; a hand-made Pod without
// spec.nodeName stays unscheduled; a hand-made Pod with one is started.
func TestKubeletSchedulesOnlyControlledPods(t *testing.T) {
	w := newTestWorld(t, ControllerGC, ControllerKubelet)
	owner := manifest(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: owner, uid: owner-uid}\n")
	mustDo(t, w, Create{Object: owner})
	mustDo(t, w, Create{Object: manifest(t, `
apiVersion: v1
kind: Pod
metadata:
  name: owned
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: owner-uid, controller: true}]
spec: {containers: [{name: c, image: busybox}]}
`)})
	mustDo(t, w, Create{Object: manifest(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: loose}\nspec: {containers: [{name: c, image: busybox}]}\n")})
	mustDo(t, w, Create{Object: manifest(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: placed}\nspec: {nodeName: node-2, containers: [{name: c, image: busybox}]}\n")})
	checkedSettle(t, w)
	get := func(name string) *podInfo {
		return newPodInfo(w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: name}))
	}
	if p := get("owned"); p.node() != defaultNodeName || p.phase() != podRunning || !p.ready {
		t.Fatalf("owned: node %q phase %q ready %v", p.node(), p.phase(), p.ready)
	}
	if p := get("loose"); p.node() != "" || p.phase() != podPending { // as the apiserver created it
		t.Fatalf("loose: node %q phase %q", p.node(), p.phase())
	}
	if p := get("placed"); p.node() != "node-2" || p.phase() != podRunning || !p.ready {
		t.Fatalf("placed: node %q phase %q ready %v", p.node(), p.phase(), p.ready)
	}
	st := w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "owned"}).Fields.Get("status")
	cs, _ := nestedSlice(st, "containerStatuses")
	if len(cs) != 1 || nestedString(cs[0], "name") != "c" || !nestedBool(cs[0], "ready") {
		t.Fatalf("containerStatuses %v", cs)
	}
}

// TestReplicaSetTraceDeterministic checks that the same actions give a
// byte-identical trace.
func TestReplicaSetTraceDeterministic(t *testing.T) {
	run := func() string {
		w := newTestWorld(t)
		mustDo(t, w, Create{Object: manifest(t, replicaSetYAML("web", 6))})
		var b strings.Builder
		for _, r := range checkedSettle(t, w).Records {
			b.WriteString(r.Detail())
		}
		mustDo(t, w, Patch{Ref: rsRef("web"), Merge: []byte(`{"spec":{"replicas":2}}`)})
		for _, r := range checkedSettle(t, w).Records {
			b.WriteString(r.Detail())
		}
		return b.String()
	}
	if a, b := run(), run(); a != b {
		t.Fatal("two runs of the same actions gave different traces")
	}
}

// TestReplicaSetReadyPodCheckedAfterMinReadySeconds checks the two
// availability re-checks. updatePod: a Pod that becomes Ready queues its
// ReplicaSet after exactly minReadySeconds, as upstream's enqueueRSAfter
// does (the added second is the StatefulSet controller's). The sync's own:
// with one Pod ready but not available (the other not ready), the set is
// synced again the moment that Pod becomes available, as v1.34's
// syncReplicaSet does with FindMinNextPodAvailabilityCheck; the Pod's
// Ready time, 3 s before the patch, puts that moment 7 s ahead.
func TestReplicaSetReadyPodCheckedAfterMinReadySeconds(t *testing.T) {
	w := newTestWorld(t, "garbagecollector", "replicaset")
	rs := manifest(t, `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, namespace: default, uid: rs-web}
spec:
  replicas: 2
  minReadySeconds: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`)
	mustDo(t, w, Create{Object: rs})
	for _, name := range []string{"web-a", "web-b"} {
		mustDo(t, w, Create{Object: manifest(t, `
apiVersion: v1
kind: Pod
metadata:
  name: `+name+`
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: rs-web, controller: true}]
spec: {nodeName: node-1, containers: [{name: c, image: nginx}]}
status: {phase: Running}
`)})
	}
	checkedSettle(t, w)
	mustDo(t, w, Advance{D: time.Minute})
	checkedSettle(t, w)
	readyAt := fakeapi.Epoch.Add(w.Elapsed() - 3*time.Second).UTC().Format(time.RFC3339)
	rec, err := w.Do(Patch{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-b"},
		Merge: []byte(`{"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"` + readyAt + `"}]}}`)})
	if err != nil {
		t.Fatal(err)
	}
	want := Enqueue{Queue: ControllerReplicaSet, Item: "ReplicaSet/web", After: 10 * time.Second}
	if !slices.Contains(rec.Enqueued(), want) {
		t.Errorf("the Pod becoming Ready enqueued %v, want %v among them", rec.Enqueued(), want)
	}
	for !w.Idle() {
		mustDo(t, w, Step{})
	}
	due, ok := w.NextDue()
	if !ok || due-w.Elapsed() != 7*time.Second {
		t.Fatalf("next due in %v (%v), want the ReplicaSet's re-check in 7s, when web-b becomes available", due-w.Elapsed(), ok)
	}
}

// TestPodIndexKeysByKindNameAndUID: v1.34's ReplicaSet, Job, StatefulSet
// and DaemonSet controllers read their Pods through FilterPodsByOwner,
// whose index key is namespace/Kind/Name/UID of the controller reference
// (PodControllerIndexKey): a Pod whose hand-written controller reference
// carries the owner's UID under another kind or name is neither the
// owner's nor an orphan, so the owner creates its replicas beside it.
func TestPodIndexKeysByKindNameAndUID(t *testing.T) {
	stray := func(kind, name, owner, uid, labels string) *fakeapi.Object {
		return manifest(t, `
apiVersion: v1
kind: Pod
metadata:
  name: stray-`+owner+`
  labels: {`+labels+`}
  ownerReferences: [{apiVersion: apps/v1, kind: `+kind+`, name: `+name+`, uid: `+uid+`, controller: true}]
spec: {containers: [{name: c, image: busybox}]}
`)
	}
	controlled := func(w *World, kind, name, uid string) (n int) {
		for _, o := range w.Store().Objects() {
			if ref := controllerOf(o); o.Kind == "Pod" && ref != nil && ref.UID == uid && ref.Kind == kind && ref.Name == name {
				n++
			}
		}
		return n
	}
	t.Run("ReplicaSet", func(t *testing.T) {
		// (No garbage collector: it would delete the stray Pod, whose
		// owner it cannot find.)
		w := newTestWorld(t, ControllerReplicaSet)
		mustDo(t, w, Create{Object: stray("Deployment", "web", "rs", "rs-uid", "app: web")})
		mustDo(t, w, Create{Object: manifest(t, `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web, uid: rs-uid}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`)})
		checkedSettle(t, w)
		if n := controlled(w, "ReplicaSet", "web", "rs-uid"); n != 2 {
			t.Errorf("the ReplicaSet controls %d Pods, want 2 beside the stray one", n)
		}
	})
	t.Run("StatefulSet", func(t *testing.T) {
		w := newTestWorld(t, ControllerStatefulSet)
		p := stray("StatefulSet", "other", "sts", "sts-uid", "app: db")
		p.Metadata.Name = "db-0"
		mustDo(t, w, Create{Object: p})
		mustDo(t, w, Create{Object: manifest(t, `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, uid: sts-uid}
spec:
  replicas: 1
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: postgres}]}
`)})
		Settle(w, 200) //nolint:errcheck // the create of db-0 fails again and again
		set := w.Store().Lookup(fakeapi.Ref{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "default", Name: "db"})
		if n, _ := nestedInt(set.Fields.Get("status"), "replicas"); n != 0 {
			t.Errorf("status.replicas = %d, want 0: db-0's controller reference names another set", n)
		}
	})
	t.Run("DaemonSet", func(t *testing.T) {
		w := newTestWorld(t, ControllerDaemonSet)
		mustDo(t, w, Create{Object: manifest(t, "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\n")})
		p := stray("DaemonSet", "other", "ds", "ds-uid", "app: agent")
		p.Fields.Set("spec", map[string]any{"nodeName": "node-1", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}})
		mustDo(t, w, Create{Object: p})
		mustDo(t, w, Create{Object: manifest(t, `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, uid: ds-uid}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: busybox}]}
`)})
		checkedSettle(t, w)
		if n := controlled(w, "DaemonSet", "agent", "ds-uid"); n != 1 {
			t.Errorf("the DaemonSet controls %d Pods, want 1 beside the stray one", n)
		}
	})
	t.Run("Job", func(t *testing.T) {
		w := newTestWorld(t, ControllerJob)
		mustDo(t, w, Create{Object: stray("Job", "other", "job", "job-uid", "batch.kubernetes.io/controller-uid: job-uid")})
		mustDo(t, w, Create{Object: manifest(t, `
apiVersion: batch/v1
kind: Job
metadata: {name: pi, uid: job-uid}
spec:
  parallelism: 1
  template:
    metadata: {labels: {app: pi}}
    spec: {restartPolicy: Never, containers: [{name: c, image: perl}]}
`)})
		checkedSettle(t, w)
		if n := controlled(w, "Job", "pi", "job-uid"); n != 1 {
			t.Errorf("the Job controls %d Pods, want 1 beside the stray one", n)
		}
	})
}
