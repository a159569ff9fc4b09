package fakeapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestGet_ReadsThroughAnyServedVersion(t *testing.T) {
	reg := NewRegistry()
	for _, v := range []string{"v1", "v2"} {
		if err := reg.Add(KindInfo{APIVersion: "example.com/" + v, Kind: "Widget", Scope: Namespaced, Custom: true}); err != nil {
			t.Fatal(err)
		}
	}
	w := newWorldWith(t, reg)
	created := w.create(obj("example.com/v2", "Widget", "default", "w"))
	if created.APIVersion != "example.com/v2" {
		t.Errorf("create answered in %s, want the request's version", created.APIVersion)
	}
	if w.events[0].Object.APIVersion != "example.com/v1" {
		t.Errorf("watch event in %s, want the first served version", w.events[0].Object.APIVersion)
	}
	got, err := w.s.Get("test", Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w"})
	if err != nil || got.APIVersion != "example.com/v1" || got.Metadata.UID != created.Metadata.UID {
		t.Errorf("get through v1 = %s, %v", describe(got), err)
	}
	_, err = w.s.Get("test", Ref{APIVersion: "example.com/v3", Kind: "Widget", Namespace: "default", Name: "w"})
	wantStatus(t, err, ReasonNotFound, 404, "the server could not find the requested resource")
	_, err = w.s.Get("test", Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "other", Name: "w"})
	wantStatus(t, err, ReasonNotFound, 404, `widgets.example.com "w" not found`)
	_, err = w.s.Get("test", Ref{APIVersion: "example.com/v1", Kind: "Widget", Name: "w"})
	wantStatus(t, err, ReasonNotFound, 404, "the server could not find the requested resource")
}

func TestList_SortedAndScoped(t *testing.T) {
	w := newWorld(t)
	w.create(obj("v1", "Namespace", "", "b"))
	for _, o := range []*Object{obj("v1", "ConfigMap", "b", "z"), configMap("y"), configMap("x")} {
		w.create(o)
	}
	all, err := w.s.List("test", "v1", "ConfigMap", "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range all {
		names = append(names, o.String())
	}
	if want := []string{"ConfigMap/b/z", "ConfigMap/x", "ConfigMap/y"}; !slices.Equal(names, want) {
		t.Errorf("list = %q, want %q", names, want)
	}
	inB, _ := w.s.List("test", "v1", "ConfigMap", "b")
	if len(inB) != 1 {
		t.Errorf("list in b = %d objects, want 1", len(inB))
	}
}

func TestWatch_EventsCarryNewAndOldInOrder(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("x"))
	w.mergePatch(cmRef("x"), `{"data":{"a":"1"}}`)
	w.delete(cmRef("x"), nil)
	wantEvents(t, w.since(0), "ADDED ConfigMap/x", "MODIFIED ConfigMap/x", "DELETED ConfigMap/x")
	rv := 0
	for i, ev := range w.events {
		if ev.Seq != i+1 {
			t.Errorf("event %d has seq %d", i, ev.Seq)
		}
		var n int
		fmt.Sscan(ev.ResourceVersion, &n)
		if n <= rv {
			t.Errorf("resourceVersion %d after %d", n, rv)
		}
		rv = n
	}
	if w.events[0].Old != nil || w.events[1].Old != w.events[0].Object {
		t.Error("Old is not the previous stored state")
	}
	if del := w.events[2]; del.Object != w.events[1].Object || del.Old != del.Object {
		t.Error("DELETED does not carry the last stored state")
	}
}

func TestWatch_RequestsFromWatchersKeepTheOrder(t *testing.T) {
	w := newWorld(t)
	var seen []string
	w.s.Watch(func(ev WatchEvent) {
		seen = append(seen, fmt.Sprintf("%d %s %s", ev.Seq, ev.Type, ev.Object))
		if ev.Type == Added && ev.Object.Metadata.Name == "a" {
			if _, err := w.s.Create("echo", configMap("b")); err != nil {
				t.Error(err)
			}
		}
	})
	var trace []string
	w.s.OnRequest(func(r Request) { trace = append(trace, r.Client+" "+r.Verb+" "+r.Ref.String()) })
	w.create(configMap("a"))
	if want := []string{"1 ADDED ConfigMap/a", "2 ADDED ConfigMap/b"}; !slices.Equal(seen, want) {
		t.Errorf("second watcher saw %q, want %q", seen, want)
	}
	wantEvents(t, w.since(0), "ADDED ConfigMap/a", "ADDED ConfigMap/b")
	if want := []string{"test create ConfigMap/a", "echo create ConfigMap/b"}; !slices.Equal(trace, want) {
		t.Errorf("requests = %q, want %q", trace, want)
	}
}

func TestRequests_RecordEveryRequest(t *testing.T) {
	w := newWorld(t)
	var reqs []Request
	cancel := w.s.OnRequest(func(r Request) { reqs = append(reqs, r) })
	w.create(configMap("x"))
	w.s.Get("test", cmRef("missing"))
	w.s.List("test", "v1", "ConfigMap", "default")
	w.s.Patch("gc", cmRef("x"), StrategicMergePatch, []byte("{\"metadata\": {\"labels\": {\"a\":\"b\"}}}"))
	cur, _ := w.s.Get("test", cmRef("x"))
	w.s.Update("test", cur)
	fg := DeletionPropagation("Foreground")
	w.s.Delete("gc", cmRef("x"), &DeleteOptions{PropagationPolicy: &fg, Preconditions: &Preconditions{UID: str("uid-0005"), ResourceVersion: str("6")}})
	cancel()
	w.s.Get("test", cmRef("x"))

	var got []string
	for _, r := range reqs {
		got = append(got, fmt.Sprintf("%s %s %s [%s] %d %s %s", r.Client, r.Verb, r.Ref, r.Detail, r.Code, r.Reason, r.Message))
	}
	want := []string{
		"test create ConfigMap/x [] 201  ",
		`test get ConfigMap/missing [] 404 NotFound configmaps "missing" not found`,
		"test list ConfigMap/ [] 200  ",
		`gc patch ConfigMap/x [strategic {"metadata":{"labels":{"a":"b"}}}] 200  `,
		"test get ConfigMap/x [] 200  ",
		"test update ConfigMap/x [resourceVersion=6] 200  ",
		"gc delete ConfigMap/x [propagationPolicy=Foreground, preconditions uid=uid-0005 rv=6] 200  ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFaults_FailTheNextRequestsAndChangeNothing(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("x"))
	w.create(configMap("y"))
	w.s.Inject(Fault{Verb: "delete", Kind: "cm", Name: "x", Reason: ReasonConflict, Times: 2})
	w.s.Inject(Fault{Verb: "DELETE", Kind: "configmap", Reason: ReasonServiceUnavailable})
	var injected []bool
	w.s.OnRequest(func(r Request) { injected = append(injected, r.Injected) })
	n := len(w.events)

	_, err := w.s.Delete("test", cmRef("y"), nil) // the second fault matches any ConfigMap
	wantStatus(t, err, ReasonServiceUnavailable, 503, "injected fault: ServiceUnavailable on delete ConfigMap/y")
	for range 2 {
		_, err = w.s.Delete("test", cmRef("x"), policy(DeletePropagationForeground))
		wantStatus(t, err, ReasonConflict, 409, "injected fault: Conflict on delete ConfigMap/x")
	}
	if len(w.events) != n || len(w.s.Faults()) != 0 {
		t.Fatalf("faults changed storage (%q) or remain (%+v)", w.since(n), w.s.Faults())
	}
	w.delete(cmRef("x"), nil)
	if !slices.Equal(injected, []bool{true, true, true, false}) {
		t.Errorf("injected flags = %v", injected)
	}

	// Pending faults are part of a clone, and each copy consumes its own.
	w.s.Inject(Fault{Verb: "get", Kind: "ConfigMap", Reason: ReasonInternalError})
	c := w.s.Clone(nil)
	_, err = c.Get("test", cmRef("y"))
	wantStatus(t, err, ReasonInternalError, 500, "injected fault: InternalError on get ConfigMap/y")
	if len(w.s.Faults()) != 1 {
		t.Error("the clone consumed the original's fault")
	}
}

func TestEvents_R60_RecordEvent(t *testing.T) {
	w := newWorld(t)
	w.clock.Advance(3 * time.Second)
	w.create(obj("v1", "Namespace", "", "other"))
	msg := `ownerRef [apps/v1/ReplicaSet, namespace: other, name: rs, uid: u1] does not exist in namespace "other"`
	w.s.RecordEvent("garbagecollector", Event{
		Object: Ref{APIVersion: "v1", Kind: "Pod", Namespace: "other", Name: "p"}, ObjectUID: "uid-0042",
		Type: "Warning", Reason: "OwnerRefInvalidNamespace", Message: msg, Source: "garbage-collector-controller",
	})
	w.s.RecordEvent("garbagecollector", Event{
		Object: Ref{APIVersion: "v1", Kind: "PersistentVolume", Name: "pv"}, Type: "Warning", Reason: "OwnerRefInvalidNamespace",
	})
	evs := w.s.Events()
	if len(evs) != 2 || evs[0].Namespace != "other" || evs[0].Name != "p.18867252a0ca5e01" ||
		evs[1].Namespace != "default" || evs[1].Name != "pv.18867252a0ca5e02" || !evs[0].Time.Equal(Epoch.Add(3*time.Second)) {
		t.Fatalf("events = %+v", evs)
	}
	wantEvents(t, w.since(1), "ADDED Event/other/p.18867252a0ca5e01", "ADDED Event/pv.18867252a0ca5e02")
	stored := w.stored(Ref{APIVersion: "v1", Kind: "Event", Namespace: "other", Name: "p.18867252a0ca5e01"})
	got := describe(stored)
	for _, want := range []string{
		`"involvedObject":{"apiVersion":"v1","kind":"Pod","name":"p","namespace":"other","uid":"uid-0042"}`,
		`"reason":"OwnerRefInvalidNamespace"`, `"type":"Warning"`, `"source":{"component":"garbage-collector-controller"}`,
		`"count":1`, `"firstTimestamp":"2026-01-01T00:00:03Z"`, `"lastTimestamp":"2026-01-01T00:00:03Z"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("event object %s\nlacks %s", got, want)
		}
	}
	// util.GenerateEventName: a name that is no DNS subdomain is a UUID.
	long := strings.Repeat("a", 240)
	ev, err := w.s.RecordEvent("garbagecollector", Event{Object: Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "other", Name: long}, Type: "Normal", Reason: "R"})
	if err != nil || ev.Name != "00000000-0000-4000-8000-000000000003" {
		t.Errorf("event about %d-character name: %q, %v", len(long), ev.Name, err)
	}
}

func TestClone_IsIndependent(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("x"))
	c := w.s.Clone(&testClock{t: Epoch.Add(time.Hour)})
	var cloneEvents []WatchEvent
	c.Watch(func(ev WatchEvent) { cloneEvents = append(cloneEvents, ev) })
	n := len(w.events)

	if _, err := c.Create("test", configMap("only-in-clone")); err != nil {
		t.Fatal(err)
	}
	c.Delete("test", cmRef("x"), nil)
	if w.stored(cmRef("x")) == nil || w.stored(cmRef("only-in-clone")) != nil || len(w.events) != n || len(w.s.Removals()) != 0 {
		t.Error("the clone's writes reached the original")
	}
	// Counters continue independently and identically.
	a := w.create(configMap("next"))
	b, _ := c.Create("test", configMap("next"))
	if a.Metadata.UID != "uid-0006" || b.Metadata.UID != "uid-0007" {
		t.Errorf("uids = %s, %s", a.Metadata.UID, b.Metadata.UID)
	}
	if !b.Metadata.CreationTimestamp.Equal(Epoch.Add(time.Hour)) {
		t.Errorf("clone clock not used: %v", b.Metadata.CreationTimestamp)
	}
	if len(cloneEvents) != 3 || cloneEvents[0].Seq != n+1 {
		t.Errorf("clone events = %d, first seq %d", len(cloneEvents), cloneEvents[0].Seq)
	}
}

func TestDeepCopies_CallersCannotReachStorage(t *testing.T) {
	w := newWorld(t)
	in := withFinalizers(obj("v1", "ConfigMap", "default", "x", "data", map[string]any{"k": "v"}), "example.com/a")
	out := w.create(in)
	before := describe(w.stored(cmRef("x")))
	in.Metadata.Finalizers[0] = "mutated"
	in.Fields.Get("data").(map[string]any)["k"] = "mutated"
	out.Metadata.Finalizers[0] = "mutated"
	out.Fields.Get("data").(map[string]any)["k"] = "mutated"
	got, _ := w.s.Get("test", cmRef("x"))
	got.Fields.Get("data").(map[string]any)["k"] = "mutated"
	res := w.delete(cmRef("x"), nil)
	res.Object.Metadata.Finalizers[0] = "mutated"
	if after := describe(w.stored(cmRef("x"))); !strings.Contains(after, `"k":"v"`) || strings.Contains(after, "mutated") {
		t.Errorf("stored object changed through a copy:\nbefore %s\nafter  %s", before, after)
	}
}

func TestStore_DeterministicTrace(t *testing.T) {
	run := func() string {
		w := newWorld(t)
		var b strings.Builder
		w.s.OnRequest(func(r Request) { fmt.Fprintf(&b, "%+v\n", r) })
		w.s.Watch(func(ev WatchEvent) { fmt.Fprintf(&b, "%d %s %s\n", ev.Seq, ev.Type, describe(ev.Object)) })
		for i := range 5 {
			o := obj("v1", "Pod", "default", "", "spec", map[string]any{"nodeName": "n"})
			o.Metadata.GenerateName = "web-"
			o.Metadata.Finalizers = []string{"example.com/hold"}
			p := w.create(o)
			w.clock.Advance(time.Duration(i) * time.Second)
			w.s.Delete("test", ref(p), policy(DeletePropagationForeground))
			w.s.Patch("test", ref(p), MergePatch, []byte(`{"metadata":{"finalizers":null}}`))
		}
		w.s.RecordEvent("gc", Event{Object: Ref{Kind: "Pod", Name: "p"}, Reason: "R"})
		return b.String()
	}
	if a, b := run(), run(); a != b {
		t.Errorf("two runs differ:\n%s\n---\n%s", a, b)
	}
}

// TestObjectsInCreationOrder checks the listing Save uses to write a
// world back out: creation order, whatever the names and updates.
func TestObjectsInCreationOrder(t *testing.T) {
	s := NewStore(nil, nil)
	for _, name := range []string{"zeta", "alpha", "mid"} {
		if _, err := s.Create("user", &Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: ObjectMeta{Name: name, Namespace: "default"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Patch("user", Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "zeta"}, MergePatch, []byte(`{"metadata":{"labels":{"a":"b"}}}`)); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range s.ObjectsInCreationOrder() {
		if o.Kind == "ConfigMap" {
			names = append(names, o.Metadata.Name)
		}
	}
	if got := strings.Join(names, ","); got != "zeta,alpha,mid" {
		t.Fatalf("creation order: got %s", got)
	}
	if s.Len() != 7 {
		t.Fatalf("Len: got %d, want 7 (4 namespaces and 3 ConfigMaps)", s.Len())
	}
}

// Removals are kept in shared blocks: a store and its clone each see
// their own removals, in order, across block boundaries.
func TestClone_RemovalsAreIndependent(t *testing.T) {
	w := newWorld(t)
	names := func(rs []Removal) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Ref.Name)
		}
		return out
	}
	var want []string
	for i := range removalBlock + 10 {
		name := fmt.Sprintf("a-%d", i)
		w.create(configMap(name))
		w.delete(cmRef(name), nil)
		want = append(want, name)
	}
	c := w.s.Clone(nil)
	wantClone := slices.Clone(want)
	for i := range 5 {
		name := fmt.Sprintf("b-%d", i)
		w.create(configMap(name))
		w.delete(cmRef(name), nil)
		want = append(want, name)
		cname := fmt.Sprintf("c-%d", i)
		if _, err := c.Create("test", configMap(cname)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Delete("test", cmRef(cname), nil); err != nil {
			t.Fatal(err)
		}
		wantClone = append(wantClone, cname)
	}
	if got := names(w.s.Removals()); !slices.Equal(got, want) {
		t.Errorf("original's removals end %q, want %q", got[len(got)-7:], want[len(want)-7:])
	}
	if got := names(c.Removals()); !slices.Equal(got, wantClone) {
		t.Errorf("clone's removals end %q, want %q", got[len(got)-7:], wantClone[len(wantClone)-7:])
	}
}

// TestClone_EventsAreIndependent: a clone shares the original's Events log
// (it is only appended to), and what either records afterwards, in
// whatever order, stays its own, including when the log had spare room.
func TestClone_EventsAreIndependent(t *testing.T) {
	w := newWorld(t)
	record := func(s *Store, reason string) {
		s.RecordEvent("test", Event{Object: Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "x"}, Type: "Normal", Reason: reason})
	}
	reasons := func(s *Store) []string {
		var out []string
		for _, e := range s.Events() {
			out = append(out, e.Reason)
		}
		return out
	}
	for i := range 5 { // five appends leave spare capacity (cap 8)
		record(w.s, fmt.Sprintf("a%d", i))
	}
	c := w.s.Clone(nil)
	c2 := c.Clone(nil)
	record(w.s, "original")
	record(c, "clone")
	record(c2, "clone-of-clone")
	record(w.s, "original-2")
	if got, want := reasons(w.s), []string{"a0", "a1", "a2", "a3", "a4", "original", "original-2"}; !slices.Equal(got, want) {
		t.Errorf("original's events %q, want %q", got, want)
	}
	if got, want := reasons(c), []string{"a0", "a1", "a2", "a3", "a4", "clone"}; !slices.Equal(got, want) {
		t.Errorf("clone's events %q, want %q", got, want)
	}
	if got, want := reasons(c2), []string{"a0", "a1", "a2", "a3", "a4", "clone-of-clone"}; !slices.Equal(got, want) {
		t.Errorf("clone of clone's events %q, want %q", got, want)
	}
}
