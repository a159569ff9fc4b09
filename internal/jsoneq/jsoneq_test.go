package jsoneq

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gcplay/gcplay/internal/jsontest"
)

func TestEqualIsDeepEqual(t *testing.T) {
	nan := math.NaN()
	shared := map[string]any{"x": nan}
	tree := map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx", "ports": []any{80.0, true, nil}}}}}
	for _, tc := range []struct {
		name string
		a, b any
	}{
		{"nils", nil, nil},
		{"nil and nil map", nil, map[string]any(nil)},
		{"nil map and empty map", map[string]any(nil), map[string]any{}},
		{"nil list and empty list", []any(nil), []any{}},
		{"same tree", tree, tree},
		{"equal trees", tree, copyTree(tree)},
		{"a value differs", tree, map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "redis", "ports": []any{80.0, true, nil}}}}}},
		{"a key differs", map[string]any{"a": 1.0}, map[string]any{"b": 1.0}},
		{"a longer list", []any{"a"}, []any{"a", "a"}},
		{"number and string", 1.0, "1"},
		{"number and int", 1.0, 1},
		{"ints", 1, 1},
		{"an int inside", map[string]any{"a": 1}, map[string]any{"a": 1}},
		{"negative zero", 0.0, math.Copysign(0, -1)},
		{"NaN", nan, nan},
		{"NaN in one shared map", shared, shared},
		{"NaN in two maps", map[string]any{"x": nan}, map[string]any{"x": nan}},
		{"labels", map[string]string{"a": "b"}, map[string]string{"a": "b"}},
		{"labels and a JSON map", map[string]any{"a": "b"}, map[string]string{"a": "b"}},
		{"a list's order", []any{"a", "b"}, []any{"b", "a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := Equal(tc.a, tc.b), reflect.DeepEqual(tc.a, tc.b); got != want {
				t.Errorf("Equal = %v, reflect.DeepEqual %v", got, want)
			}
		})
	}
}

func TestEqualIsDeepEqualRandomTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 12))
	var equal, unequal int
	for range 5000 {
		a := jsontest.RandomTree(r, 0)
		var b any
		switch r.IntN(3) {
		case 0:
			b = a // shared: reflect's shortcut for one map or slice
		case 1:
			b = jsontest.RandomTree(r, 0)
		default:
			b = copyTree(a)
		}
		want := reflect.DeepEqual(a, b)
		if got := Equal(a, b); got != want {
			t.Fatalf("Equal(%#v, %#v) = %v, reflect.DeepEqual %v", a, b, got, want)
		}
		if want {
			equal++
		} else {
			unequal++
		}
	}
	if equal < 500 || unequal < 500 {
		t.Errorf("%d equal and %d unequal pairs: the generator no longer gives both", equal, unequal)
	}
}

// TestEqualDoesNotAllocate holds the reason for the package: comparing
// two equal decoded trees takes no allocation, where reflect's map walk
// takes one per key and value.
func TestEqualDoesNotAllocate(t *testing.T) {
	a := map[string]any{"spec": map[string]any{"replicas": 3.0, "template": map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}}}}}
	b := copyTree(a)
	if n := testing.AllocsPerRun(100, func() {
		if !Equal(a, b) {
			t.Fatal("unequal")
		}
	}); n != 0 {
		t.Errorf("Equal of two equal trees: %v allocations, want 0", n)
	}
}

func copyTree(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = copyTree(e)
		}
		return m
	case []any:
		if x == nil {
			return x
		}
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = copyTree(e)
		}
		return l
	}
	return v
}
