package engine

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// This file holds the life of a Pod as gcplay simulates it, and the Pod
// facts the workload controllers rank and count by.
//
// gcplay has no kube-scheduler and no container runtime. The kubelet
// controller plays both parts, on the virtual clock:
//
//   - scheduling: a Pod without spec.nodeName that has a controller (an
//     ownerReference with controller: true, as every Pod a ReplicaSet
//     creates has) is bound to node "node-1" one second after it appears,
//     as the scheduler's Binding would: spec.nodeName is set and the
//     PodScheduled condition becomes True. A Pod written by hand without
//     spec.nodeName and without a controller stays unscheduled, so a
//     scenario can show both kinds of Pod deletion (R18: an unscheduled Pod
//     is removed at once, a scheduled one waits for its kubelet);
//   - running: two seconds after a Pod is bound, its containers "start":
//     the kubelet's status update sets status.phase Running, startTime,
//     the PodReadyToStartContainers, Initialized, Ready, ContainersReady
//     and PodScheduled conditions (after any the kubelet does not own), one
//     containerStatuses entry per container (ready, started, running).
//     There are no probes and no images to pull: a running Pod is ready at
//     once unless spec.readinessGates names a condition that is missing
//     or not True (then Ready is False, reason ReadinessGatesNotReady, as
//     GeneratePodReadyCondition makes it), and never restarts unless a
//     scenario patches restartCount;
//   - readiness: when a status update leaves a running Pod with readiness
//     gates with a Ready condition other than the one the gates make
//     (NeedToReconcilePodReadiness: a scenario patched a gate's condition,
//     or Ready), the kubelet syncs the Pod at once and writes Ready anew;
//   - terminating: once the grace period of a terminating scheduled Pod
//     has passed, the kubelet writes its terminal status (the containers
//     killed, exit code 137, phase Failed: SyncTerminatingPod), and once
//     it observes that update deletes it with grace 0 (the status
//     manager's canBeDeleted; R18).

const (
	// defaultNodeName is the one node gcplay's stand-in scheduler binds to.
	defaultNodeName = "node-1"
	// schedulingDelay is how long an unscheduled controller-owned Pod waits
	// before the stand-in scheduler binds it.
	schedulingDelay = time.Second
	// containerStartDelay is how long a bound Pod takes to run and be ready.
	containerStartDelay = 2 * time.Second
)

// Pod phases and condition types, with their Kubernetes spelling.
const (
	podPending   = "Pending"
	podRunning   = "Running"
	podSucceeded = "Succeeded"
	podFailed    = "Failed"
	podUnknown   = "Unknown"

	podDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"
)

// podInfo is what the controllers need to know about one Pod, read once
// per watch event from the stored object (which is immutable). The shared
// Pod cache holds one per Pod and makes a new one at every update of it,
// so it is kept to a 48-byte allocation: what is cheap to read again from
// the object (spec.nodeName, see node) is not copied, the phase is a
// small code (phase), the ready time is kept as seconds and nanoseconds
// (readyTime), restarts (the most of any container) and cost (the
// deletion-cost annotation) are int32 as the API's restartCount and
// upstream's parse of the annotation are, and the flags come last.
type podInfo struct {
	obj *fakeapi.Object
	// key is the Pod's namespace/name in the Pod cache, made once when
	// the Pod is first put there and handed on to every later entry of
	// it, so that the cache's maps and the kubelet's queue (env.podKey)
	// hold one string a Pod rather than one per event. "" in an entry
	// made outside the cache (newPodInfo).
	key string
	// readySec and readyNsec are the Ready condition's
	// lastTransitionTime, seconds counted from time.Time's zero, so that
	// a podInfo with none holds the zero time.
	readySec    int64
	readyNsec   int32
	restarts    int32
	cost        int32
	phaseCode   phaseCode
	ready       bool
	terminating bool
}

// phaseCode is status.phase as a byte: one of the phases the API defines,
// or phaseOther for any other string, which phase reads from the object.
type phaseCode uint8

const (
	phaseNone phaseCode = iota // no status.phase
	phasePending
	phaseRunning
	phaseSucceeded
	phaseFailed
	phaseUnknown
	phaseOther
)

var phaseNames = [...]string{phaseNone: "", phasePending: podPending, phaseRunning: podRunning,
	phaseSucceeded: podSucceeded, phaseFailed: podFailed, phaseUnknown: podUnknown}

func codeOfPhase(phase string) phaseCode {
	for c, n := range phaseNames {
		if n == phase {
			return phaseCode(c)
		}
	}
	return phaseOther
}

// phase is the Pod's status.phase.
func (p *podInfo) phase() string {
	if p.phaseCode == phaseOther {
		return nestedString(p.obj.Fields, "status", "phase")
	}
	return phaseNames[p.phaseCode]
}

// setPhase sets the phase, as status.phase would read.
func (p *podInfo) setPhase(phase string) { p.phaseCode = codeOfPhase(phase) }

// zeroUnix is time.Time{}.Unix(): the zero time's place on the Unix clock.
const zeroUnix = -62135596800

// readyTime is when the Pod became ready (the Ready condition's
// lastTransitionTime), the zero time when unknown.
func (p *podInfo) readyTime() time.Time {
	return time.Unix(p.readySec+zeroUnix, int64(p.readyNsec)).UTC()
}

func (p *podInfo) setReadyTime(t time.Time) {
	p.readySec, p.readyNsec = t.Unix()-zeroUnix, int32(t.Nanosecond())
}

// node is the Pod's spec.nodeName, "" while it is not bound.
func (p *podInfo) node() string { return nodeName(p.obj) }

func newPodInfo(o *fakeapi.Object) *podInfo {
	p := &podInfo{obj: o, terminating: o.Metadata.DeletionTimestamp != nil}
	p.phaseCode = codeOfPhase(nestedString(o.Fields, "status", "phase"))
	if ready, since := podReadyCondition(o); ready {
		p.ready = true
		p.setReadyTime(since)
	}
	if cs, ok := nestedSlice(o.Fields, "status", "containerStatuses"); ok {
		for _, c := range cs {
			if n, ok := nestedInt(c, "restartCount"); ok && n > int64(p.restarts) && n <= math.MaxInt32 {
				p.restarts = int32(n)
			}
		}
	}
	p.cost = deletionCost(o.Metadata.Annotations)
	return p
}

// deletionCost is GetDeletionCostFromPodAnnotations: the
// pod-deletion-cost annotation as a 32-bit integer, 0 when absent or not
// valid. A value with a plus sign ("+10") or a leading zero ("008") is not
// valid, though strconv.ParseInt would read it.
func deletionCost(annotations map[string]string) int32 {
	v, ok := annotations[podDeletionCostAnnotation]
	if !ok || v == "" {
		return 0
	}
	if c := v[0]; c != '-' && v != "0" && (c < '1' || c > '9') {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// withMeta is newPodInfo(o) for an o whose fields are p's object's own
// map (an update of metadata only, such as a deletion's
// deletionTimestamp): what comes from spec and status is p's.
func (p *podInfo) withMeta(o *fakeapi.Object) *podInfo {
	n := *p
	n.obj, n.terminating, n.cost = o, o.Metadata.DeletionTimestamp != nil, deletionCost(o.Metadata.Annotations)
	return &n
}

func nestedSlice(v any, path ...string) ([]any, bool) {
	x, ok := nested(v, path...)
	if !ok {
		return nil, false
	}
	l, ok := x.([]any)
	return l, ok
}

func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// active is IsPodActive: not Succeeded, not Failed, not terminating.
func (p *podInfo) active() bool {
	return p.phaseCode != phaseSucceeded && p.phaseCode != phaseFailed && !p.terminating
}

// available is IsPodAvailable: ready, and ready for minReadySeconds; as
// in v1.34, the moment lastTransitionTime + minReadySeconds itself counts
// (on gcplay's exact virtual clock a strict comparison would make every
// Pod available one whole minReadySeconds late).
func (p *podInfo) available(minReadySeconds int64, now time.Time) bool {
	if !p.ready {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	t := p.readyTime()
	return !t.IsZero() && !t.Add(time.Duration(minReadySeconds)*time.Second).After(now)
}

// podIndex is a Pod informer's cache as a controller keeps it: every Pod
// by key, plus an index by controller UID and one of orphans by namespace,
// so a sync reads its own Pods without walking all of them. Stored objects
// are immutable, so entries are shared between clones.
//
// Each controller's set of Pods also keeps running counts for the view of
// its last sync (namespace, selector, template labels): how many active
// Pods match, how many of those carry every template label, how many are
// ready, and how many no longer match. A sync whose view has not changed
// reads the counts instead of walking thousands of Pods; the result is the
// same as upstream's walk over the lister.
type podIndex struct {
	byKey        map[string]*podInfo
	byController map[string]*ownedPods
	orphans      map[string]map[string]*podInfo
	// scratch is where find writes the namespace/name it looks up: a map
	// lookup by string(bytes) copies nothing, where a key longer than 32
	// bytes built by + is allocated.
	scratch []byte
}

// ownedPods is the Pods one controller UID controls.
type ownedPods struct {
	pods map[string]*podInfo
	agg  *podCounts
}

// podCounts are running counts of a set of Pods under one view: the
// owner's namespace, kind and name (with the UID of the set, upstream's
// PodControllerIndexKey), its selector and template labels.
type podCounts struct {
	namespace string
	kind      string
	name      string
	selector  labelsel.Selector
	selKey    string
	template  labelsel.Selector
	tmplKey   string

	matching, fullyLabeled, ready, notMatching int
}

func (a *podCounts) count(p *podInfo, sign int) {
	if p.obj.Metadata.Namespace != a.namespace || !refNames(controllerOf(p.obj), a.kind, a.name) || !p.active() {
		return
	}
	if !a.selector.Matches(p.obj.Metadata.Labels) {
		a.notMatching += sign
		return
	}
	a.matching += sign
	if a.template.Matches(p.obj.Metadata.Labels) {
		a.fullyLabeled += sign
	}
	if p.ready {
		a.ready += sign
	}
}

func newPodIndex() *podIndex {
	return &podIndex{byKey: map[string]*podInfo{}, byController: map[string]*ownedPods{}, orphans: map[string]map[string]*podInfo{}}
}

// grow makes room in the index by key for n more Pods, so that the first
// list of a large world fills it without rehashing as it doubles.
func (x *podIndex) grow(n int) {
	m := make(map[string]*podInfo, len(x.byKey)+n)
	for k, p := range x.byKey {
		m[k] = p
	}
	x.byKey = m
}

// put keeps o, a Pod's new state, and returns its entry, whose key is the
// string the cache first made for the Pod.
func (x *podIndex) put(o *fakeapi.Object) *podInfo {
	old, ok := x.find(o)
	var p *podInfo
	// (Stored objects are immutable: an update that kept the fields
	// kept what is in them.)
	if ok && old.obj.Fields.Same(o.Fields) {
		p = old.withMeta(o)
	} else {
		p = newPodInfo(o)
	}
	if ok {
		p.key = old.key
	} else {
		p.key = objKey(o)
	}
	key := p.key
	x.byKey[key] = p
	ref := controllerOf(o)
	if ok {
		// An update that keeps the Pod's controller replaces it in place.
		if oldRef := controllerOf(old.obj); ref != nil && oldRef != nil && oldRef.UID == ref.UID {
			if set := x.byController[ref.UID]; set != nil {
				if _, in := set.pods[key]; in {
					set.pods[key] = p
					if set.agg != nil {
						set.agg.count(old, -1)
						set.agg.count(p, 1)
					}
					return p
				}
			}
		}
		x.unindex(key, old)
	}
	if ref != nil {
		set := x.byController[ref.UID]
		if set == nil {
			set = &ownedPods{pods: map[string]*podInfo{}}
			x.byController[ref.UID] = set
		}
		set.pods[key] = p
		if set.agg != nil {
			set.agg.count(p, 1)
		}
		return p
	}
	m := x.orphans[o.Metadata.Namespace]
	if m == nil {
		m = map[string]*podInfo{}
		x.orphans[o.Metadata.Namespace] = m
	}
	m[key] = p
	return p
}

// find returns the entry of the Pod o names, by its namespace/name.
func (x *podIndex) find(o *fakeapi.Object) (*podInfo, bool) {
	x.scratch = append(append(append(x.scratch[:0], o.Metadata.Namespace...), '/'), o.Metadata.Name...)
	p, ok := x.byKey[string(x.scratch)]
	return p, ok
}

// remove forgets the Pod o names and returns the key the cache held it
// under, "" when it held none.
func (x *podIndex) remove(o *fakeapi.Object) string {
	old, ok := x.find(o)
	if !ok {
		return ""
	}
	x.unindex(old.key, old)
	delete(x.byKey, old.key)
	return old.key
}

func (x *podIndex) unindex(key string, p *podInfo) {
	if ref := controllerOf(p.obj); ref != nil {
		if set := x.byController[ref.UID]; set != nil {
			if _, ok := set.pods[key]; ok {
				delete(set.pods, key)
				if set.agg != nil {
					set.agg.count(p, -1)
				}
			}
			if len(set.pods) == 0 {
				delete(x.byController, ref.UID)
			}
		}
		return
	}
	if m := x.orphans[p.obj.Metadata.Namespace]; m != nil {
		delete(m, key)
		if len(m) == 0 {
			delete(x.orphans, p.obj.Metadata.Namespace)
		}
	}
}

// refNames reports whether a controller reference names an owner of
// this kind and name.
func refNames(ref *fakeapi.OwnerReference, kind, name string) bool {
	return ref != nil && ref.Kind == kind && ref.Name == name
}

// ownedBy is FilterPodsByOwner without the orphans (v1.34's ReplicaSet,
// Job, StatefulSet and DaemonSet controllers): the Pods whose controller
// reference names the owner by namespace, kind, name and UID, the key of
// the informer's PodControllerIndex (PodControllerIndexKey). A reference
// with the owner's UID and another kind or name (written by hand) is not
// the owner's. In no particular order.
func (x *podIndex) ownedBy(namespace, kind, name, uid string) []*podInfo {
	set := x.byController[uid]
	if set == nil {
		return nil
	}
	out := make([]*podInfo, 0, len(set.pods))
	for _, p := range set.pods {
		if p.obj.Metadata.Namespace == namespace && refNames(controllerOf(p.obj), kind, name) {
			out = append(out, p)
		}
	}
	return out
}

// controlledBy returns the Pods in namespace whose controller has uid, in
// no particular order: the Deployment controller's grouping of the Pods
// by their controller's UID (getPodMapForDeployment).
func (x *podIndex) controlledBy(namespace, uid string) []*podInfo {
	set := x.byController[uid]
	if set == nil {
		return nil
	}
	out := make([]*podInfo, 0, len(set.pods))
	for _, p := range set.pods {
		if p.obj.Metadata.Namespace == namespace {
			out = append(out, p)
		}
	}
	return out
}

// counts returns the running counts of the Pods ownedBy the owner under
// a view, walking them only when the view differs from the last one.
func (x *podIndex) counts(namespace, kind, name, uid string, sel labelsel.Selector, templateLabels map[string]string) podCounts {
	set := x.byController[uid]
	if set == nil {
		return podCounts{}
	}
	tmpl := labelsel.New(templateLabels, nil)
	selKey, tmplKey := sel.String(), tmpl.String()
	if a := set.agg; a == nil || a.namespace != namespace || a.kind != kind || a.name != name || a.selKey != selKey || a.tmplKey != tmplKey {
		a = &podCounts{namespace: namespace, kind: kind, name: name, selector: sel, selKey: selKey, template: tmpl, tmplKey: tmplKey}
		for _, p := range set.pods {
			a.count(p, 1)
		}
		set.agg = a
	}
	return *set.agg
}

// orphansIn returns the Pods in namespace without a controller, by name.
func (x *podIndex) orphansIn(namespace string) []*podInfo {
	m := x.orphans[namespace]
	out := make([]*podInfo, 0, len(m))
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

func (x *podIndex) clone() *podIndex {
	c := &podIndex{byKey: maps.Clone(x.byKey),
		byController: make(map[string]*ownedPods, len(x.byController)),
		orphans:      make(map[string]map[string]*podInfo, len(x.orphans))}
	for uid, set := range x.byController {
		n := &ownedPods{pods: maps.Clone(set.pods)}
		if set.agg != nil {
			a := *set.agg
			n.agg = &a
		}
		c.byController[uid] = n
	}
	for ns, m := range x.orphans {
		c.orphans[ns] = maps.Clone(m)
	}
	return c
}

// lifeStage says which piece of the kubelet's work a Pod waits for: ""
// when none.
func lifeStage(o *fakeapi.Object) string {
	switch {
	case o.Metadata.DeletionTimestamp != nil:
		if nodeName(o) != "" {
			return "terminating"
		}
		return ""
	case podFinished(o):
		return "" // its containers ended (an exit step): nothing to start
	case nodeName(o) == "":
		if controllerOf(o) != nil {
			return "unscheduled"
		}
		return ""
	}
	switch nestedString(o.Fields, "status", "phase") {
	case podRunning:
		if needToReconcileReadiness(o) {
			return "readiness"
		}
		return ""
	case podSucceeded, podFailed:
		return ""
	}
	return "starting"
}

// stageDelay is how long after entering a stage its work is due.
func stageDelay(stage string) time.Duration {
	switch stage {
	case "unscheduled":
		return schedulingDelay
	case "starting":
		return containerStartDelay
	}
	return 0
}

// vtime formats the virtual wall clock as meta/v1 Time does.
func (e *env) vtime() string {
	t := e.clock.Now().UTC().Truncate(time.Second)
	if e.vtimeText == "" || !t.Equal(e.vtimeAt) {
		e.vtimeAt, e.vtimeText = t, t.Format(time.RFC3339)
	}
	return e.vtimeText
}

// setCondition returns conds with condition typ set to True at now,
// keeping the transition time of a condition that was already True.
func setCondition(conds []any, typ, now string) []any {
	for i, c := range conds {
		if nestedString(c, "type") == typ {
			if nestedString(c, "status") == "True" {
				return conds
			}
			conds[i] = map[string]any{"type": typ, "status": "True", "lastTransitionTime": now}
			return conds
		}
	}
	return append(conds, map[string]any{"type": typ, "status": "True", "lastTransitionTime": now})
}

// kubeletOwned are the condition types the kubelet owns
// (PodConditionsByKubelet, and PodReadyToStartContainers, whose feature
// gate is on by default since v1.29).
var kubeletOwned = []string{"PodScheduled", "Ready", "Initialized", "ContainersReady",
	"PodResizeInProgress", "PodResizePending", "PodReadyToStartContainers"}

// kubeletConditions is the conditions of generateAPIPodStatus: the
// conditions the kubelet does not own, in their order, then
// PodReadyToStartContainers, Initialized, Ready, ContainersReady and
// PodScheduled, each as gen says (True when gen does not name it). As
// updateLastTransitionTime does, a condition whose status is unchanged
// keeps its transition time (a True one is kept as it was), any other is
// set at now.
func kubeletConditions(old []any, now string, gen map[string]podCondition) []any {
	return kubeletConditionsShared(old, now, gen, nil)
}

// kubeletConditionsShared is kubeletConditions taking each new condition
// from memo, where it is kept: stored objects are never changed, so the
// Pods the kubelet ends at one time share their equal conditions.
func kubeletConditionsShared(old []any, now string, gen map[string]podCondition, memo map[condKey]any) []any {
	out := make([]any, 0, len(old)+5)
	for _, c := range old {
		if !slices.Contains(kubeletOwned, nestedString(c, "type")) {
			out = append(out, c)
		}
	}
	for _, t := range []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"} {
		g, ok := gen[t]
		if !ok {
			g = podCondition{status: "True"}
		}
		since := now
		var keep any
		for _, c := range old {
			if nestedString(c, "type") == t {
				if nestedString(c, "status") == g.status {
					since = nestedString(c, "lastTransitionTime")
					if g.status == "True" && g.reason == "" {
						keep = c
					}
				}
				break
			}
		}
		if keep == nil {
			switch {
			case memo == nil:
				keep = g.object(t, since)
			default:
				k := condKey{t, g, since}
				if keep = memo[k]; keep == nil {
					if len(memo) >= 64 {
						clear(memo)
					}
					keep = g.object(t, since)
					memo[k] = keep
				}
			}
		}
		out = append(out, keep)
	}
	return out
}

// condKey is a condition the kubelet writes: its type, what
// GeneratePodReadyCondition and friends say, and its transition time.
type condKey struct {
	typ   string
	cond  podCondition
	since string
}

// podCondition is a condition the kubelet generates: its status, and the
// reason and message that say why one is not True.
type podCondition struct{ status, reason, message string }

func (c podCondition) object(typ, since string) map[string]any {
	m := map[string]any{"type": typ, "status": c.status, "lastTransitionTime": since}
	if c.reason != "" {
		m["reason"] = c.reason
	}
	if c.message != "" {
		m["message"] = c.message
	}
	return m
}

// generateContainersReady is GenerateContainersReadyCondition for
// gcplay's Pods, which have no restartable init containers: False with
// reason UnknownContainerStatuses when the Pod has no containerStatuses,
// False with PodCompleted or PodFailed in a terminal phase (Succeeded
// only when every container has a status), False with ContainersNotReady
// naming the containers without a status or not ready, else True.
func generateContainersReady(pod *fakeapi.Object, statuses []any, phase string) podCondition {
	containers, _ := nestedSlice(pod.Fields, "spec", "containers")
	// (A Pod without containers, which the real apiserver refuses, has no
	// status to miss.)
	if statuses == nil && len(containers) > 0 {
		return podCondition{status: "False", reason: "UnknownContainerStatuses"}
	}
	var unknown, unready []string
	for _, c := range containers {
		name := nestedString(c, "name")
		i := slices.IndexFunc(statuses, func(s any) bool { return nestedString(s, "name") == name })
		switch {
		case i < 0:
			unknown = append(unknown, name)
		case !nestedBool(statuses[i], "ready"):
			unready = append(unready, name)
		}
	}
	switch {
	case phase == podSucceeded && len(unknown) == 0:
		return podCondition{status: "False", reason: "PodCompleted"}
	case phase == podFailed:
		return podCondition{status: "False", reason: "PodFailed"}
	}
	var msgs []string
	if len(unknown) > 0 {
		msgs = append(msgs, "containers with unknown status: ["+strings.Join(unknown, " ")+"]")
	}
	if len(unready) > 0 {
		msgs = append(msgs, "containers with unready status: ["+strings.Join(unready, " ")+"]")
	}
	if len(msgs) > 0 {
		return podCondition{status: "False", reason: "ContainersNotReady", message: strings.Join(msgs, ", ")}
	}
	return podCondition{status: "True"}
}

// generatePodReady is GeneratePodReadyCondition: ContainersReady's
// status, reason and message when that is not True; else False with
// reason ReadinessGatesNotReady while the condition a readiness gate
// names (in conds) is missing or not True, with a message naming each
// such gate; else True.
func generatePodReady(pod *fakeapi.Object, conds, statuses []any, phase string) podCondition {
	if c := generateContainersReady(pod, statuses, phase); c.status != "True" {
		return c
	}
	gates, _ := nestedSlice(pod.Fields, "spec", "readinessGates")
	var msgs []string
	for _, g := range gates {
		typ := nestedString(g, "conditionType")
		i := slices.IndexFunc(conds, func(c any) bool { return nestedString(c, "type") == typ })
		switch {
		case i < 0:
			msgs = append(msgs, "corresponding condition of pod readiness gate "+strconv.Quote(typ)+" does not exist.")
		case nestedString(conds[i], "status") != "True":
			msgs = append(msgs, "the status of pod readiness gate "+strconv.Quote(typ)+" is not \"True\", but "+nestedString(conds[i], "status"))
		}
	}
	if len(msgs) > 0 {
		return podCondition{status: "False", reason: "ReadinessGatesNotReady", message: strings.Join(msgs, ", ")}
	}
	return podCondition{status: "True"}
}

// needToReconcileReadiness is NeedToReconcilePodReadiness: whether a Pod
// with readiness gates has a Ready condition whose status or message is
// not the one the kubelet would generate from the Pod's status now (a
// gate's condition was patched, or Ready was). HandlePodReconcile then
// syncs the Pod, and the status manager writes Ready anew.
func needToReconcileReadiness(pod *fakeapi.Object) bool {
	if gates, _ := nestedSlice(pod.Fields, "spec", "readinessGates"); len(gates) == 0 {
		return false
	}
	conds, _ := nestedSlice(pod.Fields, "status", "conditions")
	i := slices.IndexFunc(conds, func(c any) bool { return nestedString(c, "type") == "Ready" })
	if i < 0 {
		return false
	}
	statuses, _ := nestedSlice(pod.Fields, "status", "containerStatuses")
	g := generatePodReady(pod, conds, statuses, nestedString(pod.Fields, "status", "phase"))
	return nestedString(conds[i], "status") != g.status || nestedString(conds[i], "message") != g.message
}

func existingConditions(pod *fakeapi.Object) []any {
	conds, _ := nestedSlice(pod.Fields, "status", "conditions")
	out := make([]any, len(conds))
	copy(out, conds)
	return out
}

// bind is the stand-in scheduler's Binding: spec.nodeName and the
// PodScheduled condition, written as one merge patch that carries the
// Pod's uid (so a recreated Pod is not bound by mistake).
func (k *kubelet) bind(rec *Record, key string, pod *fakeapi.Object) {
	now := k.env.vtime()
	// A Pod pinned to a node by a required node affinity on metadata.name
	// (a DaemonSet's) goes there; every other Pod to the one node.
	node := defaultNodeName
	if n := daemonPodNode(pod); n != "" {
		node = n
	}
	body, _ := json.Marshal(map[string]any{
		"metadata": map[string]any{"uid": pod.Metadata.UID},
		"spec":     map[string]any{"nodeName": node},
		"status":   map[string]any{"conditions": setCondition(existingConditions(pod), "PodScheduled", now)},
	})
	_, err := k.env.api.Patch(ControllerKubelet, fakeapi.RefOf(pod), fakeapi.MergePatch, body)
	k.finishLifeStep(rec, key, err, Reason{Code: "PodScheduled", Func: "kube-scheduler bind (played by gcplay's kubelet)"}.
		Say("%s has no node: gcplay's stand-in scheduler binds it to %s", rec.Item, node))
}

// start is the kubelet starting the Pod's containers and reporting
// status: Running and Ready (gcplay has no probes).
func (k *kubelet) start(rec *Record, key string, pod *fakeapi.Object) {
	now := k.env.vtime()
	restarts := map[string]any{}
	if cs, ok := nestedSlice(pod.Fields, "status", "containerStatuses"); ok {
		for _, c := range cs {
			if n, ok := nested(c, "restartCount"); ok {
				restarts[nestedString(c, "name")] = n
			}
		}
	}
	var statuses []any
	containers, _ := nestedSlice(pod.Fields, "spec", "containers")
	for _, c := range containers {
		name := nestedString(c, "name")
		rc, ok := restarts[name]
		if !ok {
			rc = float64(0)
		}
		statuses = append(statuses, map[string]any{
			"name": name, "image": nestedString(c, "image"), "imageID": "",
			"ready": true, "started": true, "restartCount": rc,
			"state": map[string]any{"running": map[string]any{"startedAt": now}},
		})
	}
	old := existingConditions(pod)
	ready := generatePodReady(pod, old, statuses, podRunning)
	conds := kubeletConditions(old, now, map[string]podCondition{"Ready": ready})
	status := map[string]any{"phase": podRunning, "conditions": conds, "startTime": now}
	if statuses != nil {
		status["containerStatuses"] = statuses
	}
	body, _ := json.Marshal(map[string]any{"metadata": map[string]any{"uid": pod.Metadata.UID}, "status": status})
	_, err := k.env.api.Patch(ControllerKubelet, fakeapi.RefOf(pod), fakeapi.MergePatch, body)
	why := Reason{Code: "PodStarted", Func: "kubelet SyncPod, statusManager"}
	if ready.status != "True" {
		why.Func += ", GeneratePodReadyCondition"
		k.finishLifeStep(rec, key, err, why.Say("the containers of %s started on %s: it is Running, but not Ready (%s: %s)",
			rec.Item, nodeName(pod), ready.reason, ready.message))
		return
	}
	k.finishLifeStep(rec, key, err, why.Say("the containers of %s started on %s: it is Running and Ready (gcplay has no probes)", rec.Item, nodeName(pod)))
}

// reconcileReadiness is HandlePodReconcile for a Pod whose Ready
// condition is not what its readiness gates make it
// (NeedToReconcilePodReadiness): the status update the kubelet observed
// makes it sync the Pod, and the status manager writes the kubelet's
// conditions again, Ready as GeneratePodReadyCondition makes it now.
func (k *kubelet) reconcileReadiness(rec *Record, key string, pod *fakeapi.Object) {
	now := k.env.vtime()
	old := existingConditions(pod)
	statuses, _ := nestedSlice(pod.Fields, "status", "containerStatuses")
	phase := nestedString(pod.Fields, "status", "phase")
	cready := generateContainersReady(pod, statuses, phase)
	ready := generatePodReady(pod, old, statuses, phase)
	conds := kubeletConditions(old, now, map[string]podCondition{"Ready": ready, "ContainersReady": cready})
	body, _ := json.Marshal(map[string]any{"metadata": map[string]any{"uid": pod.Metadata.UID},
		"status": map[string]any{"conditions": conds}})
	_, err := k.env.api.Patch(ControllerKubelet, fakeapi.RefOf(pod), fakeapi.MergePatch, body)
	why := Reason{Code: "ReadinessReconciled", Func: "kubelet HandlePodReconcile, GeneratePodReadyCondition"}
	if ready.status == "True" {
		why = why.Say("the conditions the readiness gates of %s name are all True: the kubelet's status sync writes Ready True", rec.Item)
	} else {
		why = why.Say("the readiness gates of %s are not all True: the kubelet's status sync writes Ready False (%s: %s)", rec.Item, ready.reason, ready.message)
	}
	k.finishLifeStep(rec, key, err, why)
}

// killedExitCode and killedReason are what the container runtime reports
// for a container killed with SIGKILL at the end of its grace period (128
// + 9; containerd's and CRI-O's reason for a non-zero exit).
const (
	killedExitCode = 137
	killedReason   = "Error"
)

// reportTerminated is the status SyncTerminatingPod writes once it has
// killed a terminating Pod's containers (generateAPIPodStatus with
// podIsTerminal, then the status manager's patch): every container
// terminated (one gcplay ran, which ignores SIGTERM, killed at the end of
// the grace period with exit code 137; one already terminated as it was;
// one never started as TerminatePod marks it, reason
// ContainerStatusUnknown), the phase getPhase gives a terminal Pod
// (Succeeded when every container exited 0, else Failed), and the
// kubelet's conditions for that phase. The delete waits for the next sync
// (canBeDeleted).
func (k *kubelet) reportTerminated(rec *Record, key string, pod *fakeapi.Object) {
	now := k.env.vtime()
	// A container without a status in a Running Pod (a dump's, whose
	// statuses were left out) ran from the Pod's startTime.
	running := nestedString(pod.Fields, "status", "phase") == podRunning
	startTime := nestedString(pod.Fields, "status", "startTime")
	prevs, _ := nestedSlice(pod.Fields, "status", "containerStatuses")
	containers, _ := nestedSlice(pod.Fields, "spec", "containers")
	// getPhase: Succeeded needs a container, and every one exited 0.
	phase := podSucceeded
	if len(containers) == 0 {
		phase = podFailed
	}
	var statuses []any
	var waited []string
	killed := false
	for _, c := range containers {
		name := nestedString(c, "name")
		var prev any
		for _, p := range prevs {
			if nestedString(p, "name") == name {
				prev = p
				break
			}
		}
		rc, _ := nestedInt(prev, "restartCount")
		var st any
		switch t, _ := nested(prev, "state", "terminated"); {
		case t != nil:
			st = containerTerminated(name, nestedString(c, "image"), rc, t)
			if code, _ := nestedInt(t, "exitCode"); code != 0 {
				phase = podFailed
			}
		case running || nestedString(prev, "state", "running", "startedAt") != "":
			started := nestedString(prev, "state", "running", "startedAt")
			if started == "" {
				started = startTime
			}
			st = k.endedContainer(endedContainer{name: name, image: nestedString(c, "image"), restarts: rc, started: started, finished: now})
			killed, phase = true, podFailed
		default:
			st = k.endedContainer(endedContainer{name: name, image: nestedString(c, "image"), restarts: rc, unknown: true})
			waited, phase = append(waited, name), podFailed
		}
		statuses = append(statuses, st)
	}
	// A Pod whose containers never ran keeps the conditions the kubelet
	// wrote while they waited (ContainersNotReady); mergePodStatus changes
	// Ready only when it is True.
	ready := podCondition{status: "False", reason: "PodFailed"}
	initialized := podCondition{status: "True"}
	if phase == podSucceeded {
		ready.reason, initialized.reason = "PodCompleted", "PodCompleted"
	}
	if len(waited) > 0 && len(waited) == len(containers) {
		ready = podCondition{status: "False", reason: "ContainersNotReady",
			message: "containers with unready status: [" + strings.Join(waited, " ") + "]"}
	}
	if k.conds == nil {
		k.conds = map[condKey]any{}
	}
	gen := k.gen
	if gen == nil {
		gen = map[string]podCondition{}
		k.gen = gen
	}
	gen["PodReadyToStartContainers"], gen["Initialized"] = podCondition{status: "False"}, initialized
	gen["Ready"], gen["ContainersReady"] = ready, ready
	conds := kubeletConditionsShared(existingConditions(pod), now, gen, k.conds)
	// The status manager's patch of status: these three fields replaced,
	// the rest of status kept. The new state shares everything else with
	// the stored one (UpdateShared), as a patch's result would equal it;
	// status is held packed, as a restored dump's is.
	entries := []fakeapi.Field{{Name: "phase", Value: podSucceeded}, {Name: "conditions", Value: conds}}
	if phase == podFailed {
		entries[0].Value = podFailed // (a constant: boxed without allocating)
	}
	if statuses != nil {
		entries = append(entries, fakeapi.Field{Name: "containerStatuses", Value: statuses})
	}
	if old, ok := pod.Fields.Lookup("status"); ok {
		if m, ok := old.(map[string]any); ok {
			for k, v := range m {
				switch k {
				case "phase", "conditions", "containerStatuses":
				default:
					entries = append(entries, fakeapi.Field{Name: k, Value: v})
				}
			}
		}
	}
	status, _ := fakeapi.PackMap(entries)
	next := *pod
	next.Fields = pod.Fields.Clone()
	next.Fields.Set("status", status)
	_, err := k.env.api.UpdateShared(ControllerKubelet, &next)
	why := Reason{Code: "PodTerminated", Rule: "R18", Func: "kubelet SyncTerminatingPod, statusManager"}
	// (A killed container exits 137 and one that never ran is marked
	// 137: those Pods are Failed, so their sentences name no value but
	// the Pod, and a settle no one reads boxes nothing.)
	switch {
	case killed:
		why = rec.BecauseItem(why, "the grace period of %s is over: the runtime killed its containers (exit code 137) and the kubelet reports phase Failed; it deletes the Pod once the apiserver holds that phase")
	case len(waited) > 0:
		why = rec.BecauseItem(why, "the grace period of %s is over and its containers never ran: the kubelet reports phase Failed; it deletes the Pod once the apiserver holds that phase")
	case phase == podFailed:
		why = rec.BecauseItem(why, "the containers of %s have all stopped: the kubelet reports phase Failed; it deletes the Pod once the apiserver holds that phase")
	default:
		why = rec.BecauseItem(why, "the containers of %s have all stopped: the kubelet reports phase Succeeded; it deletes the Pod once the apiserver holds that phase")
	}
	k.finishLifeStep(rec, key, err, why)
}

// endedContainer is a container the kubelet reports terminated at the
// end of a Pod's grace period: killed, or (unknown) never started.
type endedContainer struct {
	name, image       string
	restarts          int64
	started, finished string
	unknown           bool
}

// endedContainer returns e's containerStatuses entry: killed with exit
// code 137 at the end of the grace period (killedReason), or as
// TerminatePod marks a container without a status (reason
// ContainerStatusUnknown, no times). The entry made last is reused for an
// equal container (stored objects are never changed, so the Pods of one
// template that end at one time share it).
func (k *kubelet) endedContainer(e endedContainer) any {
	if k.lastEnded.obj != nil && k.lastEnded.key == e {
		return k.lastEnded.obj
	}
	// A container whose start the Pod does not say (a dump's Pod with a
	// phase and no startTime or containerStatuses) has a zero startedAt,
	// which the API writes as null.
	var started any
	if e.started != "" {
		started = e.started
	}
	term := map[string]any{"exitCode": float64(killedExitCode), "reason": killedReason,
		"startedAt": started, "finishedAt": e.finished}
	if e.unknown {
		term = map[string]any{"exitCode": float64(killedExitCode), "reason": "ContainerStatusUnknown",
			"message": "The container could not be located when the pod was terminated"}
	}
	obj := containerTerminated(e.name, e.image, e.restarts, term)
	k.lastEnded.key, k.lastEnded.obj = e, obj
	return obj
}

// containerTerminated is a containerStatuses entry of a container in
// state terminated.
func containerTerminated(name, image string, restarts int64, term any) map[string]any {
	return map[string]any{
		"name": name, "image": image, "imageID": "",
		"ready": false, "started": false, "restartCount": float64(restarts),
		"state": map[string]any{"terminated": term},
	}
}

func (k *kubelet) finishLifeStep(rec *Record, key string, err error, ok Reason) {
	switch {
	case err == nil:
		k.q.Forget(key)
		rec.Reason = ok
	case fakeapi.IsNotFound(err) || fakeapi.IsInvalid(err):
		k.q.Forget(key)
		rec.Err = err.Error()
		rec.Reason = Reason{Code: "PodGone", Func: ok.Func}.Say("%s was deleted or replaced meanwhile: nothing to do", rec.Item)
	default:
		d := k.q.AddRateLimited(key, k.env.now())
		rec.Err = err.Error()
		rec.Reason = Reason{Code: "Requeued", Func: ok.Func}.Say("updating %s failed: retried in %s", rec.Item, d)
	}
}
