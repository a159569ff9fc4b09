package fakeapi

import (
	"encoding/json"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// packedPod is a Pod whose spec and status are packed (PackMap), as the
// dump reader stores them, and the same Pod with plain maps.
func packedPod(t *testing.T) (packed, plain *Object) {
	t.Helper()
	status := map[string]any{"phase": "Running", "podIP": "10.0.0.1", "qosClass": "BestEffort",
		"conditions": []any{map[string]any{"type": "Ready", "status": "False"}}}
	spec := map[string]any{"nodeName": "node-1", "terminationGracePeriodSeconds": 30.0,
		"containers": []any{map[string]any{"name": "nginx", "image": "nginx:1.0"}}}
	plain = &Object{APIVersion: "v1", Kind: "Pod", Metadata: ObjectMeta{Name: "p", Namespace: "default"},
		Fields: FieldsOf(map[string]any{"spec": spec, "status": status, "kept": "x"})}
	packed = &Object{APIVersion: "v1", Kind: "Pod", Metadata: plain.Metadata}
	for k, v := range plain.Fields.All() {
		if m, ok := v.(map[string]any); ok {
			var entries []Field
			for mk, mv := range m {
				entries = append(entries, Field{mk, mv})
			}
			if v, ok = PackMap(entries); !ok {
				t.Fatalf("PackMap(%s) found a duplicate key", k)
			}
		}
		packed.Fields.Set(k, v)
	}
	return packed, plain
}

// TestPackedFieldsReadAsMaps: an object whose fields are packed reads,
// through every way Fields and Object give values out, as the object with
// plain maps: Get, Lookup, All and Map give a map[string]any, Nested reads
// into it, the JSON and YAML are the same bytes, DeepCopy holds maps, the
// store counts the two equal, and Restore keeps the packed values.
func TestPackedFieldsReadAsMaps(t *testing.T) {
	packed, plain := packedPod(t)
	for _, k := range []string{"spec", "status", "kept", "none"} {
		got, gok := packed.Fields.Lookup(k)
		want, wok := plain.Fields.Lookup(k)
		if gok != wok || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(packed.Fields.Get(k), want) {
			t.Errorf("Lookup(%s) = %#v, %v, want %#v, %v", k, got, gok, want, wok)
		}
	}
	if !reflect.DeepEqual(packed.Fields.Map(), plain.Fields.Map()) {
		t.Errorf("Map() = %v, want %v", packed.Fields.Map(), plain.Fields.Map())
	}
	for k, v := range packed.Fields.All() {
		if !reflect.DeepEqual(v, plain.Fields.Get(k)) {
			t.Errorf("All gives %s = %#v", k, v)
		}
	}
	for _, path := range [][]string{{"status", "phase"}, {"spec", "nodeName"}, {"status", "conditions"},
		{"spec", "none"}, {"none", "phase"}, {"kept", "x"}, {"status", "phase", "x"}, {"status"}, {"kept"}} {
		got, gok := packed.Fields.Nested(path...)
		want, wok := nestedPlain(plain.Fields.Map(), path)
		if gok != wok || !reflect.DeepEqual(got, want) {
			t.Errorf("Nested(%v) = %#v, %v, want %#v, %v", path, got, gok, want, wok)
		}
	}
	if f, ok := packed.Fields.Nested(); !ok || !f.(Fields).Same(packed.Fields) {
		t.Errorf("Nested() is not the fields themselves")
	}
	gj, err1 := json.Marshal(packed)
	wj, err2 := json.Marshal(plain)
	if err1 != nil || err2 != nil || string(gj) != string(wj) {
		t.Errorf("JSON %s (%v), want %s (%v)", gj, err1, wj, err2)
	}
	gy, err1 := yaml.Marshal(packed.Fields)
	wy, err2 := yaml.Marshal(plain.Fields)
	if err1 != nil || err2 != nil || string(gy) != string(wy) {
		t.Errorf("YAML %s (%v), want %s (%v)", gy, err1, wy, err2)
	}
	c := packed.DeepCopy()
	if !reflect.DeepEqual(c, plain) {
		t.Errorf("DeepCopy() = %#v, want the plain object", c.Fields)
	}
	c.Fields.Get("status").(map[string]any)["phase"] = "Failed" // a copy is the caller's
	if packed.Fields.Get("status").(map[string]any)["phase"] != "Running" {
		t.Errorf("a change to a copy's status reached the packed object")
	}
	if !sameObject(packed, plain) || !sameObject(plain, packed) || !sameObject(packed, packed) {
		t.Errorf("the store does not count a packed object equal to its plain maps")
	}
	if sameObject(packed, c) || sameObject(c, packed) {
		t.Errorf("the store counts a packed object equal to one with another phase")
	}
	if f, err := canonicalFields(packed.Fields); err != nil || !reflect.DeepEqual(f.list, packed.Fields.list) {
		t.Errorf("canonicalFields changed packed values (%v)", err)
	}
	s := NewStore(NewRegistry(), nil)
	obj, _ := packedPod(t)
	if err := s.Restore(obj); err != nil {
		t.Fatal(err)
	}
	e, _ := s.byUID.Get(obj.Metadata.UID)
	got := e.obj
	if _, ok := got.Fields.list[slices.IndexFunc(got.Fields.list, func(f Field) bool { return f.Name == "status" })].Value.(*packedMap); !ok {
		t.Errorf("Restore did not keep the packed status")
	}
	if _, ok := PackMap([]Field{{"a", 1.0}, {"b", 2.0}, {"a", 3.0}}); ok {
		t.Errorf("PackMap took a duplicate key")
	}
}

func nestedPlain(v any, path []string) (any, bool) {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// TestNoPackedValueLeaves: no exported method of Fields gives a packed
// value out (they are read as "missing" by every `.(map[string]any)`
// outside), checked by calling each method found by reflection on packed
// fields and walking all it returns. A method this test does not know
// fails it: say here how it is to be called.
func TestNoPackedValueLeaves(t *testing.T) {
	packed, _ := packedPod(t)
	args := map[string][]any{
		"All": nil, "Clone": nil, "Get": {"status"}, "Len": nil, "Lookup": {"spec"}, "Map": nil,
		"MarshalJSON": nil, "MarshalYAML": nil, "Nested": {"status"}, "Same": {Fields{}},
		"Set": {"x", "y"}, "Delete": {"x"},
	}
	pt := reflect.TypeFor[*Fields]()
	for i := range pt.NumMethod() {
		m := pt.Method(i)
		a, ok := args[m.Name]
		if !ok {
			t.Errorf("Fields.%s: a method this test does not call; it must not give a packed value out", m.Name)
			continue
		}
		f := packed.Fields.Clone()
		in := []reflect.Value{reflect.ValueOf(&f)}
		for _, x := range a {
			in = append(in, reflect.ValueOf(x))
		}
		for _, out := range m.Func.Call(in) {
			if path := packedIn(out.Interface()); path != "" {
				t.Errorf("Fields.%s gives a packed value out at %s", m.Name, path)
			}
		}
	}
}

// packedIn returns where a packed value is in v, "" when none is.
func packedIn(v any) string {
	switch t := v.(type) {
	case *packedMap:
		return "."
	case map[string]any:
		for k, e := range t {
			if p := packedIn(e); p != "" {
				return "." + k + p
			}
		}
	case []any:
		for _, e := range t {
			if p := packedIn(e); p != "" {
				return "[]" + p
			}
		}
	case Fields:
		for k, e := range t.All() {
			if p := packedIn(e); p != "" {
				return "." + k + p
			}
		}
	case iter.Seq2[string, any]:
		for k, e := range t {
			if p := packedIn(e); p != "" {
				return "." + k + p
			}
		}
	}
	return ""
}

// TestFieldsListReadWhereKnown: a Fields' list, whose values may be
// packed, is read directly only in the files that know it (the rest read
// it through Fields' methods, TestNoPackedValueLeaves). A new file that
// reads .list must handle a packed value and be added here.
func TestFieldsListReadWhereKnown(t *testing.T) {
	known := []string{"canonical.go", "fields.go", "object.go", "restore.go"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	use := regexp.MustCompile(`\.list\b[^(]`)
	var found []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if use.Match(b) {
			found = append(found, f)
		}
	}
	if !slices.Equal(found, known) {
		t.Errorf("files reading a Fields' list directly: %v, want %v", found, known)
	}
}

// TestPackedStatusTakesLess: a Pod's status of four entries packed
// holds less than half of what the map of them holds (the map: a group
// of eight slots, 336 bytes), the values aside.
func TestPackedStatusTakesLess(t *testing.T) {
	const n = 10000
	keys := []string{"phase", "podIP", "qosClass", "startTime"}
	var value any = "v" // boxed once: the values are not counted
	perOf := func(build func() any) uint64 {
		keep := make([]any, n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range keep {
			keep[i] = build()
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(keep)
		return (after.HeapAlloc - before.HeapAlloc) / n
	}
	asMap := perOf(func() any {
		m := make(map[string]any, len(keys))
		for _, k := range keys {
			m[k] = value
		}
		return m
	})
	asPacked := perOf(func() any {
		entries := make([]Field, len(keys))
		for i, k := range keys {
			entries[i] = Field{k, value}
		}
		p, _ := PackMap(entries)
		return p
	})
	if asPacked*2 > asMap {
		t.Errorf("a status of four entries: %d bytes packed, %d as a map", asPacked, asMap)
	}
}
