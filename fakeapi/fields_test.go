package fakeapi

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
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

// TestFieldsAgainstAMap sets, deletes and reads names of every length
// (prefixes of one another, the empty name) in a random order, and
// compares with a Go map: what is read, and the names kept in order. A
// packed map read through Nested is compared the same way, for keys it
// has and keys it lacks.
func TestFieldsAgainstAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	names := []string{"", "a", "ab", "abc", "b", "ba", "spec", "status", "data", "phase", "nodeName", "x"}
	var f Fields
	m := map[string]any{}
	for i := range 2000 {
		name := names[rng.IntN(len(names))]
		switch rng.IntN(3) {
		case 0:
			f.Set(name, i)
			m[name] = i
		case 1:
			f.Delete(name)
			delete(m, name)
		}
		for _, n := range names {
			got, ok := f.Lookup(n)
			want, wok := m[n]
			if got != want || ok != wok {
				t.Fatalf("step %d: Lookup(%q) = %v, %v; the map has %v, %v", i, n, got, ok, want, wok)
			}
		}
		var kept []string
		for k := range f.All() {
			kept = append(kept, k)
		}
		if !slices.IsSorted(kept) || len(kept) != len(m) {
			t.Fatalf("step %d: names %q, not the map's %d in order", i, kept, len(m))
		}
	}
	for range 200 {
		entries := map[string]any{}
		var list []Field
		for _, n := range names {
			if rng.IntN(2) == 0 {
				entries[n] = len(n)
				list = append(list, Field{n, len(n)})
			}
		}
		rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		packed, ok := PackMap(list)
		if !ok {
			t.Fatal("PackMap refused unique keys")
		}
		var g Fields
		g.Set("status", packed)
		for _, n := range names {
			got, ok := g.Nested("status", n)
			want, wok := entries[n]
			if got != want || ok != wok {
				t.Fatalf("Nested(status, %q) = %v, %v; the map has %v, %v", n, got, ok, want, wok)
			}
		}
	}
}
