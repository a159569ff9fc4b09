package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestHistory_BoundedCheckpoints runs a timeline of a few thousand steps
// with a small checkpoint budget, so that checkpoints are thinned many
// times and long replays leave near clones, and checks that every position
// reached (by jumps, by stepping back and forth, and after a branch) has
// the state it had when it was first reached, and that the checkpoints
// stay within their bound.
func TestHistory_BoundedCheckpoints(t *testing.T) {
	h := NewHistory(newTestWorld(t, ControllerGC))
	h.budget = 200 // a world here holds 4 namespaces and up to 25 objects
	var states []string
	states = append(states, worldState(h.World()))
	do := func(a Action) {
		t.Helper()
		if _, err := h.Do(a); err != nil && err != ErrNothingToDo {
			t.Fatal(err)
		}
		states = append(states, worldState(h.World()))
	}
	most := 0
	cycle := func(i int) {
		t.Helper()
		owner := fmt.Sprintf("o-%d", i)
		do(Create{Object: cm(owner, owner+"-uid")})
		for j := range 20 {
			d := fmt.Sprintf("d-%d-%d", i, j)
			do(Create{Object: cm(d, d+"-uid", ref("ConfigMap", owner, owner+"-uid"))})
		}
		for !h.World().Idle() {
			do(Step{})
		}
		do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: owner}})
		for !h.World().Idle() {
			do(Step{})
		}
		most = max(most, len(h.checkpoints))
	}
	for i := 0; h.Len() < 5000; i++ {
		cycle(i)
	}
	if h.spacing == 0 {
		t.Fatal("the checkpoints were never thinned: the test does not exercise the bound")
	}
	// Thinning keeps their objects within the budget, or their number at
	// the minimum; a checkpoint taken since may exceed it by one.
	if most > h.budget/4+1 && most > minCheckpoints+1 {
		t.Fatalf("up to %d checkpoints of worlds of at least 4 objects, budget %d objects", most, h.budget)
	}
	check := func(pos int) {
		t.Helper()
		if err := h.Goto(pos); err != nil {
			t.Fatal(err)
		}
		if got := worldState(h.World()); got != states[pos] {
			t.Fatalf("state at %d differs after Goto:\n%s\nwant:\n%s", pos, got, states[pos])
		}
	}
	r := rand.New(rand.NewPCG(3, 5))
	for range 40 {
		check(r.IntN(h.Len() + 1))
	}
	// Scrub back from a far jump, through and past the near clones.
	check(h.Len() / 2)
	if len(h.near) == 0 {
		t.Fatal("a long replay left no near clones")
	}
	for p := h.Len()/2 - 1; p > h.Len()/2-300; p-- {
		check(p)
	}
	for p := h.Len()/2 - 300; p < h.Len()/2-250; p++ {
		check(p)
	}
	// A branch in the past drops what lies after it, near clones included.
	cut := h.Len()/2 - 260
	check(cut)
	states = states[:cut+1]
	do(Create{Object: cm("branch", "branch-uid")})
	for k := range h.near {
		if k > cut {
			t.Fatalf("a near clone at %d survived a branch at %d", k, cut)
		}
	}
	for i := 1000; h.Len() < cut+600; i++ {
		cycle(i)
	}
	for range 20 {
		check(r.IntN(h.Len() + 1))
	}
}
