package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// Settings and names of kube-controller-manager's DaemonSet controller
// (pkg/controller/daemon, v1.34). docs/DAEMONSET-RULES.md is the spec
// (rules D1..); the comments name the upstream function each part
// follows.
const (
	dsClient = "daemon-set-controller"
	// ControllerDaemonSet is the DaemonSet controller's name in
	// `controllers:`.
	ControllerDaemonSet = "daemonset"
	// dsHashLabel is apps.DefaultDaemonSetUniqueLabelKey: the hash of the
	// revision a daemon Pod was made from, on the Pod and on the revision.
	dsHashLabel = "controller-revision-hash"
	// dsTemplateGenerationLabel is extensions.DaemonSetTemplateGenerationKey:
	// the set's template generation (the apiserver's annotation) a daemon
	// Pod was made at.
	dsTemplateGenerationLabel = "pod-template-generation"
)

var daemonSetRegistration = registration{
	name:        ControllerDaemonSet,
	queues:      []string{ControllerDaemonSet},
	restartable: true,
	new:         newDaemonSetController,
}

const dsFuncPrefix = "DaemonSetsController."

// daemonSetController is kube-controller-manager's DaemonSet controller,
// made steppable: one step is one syncDaemonSet of one key.
//
// It keeps one Pod on each Node that should run one (nodeSelector, the
// template's nodeName, the Node's NoSchedule and NoExecute taints against
// the template's tolerations plus those the controller adds), with the
// DaemonSet as controller and pinned to its Node by node affinity; the
// ControllerRevisions of the template, their history limit, and the
// RollingUpdate (maxUnavailable, maxSurge) and OnDelete strategies. It
// leaves out (docs/DAEMONSET-RULES.md, "Left out"): the template's own node
// affinity, resources and other scheduler predicates, the failed-Pod
// backoff, expectations and burst limits, and the deprecated template
// generation.
type daemonSetController struct {
	env   *env
	q     *workqueue[string]
	dss   map[string]*fakeapi.Object
	pods  *podIndex // the shared Pod informer's cache (env.pods)
	nodes map[string]*fakeapi.Object
	revs  map[string]*fakeapi.Object
	// podEvents counts the Pod events seen, so a sync can tell whether its
	// list of the set's Pods is still the cache's.
	podEvents int
}

func newDaemonSetController(e *env) controller {
	c := &daemonSetController{env: e}
	c.reset()
	return c
}

func (c *daemonSetController) reset() {
	c.setQueue(newWorkqueue[string](ControllerDaemonSet))
	c.dss = map[string]*fakeapi.Object{}
	c.pods = c.env.podInformer()
	c.nodes = map[string]*fakeapi.Object{}
	c.revs = map[string]*fakeapi.Object{}
}

func (c *daemonSetController) setQueue(q *workqueue[string]) {
	c.q = q
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerDaemonSet, keyRef("DaemonSet", key), d)
		}
	}
}

// ---- event handlers (D1) ----

// observe is the informers' handlers: DaemonSets (addDaemonset,
// updateDaemonset, deleteDaemonset), Pods (addPod, updatePod, deletePod),
// ControllerRevisions (addHistory, updateHistory, deleteHistory) and Nodes
// (addNode, updateNode, then syncNodeUpdate; there is no delete handler).
func (c *daemonSetController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	switch {
	case isKind(o, "apps/v1", "DaemonSet"):
		key := objKey(o)
		if ev.Type == fakeapi.Deleted {
			delete(c.dss, key)
		} else {
			c.dss[key] = o
		}
		c.q.Add(key)
	case isKind(o, "v1", "Pod"):
		c.podEvents++
		switch {
		case ev.Type == fakeapi.Deleted:
			c.deletePod(o)
		case ev.Type == fakeapi.Modified && ev.Old != nil:
			c.updatePod(ev.Old, o)
		default:
			c.addPod(o)
		}
	case isKind(o, "apps/v1", "ControllerRevision"):
		key := objKey(o)
		switch {
		case ev.Type == fakeapi.Deleted:
			delete(c.revs, key)
			c.deleteHistory(o)
		case ev.Type == fakeapi.Modified && ev.Old != nil:
			c.revs[key] = o
			c.updateHistory(ev.Old, o)
		default:
			c.revs[key] = o
			c.addHistory(o)
		}
	case isKind(o, "v1", "Node"):
		name := o.Metadata.Name
		switch ev.Type {
		case fakeapi.Deleted:
			delete(c.nodes, name)
		case fakeapi.Modified:
			c.nodes[name] = o
			if ev.Old == nil || !shouldIgnoreNodeUpdate(ev.Old, o) {
				c.syncNodeUpdate(o)
			}
		default:
			c.nodes[name] = o
			c.syncNodeUpdate(o)
		}
	}
}

func (c *daemonSetController) resolve(namespace string, ref *fakeapi.OwnerReference) *fakeapi.Object {
	if ref == nil || ref.Kind != "DaemonSet" {
		return nil
	}
	ds := c.dss[namespace+"/"+ref.Name]
	if ds == nil || ds.Metadata.UID != ref.UID {
		return nil
	}
	return ds
}

// daemonSetsSelecting is GetPodDaemonSets and GetHistoryDaemonSets: the
// sets of o's namespace whose selector matches its labels.
func (c *daemonSetController) daemonSetsSelecting(o *fakeapi.Object) []string {
	var out []string
	for _, k := range sortedKeys(c.dss) {
		ds := c.dss[k]
		if ds.Metadata.Namespace != o.Metadata.Namespace {
			continue
		}
		if sel, err := parseSelector(nestedMap(specOf(ds), "selector")); err == nil && !sel.Empty() && sel.Matches(o.Metadata.Labels) {
			out = append(out, k)
		}
	}
	return out
}

func (c *daemonSetController) enqueueController(o *fakeapi.Object, ref *fakeapi.OwnerReference) {
	if ds := c.resolve(o.Metadata.Namespace, ref); ds != nil {
		c.q.Add(objKey(ds))
	}
}

// addPod: a terminating Pod is handled as deleted; a controlled Pod wakes
// its set; an orphan every set that selects it.
func (c *daemonSetController) addPod(p *fakeapi.Object) {
	if p.Metadata.DeletionTimestamp != nil {
		c.deletePod(p)
		return
	}
	if ref := controllerOf(p); ref != nil {
		c.enqueueController(p, ref)
		return
	}
	for _, k := range c.daemonSetsSelecting(p) {
		c.q.Add(k)
	}
}

// updatePod: the old controller when the reference changed, then the new
// one (and again after minReadySeconds when the Pod just became ready);
// an orphan wakes the sets that select it when its labels or reference
// changed.
func (c *daemonSetController) updatePod(old, cur *fakeapi.Object) {
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return
	}
	if cur.Metadata.DeletionTimestamp != nil {
		c.deletePod(cur)
		return
	}
	curRef, oldRef := controllerOf(cur), controllerOf(old)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		c.enqueueController(old, oldRef)
	}
	if curRef != nil {
		ds := c.resolve(cur.Metadata.Namespace, curRef)
		if ds == nil {
			return
		}
		c.q.Add(objKey(ds))
		minReady, _ := nestedInt(specOf(ds), "minReadySeconds")
		if !isPodReady(old) && isPodReady(cur) && minReady > 0 {
			c.q.AddAfter(objKey(ds), time.Duration(minReady)*time.Second+time.Second, c.env.now())
		}
		return
	}
	if refChanged || !reflect.DeepEqual(cur.Metadata.Labels, old.Metadata.Labels) {
		for _, k := range c.daemonSetsSelecting(cur) {
			c.q.Add(k)
		}
	}
}

// deletePod wakes the Pod's controller; a deleted orphan wakes no one.
func (c *daemonSetController) deletePod(p *fakeapi.Object) {
	if ref := controllerOf(p); ref != nil {
		c.enqueueController(p, ref)
	}
}

// addHistory: a revision with a controller wakes no one (the set made
// it); an orphan wakes the sets that select it.
func (c *daemonSetController) addHistory(r *fakeapi.Object) {
	if r.Metadata.DeletionTimestamp != nil {
		c.deleteHistory(r)
		return
	}
	if controllerOf(r) != nil {
		return
	}
	for _, k := range c.daemonSetsSelecting(r) {
		c.q.Add(k)
	}
}

func (c *daemonSetController) updateHistory(old, cur *fakeapi.Object) {
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return
	}
	curRef, oldRef := controllerOf(cur), controllerOf(old)
	refChanged := !reflect.DeepEqual(curRef, oldRef)
	if refChanged && oldRef != nil {
		c.enqueueController(old, oldRef)
	}
	if curRef != nil {
		c.enqueueController(cur, curRef)
		return
	}
	if refChanged || !reflect.DeepEqual(cur.Metadata.Labels, old.Metadata.Labels) {
		for _, k := range c.daemonSetsSelecting(cur) {
			c.q.Add(k)
		}
	}
}

func (c *daemonSetController) deleteHistory(r *fakeapi.Object) {
	if ref := controllerOf(r); ref != nil {
		c.enqueueController(r, ref)
	}
}

// shouldIgnoreNodeUpdate: only a change of labels or taints matters.
func shouldIgnoreNodeUpdate(old, cur *fakeapi.Object) bool {
	return reflect.DeepEqual(old.Metadata.Labels, cur.Metadata.Labels) &&
		reflect.DeepEqual(toJSONValue(nestedValue(old.Fields, "spec", "taints")), toJSONValue(nestedValue(cur.Fields, "spec", "taints")))
}

func nestedValue(v any, path ...string) any {
	x, _ := nested(v, path...)
	return x
}

// syncNodeUpdate wakes each set for which the Node now matters: it should
// run the set's Pod and has none, it has one and should not keep it, or it
// has one and the set counts misscheduled Pods. Pods are matched to the
// Node by spec.nodeName and to the set by the name in their controller
// reference. Upstream runs this from a queue of its own; gcplay runs it
// in the handler.
func (c *daemonSetController) syncNodeUpdate(node *fakeapi.Object) {
	podsByDS := map[string]int{}
	for _, pi := range c.pods.byKey {
		p := pi.obj
		ref := controllerOf(p)
		if nodeName(p) != node.Metadata.Name || ref == nil || ref.Kind != "DaemonSet" {
			continue
		}
		podsByDS[p.Metadata.Namespace+"/"+ref.Name]++
	}
	for _, k := range sortedKeys(c.dss) {
		ds := c.dss[k]
		v, err := readDaemonSet(ds)
		if err != nil {
			continue
		}
		shouldRun, shouldContinue, _ := nodeShouldRunDaemonPod(node, v)
		scheduled := podsByDS[k] > 0
		mis, _ := nestedInt(ds.Fields, "status", "numberMisscheduled")
		if (shouldRun && !scheduled) || (!shouldContinue && scheduled) || (scheduled && mis > 0) {
			c.q.Add(k)
		}
	}
}

// ---- the controller contract ----

func (c *daemonSetController) promote(now time.Duration)      { c.q.Promote(now) }
func (c *daemonSetController) ready(string) bool              { return c.q.Len() > 0 }
func (c *daemonSetController) nextDue() (time.Duration, bool) { return c.q.NextDue() }
func (c *daemonSetController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "DaemonSet")}
}

func (c *daemonSetController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "daemonset: sync " + keyRef("DaemonSet", items[0])
	}
	return ""
}

// retriesCapped lets settle stop once only retries at the maximum backoff
// are left.
func (c *daemonSetController) retriesCapped() (pending, capped bool) {
	atMax := func(n int) bool { return n > 0 && float64(backoffBase)*pow2(n-1) >= float64(backoffMax) }
	for _, wi := range c.q.Waiting() {
		if !atMax(c.q.NumRequeues(wi.item)) {
			return true, false
		}
		pending = true
	}
	return pending, pending
}

func (c *daemonSetController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("DaemonSet", key)
	if err := c.syncDaemonSet(key, rec); err != nil {
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; retried in %s", d)
		return
	}
	c.q.Forget(key)
}

func (c *daemonSetController) restart(rec *Record) {
	c.reset()
	relist(c.env, dsClient, rec, c.observe, [][2]string{{"apps/v1", "DaemonSet"}, {"v1", "Pod"}, {"v1", "Node"}, {"apps/v1", "ControllerRevision"}})
}

func (c *daemonSetController) clone(e *env) controller {
	cp := func(m map[string]*fakeapi.Object) map[string]*fakeapi.Object {
		n := make(map[string]*fakeapi.Object, len(m))
		for k, v := range m {
			n[k] = v
		}
		return n
	}
	n := &daemonSetController{env: e, dss: cp(c.dss), pods: e.podInformer(), nodes: cp(c.nodes), revs: cp(c.revs)}
	n.setQueue(c.q.clone(func(s string) string { return s }))
	return n
}

func (c *daemonSetController) event(o *fakeapi.Object, typ, reason, msg string) {
	c.env.recordEvent(dsClient, fakeapi.Event{Object: fakeapi.RefOf(o), ObjectUID: o.Metadata.UID, ObjectRV: o.Metadata.ResourceVersion,
		Type: typ, Reason: reason, Message: msg, Source: eventSources[ControllerDaemonSet]})
}

// ---- the DaemonSet as the controller reads it ----

// dsView is a DaemonSet with the apiserver's defaults applied
// (SetDefaults_DaemonSet): RollingUpdate with maxUnavailable 1 and
// maxSurge 0, revisionHistoryLimit 10.
type dsView struct {
	obj          *fakeapi.Object
	selector     labelsel.Selector
	template     map[string]any
	nodeSelector map[string]string
	nodeName     string
	tolerations  []toleration
	onDelete     bool
	// generation is util.GetTemplateGeneration: the apiserver's
	// deprecated.daemonset.template.generation, printed as a decimal
	// number, "" when absent or not a 64-bit number.
	generation      string
	maxUnavailable  any
	maxSurge        any
	minReadySeconds int64
	historyLimit    int
}

func readDaemonSet(o *fakeapi.Object) (dsView, error) {
	spec := specOf(o)
	v := dsView{obj: o, historyLimit: 10, maxUnavailable: int64(1), maxSurge: int64(0)}
	v.template = nestedMap(spec, "template")
	sel, err := templateSelector("DaemonSet", spec, v.template)
	if err != nil {
		return v, err
	}
	v.selector = sel
	tspec := nestedMap(v.template, "spec")
	v.nodeSelector = stringMap(tspec["nodeSelector"])
	v.nodeName = nestedString(tspec, "nodeName")
	v.tolerations = readTolerations(daemonPodTolerations(tspec)["tolerations"])
	switch nestedString(spec, "updateStrategy", "type") {
	case "OnDelete":
		v.onDelete = true
	default:
		if x, ok := nested(spec, "updateStrategy", "rollingUpdate", "maxUnavailable"); ok && x != nil {
			v.maxUnavailable = x
		}
		if x, ok := nested(spec, "updateStrategy", "rollingUpdate", "maxSurge"); ok && x != nil {
			v.maxSurge = x
		}
	}
	if g, ok := o.Metadata.Annotations[fakeapi.DaemonSetTemplateGenerationAnnotation]; ok {
		// Pods carry the number as CreatePodTemplate prints it (fmt.Sprint
		// of the parsed int64), and IsPodUpdated compares that form: "007"
		// and "+7" are both 7.
		if n, err := strconv.ParseInt(g, 10, 64); err == nil {
			v.generation = strconv.FormatInt(n, 10)
		}
	}
	v.minReadySeconds, _ = nestedInt(spec, "minReadySeconds")
	if n, ok := nestedInt(spec, "revisionHistoryLimit"); ok {
		v.historyLimit = int(n)
	}
	return v, nil
}

// surgeCount and unavailableCount are util.SurgeCount and
// util.UnavailableCount: scaled to the Nodes that should run a Pod,
// rounding up; both 0 under OnDelete.
func (v dsView) surgeCount(n int) (int, error) {
	if v.onDelete {
		return 0, nil
	}
	s, err := scaledValue(v.maxSurge, int64(n), true)
	return int(s), err
}

func (v dsView) unavailableCount(n int) (int, error) {
	if v.onDelete {
		return 0, nil
	}
	u, err := scaledValue(v.maxUnavailable, int64(n), true)
	return int(u), err
}

// allowsSurge is util.AllowsSurge.
func (v dsView) allowsSurge() bool {
	s, err := v.surgeCount(1)
	return err == nil && s > 0
}

// ---- taints and tolerations (D9-D11) ----

type toleration struct{ key, operator, value, effect string }

type taint struct{ key, value, effect string }

func readTolerations(v any) []toleration {
	list, _ := v.([]any)
	var out []toleration
	for _, t := range list {
		out = append(out, toleration{key: nestedString(t, "key"), operator: nestedString(t, "operator"),
			value: nestedString(t, "value"), effect: nestedString(t, "effect")})
	}
	return out
}

func nodeTaints(node *fakeapi.Object) []taint {
	list, _ := nestedSlice(node.Fields, "spec", "taints")
	var out []taint
	for _, t := range list {
		out = append(out, taint{key: nestedString(t, "key"), value: nestedString(t, "value"), effect: nestedString(t, "effect")})
	}
	return out
}

func (t taint) String() string {
	if t.value != "" {
		return t.key + "=" + t.value + ":" + t.effect
	}
	return t.key + ":" + t.effect
}

// toleratesTaint is Toleration.ToleratesTaint: an empty effect or key
// matches any; Exists ignores the value, Equal (or no operator) needs it.
func (t toleration) toleratesTaint(x taint) bool {
	if t.effect != "" && t.effect != x.effect {
		return false
	}
	if t.key != "" && t.key != x.key {
		return false
	}
	switch t.operator {
	case "", "Equal":
		return t.value == x.value
	case "Exists":
		return true
	}
	return false
}

// findMatchingUntoleratedTaint: the first taint passing filter that no
// toleration tolerates.
func findMatchingUntoleratedTaint(taints []taint, tols []toleration, filter func(taint) bool) (taint, bool) {
	for _, x := range taints {
		if !filter(x) {
			continue
		}
		if !slices.ContainsFunc(tols, func(t toleration) bool { return t.toleratesTaint(x) }) {
			return x, true
		}
	}
	return taint{}, false
}

// daemonTolerations are the ones util.AddOrUpdateDaemonPodTolerations
// gives every daemon Pod (network-unavailable only with hostNetwork).
var daemonTolerations = []struct{ key, effect string }{
	{"node.kubernetes.io/not-ready", "NoExecute"},
	{"node.kubernetes.io/unreachable", "NoExecute"},
	{"node.kubernetes.io/disk-pressure", "NoSchedule"},
	{"node.kubernetes.io/memory-pressure", "NoSchedule"},
	{"node.kubernetes.io/pid-pressure", "NoSchedule"},
	{"node.kubernetes.io/unschedulable", "NoSchedule"},
}

// daemonPodTolerations returns a copy of a pod spec with the daemon
// tolerations added (AddOrUpdateDaemonPodTolerations, each through
// AddOrUpdateTolerationInPodSpec: a toleration equal in key, operator,
// value and effect is replaced, else the new one is appended).
func daemonPodTolerations(spec map[string]any) map[string]any {
	out := copyJSONMap(spec)
	if out == nil {
		out = map[string]any{}
	}
	add := func(key, effect string) {
		tol := map[string]any{"key": key, "operator": "Exists", "effect": effect}
		list, _ := out["tolerations"].([]any)
		var next []any
		updated := false
		for _, old := range list {
			if nestedString(old, "key") == key && nestedString(old, "operator") == "Exists" &&
				nestedString(old, "value") == "" && nestedString(old, "effect") == effect {
				if reflect.DeepEqual(toJSONValue(old), toJSONValue(tol)) {
					return
				}
				next = append(next, tol)
				updated = true
				continue
			}
			next = append(next, old)
		}
		if !updated {
			next = append(next, tol)
		}
		out["tolerations"] = next
	}
	for _, t := range daemonTolerations {
		add(t.key, t.effect)
	}
	if b, _ := out["hostNetwork"].(bool); b {
		add("node.kubernetes.io/network-unavailable", "NoSchedule")
	}
	return out
}

// nodeShouldRunDaemonPod is NodeShouldRunDaemonPod with predicates: the
// template's nodeName and nodeSelector must fit the Node; then a NoSchedule
// or NoExecute taint no toleration tolerates means the Pod should not run
// there, and an untolerated NoExecute taint means an existing one should
// not stay either. why says which.
func nodeShouldRunDaemonPod(node *fakeapi.Object, v dsView) (shouldRun, shouldContinueRunning bool, why Text) {
	if v.nodeName != "" && v.nodeName != node.Metadata.Name {
		return false, false, say("the template's nodeName is %s", v.nodeName)
	}
	if !labelsMatch(v.nodeSelector, node.Metadata.Labels) {
		return false, false, say("its labels do not match nodeSelector %s", selectorPhrase(v.nodeSelector))
	}
	taints := nodeTaints(node)
	if x, ok := findMatchingUntoleratedTaint(taints, v.tolerations, func(t taint) bool {
		return t.effect == "NoExecute" || t.effect == "NoSchedule"
	}); ok {
		if y, ok := findMatchingUntoleratedTaint(taints, v.tolerations, func(t taint) bool { return t.effect == "NoExecute" }); ok {
			return false, false, say("it has taint %s, which the Pod does not tolerate", y.String())
		}
		return false, true, say("it has taint %s, which the Pod does not tolerate (a running Pod may stay)", x.String())
	}
	return true, true, Text{}
}

func labelsMatch(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func selectorPhrase(sel map[string]string) string {
	if len(sel) == 0 {
		return "(none: every Node)"
	}
	var parts []string
	for _, k := range sortedKeys(sel) {
		parts = append(parts, k+"="+sel[k])
	}
	return strings.Join(parts, ",")
}

// daemonPodNode is the node a daemon Pod is for: spec.nodeName, else the
// node its required node affinity pins it to (GetTargetNodeName): the
// first matchFields expression "metadata.name In" decides, and one that
// names other than exactly one node names none.
func daemonPodNode(p *fakeapi.Object) string {
	if n := nodeName(p); n != "" {
		return n
	}
	terms, _ := nestedSlice(specOf(p), "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
	for _, t := range terms {
		fields, _ := nestedSlice(t, "matchFields")
		for _, f := range fields {
			if nestedString(f, "key") == "metadata.name" && nestedString(f, "operator") == "In" {
				if vals, _ := nestedSlice(f, "values"); len(vals) == 1 {
					s, _ := vals[0].(string)
					return s
				}
				return ""
			}
		}
	}
	return ""
}

// isPodAvailable is podutil.IsPodAvailable: Ready for minReadySeconds,
// the moment itself included, as in v1.34.
func (c *daemonSetController) isPodAvailable(p *fakeapi.Object, minReady int64) bool {
	ready, since := podReadyCondition(p)
	if !ready {
		return false
	}
	return minReady == 0 || (!since.IsZero() && !since.Add(time.Duration(minReady)*time.Second).After(c.env.clock.Now()))
}

// isPodReady is podutil.IsPodReady: the Ready condition is True.
func isPodReady(p *fakeapi.Object) bool { ready, _ := podReadyCondition(p); return ready }

// podReadyCondition reads the Ready condition as GetPodReadyCondition
// does, the first of that type only: whether it is True, and since when.
func podReadyCondition(p *fakeapi.Object) (bool, time.Time) {
	conds, _ := nestedSlice(p.Fields, "status", "conditions")
	for _, c := range conds {
		if nestedString(c, "type") == "Ready" {
			if nestedString(c, "status") != "True" {
				return false, time.Time{}
			}
			return true, parseTime(nestedString(c, "lastTransitionTime"))
		}
	}
	return false, time.Time{}
}

func podPhase(p *fakeapi.Object) string { return nestedString(p.Fields, "status", "phase") }

func isPodTerminal(p *fakeapi.Object) bool {
	ph := podPhase(p)
	return ph == "Succeeded" || ph == "Failed"
}

// byCreationAndPhase is podByCreationTimestampAndPhase: scheduled Pods
// first, then oldest first, then by name.
func byCreationAndPhase(a, b *fakeapi.Object) int {
	if sa, sb := nodeName(a) != "", nodeName(b) != ""; sa != sb {
		if sa {
			return -1
		}
		return 1
	}
	return byCreation(a, b)
}

// ---- the sync ----

// dsSync is one syncDaemonSet: what it did, for the record.
type dsSync struct {
	c    *daemonSetController
	v    dsView
	rec  *Record
	code string
	did  [][]Text // each thing it did, in its sentences
	fns  []string
	// updated is updatedNumberScheduled as the status counts it.
	updated int64
	// pods is daemonPods' answer while no Pod event came since
	// (podsAt); verdicts is nodeShouldRunDaemonPod's per Node, which a
	// sync does not change.
	pods     []*fakeapi.Object
	podsAt   int
	verdicts map[string]nodeVerdict
	nodes    []string
}

// nodeNames are the Nodes by name (the node lister's list; a sync does
// not change them).
func (s *dsSync) nodeNames() []string {
	if s.nodes == nil {
		s.nodes = sortedKeys(s.c.nodes)
	}
	return s.nodes
}

type nodeVerdict struct {
	shouldRun, shouldContinueRunning bool
	why                              Text
}

// shouldRun is nodeShouldRunDaemonPod for the Node of that name, once per
// sync.
func (s *dsSync) shouldRun(node *fakeapi.Object) (bool, bool, Text) {
	v, ok := s.verdicts[node.Metadata.Name]
	if !ok {
		v.shouldRun, v.shouldContinueRunning, v.why = nodeShouldRunDaemonPod(node, s.v)
		if s.verdicts == nil {
			s.verdicts = map[string]nodeVerdict{}
		}
		s.verdicts[node.Metadata.Name] = v
	}
	return v.shouldRun, v.shouldContinueRunning, v.why
}

func (s *dsSync) strategy() string {
	if s.v.onDelete {
		return "OnDelete"
	}
	return fmt.Sprintf("RollingUpdate, maxUnavailable %v, maxSurge %v", s.v.maxUnavailable, s.v.maxSurge)
}

func (s *dsSync) act(code, format string, args ...any) {
	if s.code == "" {
		s.code = code
	}
	s.did = append(s.did, say1(format, args...))
}

// acts is act with a thing done said in the sentences ts.
func (s *dsSync) acts(code string, ts ...Text) {
	if s.code == "" {
		s.code = code
	}
	s.did = append(s.did, ts)
}

func (s *dsSync) fn(name string) {
	if !slices.Contains(s.fns, name) {
		s.fns = append(s.fns, name)
	}
}

// selectsEverything is syncDaemonSet's test of the selector against an
// empty metav1.LabelSelector: no labels and no expressions (an empty
// matchLabels is dropped when the apiserver stores the set).
func selectsEverything(sel map[string]any) bool {
	for _, v := range sel {
		switch t := v.(type) {
		case nil:
		case map[string]any:
			if len(t) > 0 {
				return false
			}
		case []any:
			if len(t) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// syncDaemonSet: a set being deleted is left alone (not even its status);
// otherwise constructHistory, then updateDaemonSet (manage, the update
// strategy, cleanupHistory), then the status.
func (c *daemonSetController) syncDaemonSet(key string, rec *Record) error {
	const fn = dsFuncPrefix + "syncDaemonSet"
	ds := c.dss[key]
	if ds == nil {
		rec.Reason = Reason{Code: "DaemonSetGone", Func: fn}.Say("%s has been deleted: nothing to do", rec.Item)
		return nil
	}
	// A selector that selects everything (the apiserver refuses one, but
	// a set restored from a dump may have it): a Warning, and nothing
	// else, before even the deletion check.
	if sel, ok := specOf(ds)["selector"].(map[string]any); ok && selectsEverything(sel) {
		c.event(ds, "Warning", "SelectingAll", "This daemon set is selecting all pods. A non-empty selector is required.")
		rec.Reason = Reason{Code: "SelectingAll", Func: fn}.Say("%s has a selector that selects every Pod, which upstream refuses to act on", rec.Item)
		return nil
	}
	v, err := readDaemonSet(ds)
	if err != nil {
		rec.Reason = Reason{Code: "InvalidSpec", Func: fn}.Say("%s has no selector, or one that does not match its template's labels: the apiserver would have refused it", rec.Item)
		return nil
	}
	if ds.Metadata.DeletionTimestamp != nil {
		rec.Reason = Reason{Code: "BeingDeleted", Func: fn}.Say("%s is being deleted: the controller does nothing, not even its status (its revisions may already be gone)", rec.Item)
		return nil
	}
	s := &dsSync{c: c, v: v, rec: rec, fns: []string{fn}}
	var errs []error
	s.fn("constructHistory")
	cur, old, err := s.constructHistory()
	if err != nil {
		rec.Reason = Reason{Code: "RevisionFailed", Func: strings.Join(s.fns, ", ")}.
			Say("%s: constructing its revisions failed: %s", rec.Item, err.Error())
		return err
	}
	hash := cur.Metadata.Labels[dsHashLabel]
	if err := s.updateDaemonSet(hash, old); err != nil {
		errs = append(errs, err)
	}
	s.fn("updateDaemonSetStatus")
	if err := s.updateStatus(hash); err != nil {
		errs = append(errs, err)
	}
	if s.code == "" {
		s.code = "InSync"
		s.did = append(s.did, say1("nothing to do"))
	}
	desired := 0
	for _, node := range c.nodes {
		if ok, _, _ := s.shouldRun(node); ok {
			desired++
		}
	}
	// What the sync did comes first, so the timeline's one line shows it.
	texts := []Text{say("%s: ", rec.Item)}
	for i, d := range s.did {
		if i > 0 {
			texts = append(texts, Text{Form: "; "})
		}
		texts = append(texts, d...)
	}
	if len(v.nodeSelector) == 0 {
		texts = append(texts, say(" (%d of %d Node(s) should run its Pod, nodeSelector (none: every Node); %d run one of revision %d; %s)",
			desired, len(c.nodes), s.updated, revisionNumber(cur), s.strategy()))
	} else {
		texts = append(texts, say(" (%d of %d Node(s) should run its Pod, nodeSelector %s; %d run one of revision %d; %s)",
			desired, len(c.nodes), selectorPhrase(v.nodeSelector), s.updated, revisionNumber(cur), s.strategy()))
	}
	rec.Reason = Reason{Code: s.code, Func: strings.Join(s.fns, ", ")}.Saying(texts...)
	return aggregate(errs)
}

// ---- revisions (D3-D5) ----

// getPatch: the revision's data, a strategic-merge patch that replaces
// spec.template.
func (v dsView) getPatch() map[string]any {
	t := copyJSONMap(v.template)
	if t == nil {
		t = map[string]any{}
	}
	t["$patch"] = "replace"
	return map[string]any{"spec": map[string]any{"template": t}}
}

// match is Match: the revision holds the set's template.
func (v dsView) match(r *fakeapi.Object) bool {
	return reflect.DeepEqual(toJSONValue(r.Fields.Get("data")), toJSONValue(v.getPatch()))
}

// controlledHistories claims the namespace's ControllerRevisions by
// selector (ClaimControllerRevisions): adopted, released or kept.
func (s *dsSync) controlledHistories() ([]*fakeapi.Object, error) {
	v, c := s.v, s.c
	m := &refManager{env: c.env, client: dsClient, owner: v.obj, selector: v.selector, rec: s.rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, dsClient, v.obj)}
	var out []*fakeapi.Object
	var errs []error
	for _, k := range sortedKeys(c.revs) {
		r := c.revs[k]
		if r.Metadata.Namespace != v.obj.Metadata.Namespace {
			continue
		}
		ok, err := m.claim(r, func(o *fakeapi.Object) bool { return v.selector.Matches(o.Metadata.Labels) })
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			out = append(out, r)
		}
	}
	if sum, ok := m.summaryText(); ok {
		s.acts("ClaimedRevisions", sum)
	}
	return out, aggregate(errs)
}

// constructHistory returns the revision of the current template and the
// others: it gives a revision without the hash label its name as label,
// renumbers the current revision above the others, or creates it.
func (s *dsSync) constructHistory() (cur *fakeapi.Object, old []*fakeapi.Object, err error) {
	c := s.c
	histories, err := s.controlledHistories()
	if err != nil {
		return nil, nil, err
	}
	var current []*fakeapi.Object
	for _, h := range histories {
		if _, ok := h.Metadata.Labels[dsHashLabel]; !ok {
			fresh := h.DeepCopy()
			if fresh.Metadata.Labels == nil {
				fresh.Metadata.Labels = map[string]string{}
			}
			fresh.Metadata.Labels[dsHashLabel] = fresh.Metadata.Name
			if h, err = c.env.api.Update(dsClient, fresh); err != nil {
				return nil, nil, err
			}
			s.rec.Note("labelled %s %s=%s", fakeapi.RefOf(h), dsHashLabel, h.Metadata.Name)
		}
		if s.v.match(h) {
			current = append(current, h)
		} else {
			old = append(old, h)
		}
	}
	next := int64(1)
	for _, h := range old {
		next = max(next, revisionNumber(h)+1)
	}
	switch len(current) {
	case 0:
		s.fn("snapshot")
		if cur, err = s.snapshot(next); err != nil {
			return nil, nil, err
		}
	default:
		if cur, err = s.dedupCurHistories(current); err != nil {
			return nil, nil, err
		}
		if revisionNumber(cur) < next {
			fresh := cur.DeepCopy()
			fresh.Fields.Set("revision", next)
			if cur, err = c.env.api.Update(dsClient, fresh); err != nil {
				return nil, nil, err
			}
			s.act("RenumberedRevision", "%s holds the template again: renumbered revision %d", fakeapi.RefOf(cur), next)
		}
	}
	return cur, old, nil
}

// snapshot creates the revision <set>-<hash>: the template's labels plus
// the hash label, the set's annotations, the set as controller. A name
// taken by a revision of another template bumps status.collisionCount and
// fails the sync, to be retried under a new hash.
func (s *dsSync) snapshot(revision int64) (*fakeapi.Object, error) {
	c, v := s.c, s.v
	var collision *int64
	if n, ok := nestedInt(v.obj.Fields, "status", "collisionCount"); ok {
		collision = &n
	}
	hash := podTemplateHash(v.template, collision)
	labels := copyStringMap(stringMap(nestedMap(v.template, "metadata")["labels"]))
	if labels == nil {
		labels = map[string]string{}
	}
	labels[dsHashLabel] = hash
	cr := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ControllerRevision", Metadata: fakeapi.ObjectMeta{
		Name: v.obj.Metadata.Name + "-" + hash, Namespace: v.obj.Metadata.Namespace, Labels: labels,
		Annotations:     copyStringMap(v.obj.Metadata.Annotations),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(v.obj)},
	}, Fields: fakeapi.FieldsOf(map[string]any{"data": v.getPatch(), "revision": revision})}
	out, err := c.env.api.Create(dsClient, cr)
	if err == nil {
		s.act("CreatedRevision", "created %s, revision %d, for the current pod template", fakeapi.RefOf(out), revision)
		return out, nil
	}
	if !fakeapi.IsAlreadyExists(err) {
		return nil, err
	}
	existing, getErr := c.env.api.Get(dsClient, fakeapi.RefOf(cr))
	if getErr != nil {
		return nil, getErr
	}
	if v.match(existing) {
		return existing, nil
	}
	fresh, getErr := c.env.api.Get(dsClient, fakeapi.RefOf(v.obj))
	if getErr != nil {
		return nil, getErr
	}
	n, _ := nestedInt(fresh.Fields, "status", "collisionCount")
	if cur, _ := nestedInt(v.obj.Fields, "status", "collisionCount"); cur != n {
		return nil, fmt.Errorf("found a stale collision count (%d, expected %d) of DaemonSet %q while processing; will retry until it is updated", cur, n, v.obj.Metadata.Name)
	}
	st, _ := fresh.Fields.Get("status").(map[string]any)
	if st == nil {
		st = map[string]any{}
	}
	st = copyJSONMap(st)
	st["collisionCount"] = n + 1
	fresh.Fields.Set("status", st)
	if _, err := c.env.api.Update(dsClient, fresh); err != nil {
		return nil, err
	}
	s.act("HashCollision", "%s exists with another template: status.collisionCount is now %d", fakeapi.RefOf(cr), n+1)
	return nil, err
}

// dedupCurHistories keeps the highest-numbered of several revisions of
// the current template, relabels the Pods of the others and deletes them.
func (s *dsSync) dedupCurHistories(current []*fakeapi.Object) (*fakeapi.Object, error) {
	if len(current) == 1 {
		return current[0], nil
	}
	c := s.c
	s.fn("dedupCurHistories")
	var keep *fakeapi.Object
	for _, h := range current {
		if keep == nil || revisionNumber(h) >= revisionNumber(keep) {
			keep = h
		}
	}
	hash := keep.Metadata.Labels[dsHashLabel]
	for _, p := range s.daemonPods() {
		if p.Metadata.Labels[dsHashLabel] == hash {
			continue
		}
		body := fmt.Sprintf(`{"metadata":{"labels":{%q:%q}}}`, dsHashLabel, hash)
		if _, err := c.env.api.Patch(dsClient, fakeapi.RefOf(p), fakeapi.MergePatch, []byte(body)); err != nil {
			return nil, err
		}
		s.act("RelabelledPods", "relabelled %s %s=%s", fakeapi.RefOf(p), dsHashLabel, hash)
	}
	for _, h := range current {
		if h == keep {
			continue
		}
		if _, err := c.env.api.Delete(dsClient, fakeapi.RefOf(h), nil); err != nil {
			return nil, err
		}
		s.act("DeletedRevision", "deleted %s: a duplicate of %s", fakeapi.RefOf(h), fakeapi.RefOf(keep))
	}
	return keep, nil
}

// cleanupHistory deletes old revisions beyond revisionHistoryLimit,
// oldest first, skipping those whose hash a Pod of the set still carries
// (terminating and finished Pods included, a Pod for no Node not).
func (s *dsSync) cleanupHistory(old []*fakeapi.Object) error {
	toKill := len(old) - s.v.historyLimit
	if toKill <= 0 {
		return nil
	}
	s.fn("cleanupHistory")
	live := map[string]bool{}
	for _, pods := range s.nodesToDaemonPods(true) {
		for _, p := range pods {
			if h := p.Metadata.Labels[dsHashLabel]; h != "" {
				live[h] = true
			}
		}
	}
	old = slices.Clone(old)
	slices.SortStableFunc(old, func(a, b *fakeapi.Object) int { return int(revisionNumber(a) - revisionNumber(b)) })
	for _, h := range old {
		if toKill <= 0 {
			break
		}
		if live[h.Metadata.Labels[dsHashLabel]] {
			continue
		}
		if _, err := s.c.env.api.Delete(dsClient, fakeapi.RefOf(h), nil); err != nil {
			return err
		}
		if p := s.podForNoNode(h.Metadata.Labels[dsHashLabel]); p != nil {
			s.act("DeletedRevision", "deleted %s (revision %d): beyond revisionHistoryLimit %d and no Pod for a Node carries its hash (%s does, but is for no Node)",
				fakeapi.RefOf(h), revisionNumber(h), s.v.historyLimit, fakeapi.RefOf(p))
		} else {
			s.act("DeletedRevision", "deleted %s (revision %d): beyond revisionHistoryLimit %d and no Pod carries its hash",
				fakeapi.RefOf(h), revisionNumber(h), s.v.historyLimit)
		}
		toKill--
	}
	return nil
}

// podForNoNode is, for the record, a Pod of the set that carries hash
// but is for no Node: getNodesToDaemonPods leaves it out, so its hash
// keeps no revision.
func (s *dsSync) podForNoNode(hash string) *fakeapi.Object {
	for _, p := range s.daemonPods() {
		if p.Metadata.Labels[dsHashLabel] == hash && daemonPodNode(p) == "" {
			return p
		}
	}
	return nil
}

// ---- Pods (D6-D8) ----

// claimPods is getDaemonPods' ClaimPods: orphans the selector matches are
// adopted, owned Pods it no longer matches released.
func (s *dsSync) claimPods() error {
	v, c := s.v, s.c
	m := &refManager{env: c.env, client: dsClient, owner: v.obj, selector: v.selector, rec: s.rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, dsClient, v.obj)}
	var errs []error
	for _, k := range sortedKeys(c.pods.byKey) {
		p := c.pods.byKey[k].obj
		if p.Metadata.Namespace != v.obj.Metadata.Namespace || !s.ownedOrOrphan(p) {
			continue
		}
		if _, err := m.claim(p, func(o *fakeapi.Object) bool { return v.selector.Matches(o.Metadata.Labels) }); err != nil {
			errs = append(errs, err)
		}
	}
	if sum, ok := m.summaryText(); ok {
		s.acts("ClaimedPods", sum)
	}
	return aggregate(errs)
}

// ownedOrOrphan reports whether FilterPodsByOwner gives p for the set: it
// has no controller, or its controller reference names the set by kind,
// name and UID (PodControllerIndexKey).
func (s *dsSync) ownedOrOrphan(p *fakeapi.Object) bool {
	ref := controllerOf(p)
	return ref == nil || ref.UID == s.v.obj.Metadata.UID && refNames(ref, "DaemonSet", s.v.obj.Metadata.Name)
}

// daemonPods are the Pods the set controls, from the cache, by name.
func (s *dsSync) daemonPods() []*fakeapi.Object {
	if s.pods != nil && s.podsAt == s.c.podEvents {
		return s.pods
	}
	out := []*fakeapi.Object{}
	for _, pi := range s.c.pods.byKey {
		p := pi.obj
		if ref := controllerOf(p); ref != nil && s.ownedOrOrphan(p) && p.Metadata.Namespace == s.v.obj.Metadata.Namespace {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *fakeapi.Object) int { return strings.Compare(a.Metadata.Name, b.Metadata.Name) })
	s.pods, s.podsAt = out, s.c.podEvents
	return out
}

// nodesToDaemonPods is getNodesToDaemonPods: the set's Pods by the Node
// they are for (a Pod for no Node is left out), leaving out finished Pods
// already being deleted unless includeDeletedTerminal.
func (s *dsSync) nodesToDaemonPods(includeDeletedTerminal bool) map[string][]*fakeapi.Object {
	out := map[string][]*fakeapi.Object{}
	for _, p := range s.daemonPods() {
		if !includeDeletedTerminal && isPodTerminal(p) && p.Metadata.DeletionTimestamp != nil {
			continue
		}
		n := daemonPodNode(p)
		if n == "" {
			continue
		}
		out[n] = append(out[n], p)
	}
	return out
}

// updateDaemonSet is manage, then the update strategy when manage changed
// nothing, then cleanupHistory.
func (s *dsSync) updateDaemonSet(hash string, old []*fakeapi.Object) error {
	s.fn("manage")
	changed, err := s.manage(hash)
	if err != nil {
		return err
	}
	if !s.v.onDelete && !changed {
		s.fn("rollingUpdate")
		if err := s.rollingUpdate(hash); err != nil {
			return err
		}
	}
	if err := s.cleanupHistory(old); err != nil {
		return fmt.Errorf("failed to clean up revisions of DaemonSet: %w", err)
	}
	return nil
}

// manage: for each Node, podsShouldBeOnNode; then the unscheduled Pods
// for Nodes that no longer exist; then syncNodes. changed says whether it
// created or deleted anything.
func (s *dsSync) manage(hash string) (changed bool, err error) {
	if err := s.claimPods(); err != nil {
		s.act("ClaimFailed", "claiming Pods failed: %v", err)
		return false, err
	}
	nodeToPods := s.nodesToDaemonPods(false)
	var create []string
	var del []dsDeletion
	for _, name := range s.nodeNames() {
		cr, dl := s.podsShouldBeOnNode(s.c.nodes[name], nodeToPods, hash)
		create = append(create, cr...)
		del = append(del, dl...)
	}
	// getUnscheduledPodsWithoutNode
	for _, n := range sortedKeys(nodeToPods) {
		if _, ok := s.c.nodes[n]; ok {
			continue
		}
		for _, p := range nodeToPods[n] {
			if nodeName(p) == "" {
				del = append(del, dsDeletion{p, say1("Node %s no longer exists and the Pod was never scheduled", n)})
			}
		}
	}
	return len(create)+len(del) > 0, s.syncNodes(del, create, hash)
}

// dsDeletion is a Pod to delete and why.
type dsDeletion struct {
	pod *fakeapi.Object
	why []Text
}

// podsShouldBeOnNode decides one Node: create the Pod it should run and
// lacks; delete finished Pods; without surge keep only the oldest running
// Pod; with surge keep an old ready Pod beside a new one until the new one
// is available; delete every Pod from a Node it should not stay on.
func (s *dsSync) podsShouldBeOnNode(node *fakeapi.Object, nodeToPods map[string][]*fakeapi.Object, hash string) (create []string, del []dsDeletion) {
	shouldRun, shouldContinue, why := s.shouldRun(node)
	pods, exists := nodeToPods[node.Metadata.Name]
	name := node.Metadata.Name
	switch {
	case shouldRun && !exists:
		create = append(create, name)
	case shouldContinue:
		var running []*fakeapi.Object
		for _, p := range pods {
			if p.Metadata.DeletionTimestamp != nil {
				continue
			}
			switch podPhase(p) {
			case "Failed":
				s.c.event(s.v.obj, "Warning", "FailedDaemonPod", fmt.Sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it", p.Metadata.Namespace, p.Metadata.Name, name))
				del = append(del, dsDeletion{p, say1("it failed")})
			case "Succeeded":
				s.c.event(s.v.obj, "Normal", "SucceededDaemonPod", fmt.Sprintf("Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Metadata.Namespace, p.Metadata.Name, name))
				del = append(del, dsDeletion{p, say1("it succeeded")})
			default:
				running = append(running, p)
			}
		}
		slices.SortStableFunc(running, byCreationAndPhase)
		if !s.v.allowsSurge() {
			for _, p := range running[min(1, len(running)):] {
				del = append(del, dsDeletion{p, say1("a second Pod on the Node: the oldest stays")})
			}
			break
		}
		if len(running) <= 1 {
			if len(running) == 0 && shouldRun {
				create = append(create, name)
			}
			break
		}
		var oldestNew, oldestOld *fakeapi.Object
		for _, p := range running {
			if p.Metadata.Labels[dsHashLabel] == hash {
				if oldestNew == nil {
					oldestNew = p
					continue
				}
			} else if oldestOld == nil {
				oldestOld = p
				continue
			}
			del = append(del, dsDeletion{p, say1("a third Pod on the Node while surging")})
		}
		if oldestNew != nil && oldestOld != nil {
			switch {
			case !isPodReady(oldestOld):
				del = append(del, dsDeletion{oldestOld, say1("the old Pod is not ready and a new one runs beside it")})
			case s.c.isPodAvailable(oldestNew, s.v.minReadySeconds):
				del = append(del, dsDeletion{oldestOld, say1("the new Pod beside it is available")})
			}
		}
	case exists:
		for _, p := range pods {
			if p.Metadata.DeletionTimestamp == nil {
				del = append(del, dsDeletion{p, []Text{say("the Pod should not run on %s: ", name), why}})
			}
		}
	}
	return create, del
}

// syncNodes creates the Pods (stopping at the first failure, as the slow
// start stops after a failed batch) and deletes the others.
func (s *dsSync) syncNodes(del []dsDeletion, create []string, hash string) error {
	if len(create)+len(del) == 0 {
		return nil
	}
	s.fn("syncNodes")
	var errs []error
	for _, n := range create {
		out, err := s.createPod(n, hash)
		if err != nil {
			s.act("CreateFailed", "creating the Pod for node %s failed (%v)", n, err)
			errs = append(errs, err)
			break
		}
		s.act("CreatedPods", "created %s for node %s", fakeapi.RefOf(out), n)
	}
	for _, d := range del {
		if _, err := s.c.env.api.Delete(dsClient, fakeapi.RefOf(d.pod), nil); err != nil {
			if !fakeapi.IsNotFound(err) {
				s.act("DeleteFailed", "deleting %s failed (%v)", fakeapi.RefOf(d.pod), err)
				errs = append(errs, err)
			}
			continue
		}
		s.c.event(s.v.obj, "Normal", "SuccessfulDelete", "Deleted pod: "+d.pod.Metadata.Name)
		s.acts("DeletedPods", append(append(say1("deleted %s (node %s: ", fakeapi.RefOf(d.pod), daemonPodNode(d.pod)), d.why...), say(")"))...)
	}
	return aggregate(errs)
}

// createPod is CreatePodTemplate (the daemon tolerations and the hash
// label) and CreatePods, with the Pod pinned to node by a required node
// affinity on metadata.name (ReplaceDaemonSetPodNodeNameNodeAffinity).
func (s *dsSync) createPod(node, hash string) (*fakeapi.Object, error) {
	ds, tmpl := s.v.obj, s.v.template
	meta := nestedMap(tmpl, "metadata")
	spec := daemonPodTolerations(nestedMap(tmpl, "spec"))
	required := map[string]any{"nodeSelectorTerms": []any{map[string]any{"matchFields": []any{map[string]any{
		"key": "metadata.name", "operator": "In", "values": []any{node}}}}}}
	aff, _ := spec["affinity"].(map[string]any)
	if aff == nil {
		aff = map[string]any{}
	}
	na, _ := aff["nodeAffinity"].(map[string]any)
	if na == nil {
		na = map[string]any{}
	}
	if req, ok := na["requiredDuringSchedulingIgnoredDuringExecution"].(map[string]any); ok {
		req["nodeSelectorTerms"] = required["nodeSelectorTerms"]
	} else {
		na["requiredDuringSchedulingIgnoredDuringExecution"] = required
	}
	aff["nodeAffinity"] = na
	spec["affinity"] = aff
	labels := copyStringMap(stringMap(meta["labels"]))
	if labels == nil {
		labels = map[string]string{}
	}
	if s.v.generation != "" {
		labels[dsTemplateGenerationLabel] = s.v.generation
	}
	labels[dsHashLabel] = hash
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		GenerateName: ds.Metadata.Name + "-", Namespace: ds.Metadata.Namespace,
		Labels: labels, Annotations: stringMap(meta["annotations"]),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(ds)},
	}, Fields: fakeapi.FieldsOf(map[string]any{"spec": spec})}
	out, err := s.c.env.api.Create(dsClient, pod)
	if err != nil {
		s.c.event(ds, "Warning", "FailedCreate", "Error creating: "+err.Error())
		return nil, err
	}
	s.c.event(ds, "Normal", "SuccessfulCreate", "Created pod: "+out.Metadata.Name)
	return out, nil
}

// ---- the update strategy (D12-D14) ----

// isPodUpdated is util.IsPodUpdated: the Pod carries the current
// revision's hash, or the set's template generation.
func (v dsView) isPodUpdated(p *fakeapi.Object, hash string) bool {
	return (hash != "" && p.Metadata.Labels[dsHashLabel] == hash) ||
		(v.generation != "" && p.Metadata.Labels[dsTemplateGenerationLabel] == v.generation)
}

// findUpdatedPodsOnNode: the Node's one new and one old Pod (not
// terminating); ok is false when it has two of either.
func (v dsView) findUpdatedPodsOnNode(pods []*fakeapi.Object, hash string) (newPod, oldPod *fakeapi.Object, ok bool) {
	for _, p := range pods {
		if p.Metadata.DeletionTimestamp != nil {
			continue
		}
		if v.isPodUpdated(p, hash) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// updatedDesiredNodeCounts: the Nodes that should run a Pod, and maxSurge
// and maxUnavailable scaled to their number (maxUnavailable 1 when both
// come to 0).
func (s *dsSync) updatedDesiredNodeCounts(nodeToPods map[string][]*fakeapi.Object) (surge, unavailable, desired int, err error) {
	for _, name := range s.nodeNames() {
		if ok, _, _ := s.shouldRun(s.c.nodes[name]); ok {
			desired++
			if _, ok := nodeToPods[name]; !ok {
				nodeToPods[name] = nil
			}
		}
	}
	if unavailable, err = s.v.unavailableCount(desired); err != nil {
		return 0, 0, 0, fmt.Errorf("invalid value for MaxUnavailable: %v", err)
	}
	if surge, err = s.v.surgeCount(desired); err != nil {
		return 0, 0, 0, fmt.Errorf("invalid value for MaxSurge: %v", err)
	}
	if desired > 0 && unavailable == 0 && surge == 0 {
		unavailable = 1
	}
	return surge, unavailable, desired, nil
}

// rollingUpdate replaces old Pods within maxUnavailable (delete old, and
// manage creates the new one on its next sync) or within maxSurge (create
// the new one beside the old, delete the old once the new is available).
// Nodes are taken by name; upstream walks a map, in no fixed order.
func (s *dsSync) rollingUpdate(hash string) error {
	nodeToPods := s.nodesToDaemonPods(false)
	maxSurge, maxUnavailable, desired, err := s.updatedDesiredNodeCounts(nodeToPods)
	if err != nil {
		return fmt.Errorf("couldn't get unavailable numbers: %v", err)
	}
	minReady := s.v.minReadySeconds
	available := func(p *fakeapi.Object) bool { return s.c.isPodAvailable(p, minReady) }
	if maxSurge == 0 {
		numUnavailable, oldLeft := 0, 0
		var replace, candidates []*fakeapi.Object
		for _, name := range sortedKeys(nodeToPods) {
			newPod, oldPod, ok := s.v.findUpdatedPodsOnNode(nodeToPods[name], hash)
			if ok && oldPod != nil {
				oldLeft++
			}
			switch {
			case !ok, oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
				numUnavailable++
			case newPod != nil:
				if !available(newPod) {
					numUnavailable++
				}
			case !available(oldPod):
				replace = append(replace, oldPod)
				numUnavailable++
			case numUnavailable >= maxUnavailable:
			default:
				candidates = append(candidates, oldPod)
			}
		}
		remaining := min(max(maxUnavailable-numUnavailable, 0), len(candidates))
		var del []dsDeletion
		for _, p := range replace {
			del = append(del, dsDeletion{p, say1("an old Pod that is not available: replaced at once")})
		}
		for _, p := range candidates[:remaining] {
			del = append(del, dsDeletion{p, say1("an old Pod: rolling update, %d unavailable of maxUnavailable %d", numUnavailable, maxUnavailable)})
		}
		if len(del) == 0 && oldLeft > 0 {
			s.act("RollingUpdateWaits", "%d old Pod(s) wait: %d Node(s) unavailable of maxUnavailable %d", oldLeft, numUnavailable, maxUnavailable)
		}
		return s.syncNodes(del, nil, hash)
	}
	var del, shouldNotRun []dsDeletion
	var allowedNew, candidateNew []string
	numSurge, numAvailable, oldLeft := 0, 0, 0
	for _, name := range sortedKeys(nodeToPods) {
		newPod, oldPod, ok := s.v.findUpdatedPodsOnNode(nodeToPods[name], hash)
		if ok && oldPod != nil {
			oldLeft++
		}
		if !ok {
			numSurge++
			continue
		}
		if oldPod != nil {
			if available(oldPod) {
				numAvailable++
			}
		} else if newPod != nil && available(newPod) {
			numAvailable++
		}
		switch {
		case oldPod == nil:
		case newPod == nil:
			node := s.c.nodes[name]
			if node == nil {
				return fmt.Errorf("couldn't get node for nodeName %q: node %q not found", name, name)
			}
			shouldRun, _, why := s.shouldRun(node)
			switch {
			case !available(oldPod) && !shouldRun:
				del = append(del, dsDeletion{oldPod, []Text{say("an old Pod, not available, on a Node that should not run it: "), why}})
			case !available(oldPod):
				allowedNew = append(allowedNew, name)
			case !shouldRun:
				shouldNotRun = append(shouldNotRun, dsDeletion{oldPod, []Text{say("an old Pod on a Node that should not run it: "), why}})
			case numSurge >= maxSurge:
			default:
				candidateNew = append(candidateNew, name)
			}
		default:
			if !available(newPod) {
				numSurge++
				continue
			}
			del = append(del, dsDeletion{oldPod, say1("an old Pod whose replacement beside it is available")})
		}
	}
	remaining := max(maxSurge-numSurge, 0)
	if n := min(numAvailable-desired, len(shouldNotRun)); n > 0 {
		del = append(del, shouldNotRun[:n]...)
	}
	remaining = min(remaining, len(candidateNew))
	create := append(allowedNew, candidateNew[:remaining]...)
	if len(create)+len(del) == 0 && oldLeft > 0 {
		s.act("RollingUpdateWaits", "%d old Pod(s) wait: %d surge Pod(s) not yet available of maxSurge %d", oldLeft, numSurge, maxSurge)
	}
	return s.syncNodes(del, create, hash)
}

// ---- status (D15) ----

// updateStatus is updateDaemonSetStatus and storeDaemonSetStatus: counted
// over the Nodes, by each Node's oldest Pod; written when a count changed
// or observedGeneration is behind.
func (s *dsSync) updateStatus(hash string) error {
	v, c := s.v, s.c
	nodeToPods := s.nodesToDaemonPods(false)
	var desired, current, mis, ready, updated, available int64
	for _, name := range s.nodeNames() {
		shouldRun, _, _ := s.shouldRun(c.nodes[name])
		pods := slices.Clone(nodeToPods[name])
		scheduled := len(pods) > 0
		if !shouldRun {
			if scheduled {
				mis++
			}
			continue
		}
		desired++
		if !scheduled {
			continue
		}
		current++
		slices.SortStableFunc(pods, byCreationAndPhase)
		p := pods[0]
		if isPodReady(p) {
			ready++
			if c.isPodAvailable(p, v.minReadySeconds) {
				available++
			}
		}
		if v.isPodUpdated(p, hash) {
			updated++
		}
	}
	counts := []struct {
		field string
		n     int64
	}{
		{"desiredNumberScheduled", desired}, {"currentNumberScheduled", current}, {"numberMisscheduled", mis},
		{"numberReady", ready}, {"updatedNumberScheduled", updated}, {"numberAvailable", available},
		{"numberUnavailable", desired - available},
	}
	st, _ := v.obj.Fields.Get("status").(map[string]any)
	same := true
	for _, f := range counts {
		if n, _ := nestedInt(st, f.field); n != f.n {
			same = false
		}
	}
	s.updated = updated
	observed, _ := nestedInt(st, "observedGeneration")
	if v.minReadySeconds > 0 && ready != available {
		c.q.AddAfter(objKey(v.obj), time.Duration(v.minReadySeconds)*time.Second, c.env.now())
	}
	if same && observed >= v.obj.Metadata.Generation {
		return nil
	}
	fresh := v.obj.DeepCopy()
	next := copyJSONMap(st)
	if next == nil {
		next = map[string]any{}
	}
	next["observedGeneration"] = v.obj.Metadata.Generation
	for _, f := range counts {
		next[f.field] = f.n
	}
	fresh.Fields.Set("status", toJSONValue(next))
	_, err := c.env.api.Update(dsClient, fresh)
	return err
}
