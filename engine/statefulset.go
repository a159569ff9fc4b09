package engine

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/jsoneq"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// Settings and names of kube-controller-manager's StatefulSet controller
// (pkg/controller/statefulset, v1.34).
const (
	stsClient = "statefulset-controller"
	// ControllerStatefulSet is the StatefulSet controller's name in
	// `controllers:`.
	ControllerStatefulSet = "statefulset"

	// stsRevisionLabel is apps.StatefulSetRevisionLabel (and
	// ControllerRevisionHashLabelKey): the revision a Pod was made from.
	stsRevisionLabel = "controller-revision-hash"
	// stsPodNameLabel and podIndexLabel are updateIdentity's labels.
	stsPodNameLabel = "statefulset.kubernetes.io/pod-name"
	podIndexLabel   = "apps.kubernetes.io/pod-index"
	// revisionHashLabel is history.ControllerRevisionHashLabel.
	revisionHashLabel = "controller.kubernetes.io/hash"
)

var statefulSetRegistration = registration{
	name:        ControllerStatefulSet,
	queues:      []string{ControllerStatefulSet},
	restartable: true,
	new:         newStatefulSetController,
}

const stsFuncPrefix = "StatefulSetController."

// statefulSetController is kube-controller-manager's StatefulSet
// controller, made steppable: one step is one sync of one StatefulSet key
// (StatefulSetController.sync, then defaultStatefulSetControl's
// UpdateStatefulSet).
//
// gcplay simplifies (docs/CONTROLLERS.md says more): there is no maxUnavailable for rolling updates,
// no spec.ordinals.start, and no PersistentVolume binding (a claim is
// Pending forever and nothing protects it while a Pod uses it).
type statefulSetController struct {
	env    *env
	q      *workqueue[string]
	sets   map[string]*fakeapi.Object
	pods   *podIndex // the shared Pod informer's cache (env.pods)
	claims map[string]*fakeapi.Object
	revs   map[string]*fakeapi.Object
	// quiet holds the sets re-checked after minReadySeconds with no Pod
	// ready and waiting to become available: a re-check that will find
	// what the last sync found, which settle does not wait for.
	quiet map[string]bool
}

func newStatefulSetController(e *env) controller {
	c := &statefulSetController{env: e}
	c.reset()
	return c
}

func (c *statefulSetController) reset() {
	c.setQueue(newWorkqueue[string](ControllerStatefulSet))
	c.sets = map[string]*fakeapi.Object{}
	c.pods = c.env.podInformer()
	c.claims = map[string]*fakeapi.Object{}
	c.revs = map[string]*fakeapi.Object{}
	c.quiet = map[string]bool{}
}

func (c *statefulSetController) setQueue(q *workqueue[string]) {
	c.q = q
	q.onAdd = func(key string, d time.Duration) {
		c.env.enqueued(ControllerStatefulSet, keyRef("StatefulSet", key), d)
	}
}

// ---- event handlers ----

func (c *statefulSetController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	switch {
	case isKind(o, "apps/v1", "StatefulSet"):
		key := objKey(o)
		if ev.Type == fakeapi.Deleted {
			delete(c.sets, key)
		} else {
			c.sets[key] = o
		}
		c.q.Add(key)
	case isKind(o, "v1", "Pod"):
		switch ev.Type {
		case fakeapi.Deleted:
			c.deletePod(o)
		case fakeapi.Modified:
			c.updatePod(ev.Old, o)
		default:
			c.addPod(o)
		}
	case isKind(o, "v1", "PersistentVolumeClaim"):
		key := objKey(o)
		if ev.Type == fakeapi.Deleted {
			delete(c.claims, key)
		} else {
			c.claims[key] = o
		}
	case isKind(o, "apps/v1", "ControllerRevision"):
		key := objKey(o)
		if ev.Type == fakeapi.Deleted {
			delete(c.revs, key)
		} else {
			c.revs[key] = o
		}
	}
}

// addPod: a Pod that is already terminating is handled as deleted;
// otherwise enqueueForPod.
func (c *statefulSetController) addPod(pod *fakeapi.Object) {
	if pod.Metadata.DeletionTimestamp != nil {
		c.deletePod(pod)
		return
	}
	c.enqueueForPod(pod)
}

// deletePod wakes the set the Pod's controller reference names; a deleted
// orphan wakes no one.
func (c *statefulSetController) deletePod(pod *fakeapi.Object) {
	if set := c.resolveControllerRef(pod.Metadata.Namespace, controllerOf(pod)); set != nil {
		c.q.Add(objKey(set))
	}
}

// enqueueForPod is addPod's: the set the Pod's controller reference
// names, or, for an orphan, every set whose selector matches it.
func (c *statefulSetController) enqueueForPod(pod *fakeapi.Object) {
	if ref := controllerOf(pod); ref != nil {
		if set := c.resolveControllerRef(pod.Metadata.Namespace, ref); set != nil {
			c.q.Add(objKey(set))
		}
		return
	}
	for _, set := range c.setsForPod(pod) {
		c.q.Add(objKey(set))
	}
}

// updatePod is updatePod: nothing for an update that is no new version
// (the same resourceVersion); the old controller when the controller
// reference changed; then the set that controls the Pod, and, for a Pod
// that just became Ready, that set again after minReadySeconds + 1s; an
// orphan wakes the sets that select it only when its labels or its
// controller reference changed.
func (c *statefulSetController) updatePod(old, cur *fakeapi.Object) {
	if old == nil {
		c.enqueueForPod(cur)
		return
	}
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return
	}
	labelChanged := !reflect.DeepEqual(old.Metadata.Labels, cur.Metadata.Labels)
	oldRef, curRef := controllerOf(old), controllerOf(cur)
	refChanged := !sameControllerRef(oldRef, curRef)
	if refChanged && oldRef != nil {
		if set := c.resolveControllerRef(old.Metadata.Namespace, oldRef); set != nil {
			c.q.Add(objKey(set))
		}
	}
	if curRef != nil {
		set := c.resolveControllerRef(cur.Metadata.Namespace, curRef)
		if set == nil {
			return
		}
		c.q.Add(objKey(set))
		if minReady, _ := nestedInt(specOf(set), "minReadySeconds"); minReady > 0 && !isPodReady(old) && isPodReady(cur) {
			c.q.AddAfter(objKey(set), time.Duration(minReady)*time.Second+time.Second, c.env.now())
			delete(c.quiet, objKey(set))
		}
		return
	}
	if labelChanged || refChanged {
		for _, set := range c.setsForPod(cur) {
			c.q.Add(objKey(set))
		}
	}
}

func (c *statefulSetController) resolveControllerRef(namespace string, ref *fakeapi.OwnerReference) *fakeapi.Object {
	if ref == nil || ref.Kind != "StatefulSet" {
		return nil
	}
	set := c.sets[namespace+"/"+ref.Name]
	if set == nil || set.Metadata.UID != ref.UID {
		return nil
	}
	return set
}

// setsForPod is getPodStatefulSets: the sets in the Pod's namespace whose
// selector matches its labels.
func (c *statefulSetController) setsForPod(pod *fakeapi.Object) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, k := range sortedKeys(c.sets) {
		set := c.sets[k]
		if set.Metadata.Namespace != pod.Metadata.Namespace {
			continue
		}
		sel, err := parseSelector(nestedMap(specOf(set), "selector"))
		if err != nil || sel.Empty() || !sel.Matches(pod.Metadata.Labels) {
			continue
		}
		out = append(out, set)
	}
	return out
}

// ---- the scheduler's side ----

func (c *statefulSetController) promote(now time.Duration) { c.q.Promote(now) }

func (c *statefulSetController) ready(string) bool              { return c.q.Len() > 0 }
func (c *statefulSetController) nextDue() (time.Duration, bool) { return c.q.NextDue() }

// retriesCapped: a set whose sync keeps failing (a Pod of its name that it
// does not own blocks a create) is retried forever, as upstream's
// rate-limited queue does; settle stops once every wait is at the maximum
// backoff, or is a quiet minReadySeconds re-check.
func (c *statefulSetController) retriesCapped() (pending, capped bool) {
	atMax := func(n int) bool { return n > 0 && float64(backoffBase)*pow2(n-1) >= float64(backoffMax) }
	for _, wi := range c.q.Waiting() {
		n := c.q.NumRequeues(wi.item)
		if !atMax(n) && !(n == 0 && c.quiet[wi.item]) {
			return true, false
		}
		pending = true
	}
	return pending, pending
}

func (c *statefulSetController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "StatefulSet")}
}

func (c *statefulSetController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "statefulset: sync " + keyRef("StatefulSet", items[0])
	}
	return ""
}

func (c *statefulSetController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("StatefulSet", key)
	if err := c.sync(key, rec); err != nil {
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; retried in %s", d)
		return
	}
	c.q.Forget(key)
}

func (c *statefulSetController) restart(rec *Record) {
	c.reset()
	relist(c.env, stsClient, rec, c.observe, [][2]string{{"apps/v1", "StatefulSet"}, {"v1", "Pod"},
		{"v1", "PersistentVolumeClaim"}, {"apps/v1", "ControllerRevision"}})
}

func (c *statefulSetController) clone(e *env) controller {
	cp := func(m map[string]*fakeapi.Object) map[string]*fakeapi.Object {
		n := make(map[string]*fakeapi.Object, len(m))
		for k, v := range m {
			n[k] = v
		}
		return n
	}
	n := &statefulSetController{env: e, sets: cp(c.sets), pods: e.podInformer(), claims: cp(c.claims), revs: cp(c.revs),
		quiet: make(map[string]bool, len(c.quiet))}
	for k, v := range c.quiet {
		n.quiet[k] = v
	}
	id := func(s string) string { return s }
	n.setQueue(c.q.clone(id))
	return n
}

func (c *statefulSetController) event(o *fakeapi.Object, typ, reason, msg string) {
	c.env.recordEvent(stsClient, fakeapi.Event{Object: fakeapi.RefOf(o), ObjectUID: o.Metadata.UID, ObjectRV: o.Metadata.ResourceVersion,
		Type: typ, Reason: reason, Message: msg, Source: stsClient})
}

// ---- reading a set ----

// stsView is a StatefulSet's spec read with the apps/v1 defaults.
type stsView struct {
	obj             *fakeapi.Object
	replicas        int
	parallel        bool
	onDelete        bool
	partition       int
	historyLimit    int
	minReadySeconds int64
	selector        labelsel.Selector
	template        map[string]any
	claimTemplates  []map[string]any
	whenDeleted     string
	whenScaled      string
	serviceName     string
	deleting        bool
}

func readStatefulSet(o *fakeapi.Object) (stsView, error) {
	spec := specOf(o)
	v := stsView{obj: o, replicas: 1, historyLimit: 10, whenDeleted: "Retain", whenScaled: "Retain",
		deleting: o.Metadata.DeletionTimestamp != nil}
	if n, ok := nestedInt(spec, "replicas"); ok {
		v.replicas = int(n)
	}
	v.parallel = nestedString(spec, "podManagementPolicy") == "Parallel"
	v.onDelete = nestedString(spec, "updateStrategy", "type") == "OnDelete"
	if n, ok := nestedInt(spec, "updateStrategy", "rollingUpdate", "partition"); ok {
		v.partition = int(n)
	}
	if n, ok := nestedInt(spec, "revisionHistoryLimit"); ok {
		v.historyLimit = int(n)
	}
	v.minReadySeconds, _ = nestedInt(spec, "minReadySeconds")
	v.serviceName = nestedString(spec, "serviceName")
	if s := nestedString(spec, "persistentVolumeClaimRetentionPolicy", "whenDeleted"); s != "" {
		v.whenDeleted = s
	}
	if s := nestedString(spec, "persistentVolumeClaimRetentionPolicy", "whenScaled"); s != "" {
		v.whenScaled = s
	}
	v.template = nestedMap(spec, "template")
	if ts, ok := nestedSlice(spec, "volumeClaimTemplates"); ok {
		for _, t := range ts {
			if m, ok := t.(map[string]any); ok {
				v.claimTemplates = append(v.claimTemplates, m)
			}
		}
	}
	sel, err := templateSelector("StatefulSet", spec, v.template)
	if err != nil {
		return v, err
	}
	v.selector = sel
	return v, nil
}

// splitOrdinalName is the match of upstream's statefulPodRegex,
// "(.*)-([0-9]+)$", written out: it returns the two groups. The greedy
// (.*) ends at the last '-', the only one the digits can follow to the
// end; '.' takes any character but a newline, so the leftmost match
// starts after the last newline before that '-'.
// TestSplitOrdinalNameIsTheRegexp holds it to the regexp.
func splitOrdinalName(name string) (parent, ordinal string, ok bool) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return "", "", false
	}
	for j := i + 1; j < len(name); j++ {
		if name[j] < '0' || name[j] > '9' {
			return "", "", false
		}
	}
	start := strings.LastIndexByte(name[:i], '\n') + 1
	return name[start:i], name[i+1:], true
}

// getParentNameAndOrdinal: a Pod named <set>-<n> has parent <set> and
// ordinal n when n fits in 32 bits (upstream parses it so), else ordinal
// -1 with the parent kept; any other name has no parent and ordinal -1.
func getParentNameAndOrdinal(pod *fakeapi.Object) (string, int) {
	parent, ordinal, ok := splitOrdinalName(pod.Metadata.Name)
	if !ok {
		return "", -1
	}
	n, err := strconv.ParseInt(ordinal, 10, 32)
	if err != nil {
		return parent, -1
	}
	return parent, int(n)
}

func getOrdinal(pod *fakeapi.Object) int { _, n := getParentNameAndOrdinal(pod); return n }

// isMemberOf: the Pod's name says it belongs to the set.
func isMemberOf(set, pod *fakeapi.Object) bool {
	p, _ := getParentNameAndOrdinal(pod)
	return p == set.Metadata.Name
}

func podInOrdinalRange(pod *fakeapi.Object, v stsView) bool {
	n := getOrdinal(pod)
	return n >= 0 && n < v.replicas
}

// claimName is getPersistentVolumeClaimName: <template>-<set>-<ordinal>.
func claimName(v stsView, tmpl map[string]any, ordinal int) string {
	return fmt.Sprintf("%s-%s-%d", nestedString(tmpl, "metadata", "name"), v.obj.Metadata.Name, ordinal)
}

func (v stsView) policyPhrase() string {
	return "whenDeleted: " + v.whenDeleted + ", whenScaled: " + v.whenScaled
}

// stsPod is one slot of the set: a Pod from the cache, or one to create.
type stsPod struct {
	obj     *fakeapi.Object
	created bool
}

// isRunningAndReady, isTerminating, isUnavailable, isFailed/isSucceeded as
// upstream's stateful_set_utils.go.
func isRunningAndReady(p *fakeapi.Object) bool {
	i := newPodInfo(p)
	return i.phase() == "Running" && i.ready
}

// isRunningAndAvailable is podutil.IsPodAvailable despite its name: Ready
// (whatever the phase) for minReadySeconds, and never available under a
// minReadySeconds when the Ready condition has no lastTransitionTime.
func (c *statefulSetController) isRunningAndAvailable(p *fakeapi.Object, minReady int64) bool {
	return newPodInfo(p).available(minReady, c.env.clock.Now())
}

func isTerminatingPod(p *fakeapi.Object) bool { return p.Metadata.DeletionTimestamp != nil }

// isUnavailable: not Running, Ready and available for minReadySeconds, or
// terminating.
func (c *statefulSetController) isUnavailable(p *fakeapi.Object, minReady int64) bool {
	return !c.isRunningAndAvailable(p, minReady) || isTerminatingPod(p)
}

// ---- revisions ----

// revisionData is getPatch: the pod template, to be restored with a
// replace.
func revisionData(v stsView) map[string]any {
	t := copyJSONMap(v.template)
	t["$patch"] = "replace"
	return map[string]any{"spec": map[string]any{"template": t}}
}

func revisionNumber(r *fakeapi.Object) int64 { n, _ := nestedInt(r.Fields.Get("revision")); return n }

// ownedRevisions is adoptOrphanRevisions, then ListRevisions: the
// ControllerRevisions of the set's namespace that its selector matches and
// that it controls or nobody does, by revision number. Unlike the claim
// of Pods (ClaimObject), it releases nothing, and it adopts every orphan
// it lists, terminating or not, whether or not the set is being deleted:
// a live recheck (its own, not the Pod claim's) that finds the set being
// deleted or replaced fails the sync instead.
func (c *statefulSetController) ownedRevisions(v stsView, m *refManager) ([]*fakeapi.Object, error) {
	var out, orphans []*fakeapi.Object
	for _, k := range sortedKeys(c.revs) {
		r := c.revs[k]
		if r.Metadata.Namespace != v.obj.Metadata.Namespace || !v.selector.Matches(r.Metadata.Labels) {
			continue
		}
		switch ref := controllerOf(r); {
		case ref == nil:
			orphans = append(orphans, r)
			out = append(out, r)
		case ref.UID == v.obj.Metadata.UID:
			out = append(out, r)
		}
	}
	if len(orphans) > 0 {
		if err := recheckDeletionTimestamp(c.env, stsClient, v.obj)(); err != nil {
			return nil, fmt.Errorf("can't adopt ControllerRevisions: %v", err)
		}
		for _, r := range orphans {
			// AdoptControllerRevision: a NotFound is an error too.
			if err := m.patchAdopt(r); err != nil {
				return nil, err
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *fakeapi.Object) int {
		return int(revisionNumber(a) - revisionNumber(b))
	})
	return out, nil
}

// getStatefulSetRevisions returns the current and update revisions,
// creating the update revision (or renumbering an equal older one) when
// the template changed.
func (c *statefulSetController) getStatefulSetRevisions(v stsView, revs []*fakeapi.Object, collision *int64, rec *Record) (cur, upd *fakeapi.Object, err error) {
	data := revisionData(v)
	next := int64(1)
	if len(revs) > 0 {
		next = revisionNumber(revs[len(revs)-1]) + 1
	}
	var equal *fakeapi.Object
	for i := len(revs) - 1; i >= 0; i-- {
		if jsoneq.Equal(toJSONValue(revs[i].Fields.Get("data")), toJSONValue(data)) {
			equal = revs[i]
			break
		}
	}
	switch {
	case equal != nil && equal == revs[len(revs)-1]:
		upd = equal
	case equal != nil:
		fresh := equal.DeepCopy()
		fresh.Fields.Set("revision", next)
		upd, err = c.env.api.Update(stsClient, fresh)
		if err != nil {
			return nil, nil, err
		}
		rec.Note("%s has the template again: renumbered revision %d", fakeapi.RefOf(equal), next)
	default:
		upd, err = c.createControllerRevision(v, data, next, collision)
		if err != nil {
			return nil, nil, err
		}
		rec.Note("created %s, revision %d, for the current pod template", fakeapi.RefOf(upd), next)
	}
	curName := nestedString(v.obj.Fields, "status", "currentRevision")
	cur = upd
	for _, r := range revs {
		if r.Metadata.Name == curName {
			cur = r
		}
	}
	return cur, upd, nil
}

// createControllerRevision is newRevision's NewControllerRevision and
// realHistory.CreateControllerRevision: the revision <set>-<hash> with the
// template's labels plus controller.kubernetes.io/hash, the set's
// annotations and the set as controller. A name already taken by a
// revision of the same data is that revision; taken by other data, the
// collision count goes up by one and the name is hashed again. The label
// keeps the first hash, as upstream's clone does.
func (c *statefulSetController) createControllerRevision(v stsView, data map[string]any, revision int64, collision *int64) (*fakeapi.Object, error) {
	raw, _ := json.Marshal(data)
	labels := stringMap(nestedMap(v.template, "metadata")["labels"])
	if labels == nil {
		labels = map[string]string{}
	}
	labels[revisionHashLabel] = hashControllerRevision(raw, *collision)
	for {
		cr := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ControllerRevision", Metadata: fakeapi.ObjectMeta{
			Name:      controllerRevisionName(v.obj.Metadata.Name, hashControllerRevision(raw, *collision)),
			Namespace: v.obj.Metadata.Namespace, Labels: copyStringMap(labels),
			Annotations:     copyStringMap(v.obj.Metadata.Annotations),
			OwnerReferences: []fakeapi.OwnerReference{newControllerRef(v.obj)},
		}, Fields: fakeapi.FieldsOf(map[string]any{"data": data, "revision": revision})}
		out, err := c.env.api.Create(stsClient, cr)
		if !fakeapi.IsAlreadyExists(err) {
			return out, err
		}
		existing, err := c.env.api.Get(stsClient, fakeapi.RefOf(cr))
		if err != nil {
			return nil, err
		}
		if b, _ := json.Marshal(toJSONValue(existing.Fields.Get("data"))); string(b) == string(raw) {
			return existing, nil
		}
		*collision++
	}
}

// hashControllerRevision is history.HashControllerRevision: FNV-32 (not
// the 32a of the pod-template hash) over the revision's data, the bytes
// getPatch writes (encoding/json of the template as maps, so keys sorted),
// then the collision count in decimal (getStatefulSetRevisions always
// passes one, 0 when the status has none), the sum in decimal through
// rand.SafeEncodeString.
func hashControllerRevision(data []byte, collision int64) string {
	h := fnv.New32()
	h.Write(data)
	h.Write([]byte(strconv.FormatInt(int64(int32(collision)), 10)))
	dec := strconv.FormatUint(uint64(h.Sum32()), 10)
	out := make([]byte, len(dec))
	for i := range dec {
		out[i] = safeEncoding[int(dec[i])%len(safeEncoding)]
	}
	return string(out)
}

// controllerRevisionName is history.ControllerRevisionName: the parent's
// name, cut to 223 bytes, a dash and the hash.
func controllerRevisionName(prefix, hash string) string {
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return prefix + "-" + hash
}

// truncateHistory deletes the oldest revisions no live Pod uses beyond
// revisionHistoryLimit, never the current or update revision.
// A negative limit keeps every revision.
func (c *statefulSetController) truncateHistory(v stsView, pods []*fakeapi.Object, revs []*fakeapi.Object, cur, upd *fakeapi.Object, rec *Record) error {
	if v.historyLimit < 0 {
		return nil
	}
	live := map[string]bool{}
	for _, r := range []*fakeapi.Object{cur, upd} {
		if r != nil {
			live[r.Metadata.Name] = true
		}
	}
	for _, p := range pods {
		live[p.Metadata.Labels[stsRevisionLabel]] = true
	}
	var history []*fakeapi.Object
	for _, r := range revs {
		if !live[r.Metadata.Name] {
			history = append(history, r)
		}
	}
	for i := 0; i < len(history)-v.historyLimit; i++ {
		if _, err := c.env.api.Delete(stsClient, fakeapi.RefOf(history[i]), nil); err != nil && !fakeapi.IsNotFound(err) {
			return err
		}
		rec.Note("deleted %s: beyond revisionHistoryLimit %d", fakeapi.RefOf(history[i]), v.historyLimit)
	}
	return nil
}

func copyStringMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	n := make(map[string]string, len(m))
	for k, v := range m {
		n[k] = v
	}
	return n
}

// ---- the sync ----

// sync is StatefulSetController.sync: claim the Pods, then
// UpdateStatefulSet, then the status.
func (c *statefulSetController) sync(key string, rec *Record) error {
	const fn = stsFuncPrefix + "sync"
	obj := c.sets[key]
	if obj == nil {
		rec.Reason = Reason{Code: "StatefulSetGone", Func: fn}.Say("%s has been deleted: nothing to do", rec.Item)
		return nil
	}
	v, err := readStatefulSet(obj)
	if err != nil {
		rec.Reason = Reason{Code: "InvalidSpec", Func: fn}.Say("%s is invalid (%v): the apiserver would have refused it", rec.Item, err)
		return nil
	}
	m := &refManager{env: c.env, client: stsClient, owner: obj, selector: v.selector, rec: rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, stsClient, obj)}
	revs, err := c.ownedRevisions(v, m)
	if err != nil {
		rec.Reason = Reason{Code: "ClaimFailed", Func: fn + ", adoptOrphanRevisions"}.Say("adopting ControllerRevisions failed: %s", err.Error())
		return err
	}
	// getPodsForStatefulSet: claim by selector and by name, among the
	// Pods FilterPodsByOwner gives: those whose controller reference
	// names the set by kind, name and UID, and the orphans.
	var pods []*fakeapi.Object
	var errs []error
	for _, k := range sortedKeys(c.pods.byKey) {
		p := c.pods.byKey[k].obj
		if p.Metadata.Namespace != obj.Metadata.Namespace {
			continue
		}
		if ref := controllerOf(p); ref != nil && !(ref.UID == obj.Metadata.UID && refNames(ref, "StatefulSet", obj.Metadata.Name)) {
			continue
		}
		ok, err := m.claim(p, func(o *fakeapi.Object) bool {
			return isMemberOf(obj, o) && v.selector.Matches(o.Metadata.Labels)
		})
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			pods = append(pods, p)
		}
	}
	if err := aggregate(errs); err != nil {
		rec.Reason = Reason{Code: "ClaimFailed", Func: fn + ", getPodsForStatefulSet"}.Say("claiming Pods failed: %s", err.Error())
		return err
	}
	s := &stsSync{c: c, v: v, rec: rec}
	s.funcs = []string{fn, "defaultStatefulSetControl.UpdateStatefulSet"}
	err = s.updateStatefulSet(pods, revs)
	if claimed := m.summary(); claimed != "" {
		rec.Note("claim: %s", claimed)
	}
	// updateStatefulSetStatus runs whether or not the update failed, then
	// UpdateStatefulSet's truncateHistory, whether or not either failed.
	if serr := s.writeStatus(); err == nil {
		err = serr
	}
	if terr := c.truncateHistory(v, pods, revs, s.cur, s.upd, rec); terr != nil {
		if err == nil {
			err = terr
		} else {
			err = aggregate([]error{err, terr})
		}
	}
	delete(c.quiet, key)
	// syncStatefulSet: one more sync after minReadySeconds while fewer
	// Pods are available than wanted, for the Pods that become available
	// with time alone (no event says so).
	if err == nil && s.cur != nil && v.minReadySeconds > 0 && s.status.AvailableReplicas != int64(v.replicas) {
		d := time.Duration(v.minReadySeconds) * time.Second
		c.q.AddAfter(key, d, c.env.now())
		c.quiet[key] = !c.availableBy(pods, v.minReadySeconds, c.env.clock.Now().Add(d))
		rec.Note("%d of %d wanted available: synced again in %s (minReadySeconds)", s.status.AvailableReplicas, v.replicas, d)
	}
	if rec.Reason.Code == "" {
		rec.Reason.Code = s.code
	}
	rec.Reason.Func = strings.Join(s.funcs, ", ")
	rec.Reason = rec.Reason.Saying(append([]Text{say("%s: ", rec.Item)}, s.message()...)...)
	return err
}

// availableBy reports whether one of the Pods is Ready but not yet
// available and becomes available by the time at: whether a re-check
// then finds something new. (A Pod whose Ready time lies ahead of the
// clock becomes available only that much later: settle does not wait for
// it.)
func (c *statefulSetController) availableBy(pods []*fakeapi.Object, minReady int64, at time.Time) bool {
	now := c.env.clock.Now()
	for _, p := range pods {
		i := newPodInfo(p)
		if i.ready && !i.available(minReady, now) && i.available(minReady, at) {
			return true
		}
	}
	return false
}

// stsSync is one sync of one set: what it did, for the record.
type stsSync struct {
	c      *statefulSetController
	v      stsView
	rec    *Record
	funcs  []string
	code   string
	did    []Text
	wait   []Text
	status stsStatus
	cur    *fakeapi.Object
	upd    *fakeapi.Object
	// collision is the collision count getStatefulSetRevisions used.
	collision int64
	// deletedForUpdate: the rolling update deleted a Pod, which the
	// status then takes out of currentReplicas at once.
	deletedForUpdate bool
}

func (s *stsSync) fn(name string) {
	if !slices.Contains(s.funcs, name) {
		s.funcs = append(s.funcs, name)
	}
}

func (s *stsSync) act(code, format string, args ...any) {
	s.actText(code, say(format, args...))
}

// actText is act with the thing done already a sentence.
func (s *stsSync) actText(code string, t Text) {
	if s.code == "" || s.code == "InSync" || s.code == "Waiting" || (s.code == "CreatedClaim" && code == "CreatedPod") {
		s.code = code
	}
	s.did = append(s.did, t)
}

func (s *stsSync) waitFor(format string, args ...any) {
	if s.code == "" {
		s.code = "Waiting"
	}
	s.wait = say1(format, args...)
}

func (s *stsSync) message() []Text {
	var parts []Text
	parts = append(parts, say("%d ready of %d wanted (%s, %s)", s.status.ReadyReplicas, s.v.replicas,
		map[bool]string{true: "Parallel", false: "OrderedReady"}[s.v.parallel], s.v.policyPhrase()))
	out := joinTexts(append(parts, s.did...), "; ")
	switch {
	case s.wait != nil:
		out = append(append(out, Text{Form: "; "}, say("waiting: ")), s.wait...)
	case len(s.did) == 0:
		out = append(out, Text{Form: "; "}, say("nothing to do"))
	}
	return out
}

// updateStatefulSet is defaultStatefulSetControl.updateStatefulSet.
func (s *stsSync) updateStatefulSet(pods []*fakeapi.Object, revs []*fakeapi.Object) error {
	c, v := s.c, s.v
	s.fn("getStatefulSetRevisions")
	// A local copy of the status's collision count, which the status
	// then carries (0 when there was none).
	s.collision, _ = nestedInt(v.obj.Fields, "status", "collisionCount")
	cur, upd, err := c.getStatefulSetRevisions(v, revs, &s.collision, s.rec)
	if err != nil {
		s.code = "RevisionFailed"
		s.did = append(s.did, say("writing the ControllerRevision failed: %s", err.Error()))
		return err
	}
	s.cur, s.upd = cur, upd
	s.code = "InSync"
	replicas := make([]stsPod, v.replicas)
	var condemned []*fakeapi.Object
	for _, p := range pods {
		if podInOrdinalRange(p, v) {
			replicas[getOrdinal(p)] = stsPod{obj: p, created: true}
		} else if getOrdinal(p) >= 0 {
			condemned = append(condemned, p)
		}
	}
	for i := range replicas {
		if replicas[i].obj == nil {
			replicas[i] = stsPod{obj: s.newVersionedStatefulSetPod(i, cur, upd)}
		}
	}
	slices.SortFunc(condemned, func(a, b *fakeapi.Object) int { return getOrdinal(b) - getOrdinal(a) })
	var firstUnhealthy *fakeapi.Object
	for _, r := range replicas {
		if !r.created || c.isUnavailable(r.obj, v.minReadySeconds) {
			if firstUnhealthy == nil {
				firstUnhealthy = r.obj
			}
		}
	}
	for i := len(condemned) - 1; i >= 0; i-- {
		if c.isUnavailable(condemned[i], v.minReadySeconds) && firstUnhealthy == nil {
			firstUnhealthy = condemned[i]
		}
	}
	defer func() { s.status = s.computeStatus(replicas, condemned) }()
	if v.deleting {
		s.code = "BeingDeleted"
		s.did = append(s.did, say("the set is being deleted: only its status is updated"))
		return nil
	}
	monotonic := !v.parallel
	s.fn("processReplica")
	if exit, err := runForAll(len(replicas), monotonic, func(i int) (bool, error) { return s.processReplica(replicas, i, monotonic) }); exit || err != nil {
		return err
	}
	if len(condemned) > 0 {
		s.fn("UpdatePodClaimForRetentionPolicy")
		if exit, err := runForAll(len(condemned), monotonic, func(i int) (bool, error) {
			return false, s.fixClaims(condemned[i], false)
		}); exit || err != nil {
			return err
		}
		s.fn("processCondemned")
		if exit, err := runForAll(len(condemned), monotonic, func(i int) (bool, error) {
			return s.processCondemned(condemned, i, firstUnhealthy, monotonic)
		}); exit || err != nil {
			return err
		}
	}
	if v.onDelete {
		return nil
	}
	// RollingUpdate: delete the highest-ordinal Pod not at the update
	// revision, waiting for unhealthy Pods.
	for target := len(replicas) - 1; target >= v.partition; target-- {
		p := replicas[target].obj
		if p.Metadata.Labels[stsRevisionLabel] != upd.Metadata.Name && !isTerminatingPod(p) {
			s.fn("updateStatefulSet (RollingUpdate)")
			if err := s.deletePod(p, say("deleted %s: it is not at update revision %s", fakeapi.RefOf(p), upd.Metadata.Name)); err != nil && !fakeapi.IsNotFound(err) {
				return err
			}
			s.deletedForUpdate = true
			return nil
		}
		if c.isUnavailable(p, v.minReadySeconds) {
			if v.minReadySeconds > 0 {
				s.waitFor("%s to be available (minReadySeconds %d) before updating the next Pod", p, v.minReadySeconds)
			} else {
				s.waitFor("%s to be Running and Ready before updating the next Pod", p)
			}
			return nil
		}
	}
	return nil
}

// runForAll: in order, stopping at the first that says so or fails, for
// OrderedReady; all of them (slowStartBatch) for Parallel.
func runForAll(n int, monotonic bool, fn func(i int) (bool, error)) (bool, error) {
	var errs []error
	for i := 0; i < n; i++ {
		exit, err := fn(i)
		if monotonic {
			if exit || err != nil {
				return true, err
			}
			continue
		}
		if err != nil {
			errs = append(errs, err)
			break // slowStartBatch stops at the first failing batch
		}
	}
	if err := aggregate(errs); err != nil {
		return true, err
	}
	return false, nil
}

// newVersionedStatefulSetPod: under RollingUpdate, an ordinal below the
// partition is made from the current revision (its template, which
// ApplyRevision restores), any other from the update revision.
func (s *stsSync) newVersionedStatefulSetPod(ordinal int, cur, upd *fakeapi.Object) *fakeapi.Object {
	if !s.v.onDelete && ordinal < s.v.partition {
		return s.newStatefulSetPod(ordinal, revisionTemplate(cur, s.v.template), cur.Metadata.Name)
	}
	return s.newStatefulSetPod(ordinal, s.v.template, upd.Metadata.Name)
}

// revisionTemplate is the pod template a StatefulSet revision holds (its
// data replaces spec.template whole), or def when it holds none.
func revisionTemplate(rev *fakeapi.Object, def map[string]any) map[string]any {
	t, ok := nested(rev.Fields, "data", "spec", "template")
	if !ok {
		return def
	}
	tm, ok := toJSONValue(t).(map[string]any)
	if !ok {
		return def
	}
	delete(tm, "$patch")
	return tm
}

// newStatefulSetPod: the template, named <set>-<ordinal>, with the
// identity labels, hostname and subdomain, a volume for each claim
// template, and the set as controller.
func (s *stsSync) newStatefulSetPod(ordinal int, template map[string]any, revision string) *fakeapi.Object {
	v := s.v
	meta := nestedMap(template, "metadata")
	name := fmt.Sprintf("%s-%d", v.obj.Metadata.Name, ordinal)
	labels := stringMap(meta["labels"])
	if labels == nil {
		labels = map[string]string{}
	}
	labels[stsPodNameLabel] = name
	labels[podIndexLabel] = strconv.Itoa(ordinal)
	labels[stsRevisionLabel] = revision
	spec := copyJSONMap(nestedMap(template, "spec"))
	if spec == nil {
		spec = map[string]any{}
	}
	spec["hostname"] = name
	if v.serviceName != "" {
		spec["subdomain"] = v.serviceName
	}
	if len(v.claimTemplates) > 0 {
		var vols []any
		names := map[string]bool{}
		for _, t := range v.claimTemplates {
			tn := nestedString(t, "metadata", "name")
			names[tn] = true
			vols = append(vols, map[string]any{"name": tn,
				"persistentVolumeClaim": map[string]any{"claimName": claimName(v, t, ordinal)}})
		}
		if old, ok := spec["volumes"].([]any); ok {
			for _, o := range old {
				if !names[nestedString(o, "name")] {
					vols = append(vols, o)
				}
			}
		}
		spec["volumes"] = vols
	}
	return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		Name: name, Namespace: v.obj.Metadata.Namespace, Labels: labels,
		Annotations:     stringMap(meta["annotations"]),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(v.obj)},
	}, Fields: fakeapi.FieldsOf(map[string]any{"spec": spec})}
}

// processReplica is defaultStatefulSetControl.processReplica.
func (s *stsSync) processReplica(replicas []stsPod, i int, monotonic bool) (bool, error) {
	v := s.v
	p := replicas[i].obj
	if replicas[i].created && podFinished(p) {
		if p.Metadata.DeletionTimestamp == nil {
			if err := s.deletePod(p, say("deleted %s: it has finished (%s) and will be recreated", fakeapi.RefOf(p), nestedString(p.Fields, "status", "phase"))); err != nil {
				return true, err
			}
		} else {
			s.waitFor("%s (%s) to be removed, to be created again", fakeapi.RefOf(p), nestedString(p.Fields, "status", "phase"))
		}
		return true, nil
	}
	if !replicas[i].created {
		s.fn("PodClaimIsStale")
		if stale := s.staleClaim(p); stale != nil {
			ref := stale.Metadata.OwnerReferences
			owner := ""
			for _, r := range ref {
				if r.Kind == "Pod" && r.Name == p.Metadata.Name {
					owner = " (uid " + r.UID + ")"
				}
			}
			s.waitFor("%s still has an owner reference to the deleted %s%s: the garbage collector must delete the claim before %s can start with a fresh one (the next event of the set or its Pods syncs it again)",
				fakeapi.RefOf(stale), fakeapi.RefOf(p), owner, p.Metadata.Name)
			return true, nil
		}
		s.fn("StatefulPodControl.CreateStatefulPod")
		if err := s.createStatefulPod(p); err != nil {
			return true, err
		}
		if monotonic {
			s.waitFor("%s to be Running and Ready (OrderedReady)", p)
			return true, nil
		}
		return false, nil
	}
	info := newPodInfo(p)
	if info.phase() == podPending { // isPending
		// createMissingPersistentVolumeClaims: the claims, then the
		// retention policy's owner references.
		if err := s.createClaims(p); err != nil {
			return true, err
		}
		if err := s.fixClaims(p, true); err != nil {
			return true, err
		}
	}
	if isTerminatingPod(p) && monotonic {
		s.waitFor("%s to terminate", fakeapi.RefOf(p))
		return true, nil
	}
	if !isRunningAndReady(p) && monotonic {
		s.waitFor("%s to be Running and Ready (OrderedReady)", fakeapi.RefOf(p))
		return true, nil
	}
	if !s.c.isRunningAndAvailable(p, v.minReadySeconds) && monotonic {
		s.waitFor("%s to be available (minReadySeconds %d)", fakeapi.RefOf(p), v.minReadySeconds)
		return true, nil
	}
	// Enforce the retention policy on the claims of a Pod in range.
	if err := s.fixClaims(p, false); err != nil {
		return true, err
	}
	return false, nil
}

// processCondemned is defaultStatefulSetControl.processCondemned.
func (s *stsSync) processCondemned(condemned []*fakeapi.Object, i int, firstUnhealthy *fakeapi.Object, monotonic bool) (bool, error) {
	p := condemned[i]
	if isTerminatingPod(p) {
		if monotonic {
			s.waitFor("%s to terminate before scaling down further", fakeapi.RefOf(p))
		}
		return monotonic, nil
	}
	if !isRunningAndReady(p) && monotonic && p != firstUnhealthy {
		s.waitFor("%s to be Running and Ready before it is deleted (OrderedReady)", fakeapi.RefOf(p))
		return true, nil
	}
	if !s.c.isRunningAndAvailable(p, s.v.minReadySeconds) && monotonic && p != firstUnhealthy {
		s.waitFor("%s to be available before it is deleted", fakeapi.RefOf(p))
		return true, nil
	}
	return true, s.deletePod(p, say("deleted %s: scale down: ordinal %d is not below replicas %d", fakeapi.RefOf(p), getOrdinal(p), s.v.replicas))
}

// deletePod is StatefulPodControl.DeleteStatefulPod: a DELETE without
// options; done is the sentence that says it deleted p, and why.
func (s *stsSync) deletePod(p *fakeapi.Object, done Text) error {
	s.fn("StatefulPodControl.DeleteStatefulPod")
	_, err := s.c.env.api.Delete(stsClient, fakeapi.RefOf(p), nil)
	if err != nil {
		s.c.event(s.v.obj, "Warning", "FailedDelete", fmt.Sprintf("delete Pod %s in StatefulSet %s failed error: %v", p.Metadata.Name, s.v.obj.Metadata.Name, err))
		s.act("DeleteFailed", "deleting %s failed (%v)", fakeapi.RefOf(p), err)
		return err
	}
	s.c.event(s.v.obj, "Normal", "SuccessfulDelete", fmt.Sprintf("delete Pod %s in StatefulSet %s successful", p.Metadata.Name, s.v.obj.Metadata.Name))
	s.actText("DeletedPod", done)
	return nil
}

// staleClaim is PodClaimIsStale: under whenScaled: Delete, a claim of a
// Pod not yet created that still refers to a Pod of that name (the one
// scaled down) belongs to the collector.
func (s *stsSync) staleClaim(p *fakeapi.Object) *fakeapi.Object {
	if s.v.whenScaled != "Delete" {
		return nil
	}
	for _, t := range s.v.claimTemplates {
		cl := s.c.claims[s.v.obj.Metadata.Namespace+"/"+claimName(s.v, t, getOrdinal(p))]
		if cl == nil {
			continue
		}
		for _, r := range cl.Metadata.OwnerReferences {
			if r.APIVersion == "v1" && r.Kind == "Pod" && r.Name == p.Metadata.Name {
				return cl
			}
		}
	}
	return nil
}

// createStatefulPod is CreateStatefulPod: the claims first, then the Pod,
// then the claims' owner references for the retention policy.
func (s *stsSync) createStatefulPod(p *fakeapi.Object) error {
	if err := s.createClaims(p); err != nil {
		s.c.event(s.v.obj, "Warning", "FailedCreate", fmt.Sprintf("create Pod %s in StatefulSet %s failed error: %v", p.Metadata.Name, s.v.obj.Metadata.Name, err))
		return err
	}
	out, err := s.c.env.api.Create(stsClient, p)
	if fakeapi.IsAlreadyExists(err) {
		s.act("CreateFailed", "creating %s failed: a Pod of that name exists that the set does not own (%v)", fakeapi.RefOf(p), err)
		return err
	}
	if err != nil {
		s.c.event(s.v.obj, "Warning", "FailedCreate", fmt.Sprintf("create Pod %s in StatefulSet %s failed error: %v", p.Metadata.Name, s.v.obj.Metadata.Name, err))
		s.act("CreateFailed", "creating %s failed (%v)", fakeapi.RefOf(p), err)
		return err
	}
	s.act("CreatedPod", "created %s", fakeapi.RefOf(out))
	s.c.event(s.v.obj, "Normal", "SuccessfulCreate", fmt.Sprintf("create Pod %s in StatefulSet %s successful", p.Metadata.Name, s.v.obj.Metadata.Name))
	return s.fixClaims(out, true)
}

// createClaims is createPersistentVolumeClaims: each claim from the
// templates that does not exist yet, labelled with the selector's
// matchLabels, with no owner reference yet; a claim being deleted, or one
// the create finds already there, is an error that ends the sync.
func (s *stsSync) createClaims(p *fakeapi.Object) error {
	v := s.v
	var errs []error
	for _, t := range v.claimTemplates {
		name := claimName(v, t, getOrdinal(p))
		if cl := s.c.claims[v.obj.Metadata.Namespace+"/"+name]; cl != nil {
			if cl.Metadata.DeletionTimestamp != nil {
				errs = append(errs, fmt.Errorf("pvc %s is being deleted", name))
			}
			continue
		}
		meta := nestedMap(t, "metadata")
		labels := stringMap(meta["labels"])
		if labels == nil {
			labels = map[string]string{}
		}
		for k, val := range stringMap(nestedMap(specOf(v.obj), "selector")["matchLabels"]) {
			labels[k] = val
		}
		claim := &fakeapi.Object{APIVersion: "v1", Kind: "PersistentVolumeClaim", Metadata: fakeapi.ObjectMeta{
			Name: name, Namespace: v.obj.Metadata.Namespace, Labels: labels, Annotations: stringMap(meta["annotations"]),
		}, Fields: fakeapi.FieldsOf(map[string]any{"spec": copyJSONMap(nestedMap(t, "spec")), "status": map[string]any{"phase": "Pending"}})}
		s.fn("createPersistentVolumeClaims")
		if _, err := s.c.env.api.Create(stsClient, claim); err != nil {
			// A claim the cache had not seen yet is an error too (the
			// next sync sees it), without an event.
			if !fakeapi.IsAlreadyExists(err) {
				s.c.event(v.obj, "Warning", "FailedCreate", fmt.Sprintf("create Claim %s for Pod %s in StatefulSet %s failed error: %v", name, p.Metadata.Name, v.obj.Metadata.Name, err))
			}
			errs = append(errs, fmt.Errorf("failed to create PVC %s: %v", name, err))
			continue
		}
		s.c.event(v.obj, "Normal", "SuccessfulCreate", fmt.Sprintf("create Claim %s Pod %s in StatefulSet %s success", name, p.Metadata.Name, v.obj.Metadata.Name))
		s.act("CreatedClaim", "created PersistentVolumeClaim/%s", name)
	}
	if err := aggregate(errs); err != nil {
		s.act("CreateFailed", "creating claims for %s failed (%v)", fakeapi.RefOf(p), err)
		return err
	}
	return nil
}

// fixClaims is UpdatePodClaimForRetentionPolicy, called at once (always:
// after a create, and for a Pending Pod) or once ClaimsMatchRetentionPolicy
// finds a claim whose owner references do not say what the policy says.
// Each claim that another controller owns under a Delete policy gets a
// ConflictingController event; each that is not up to date is updated.
func (s *stsSync) fixClaims(p *fakeapi.Object, always bool) error {
	v := s.v
	var claims []*fakeapi.Object
	match := true
	for _, t := range v.claimTemplates {
		cl := s.c.claims[v.obj.Metadata.Namespace+"/"+claimName(v, t, getOrdinal(p))]
		if cl == nil {
			continue // picked up in a later sync
		}
		claims = append(claims, cl)
		match = match && isClaimOwnerUpToDate(cl, v, p)
	}
	if match && !always {
		return nil
	}
	for _, cl := range claims {
		if hasUnexpectedController(cl, v, p) {
			s.c.event(v.obj, "Warning", "ConflictingController", fmt.Sprintf("PersistentVolumeClaim %s has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim", cl.Metadata.Name))
		}
		if isClaimOwnerUpToDate(cl, v, p) {
			continue
		}
		fresh := cl.DeepCopy()
		why := updateClaimOwnerRefForSetAndPod(fresh, v, p)
		s.fn("UpdatePodClaimForRetentionPolicy")
		if _, err := s.c.env.api.Update(stsClient, fresh); err != nil {
			s.act("ClaimUpdateFailed", "could not update claim %s for delete policy ownerRefs: %v", cl.Metadata.Name, err)
			return err
		}
		s.actText("ClaimOwnersUpdated", why)
	}
	return nil
}

func hasOwnerRefUID(o *fakeapi.Object, uid string) bool {
	for _, r := range o.Metadata.OwnerReferences {
		if r.UID == uid {
			return true
		}
	}
	return false
}

func matchesRef(r fakeapi.OwnerReference, o *fakeapi.Object) bool {
	return r.APIVersion == o.APIVersion && r.Kind == o.Kind && r.Name == o.Metadata.Name
}

// hasStaleOwnerRef: a reference to an object of that name and kind with
// another UID.
func hasStaleOwnerRef(cl, o *fakeapi.Object) bool {
	for _, r := range cl.Metadata.OwnerReferences {
		if matchesRef(r, o) {
			return r.UID != o.Metadata.UID
		}
	}
	return false
}

// hasUnexpectedController: under a Delete policy, a controller reference
// to something other than the set or the Pod.
func hasUnexpectedController(cl *fakeapi.Object, v stsView, p *fakeapi.Object) bool {
	if v.whenScaled == "Retain" && v.whenDeleted == "Retain" {
		return false
	}
	for _, r := range cl.Metadata.OwnerReferences {
		if matchesRef(r, v.obj) {
			if r.UID != v.obj.Metadata.UID {
				return true
			}
			continue
		}
		if matchesRef(r, p) {
			if r.UID != p.Metadata.UID {
				return true
			}
			continue
		}
		if r.Controller != nil && *r.Controller {
			return true
		}
	}
	return false
}

func hasNonControllerOwner(cl *fakeapi.Object, v stsView, p *fakeapi.Object) bool {
	for _, r := range cl.Metadata.OwnerReferences {
		if r.UID == v.obj.Metadata.UID || r.UID == p.Metadata.UID {
			if r.Controller == nil || !*r.Controller {
				return true
			}
		}
	}
	return false
}

// isClaimOwnerUpToDate: Retain/Retain no reference; whenDeleted Delete a
// reference to the set; whenScaled Delete a reference to the Pod once it
// is scaled down (and then none to the set).
func isClaimOwnerUpToDate(cl *fakeapi.Object, v stsView, p *fakeapi.Object) bool {
	if hasStaleOwnerRef(cl, v.obj) || hasStaleOwnerRef(cl, p) {
		return true
	}
	set, pod := hasOwnerRefUID(cl, v.obj.Metadata.UID), hasOwnerRefUID(cl, p.Metadata.UID)
	if hasUnexpectedController(cl, v, p) {
		return !(set || pod)
	}
	if hasNonControllerOwner(cl, v, p) {
		return false
	}
	scaledDown := !podInOrdinalRange(p, v)
	switch {
	case v.whenScaled == "Delete" && v.whenDeleted == "Delete":
		return scaledDown != set && scaledDown == pod
	case v.whenScaled == "Delete":
		return !set && scaledDown == pod
	case v.whenDeleted == "Delete":
		return set && !pod
	default:
		return !set && !pod
	}
}

// updateClaimOwnerRefForSetAndPod scrubs the claim's references to the set
// and the Pod and adds back, as controller, what the policy asks for. It
// returns what it did, a sentence naming the claim, for the record.
func updateClaimOwnerRefForSetAndPod(cl *fakeapi.Object, v stsView, p *fakeapi.Object) Text {
	claim := fakeapi.RefOf(cl)
	unexpected := hasUnexpectedController(cl, v, p)
	refs := slices.DeleteFunc(slices.Clone(cl.Metadata.OwnerReferences), func(r fakeapi.OwnerReference) bool {
		return matchesRef(r, v.obj) || matchesRef(r, p)
	})
	if unexpected {
		cl.Metadata.OwnerReferences = refs
		return say("%s has another controller: removed its references to the set and the Pod", claim)
	}
	scaledDown := !podInOrdinalRange(p, v)
	var to []string
	add := func(o *fakeapi.Object) {
		refs = append(refs, newControllerRef(o))
		to = append(to, fakeapi.RefOf(o).String())
	}
	switch {
	case v.whenScaled == "Delete" && scaledDown:
		add(p)
	case v.whenDeleted == "Delete" && !(v.whenScaled == "Delete" && scaledDown):
		add(v.obj)
	}
	cl.Metadata.OwnerReferences = refs
	switch {
	case len(to) == 0 && scaledDown:
		return say("%s now has no owner reference (%s, scaled down): the collector will leave it", claim, v.policyPhrase())
	case len(to) == 0:
		return say("%s now has no owner reference (%s, in range): the collector will leave it", claim, v.policyPhrase())
	case scaledDown:
		return say("%s is now owned by %s (%s, scaled down): the collector deletes it once that owner is gone", claim, strings.Join(to, ", "), v.policyPhrase())
	}
	return say("%s is now owned by %s (%s, in range): the collector deletes it once that owner is gone", claim, strings.Join(to, ", "), v.policyPhrase())
}

// ---- status ----

type stsStatus struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	Replicas           int64  `json:"replicas"`
	ReadyReplicas      int64  `json:"readyReplicas,omitempty"`
	CurrentReplicas    int64  `json:"currentReplicas,omitempty"`
	UpdatedReplicas    int64  `json:"updatedReplicas,omitempty"`
	AvailableReplicas  int64  `json:"availableReplicas"`
	CurrentRevision    string `json:"currentRevision,omitempty"`
	UpdateRevision     string `json:"updateRevision,omitempty"`
	CollisionCount     *int64 `json:"collisionCount,omitempty"`
}

// computeStatus is updateStatus / computeReplicaStatus, then
// completeRollingUpdate.
func (s *stsSync) computeStatus(replicas []stsPod, condemned []*fakeapi.Object) stsStatus {
	st := stsStatus{ObservedGeneration: s.v.obj.Metadata.Generation}
	if s.cur != nil {
		st.CurrentRevision, st.UpdateRevision = s.cur.Metadata.Name, s.upd.Metadata.Name
	}
	// updateStatefulSet always writes the collision count.
	n := s.collision
	st.CollisionCount = &n
	count := func(p *fakeapi.Object) {
		st.Replicas++
		if isRunningAndReady(p) {
			st.ReadyReplicas++
			if s.c.isRunningAndAvailable(p, s.v.minReadySeconds) {
				st.AvailableReplicas++
			}
		}
		// A terminating Pod still counts as a replica (and as ready or
		// available while it is), but as no revision's.
		if isTerminatingPod(p) {
			return
		}
		rev := p.Metadata.Labels[stsRevisionLabel]
		if rev != "" && rev == st.CurrentRevision {
			st.CurrentReplicas++
		}
		if rev != "" && rev == st.UpdateRevision {
			st.UpdatedReplicas++
		}
	}
	// A Pod this sync created is still the one newVersionedStatefulSetPod
	// made, without a phase (isCreated): it counts from the next sync on.
	for _, r := range replicas {
		if r.created {
			count(r.obj)
		}
	}
	for _, p := range condemned {
		count(p)
	}
	// updateStatefulSet: the Pod the rolling update just deleted is
	// still counted above (the sync's copy is not terminating), and is
	// taken out of currentReplicas whatever its revision.
	if s.deletedForUpdate {
		st.CurrentReplicas--
	}
	// completeRollingUpdate: every Pod the spec wants is updated and ready.
	want := int64(s.v.replicas)
	if !s.v.onDelete && st.UpdatedReplicas == want && st.ReadyReplicas == want && st.Replicas == want {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
	return st
}

// writeStatus is updateStatefulSetStatus: written only when it changed.
func (s *stsSync) writeStatus() error {
	if s.cur == nil {
		return nil
	}
	want := s.status.jsonValue()
	if jsoneq.Equal(toJSONValue(s.v.obj.Fields.Get("status")), want) {
		return nil
	}
	fresh := s.v.obj.DeepCopy()
	fresh.Fields.Set("status", want)
	s.fn("updateStatefulSetStatus")
	if _, err := s.c.env.api.Update(stsClient, fresh); err != nil {
		s.act("StatusUpdateFailed", "writing the status failed (%v)", err)
		return err
	}
	b, _ := json.Marshal(s.status)
	s.rec.Note("status %s", b)
	return nil
}
