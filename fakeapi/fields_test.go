package fakeapi

import (
	"encoding/json"
	"reflect"
	"runtime"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestFieldsReadLikeAMap: Fields hold what a map of the same entries
// holds, and Get, Lookup, Set, Delete, All and Map do what a map's index,
// assignment, delete and range (in the order of the names) do; copies
// share their entries as maps do, but a new name or a delete makes a
// list of the copy's own, so a copy never grows another's.
func TestFieldsReadLikeAMap(t *testing.T) {
	m := map[string]any{"status": map[string]any{"phase": "Running"}, "spec": "s", "data": nil}
	f := FieldsOf(m)
	if !reflect.DeepEqual(f.Map(), m) || f.Len() != 3 {
		t.Fatalf("FieldsOf(%v).Map() = %v", m, f.Map())
	}
	var names []string
	for k, v := range f.All() {
		names = append(names, k)
		if !reflect.DeepEqual(v, m[k]) {
			t.Errorf("All gives %s = %v, want %v", k, v, m[k])
		}
	}
	if !reflect.DeepEqual(names, []string{"data", "spec", "status"}) {
		t.Errorf("All gives the names %v, not in order", names)
	}
	if v, ok := f.Lookup("data"); v != nil || !ok {
		t.Errorf("Lookup(data) = %v, %v: a null field is there", v, ok)
	}
	if v, ok := f.Lookup("none"); v != nil || ok || f.Get("none") != nil {
		t.Errorf("Lookup(none) = %v, %v", v, ok)
	}

	g := f // a copy, as of an object's struct
	g.Set("spec", "t")
	if f.Get("spec") != "t" {
		t.Errorf("setting a field of a copy did not set the shared entry, as a map's would")
	}
	g.Set("apps", 1)
	g.Delete("data")
	if f.Len() != 3 || f.Get("apps") != nil || g.Len() != 3 || g.Get("apps") != 1 {
		t.Errorf("a copy's new and deleted names reached the original: %v, %v", f.Map(), g.Map())
	}
	if f.Same(g) || !f.Same(f) || !(Fields{}).Same(Fields{}) {
		t.Errorf("Same")
	}
	c := f.Clone()
	c.Set("spec", "u")
	if f.Get("spec") != "t" || !reflect.DeepEqual(c.Map()["status"], f.Map()["status"]) {
		t.Errorf("a clone's set reached the original")
	}
	for _, k := range []string{"apps", "data", "spec", "status", "none"} {
		g.Delete(k)
	}
	if g.Len() != 0 || g.Map() != nil || !reflect.DeepEqual(g, Fields{}) {
		t.Errorf("with every field deleted: %#v, not the zero Fields", g)
	}

	// Written as the map is.
	for _, x := range []Fields{f, {}} {
		got, err := json.Marshal(x)
		want, _ := json.Marshal(x.Map())
		if err != nil || string(got) != string(want) {
			t.Errorf("JSON %s, %v, want %s", got, err, want)
		}
		got, err = yaml.Marshal(x)
		want, _ = yaml.Marshal(x.Map())
		if err != nil || string(got) != string(want) {
			t.Errorf("YAML %s, %v, want %s", got, err, want)
		}
	}
}

// TestPodFieldsTakeLittle: a Pod's top-level fields (spec and status, as a
// dump's Pods have them) hold 64 bytes beside the values, where a Go map
// of them held 336 (docs/BENCHMARKS.md, "Fifteenth session").
func TestPodFieldsTakeLittle(t *testing.T) {
	spec, status := map[string]any{}, map[string]any{}
	const n = 10000
	keep := make([]Fields, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keep {
		keep[i] = FieldsOf(map[string]any{"spec": spec, "status": status})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if per := (after.HeapAlloc - before.HeapAlloc) / n; per > 100 {
		t.Errorf("a Pod's two top-level fields hold %d bytes", per)
	}
	runtime.KeepAlive(keep)
}
