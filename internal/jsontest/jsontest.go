// Package jsontest makes random decoded-JSON trees for the tests that
// hold a direct JSON walk (a copy, a conversion, a comparison) to what
// encoding/json or reflect would give. Only tests import it.
package jsontest

import (
	"math"
	"math/rand/v2"
)

// RandomTree builds a decoded-JSON-like tree of at most depth 4 below
// depth, with the values a JSON round trip changes or rejects mixed in:
// invalid UTF-8, HTML characters, NaN, infinities, large and negative
// numbers, an int, nil maps and lists.
func RandomTree(r *rand.Rand, depth int) any {
	switch n := r.IntN(12); {
	case depth > 3 || n < 2:
		return []any{"a", "\xfe", "<&>", ""}[r.IntN(4)]
	case n < 4:
		return []any{0.0, -1.5, 1e21, float64(1 << 62), math.NaN(), math.Inf(-1), 3}[r.IntN(7)]
	case n < 5:
		return []any{nil, true, false, map[string]any(nil), []any(nil)}[r.IntN(5)]
	case n < 8:
		m := map[string]any{}
		for i := r.IntN(4); i > 0; i-- {
			m[[]string{"a", "b", "Replicas", "\xff", "c"}[r.IntN(5)]] = RandomTree(r, depth+1)
		}
		return m
	default:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = RandomTree(r, depth+1)
		}
		return l
	}
}
