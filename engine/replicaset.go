package engine

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// Settings of kube-controller-manager's ReplicaSet controller.
const (
	rsClient = "replicaset-controller"
	// burstReplicas caps the Pods one sync creates or deletes.
	burstReplicas = 500
	// slowStartInitialBatchSize is the first batch of a slow start.
	slowStartInitialBatchSize = 1
	// statusUpdateRetries is how often a failed status update is retried
	// after a fresh GET, within one sync.
	statusUpdateRetries = 1
)

const rsFuncPrefix = "ReplicaSetController."

// ControllerReplicaSet is the ReplicaSet controller's name in `controllers:`.
const ControllerReplicaSet = "replicaset"

var replicaSetRegistration = registration{
	name:        ControllerReplicaSet,
	queues:      []string{ControllerReplicaSet},
	restartable: true,
	new:         newReplicaSetController,
}

// replicaSetController is kube-controller-manager's ReplicaSet controller
// (pkg/controller/replicaset/replica_set.go), made steppable: one step is
// one syncReplicaSet of one queued key. Its informer caches (ReplicaSets
// and Pods) are filled by observe, synchronously, so a sync reads what a
// lister would read at that moment; it writes only through the apiserver,
// as "replicaset-controller".
type replicaSetController struct {
	env  *env
	q    *workqueue[string]
	exp  *expectations
	rss  map[string]*fakeapi.Object
	pods *podIndex
	// quiet holds the ReplicaSets whose minReadySeconds re-check settle
	// need not wait for: no Pod ready now becomes available within
	// minReadySeconds. A Pod ready without a lastTransitionTime never
	// does (the set is re-checked every minReadySeconds, finding nothing
	// new); one whose Ready time lies ahead of the clock (written by hand:
	// a dump's clock starts after its times) does only that much later,
	// time passing in the cluster that only advance crosses.
	quiet map[string]bool
}

func newReplicaSetController(e *env) controller {
	c := &replicaSetController{env: e, exp: newExpectations(), rss: map[string]*fakeapi.Object{}, pods: e.podInformer(), quiet: map[string]bool{}}
	c.setQueue(newWorkqueue[string](ControllerReplicaSet))
	return c
}

func (c *replicaSetController) setQueue(q *workqueue[string]) {
	c.q = q
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerReplicaSet, keyRef("ReplicaSet", key), d)
		}
	}
}

func keyRef(kind, key string) string {
	ns, name := splitKey(key)
	return fakeapi.RefString(kind, ns, name)
}

func isKind(o *fakeapi.Object, apiVersion, kind string) bool {
	return o.Kind == kind && o.APIVersion == apiVersion
}

// observe is the controller's event handlers: addRS/updateRS/deleteRS and
// addPod/updatePod/deletePod.
func (c *replicaSetController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	switch {
	case isKind(o, "apps/v1", "ReplicaSet"):
		key := objKey(o)
		switch ev.Type {
		case fakeapi.Deleted:
			delete(c.rss, key)
			c.exp.drop(key)
		case fakeapi.Modified:
			c.rss[key] = o
			if ev.Old != nil && ev.Old.Metadata.UID != o.Metadata.UID {
				c.exp.drop(key) // the old ReplicaSet was deleted and a new one took its name
			}
		default:
			c.rss[key] = o
		}
		c.q.Add(key)
	case isKind(o, "v1", "Pod"):
		switch ev.Type {
		case fakeapi.Added:
			c.addPod(o)
		case fakeapi.Modified:
			if ev.Old != nil {
				c.updatePod(ev.Old, o)
			} else {
				c.addPod(o)
			}
		case fakeapi.Deleted:
			c.deletePod(o)
		}
	}
}

// resolveControllerRef returns the cached ReplicaSet a controller
// reference names, if it is the same object (UID).
func (c *replicaSetController) resolveControllerRef(namespace string, ref *fakeapi.OwnerReference) *fakeapi.Object {
	if ref == nil || ref.Kind != "ReplicaSet" {
		return nil
	}
	rs := c.rss[namespace+"/"+ref.Name]
	if rs == nil || rs.Metadata.UID != ref.UID {
		return nil
	}
	return rs
}

// podReplicaSets is GetPodReplicaSets: the ReplicaSets whose selector
// matches an orphan Pod's labels, by name.
func (c *replicaSetController) podReplicaSets(pod *fakeapi.Object) []*fakeapi.Object {
	if len(pod.Metadata.Labels) == 0 {
		return nil
	}
	var out []*fakeapi.Object
	for _, rs := range c.rsIn(pod.Metadata.Namespace) {
		sel, err := parseSelector(specOf(rs)["selector"])
		if err != nil || sel.Empty() || !sel.Matches(pod.Metadata.Labels) {
			continue
		}
		out = append(out, rs)
	}
	return out
}

// rsIn returns the cached ReplicaSets of a namespace, by name.
func (c *replicaSetController) rsIn(namespace string) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, k := range sortedKeys(c.rss) {
		if rs := c.rss[k]; rs.Metadata.Namespace == namespace {
			out = append(out, rs)
		}
	}
	return out
}

func (c *replicaSetController) addPod(pod *fakeapi.Object) {
	if pod.Metadata.DeletionTimestamp != nil {
		// A Pod seen first already terminating (after a restart) counts
		// as deleted.
		c.deletePod(pod)
		return
	}
	if ref := controllerOf(pod); ref != nil {
		rs := c.resolveControllerRef(pod.Metadata.Namespace, ref)
		if rs == nil {
			return
		}
		key := objKey(rs)
		c.exp.creationObserved(key)
		c.q.Add(key)
		return
	}
	for _, rs := range c.podReplicaSets(pod) {
		c.q.Add(objKey(rs))
	}
}

func (c *replicaSetController) updatePod(old, cur *fakeapi.Object) {
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return
	}
	labelChanged := !reflect.DeepEqual(old.Metadata.Labels, cur.Metadata.Labels)
	if cur.Metadata.DeletionTimestamp != nil {
		// A terminating Pod is as good as gone: replace it now, not when
		// the kubelet finally removes it.
		c.deletePod(cur)
		if labelChanged {
			c.deletePod(old)
		}
		return
	}
	curRef, oldRef := controllerOf(cur), controllerOf(old)
	refChanged := !sameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := c.resolveControllerRef(old.Metadata.Namespace, oldRef); rs != nil {
			c.q.Add(objKey(rs))
		}
	}
	if curRef != nil {
		rs := c.resolveControllerRef(cur.Metadata.Namespace, curRef)
		if rs == nil {
			return
		}
		c.q.Add(objKey(rs))
		if mrs := minReadySecondsOf(rs); mrs > 0 && !newPodInfo(old).ready && newPodInfo(cur).ready {
			// Check availability once minReadySeconds have passed (no
			// added second: that is the StatefulSet controller's).
			c.q.AddAfter(objKey(rs), time.Duration(mrs)*time.Second, c.env.now())
		}
		return
	}
	if labelChanged || refChanged {
		for _, rs := range c.podReplicaSets(cur) {
			c.q.Add(objKey(rs))
		}
	}
}

func (c *replicaSetController) deletePod(pod *fakeapi.Object) {
	ref := controllerOf(pod)
	if ref == nil {
		return
	}
	rs := c.resolveControllerRef(pod.Metadata.Namespace, ref)
	if rs == nil {
		return
	}
	key := objKey(rs)
	c.exp.deletionObserved(key, podKey(pod))
	c.q.Add(key)
}

func (c *replicaSetController) promote(now time.Duration)      { c.q.Promote(now) }
func (c *replicaSetController) ready(string) bool              { return c.q.Len() > 0 }
func (c *replicaSetController) nextDue() (time.Duration, bool) { return c.q.NextDue() }

func (c *replicaSetController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "replicaset: sync " + keyRef("ReplicaSet", items[0])
	}
	return ""
}

func (c *replicaSetController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "ReplicaSet")}
}

func keyQueueItems(q *workqueue[string], kind string) queuePart {
	return shownQueue[string]{q: q,
		ready: func(it string) QueueItem { return QueueItem{Item: keyRef(kind, it), Failures: q.NumRequeues(it)} },
		waiting: func(w waitingItem[string]) QueueItem {
			return QueueItem{Item: keyRef(kind, w.item), Due: w.due, Waiting: true, Failures: q.NumRequeues(w.item)}
		},
	}
}

// timerItems lists a timers queue's waiting keys, each with its note.
func timerItems(q *workqueue[string], kind, note string) queuePart {
	return shownQueue[string]{q: q, waiting: func(w waitingItem[string]) QueueItem {
		return QueueItem{Item: keyRef(kind, w.item) + note, Due: w.due, Waiting: true}
	}}
}

func (c *replicaSetController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("ReplicaSet", key)
	if err := c.syncReplicaSet(key, rec); err != nil {
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; the sync returns an error, so the key is retried in %s", d)
		return
	}
	c.q.Forget(key)
}

func (c *replicaSetController) restart(rec *Record) {
	c.setQueue(newWorkqueue[string](ControllerReplicaSet))
	c.exp = newExpectations()
	c.rss = map[string]*fakeapi.Object{}
	c.quiet = map[string]bool{}
	relist(c.env, rsClient, rec, c.observe, [][2]string{{"apps/v1", "ReplicaSet"}, {"v1", "Pod"}})
}

// relist lists kinds through the apiserver, in order, and feeds every
// object to observe as an add event, as informers starting up do.
func relist(e *env, client string, rec *Record, observe func(fakeapi.WatchEvent), kinds [][2]string) {
	for _, k := range kinds {
		objs, err := e.api.ListShared(client, k[0], k[1], "")
		if err != nil {
			rec.Err = err.Error()
			continue
		}
		if k == [2]string{"v1", "Pod"} && e.pods != nil && !e.podsListed {
			e.pods.grow(len(objs))
			for _, o := range objs {
				e.pods.put(o)
			}
			e.podsListed = true
		}
		for _, o := range objs {
			observe(fakeapi.WatchEvent{Type: fakeapi.Added, Object: o})
		}
	}
}

func (c *replicaSetController) clone(e *env) controller {
	n := &replicaSetController{env: e, exp: c.exp.clone(), rss: make(map[string]*fakeapi.Object, len(c.rss)), pods: e.podInformer(),
		quiet: make(map[string]bool, len(c.quiet))}
	for k, v := range c.rss {
		n.rss[k] = v
	}
	for k, v := range c.quiet {
		n.quiet[k] = v
	}
	n.setQueue(c.q.clone(func(s string) string { return s }))
	return n
}

// specOf returns an object's spec (nil when it has none).
func specOf(o *fakeapi.Object) map[string]any {
	m, _ := o.Fields.Get("spec").(map[string]any)
	return m
}

func minReadySecondsOf(o *fakeapi.Object) int64 {
	n, _ := nestedInt(specOf(o), "minReadySeconds")
	return n
}

// rsView is a ReplicaSet's spec, read with the apiserver's defaults
// (replicas 1) and checked as its validation would.
type rsView struct {
	obj             *fakeapi.Object
	replicas        int64
	minReadySeconds int64
	selector        labelsel.Selector
	template        map[string]any
	templateLabels  map[string]string
}

// readWorkloadSpec reads the selector and template every workload kind
// has, and checks what apps/v1 validation checks of them: a non-empty
// selector that matches the template's labels. gcplay's fake apiserver
// stores what it is given, so the controllers check it themselves.
func readWorkloadSpec(o *fakeapi.Object) (labelsel.Selector, map[string]any, map[string]string, error) {
	spec := specOf(o)
	rawSel, ok := spec["selector"]
	if !ok || rawSel == nil {
		return labelsel.Selector{}, nil, nil, fmt.Errorf("spec.selector: Required value")
	}
	sel, err := parseSelector(rawSel)
	if err != nil {
		return labelsel.Selector{}, nil, nil, selectorErr("spec.selector", err)
	}
	if sel.Empty() {
		return sel, nil, nil, fmt.Errorf("spec.selector: Invalid value: empty selector is invalid for %s", strings.ToLower(o.Kind))
	}
	tmpl := nestedMap(spec, "template")
	if tmpl == nil {
		return sel, nil, nil, fmt.Errorf("spec.template: Required value")
	}
	labels := stringMap(nestedMap(tmpl, "metadata")["labels"])
	if !sel.Matches(labels) {
		return sel, tmpl, labels, fmt.Errorf("spec.template.metadata.labels: Invalid value: %s: `selector` does not match template `labels`", mapString(labels))
	}
	return sel, tmpl, labels, nil
}

func mapString(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+":"+m[k])
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

func readRS(o *fakeapi.Object) (rsView, error) {
	v := rsView{obj: o, replicas: 1, minReadySeconds: minReadySecondsOf(o)}
	if n, ok := nestedInt(specOf(o), "replicas"); ok {
		v.replicas = n
	}
	sel, tmpl, labels, err := readWorkloadSpec(o)
	v.selector, v.template, v.templateLabels = sel, tmpl, labels
	if err == nil && v.replicas < 0 {
		err = fmt.Errorf("spec.replicas: Invalid value: %d: must be greater than or equal to 0", v.replicas)
	}
	return v, err
}

// rsStatus is apps/v1 ReplicaSetStatus (the fields gcplay keeps).
type rsStatus struct {
	Replicas             int64         `json:"replicas"`
	FullyLabeledReplicas int64         `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int64         `json:"readyReplicas,omitempty"`
	AvailableReplicas    int64         `json:"availableReplicas,omitempty"`
	ObservedGeneration   int64         `json:"observedGeneration,omitempty"`
	Conditions           []rsCondition `json:"conditions,omitempty"`
}

type rsCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// readRSStatus reads a ReplicaSet's status field by field (it is read
// many times per Deployment sync, so without a JSON round trip).
func readRSStatus(o *fakeapi.Object) rsStatus {
	var s rsStatus
	if o == nil {
		return s
	}
	v, ok := o.Fields.Lookup("status")
	if !ok {
		return s
	}
	s.Replicas, _ = nestedInt(v, "replicas")
	s.FullyLabeledReplicas, _ = nestedInt(v, "fullyLabeledReplicas")
	s.ReadyReplicas, _ = nestedInt(v, "readyReplicas")
	s.AvailableReplicas, _ = nestedInt(v, "availableReplicas")
	s.ObservedGeneration, _ = nestedInt(v, "observedGeneration")
	if conds, ok := nestedSlice(v, "conditions"); ok {
		for _, c := range conds {
			s.Conditions = append(s.Conditions, rsCondition{Type: nestedString(c, "type"), Status: nestedString(c, "status"),
				LastTransitionTime: nestedString(c, "lastTransitionTime"), Reason: nestedString(c, "reason"), Message: nestedString(c, "message")})
		}
	}
	return s
}

// syncReplicaSet is the sync of one key; it fills rec.Reason.
func (c *replicaSetController) syncReplicaSet(key string, rec *Record) error {
	const fn = rsFuncPrefix + "syncReplicaSet"
	delete(c.quiet, key)
	rs := c.rss[key]
	if rs == nil {
		c.exp.drop(key)
		rec.Reason = Reason{Code: "ReplicaSetGone", Func: fn}.
			Say("%s is no longer in the informer cache: its expectations are dropped", rec.Item)
		return nil
	}
	v, err := readRS(rs)
	if err != nil {
		rec.Reason = Reason{Code: "InvalidSpec", Func: fn}.
			Say("the apiserver would have refused %s (%v): gcplay's ReplicaSet controller leaves it alone", rec.Item, err)
		return nil
	}
	now := c.env.now()
	needsSync, why := c.exp.satisfied(key, now)

	// Claim the active Pods: those this ReplicaSet controls, and orphans
	// its selector matches (ClaimPods over FilterActivePods).
	ns, uid := rs.Metadata.Namespace, rs.Metadata.UID
	match := func(o *fakeapi.Object) bool { return v.selector.Matches(o.Metadata.Labels) }
	m := &refManager{env: c.env, client: rsClient, owner: rs, selector: v.selector, rec: rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, rsClient, rs)}
	// The running counts are taken before any adoption or release.
	counts := c.pods.counts(ns, "ReplicaSet", rs.Metadata.Name, uid, v.selector, v.templateLabels)
	var notMatching []*podInfo
	if counts.notMatching > 0 {
		for _, p := range c.pods.ownedBy(ns, "ReplicaSet", rs.Metadata.Name, uid) {
			if p.active() && !match(p.obj) {
				notMatching = append(notMatching, p)
			}
		}
		slices.SortFunc(notMatching, func(a, b *podInfo) int { return strings.Compare(a.obj.Metadata.Name, b.obj.Metadata.Name) })
	}
	var errs []error
	for _, p := range notMatching {
		if _, err := m.claim(p.obj, match); err != nil {
			errs = append(errs, err)
		}
	}
	var adopted []*podInfo
	for _, p := range c.pods.orphansIn(ns) {
		if !p.active() {
			continue
		}
		ok, err := m.claim(p.obj, match)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			adopted = append(adopted, p)
		}
	}
	// claimed lists the Pods the ReplicaSet now owns and selects (the
	// adopted ones included); it is walked only when needed.
	claimedCount := counts.matching + len(adopted)
	var claimedList []*podInfo
	claimed := func() []*podInfo {
		if claimedList == nil {
			claimedList = make([]*podInfo, 0, claimedCount)
			for _, p := range c.pods.ownedBy(ns, "ReplicaSet", rs.Metadata.Name, uid) {
				if p.active() && match(p.obj) {
					claimedList = append(claimedList, p)
				}
			}
		}
		return claimedList
	}
	if v.minReadySeconds > 0 {
		claimed()
	}
	claimNote := m.bracketed()
	if len(errs) > 0 {
		err := aggregate(errs)
		rec.Reason = Reason{Code: "ClaimFailed", Func: fn + ", claimPods"}.
			Say("claiming Pods for %s failed (%v)", rec.Item, err)
		return err
	}

	var res manageResult
	var manageErr error
	switch {
	case rs.Metadata.DeletionTimestamp != nil:
		res = manageResult{code: "BeingDeleted", text: []Text{say("the ReplicaSet is being deleted, so Pods are neither created nor deleted")}}
	case !needsSync:
		res = manageResult{code: "ExpectationsPending", text: append(say1("not managing replicas: "), why...)}
	default:
		rec.Note("%s", English(why))
		res, manageErr = c.manageReplicas(claimedCount, claimed, v, key, rec)
	}

	// Status, computed from the Pods claimed before any create or delete.
	full, ready := counts.fullyLabeled, counts.ready
	tmplSel := labelsel.New(v.templateLabels, nil)
	for _, p := range adopted {
		if tmplSel.Matches(p.obj.Metadata.Labels) {
			full++
		}
		if p.ready {
			ready++
		}
	}
	avail := ready
	if v.minReadySeconds > 0 {
		avail = 0
		now := c.env.clock.Now()
		for _, p := range claimedList {
			if p.available(v.minReadySeconds, now) {
				avail++
			}
		}
	}
	newStatus := c.calculateStatus(v, claimedCount, full, ready, avail, manageErr)
	updated, statusNote, err := c.updateStatus(rs, newStatus)
	if statusNote != "" {
		rec.Note("%s", statusNote)
	}
	rec.Reason = Reason{Code: res.code, Func: fn + res.fn}.Say("%d Pods exist, %d wanted", claimedCount, v.replicas)
	rec.Reason.also(claimNote...)
	rec.Reason.and(": ")
	rec.Reason = rec.Reason.Saying(append(rec.Reason.Texts, res.text...)...)
	if err != nil {
		if manageErr == nil {
			rec.Reason.Code = "StatusUpdateFailed"
			rec.Reason.and("; updating its status failed")
		}
		return err
	}
	if manageErr == nil && updated != nil && v.minReadySeconds > 0 {
		// The next availability check: while some ready Pod is not yet
		// available, sync again when the first of them becomes available
		// (FindMinNextPodAvailabilityCheck), else after minReadySeconds.
		st := readRSStatus(updated)
		if st.ReadyReplicas != st.AvailableReplicas {
			mrs := time.Duration(v.minReadySeconds) * time.Second
			d := mrs
			clock := c.env.clock.Now()
			next, ok := nextAvailabilityCheck(claimedList, v.minReadySeconds, clock)
			if ok {
				d = next
			}
			c.q.AddAfter(key, d, now)
			c.quiet[key] = !availableBy(claimedList, v.minReadySeconds, clock, clock.Add(min(d, mrs)))
			if ok {
				rec.Note("%d of %d ready Pods available: synced again in %s, when the next becomes available (minReadySeconds %d)",
					st.AvailableReplicas, st.ReadyReplicas, d, v.minReadySeconds)
			} else {
				rec.Note("%d of %d ready Pods available (the others show no Ready time, so never become available): synced again after minReadySeconds %d",
					st.AvailableReplicas, st.ReadyReplicas, v.minReadySeconds)
			}
		}
	}
	return manageErr
}

// nextAvailabilityCheck is findMinNextPodAvailabilitySimpleCheck: the
// shortest wait until a ready Pod with a known Ready time has been ready
// for minReadySeconds; none when no Pod has such a wait ahead (a Pod ready
// without a lastTransitionTime never becomes available).
func nextAvailabilityCheck(pods []*podInfo, minReady int64, now time.Time) (time.Duration, bool) {
	var least time.Duration
	found := false
	for _, p := range pods {
		t := p.readyTime()
		if !p.ready || t.IsZero() {
			continue
		}
		if d := t.Add(time.Duration(minReady) * time.Second).Sub(now); d > 0 && (!found || d < least) {
			least, found = d, true
		}
	}
	return least, found
}

// availableBy reports whether one of the Pods, ready at now but not yet
// available, is available at the time at: whether a re-check then finds
// something new.
func availableBy(pods []*podInfo, minReady int64, now, at time.Time) bool {
	for _, p := range pods {
		if p.ready && !p.available(minReady, now) && p.available(minReady, at) {
			return true
		}
	}
	return false
}

// retriesCapped: the ReplicaSet controller's waits are its
// minReadySeconds re-checks and its failed syncs' retries; settle stops
// once every wait left is a quiet re-check (see quiet).
func (c *replicaSetController) retriesCapped() (pending, capped bool) {
	for _, wi := range c.q.Waiting() {
		if c.q.NumRequeues(wi.item) != 0 || !c.quiet[wi.item] {
			return true, false
		}
		pending = true
	}
	return pending, pending
}

// manageResult is what manageReplicas did, for the reason.
type manageResult struct {
	code, fn string
	text     []Text
}

// manageReplicas creates or deletes Pods to reach spec.replicas.
func (c *replicaSetController) manageReplicas(claimedCount int, claimed func() []*podInfo, v rsView, key string, rec *Record) (manageResult, error) {
	rs := v.obj
	diff := claimedCount - int(v.replicas)
	now := c.env.now()
	switch {
	case diff < 0:
		want := -diff
		n := min(want, burstReplicas)
		c.exp.expectCreations(key, n, now)
		batches, created, err := slowStartBatch(n, slowStartInitialBatchSize, func() error { return c.createPod(v) })
		if skipped := n - created; skipped > 0 {
			for range skipped {
				c.exp.creationObserved(key)
			}
			rec.Note("lowered the expected creations by %d: those Pods were not created", skipped)
		}
		text := []Text{say("created %d of %d in slow-start batches of %s", created, n, intsPhrase(batches))}
		if n < want {
			text = append(text, say(" (burstReplicas caps one sync at %d)", burstReplicas))
		}
		res := manageResult{code: "CreatedPods", text: text, fn: ", manageReplicas, slowStartBatch"}
		if err != nil {
			res.code = "CreateFailed"
			res.text = append(res.text, say("; the last batch failed (%v), so the rest wait for the retry", err))
		}
		return res, err
	case diff > 0:
		n := min(diff, burstReplicas)
		related := c.indirectlyRelatedPods(rs)
		victims, why := podsToDelete(claimed(), related, n, c.env.clock.Now())
		keys := make([]string, len(victims))
		for i, p := range victims {
			keys[i] = podKey(p.obj)
		}
		c.exp.expectDeletions(key, keys, now)
		var firstErr error
		var deleted []string
		for i, p := range victims {
			rec.Note("deleting %s: %s", p.obj, why[i])
			if err := c.deletePodNow(rs, p.obj); err != nil {
				c.exp.deletionObserved(key, keys[i])
				if !fakeapi.IsNotFound(err) && firstErr == nil {
					firstErr = err
				}
				continue
			}
			deleted = append(deleted, p.obj.String())
		}
		res := manageResult{code: "DeletedPods", fn: ", manageReplicas, getPodsToDelete",
			text: say1("deleted %s, ranked first for deletion", listPhrase(deleted))}
		if len(deleted) == 0 {
			res.text = []Text{say("deleted none")}
		}
		if firstErr != nil {
			res.code = "DeleteFailed"
			res.text = append(res.text, say("; a delete failed (%v)", firstErr))
		}
		return res, firstErr
	}
	return manageResult{code: "InSync", text: []Text{say("nothing to create or delete")}, fn: ", manageReplicas"}, nil
}

// slowStartBatch calls fn count times in batches of 1, 2, 4, ..., and
// stops after the first batch with a failure. Within a batch every call
// is made (upstream makes them concurrently). It returns the batch sizes
// tried, the successes and the first error.
func slowStartBatch(count, initial int, fn func() error) ([]int, int, error) {
	remaining, successes := count, 0
	var batches []int
	for size := min(remaining, initial); size > 0; size = min(2*size, remaining) {
		batches = append(batches, size)
		var first error
		for range size {
			if err := fn(); err != nil {
				if first == nil {
					first = err
				}
			} else {
				successes++
			}
		}
		if first != nil {
			return batches, successes, first
		}
		remaining -= size
	}
	return batches, successes, nil
}

func intsPhrase(ns []int) string {
	if len(ns) == 0 {
		return "0"
	}
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

// createPod is RealPodControl.CreatePods: a Pod from the template, named
// from generateName "<rs>-", controlled by the ReplicaSet, and an Event.
func (c *replicaSetController) createPod(v rsView) error {
	rs := v.obj
	meta := nestedMap(v.template, "metadata")
	labels := stringMap(meta["labels"])
	if len(labels) == 0 {
		return fmt.Errorf("unable to create pods, no labels")
	}
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		GenerateName:    rs.Metadata.Name + "-",
		Namespace:       rs.Metadata.Namespace,
		Labels:          labels,
		Annotations:     stringMap(meta["annotations"]),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(rs)},
	}}
	if fins, ok := meta["finalizers"].([]any); ok {
		for _, f := range fins {
			if s, ok := f.(string); ok {
				pod.Metadata.Finalizers = append(pod.Metadata.Finalizers, s)
			}
		}
	}
	if spec, ok := v.template["spec"]; ok {
		pod.Fields = fakeapi.FieldsOf(map[string]any{"spec": spec}) // the store copies it
	}
	out, err := c.env.api.Create(rsClient, pod)
	if err != nil {
		if namespaceTerminating(err) {
			return nil // every create would fail: nothing to do
		}
		c.event(rs, "Warning", "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	c.event(rs, "Normal", "SuccessfulCreate", "Created pod: "+out.Metadata.Name)
	return nil
}

func namespaceTerminating(err error) bool {
	return fakeapi.IsForbidden(err) && strings.Contains(err.Error(), "because it is being terminated")
}

// deletePodNow is RealPodControl.DeletePod: a DELETE with empty options
// (the Pod's own grace period, background) and an Event.
func (c *replicaSetController) deletePodNow(rs, pod *fakeapi.Object) error {
	_, err := c.env.api.Delete(rsClient, fakeapi.RefOf(pod), &fakeapi.DeleteOptions{})
	if err != nil {
		if fakeapi.IsNotFound(err) {
			return err
		}
		c.event(rs, "Warning", "FailedDelete", "Error deleting: "+err.Error())
		return fmt.Errorf("unable to delete pods: %v", err)
	}
	c.event(rs, "Normal", "SuccessfulDelete", "Deleted pod: "+pod.Metadata.Name)
	return nil
}

func (c *replicaSetController) event(o *fakeapi.Object, typ, reason, msg string) {
	c.env.recordEvent(rsClient, fakeapi.Event{Object: fakeapi.RefOf(o), ObjectUID: o.Metadata.UID, ObjectRV: o.Metadata.ResourceVersion,
		Type: typ, Reason: reason, Message: msg, Source: rsClient})
}

// indirectlyRelatedPods is getIndirectlyRelatedPods: the Pods selected by
// every ReplicaSet with the same controller as rs (rs alone when it has
// none), for the colocation rank.
func (c *replicaSetController) indirectlyRelatedPods(rs *fakeapi.Object) []*podInfo {
	related := []*fakeapi.Object{rs}
	if ref := controllerOf(rs); ref != nil {
		related = nil
		for _, o := range c.rsIn(rs.Metadata.Namespace) {
			if r := controllerOf(o); r != nil && r.UID == ref.UID {
				related = append(related, o)
			}
		}
	}
	seen := map[string]bool{}
	var out []*podInfo
	for _, r := range related {
		sel, err := parseSelector(specOf(r)["selector"])
		if err != nil {
			continue
		}
		// Only counts per node come out of this, so map order is harmless.
		for _, p := range c.pods.byKey {
			if p.obj.Metadata.Namespace != r.Metadata.Namespace || !sel.Matches(p.obj.Metadata.Labels) || seen[p.obj.Metadata.UID] {
				continue
			}
			seen[p.obj.Metadata.UID] = true
			out = append(out, p)
		}
	}
	return out
}

// podsToDelete is getPodsToDelete: the diff Pods ranked first by
// ActivePodsWithRanks, each with the rule that put it before the next
// Pod in the ranking.
func podsToDelete(claimed, related []*podInfo, diff int, now time.Time) ([]*podInfo, []string) {
	pods := slices.Clone(claimed)
	slices.SortFunc(pods, func(a, b *podInfo) int { return strings.Compare(a.obj.Metadata.Name, b.obj.Metadata.Name) })
	why := make([]string, diff)
	if diff >= len(pods) {
		for i := range why {
			why[i] = "every Pod goes"
		}
		return pods[:diff], why
	}
	onNode := map[string]int{}
	for _, p := range related {
		if p.active() {
			onNode[p.node()]++
		}
	}
	rank := make(map[*podInfo]int, len(pods))
	for _, p := range pods {
		rank[p] = onNode[p.node()]
	}
	slices.SortStableFunc(pods, func(a, b *podInfo) int {
		c, _ := compareForDeletion(a, b, rank[a], rank[b], now)
		return c
	})
	for i := range diff {
		next := pods[i+1]
		c, rule := compareForDeletion(pods[i], next, rank[pods[i]], rank[next], now)
		if c == 0 {
			rule = "ranks equal to"
		}
		what := "ranked before " + next.obj.String()
		if i+1 == diff {
			what += ", the first Pod kept"
		}
		why[i] = what + ": " + rule
	}
	return pods[:diff], why
}

var podPhaseOrdinal = map[string]int{podPending: 0, podUnknown: 1, podRunning: 2}

// compareForDeletion is ActivePodsWithRanks.Less as a comparison: -1 when
// a should be deleted before b, with the rule that decided.
func compareForDeletion(a, b *podInfo, rankA, rankB int, now time.Time) (int, string) {
	order := func(aFirst bool, rule string) (int, string) {
		if aFirst {
			return -1, rule
		}
		return 1, rule
	}
	// 1. Unassigned before assigned.
	if na, nb := a.node(), b.node(); na != nb && (na == "" || nb == "") {
		return order(na == "", "unassigned before assigned")
	}
	// 2. Pending before Unknown before Running.
	if pa, pb := podPhaseOrdinal[a.phase()], podPhaseOrdinal[b.phase()]; pa != pb {
		return order(pa < pb, "Pending before Unknown before Running")
	}
	// 3. Not ready before ready.
	if a.ready != b.ready {
		return order(!a.ready, "not ready before ready")
	}
	// 4. Lower pod-deletion-cost first.
	if a.cost != b.cost {
		return order(a.cost < b.cost, "lower "+podDeletionCostAnnotation+" first")
	}
	// 5. More active Pods of the same owner on its node first.
	if rankA != rankB {
		return order(rankA > rankB, "more Pods of the same owner on its node first")
	}
	// 6. Ready for less time first, on a logarithmic scale.
	if ta, tb := a.readyTime(), b.readyTime(); a.ready && b.ready && !ta.Equal(tb) {
		return logOrder(a, b, ta, tb, now, "ready for less time first")
	}
	// 7. More container restarts first: of a regular container, then, on
	// a tie, of a sidecar (compareMaxContainerRestarts).
	if a.restarts != b.restarts {
		return order(a.restarts > b.restarts, "more container restarts first")
	}
	if sa, sb := sidecarRestarts(a.obj), sidecarRestarts(b.obj); sa != sb {
		return order(sa > sb, "more sidecar container restarts first")
	}
	// 8. Newer first, on a logarithmic scale.
	ca, cb := creationTime(a.obj), creationTime(b.obj)
	if !ca.Equal(cb) {
		return logOrder(a, b, ca, cb, now, "newer first")
	}
	return 0, ""
}

func creationTime(o *fakeapi.Object) time.Time {
	if o.Metadata.CreationTimestamp == nil {
		return time.Time{}
	}
	return o.Metadata.CreationTimestamp.Time
}

// logOrder compares two times as LogarithmicScaleDown does: by the log2
// of their age at now, then by UID (a pseudo-random order among Pods of
// the same age bucket). A zero time comes first.
func logOrder(a, b *podInfo, ta, tb, now time.Time, rule string) (int, string) {
	if ta.IsZero() || tb.IsZero() {
		if ta.IsZero() {
			return -1, rule
		}
		return 1, rule
	}
	bucket := func(t time.Time) int64 {
		if d := now.Sub(t); d > 0 {
			return int64(math.Log2(float64(d)))
		}
		return -1
	}
	if ra, rb := bucket(ta), bucket(tb); ra != rb {
		if ra < rb {
			return -1, rule
		}
		return 1, rule
	}
	rule += " (same log2 age bucket: by UID)"
	switch {
	case a.obj.Metadata.UID < b.obj.Metadata.UID:
		return -1, rule
	case a.obj.Metadata.UID > b.obj.Metadata.UID:
		return 1, rule
	}
	return 0, ""
}

// calculateStatus sets the counts of the claimed Pods, and sets or clears
// the ReplicaFailure condition from the manageReplicas error.
func (c *replicaSetController) calculateStatus(v rsView, claimed, full, ready, avail int, manageErr error) rsStatus {
	st := readRSStatus(v.obj)
	idx := slices.IndexFunc(st.Conditions, func(c rsCondition) bool { return c.Type == "ReplicaFailure" })
	switch {
	case manageErr != nil && idx < 0:
		reason := ""
		if diff := claimed - int(v.replicas); diff < 0 {
			reason = "FailedCreate"
		} else if diff > 0 {
			reason = "FailedDelete"
		}
		st.Conditions = append(slices.Clone(st.Conditions), rsCondition{Type: "ReplicaFailure", Status: "True",
			LastTransitionTime: c.env.vtime(), Reason: reason, Message: manageErr.Error()})
	case manageErr == nil && idx >= 0:
		st.Conditions = slices.Delete(slices.Clone(st.Conditions), idx, idx+1)
	}
	st.Replicas, st.FullyLabeledReplicas, st.ReadyReplicas, st.AvailableReplicas = int64(claimed), int64(full), int64(ready), int64(avail)
	return st
}

// updateStatus is updateReplicaSetStatus: nothing when the counts,
// conditions and observedGeneration are current; otherwise an update,
// retried once after a fresh GET.
func (c *replicaSetController) updateStatus(rs *fakeapi.Object, st rsStatus) (*fakeapi.Object, string, error) {
	old := readRSStatus(rs)
	gen := rs.Metadata.Generation
	if old.Replicas == st.Replicas && old.FullyLabeledReplicas == st.FullyLabeledReplicas &&
		old.ReadyReplicas == st.ReadyReplicas && old.AvailableReplicas == st.AvailableReplicas &&
		old.ObservedGeneration == gen && reflect.DeepEqual(old.Conditions, st.Conditions) {
		return rs, "", nil
	}
	st.ObservedGeneration = gen
	note := fmt.Sprintf("status: replicas %d, readyReplicas %d, availableReplicas %d, observedGeneration %d",
		st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.ObservedGeneration)
	cur := rs
	for i := 0; ; i++ {
		next := cur.DeepCopy()
		next.Fields.Set("status", st.jsonValue())
		out, err := c.env.api.Update(rsClient, next)
		if err == nil {
			return out, note, nil
		}
		if i >= statusUpdateRetries {
			return nil, note + " (update failed)", err
		}
		fresh, gerr := c.env.api.Get(rsClient, fakeapi.RefOf(rs))
		if gerr != nil {
			return nil, note + " (update failed)", gerr
		}
		cur = fresh
	}
}
