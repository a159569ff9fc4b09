package engine

import (
	"math"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestPodIndexMetadataUpdate: an update that keeps a Pod's fields map
// (a deletion's deletionTimestamp, an annotation) reads as a fresh read
// of the new object would, and an update with new fields is read anew.
func TestPodIndexMetadataUpdate(t *testing.T) {
	ctrl := true
	fields := map[string]any{
		"spec": map[string]any{"nodeName": "node-7"},
		"status": map[string]any{"phase": "Running",
			"conditions":        []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}},
			"containerStatuses": []any{map[string]any{"restartCount": float64(3)}}},
	}
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Fields: fakeapi.FieldsOf(fields), Metadata: fakeapi.ObjectMeta{
		Name: "web-1", Namespace: "default", UID: "u1",
		OwnerReferences: []fakeapi.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs", Controller: &ctrl}}}}
	x := newPodIndex()
	x.put(pod)

	deleting := *pod
	deleting.Metadata.DeletionTimestamp = &fakeapi.Time{Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
	deleting.Metadata.Annotations = map[string]string{podDeletionCostAnnotation: "-5"}
	got := x.put(&deleting)
	if want := newPodInfo(&deleting); want.key != "" {
		t.Errorf("newPodInfo gave a key, %q", want.key)
	} else if want.key = "default/web-1"; !reflect.DeepEqual(got, want) {
		t.Errorf("metadata update read as %+v, want %+v", *got, *want)
	}
	if !got.readyTime().Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("metadata update read the ready time as %s", got.readyTime())
	}
	if !got.terminating || got.cost != -5 || got.node() != "node-7" || !got.ready || got.restarts != 3 {
		t.Errorf("metadata update read as %+v", *got)
	}

	failed := deleting
	failed.Fields = fakeapi.FieldsOf(map[string]any{"spec": fields["spec"], "status": map[string]any{"phase": "Failed"}})
	got = x.put(&failed)
	if got.phase() != "Failed" || got.ready || got.restarts != 0 {
		t.Errorf("an update with new fields kept the old status: %+v", *got)
	}
	if n := len(x.controlledBy("default", "rs")); n != 1 {
		t.Errorf("%d Pods under the ReplicaSet after two updates, want 1", n)
	}
}

// TestPodIndexGrowKeepsPods: growing the index keeps every Pod it holds,
// and Pods put afterwards are found beside them.
func TestPodIndexGrowKeepsPods(t *testing.T) {
	pod := func(name string) *fakeapi.Object {
		return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: name, Namespace: "default", UID: "u-" + name}}
	}
	x := newPodIndex()
	x.put(pod("a"))
	x.grow(100)
	x.put(pod("b"))
	x.remove(pod("c")) // not there: nothing happens
	for _, name := range []string{"a", "b"} {
		if p := x.byKey["default/"+name]; p == nil || p.obj.Metadata.Name != name {
			t.Errorf("%s is not in the index after grow", name)
		}
	}
	if got := len(x.orphansIn("default")); got != 2 || len(x.byKey) != 2 {
		t.Errorf("%d orphans, %d Pods by key; want 2 and 2", got, len(x.byKey))
	}
}

// TestPodInfoFitsFortyEightBytes: the shared Pod cache holds one podInfo
// per Pod, and a new one for every update of it; a field that grows it
// past 48 bytes moves every entry to the next size of allocation (64
// bytes). The int32 fields read what the API's int32 holds, and a
// restartCount beyond it (no apiserver would store one) is not read.
func TestPodInfoFitsFortyEightBytes(t *testing.T) {
	if n := unsafe.Sizeof(podInfo{}); n > 48 {
		t.Errorf("podInfo is %d bytes, want at most 48", n)
	}
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Fields: fakeapi.FieldsOf(map[string]any{
		"status": map[string]any{"containerStatuses": []any{
			map[string]any{"restartCount": float64(math.MaxInt32)},
			map[string]any{"restartCount": float64(math.MaxInt32 + 1)},
		}}}), Metadata: fakeapi.ObjectMeta{Name: "p", Namespace: "default",
		Annotations: map[string]string{podDeletionCostAnnotation: "-2147483648"}}}
	p := newPodInfo(pod)
	if p.restarts != math.MaxInt32 || p.cost != math.MinInt32 {
		t.Errorf("restarts %d, cost %d; want %d, %d", p.restarts, p.cost, math.MaxInt32, math.MinInt32)
	}
}

// TestPodInfoReadyTime: the ready time kept as seconds and nanoseconds
// reads back as the time it was given, the zero time included (a Pod
// ready without a lastTransitionTime), and before and after the Unix
// epoch; a podInfo given none holds the zero time.
func TestPodInfoReadyTime(t *testing.T) {
	if got := (&podInfo{}).readyTime(); !got.IsZero() {
		t.Errorf("a podInfo without a ready time reads %s, want the zero time", got)
	}
	for _, want := range []time.Time{
		{},
		time.Unix(0, 0),
		time.Date(1969, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 1, 500_000_000, time.FixedZone("x", 2*3600)),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
	} {
		var p podInfo
		p.setReadyTime(want)
		if got := p.readyTime(); !got.Equal(want) || got.IsZero() != want.IsZero() {
			t.Errorf("ready time %s read back as %s", want, got)
		}
	}
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Fields: fakeapi.FieldsOf(map[string]any{"status": map[string]any{
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:30.25+01:00"}}}})}
	if got, want := newPodInfo(pod).readyTime(), time.Date(2025, 12, 31, 23, 0, 30, 250_000_000, time.UTC); !got.Equal(want) {
		t.Errorf("ready since %s, want %s", got, want)
	}
}

// TestPodKeyMadeOnce: the Pod cache makes a Pod's namespace/name once and
// hands that string on to the entries of later updates and, through
// env.podKeyOf, to the kubelet, which handles each event after the cache;
// a Pod the cache does not hold (or a world without the cache) gets the
// key built anew.
func TestPodKeyMadeOnce(t *testing.T) {
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "web-1", Namespace: "default", UID: "u1"}}
	e := &env{}
	e.observePod(fakeapi.WatchEvent{Type: fakeapi.Added, Object: pod})
	if got := e.podKeyOf(pod); got != "default/web-1" {
		t.Fatalf("without a Pod cache: key %q", got)
	}
	x := e.podInformer()
	e.observePod(fakeapi.WatchEvent{Type: fakeapi.Added, Object: pod})
	first := x.byKey["default/web-1"]
	updated := *pod
	updated.Metadata.Labels = map[string]string{"a": "b"}
	e.observePod(fakeapi.WatchEvent{Type: fakeapi.Modified, Object: &updated, Old: pod})
	second := x.byKey["default/web-1"]
	same := func(a, b string) bool { return a == b && unsafe.StringData(a) == unsafe.StringData(b) }
	if first == nil || second == nil || first.key != "default/web-1" || !same(first.key, second.key) || second.obj != &updated {
		t.Fatalf("the update's entry %+v does not keep the first entry's key (%+v)", second, first)
	}
	if k := e.podKeyOf(&updated); !same(k, first.key) {
		t.Errorf("the kubelet's key %q is not the cache's string", k)
	}
	if x.byController["u1"] != nil || len(x.orphans["default"]) != 1 {
		t.Errorf("the Pod is not among the orphans once: %v", x.orphans)
	}
	e.observePod(fakeapi.WatchEvent{Type: fakeapi.Deleted, Object: &updated})
	if len(x.byKey) != 0 || len(x.orphans) != 0 {
		t.Errorf("removed, yet %d by key and %d namespaces of orphans left", len(x.byKey), len(x.orphans))
	}
	if k := e.podKeyOf(&updated); !same(k, first.key) {
		t.Errorf("the deleted Pod's key %q is not the string the cache held", k)
	}
	again := *pod
	if k := e.podKeyOf(&again); k != "default/web-1" || same(k, first.key) {
		t.Errorf("a Pod no event named got %q, the cache's old string: %v", k, same(k, first.key))
	}
	if k := x.remove(&again); k != "" {
		t.Errorf("removing a Pod the cache does not hold gave key %q", k)
	}
}

// TestPodInfoPhase: a Pod's status.phase reads back as written, whether
// it is one of the API's phases (kept as a code), missing, or any other
// string a dump may hold (read from the object).
func TestPodInfoPhase(t *testing.T) {
	for _, phase := range []string{"", podPending, podRunning, podSucceeded, podFailed, podUnknown, "Terminating", "running"} {
		status := map[string]any{}
		if phase != "" {
			status["phase"] = phase
		}
		p := newPodInfo(&fakeapi.Object{APIVersion: "v1", Kind: "Pod", Fields: fakeapi.FieldsOf(map[string]any{"status": status})})
		if got := p.phase(); got != phase {
			t.Errorf("phase %q read back as %q", phase, got)
		}
		if want := phase != podSucceeded && phase != podFailed; p.active() != want {
			t.Errorf("phase %q: active %v, want %v", phase, p.active(), want)
		}
	}
}

// TestPodInfoFirstReadyCondition: a Pod's readiness and ready time come
// from its first condition of type Ready, as podutil.GetPodReadyCondition
// reads them (GetPodConditionFromList stops at the first match); a later
// Ready condition is not looked at.
func TestPodInfoFirstReadyCondition(t *testing.T) {
	cond := func(status, at string) any {
		return map[string]any{"type": "Ready", "status": status, "lastTransitionTime": at}
	}
	pod := func(conds ...any) *podInfo {
		return newPodInfo(&fakeapi.Object{APIVersion: "v1", Kind: "Pod",
			Fields: fakeapi.FieldsOf(map[string]any{"status": map[string]any{"conditions": conds}})})
	}
	if p := pod(cond("False", "2026-01-01T00:00:00Z"), cond("True", "2026-01-01T00:00:10Z")); p.ready {
		t.Errorf("first Ready condition False, a later one True: ready since %s, want not ready", p.readyTime())
	}
	p := pod(map[string]any{"type": "PodScheduled", "status": "True"},
		cond("True", "2026-01-01T00:00:10Z"), cond("True", "2026-01-01T00:00:20Z"))
	if want := time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC); !p.ready || !p.readyTime().Equal(want) {
		t.Errorf("two Ready conditions True: ready %v since %s, want ready since %s (the first)", p.ready, p.readyTime(), want)
	}
}

// TestDeletionCostParse: the pod-deletion-cost annotation reads as
// GetDeletionCostFromPodAnnotations reads it: a plus sign or a leading
// zero makes it invalid (0), as does anything beyond 32 bits.
func TestDeletionCostParse(t *testing.T) {
	for v, want := range map[string]int32{
		"10": 10, "-10": -10, "0": 0, "-0": 0, "+10": 0, "008": 0, "00": 0, "": 0,
		"text": 0, "2147483647": math.MaxInt32, "2147483648": 0, "-2147483648": math.MinInt32, " 1": 0,
	} {
		pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "p", Namespace: "default",
			Annotations: map[string]string{podDeletionCostAnnotation: v}}}
		if got := newPodInfo(pod).cost; got != want {
			t.Errorf("cost %q read as %d, want %d", v, got, want)
		}
		if got := newPodInfo(pod).withMeta(pod).cost; got != want {
			t.Errorf("cost %q read by withMeta as %d, want %d", v, got, want)
		}
	}
}

// TestKubeletConditions: the conditions the kubelet stand-in writes when a
// Pod's containers start are generateAPIPodStatus's: the conditions the
// kubelet does not own first, in their order, then
// PodReadyToStartContainers, Initialized, Ready, ContainersReady and
// PodScheduled, True; one that was True keeps its transition time, one
// that was not is set at now.
func TestKubeletConditions(t *testing.T) {
	old := []any{
		map[string]any{"type": "PodScheduled", "status": "True", "lastTransitionTime": "T1"},
		map[string]any{"type": "example.com/gate", "status": "False", "lastTransitionTime": "T0"},
		map[string]any{"type": "Ready", "status": "False", "lastTransitionTime": "T1"},
		map[string]any{"type": "Initialized", "status": "True", "lastTransitionTime": "T2"},
	}
	var got []string
	for _, c := range kubeletConditions(old, "T3", nil) {
		got = append(got, nestedString(c, "type")+"="+nestedString(c, "status")+"@"+nestedString(c, "lastTransitionTime"))
	}
	want := []string{"example.com/gate=False@T0", "PodReadyToStartContainers=True@T3", "Initialized=True@T2",
		"Ready=True@T3", "ContainersReady=True@T3", "PodScheduled=True@T1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("conditions %v, want %v", got, want)
	}
}

// TestGeneratePodReady: Ready as GeneratePodReadyCondition makes it:
// ContainersReady's reason and message while a container is unknown or
// not ready, then ReadinessGatesNotReady naming each gate whose condition
// is missing or not True, in the gates' order.
func TestGeneratePodReady(t *testing.T) {
	pod := &fakeapi.Object{Fields: fakeapi.FieldsOf(map[string]any{
		"spec": map[string]any{
			"containers":     []any{map[string]any{"name": "a"}, map[string]any{"name": "b"}, map[string]any{"name": "c"}},
			"readinessGates": []any{map[string]any{"conditionType": "x/one"}, map[string]any{"conditionType": "x/two"}},
		},
	})}
	ready := func(name string, r bool) any { return map[string]any{"name": name, "ready": r} }
	gate := func(typ, status string) any { return map[string]any{"type": typ, "status": status} }
	all := []any{ready("a", true), ready("b", true), ready("c", true)}
	for _, tc := range []struct {
		conds, statuses []any
		phase           string
		want            podCondition
	}{
		{nil, nil, podRunning, podCondition{"False", "UnknownContainerStatuses", ""}},
		{nil, []any{ready("a", true), ready("b", false)}, podRunning,
			podCondition{"False", "ContainersNotReady", "containers with unknown status: [c], containers with unready status: [b]"}},
		{nil, all, podRunning, podCondition{"False", "ReadinessGatesNotReady",
			`corresponding condition of pod readiness gate "x/one" does not exist., corresponding condition of pod readiness gate "x/two" does not exist.`}},
		{[]any{gate("x/two", "Unknown"), gate("x/one", "True")}, all, podRunning, podCondition{"False", "ReadinessGatesNotReady",
			`the status of pod readiness gate "x/two" is not "True", but Unknown`}},
		{[]any{gate("x/two", "True"), gate("x/one", "True")}, all, podRunning, podCondition{status: "True"}},
		{[]any{gate("x/two", "True"), gate("x/one", "True")}, all, podFailed, podCondition{"False", "PodFailed", ""}},
		{nil, all, podSucceeded, podCondition{"False", "PodCompleted", ""}},
	} {
		if got := generatePodReady(pod, tc.conds, tc.statuses, tc.phase); got != tc.want {
			t.Errorf("generatePodReady(%v, %v, %s) = %+v, want %+v", tc.conds, tc.statuses, tc.phase, got, tc.want)
		}
	}
}
