// Package jsoneq compares decoded JSON values (map[string]any, []any,
// string, float64, bool, nil) as reflect.DeepEqual does, without
// reflection: reflect's walk of such trees allocates for every map key
// and value it visits (its map iterator copies each one), and the engine
// and the fake apiserver compare objects' fields at every write.
package jsoneq

import (
	"math"
	"reflect"
)

// Equal reports whether a and b are reflect.DeepEqual, walking them
// directly when both are decoded JSON. Anything else (another Go type, a
// NaN, a tree deeper than any object's) goes to reflect.DeepEqual itself.
func Equal(a, b any) bool {
	if eq, ok := equalTree(a, b, 0); ok {
		return eq
	}
	return reflect.DeepEqual(a, b)
}

// equalTree is Equal's walk; ok is false where it cannot say. A
// difference found anywhere makes the two unequal for reflect too (values
// of different types never are DeepEqual); only a NaN, which reflect
// counts equal to itself inside one shared map or slice, and a type
// outside JSON's send the whole comparison to reflect.
func equalTree(a, b any, depth int) (eq, ok bool) {
	if depth > 100 {
		return false, false
	}
	switch x := a.(type) {
	case nil:
		return b == nil, true
	case bool:
		y, same := b.(bool)
		return same && x == y, true
	case string:
		y, same := b.(string)
		return same && x == y, true
	case float64:
		y, same := b.(float64)
		if !same {
			return false, true
		}
		if math.IsNaN(x) || math.IsNaN(y) {
			return false, false
		}
		return x == y, true
	case map[string]any:
		y, same := b.(map[string]any)
		if !same || (x == nil) != (y == nil) || len(x) != len(y) {
			return false, true
		}
		for k, xv := range x {
			yv, found := y[k]
			if !found {
				return false, true
			}
			if eq, ok := equalTree(xv, yv, depth+1); !eq || !ok {
				return eq, ok
			}
		}
		return true, true
	case []any:
		y, same := b.([]any)
		if !same || (x == nil) != (y == nil) || len(x) != len(y) {
			return false, true
		}
		for i := range x {
			if eq, ok := equalTree(x[i], y[i], depth+1); !eq || !ok {
				return eq, ok
			}
		}
		return true, true
	}
	return false, false
}
