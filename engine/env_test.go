package engine

import "testing"

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
