package engine

import (
	"slices"
	"testing"
	"unsafe"
)

// Lists carved from shared chunks behave as lists of their own: several
// built at once, one of them long, each keeps exactly what was added to
// it, and appending to a finished (clipped) list copies it.
func TestChunks_ListsAreIndependent(t *testing.T) {
	var c chunks[int]
	var a, b, long []int
	var want [3][]int
	for i := range 2000 {
		switch {
		case i%7 == 0:
			a = c.add(a, i)
			want[0] = append(want[0], i)
		case i%3 == 0:
			b = c.add(b, i)
			want[1] = append(want[1], i)
		default:
			long = c.add(long, i)
			want[2] = append(want[2], i)
		}
	}
	for i, got := range [][]int{a, b, long} {
		if !slices.Equal(got, want[i]) {
			t.Fatalf("list %d = %v, want %v", i, got, want[i])
		}
	}
	done := slices.Clip(a)
	more := c.add(done, -1)
	_ = append(done, -2)
	if !slices.Equal(done, want[0]) || !slices.Equal(more[:len(more)-1], want[0]) || more[len(more)-1] != -1 {
		t.Fatalf("appending to a clipped list changed it: %v, %v", done, more)
	}
	cl := c.clone([]int{1, 2, 3})
	next := c.add(nil, 4)
	if !slices.Equal(cl, []int{1, 2, 3}) || cap(cl) != 3 || !slices.Equal(next, []int{4}) {
		t.Fatalf("clone = %v (cap %d), next = %v", cl, cap(cl), next)
	}
}

// A queue's sets start a fresh map once emptied after being large, and
// keep their contents otherwise.
func TestItemSet_ShrinksWhenEmptied(t *testing.T) {
	var s itemSet[int]
	for i := range 1000 {
		s.add(i)
	}
	for i := range 999 {
		s.delete(i)
	}
	if !s.has(999) || s.has(0) || s.m == nil {
		t.Fatal("the set lost or kept the wrong items")
	}
	s.delete(999)
	if s.m != nil || s.peak != 0 {
		t.Fatal("an emptied large set must drop its map")
	}
	s.add(1)
	s.delete(1)
	if s.m == nil {
		t.Fatal("a small set keeps its map")
	}
}

// Equal sentences come back as one string; the cache stays bounded.
func TestTextCache_SharesEqualSentences(t *testing.T) {
	var c textCache
	a := c.get([]byte("dangling ReplicaSet/web-1: garbage"))
	b := c.get([]byte("dangling ReplicaSet/web-1: garbage"))
	if a != b || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatalf("equal sentences were not shared: %q %q", a, b)
	}
	for i := range 3 * textCacheSize {
		c.get([]byte{byte(i), byte(i >> 8)})
	}
	if len(c.m) > textCacheSize {
		t.Fatalf("the cache holds %d sentences", len(c.m))
	}
	r := objectReference{Kind: "Pod", Namespace: "other", Name: "p"}
	if got, want := c.around("owner ", r, " x"), "owner Pod/other/p x"; got != want {
		t.Fatalf("around = %q, want %q", got, want)
	}
}

// env.around and env.ref word a reference as objectReference.ref does.
func TestEnvAroundAndRef(t *testing.T) {
	var e env
	for _, r := range []objectReference{
		{Kind: "Pod", Namespace: "default", Name: "p"},
		{Kind: "Pod", Namespace: "other", Name: "p"},
		{Kind: "Namespace", Name: "team"},
	} {
		if got, want := e.ref(r), r.ref(); got != want {
			t.Errorf("ref = %q, want %q", got, want)
		}
		if got, want := e.around("owner ", r, " x"), "owner "+r.ref()+" x"; got != want {
			t.Errorf("around = %q, want %q", got, want)
		}
	}
}
