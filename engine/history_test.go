package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// timeline applies actions through a History and keeps the state after
// each, so that a test can move around it and compare.
type timeline struct {
	t      *testing.T
	h      *History
	states []string
	// after, when set, checks the world after each action.
	after func(*World) error
}

func newTimeline(t *testing.T, w *World) *timeline {
	h := NewHistory(w)
	return &timeline{t: t, h: h, states: []string{worldState(h.World())}}
}

// do applies a and keeps the state it leads to.
func (tl *timeline) do(a Action) {
	tl.t.Helper()
	if _, err := tl.h.Do(a); err != nil && err != ErrNothingToDo {
		tl.t.Fatal(err)
	}
	if tl.after != nil {
		if err := tl.after(tl.h.World()); err != nil {
			tl.t.Fatal(err)
		}
	}
	tl.states = append(tl.states, worldState(tl.h.World()))
}

// settle steps until idle, keeping every state.
func (tl *timeline) settle() {
	tl.t.Helper()
	for !tl.h.World().Idle() {
		tl.do(Step{})
	}
}

// goTo moves to pos and checks the state is the one first reached there.
func (tl *timeline) goTo(pos int) {
	tl.t.Helper()
	if err := tl.h.Goto(pos); err != nil {
		tl.t.Fatal(err)
	}
	if got := worldState(tl.h.World()); got != tl.states[pos] {
		tl.t.Fatalf("state at %d differs after Goto:\n%s\nwant:\n%s", pos, got, tl.states[pos])
	}
}

// TestHistory_BoundedCheckpoints runs a timeline of a few thousand steps
// with a small checkpoint budget, so that checkpoints are thinned many
// times and long replays leave near clones, and checks that every position
// reached (by jumps, by stepping back and forth, and after a branch) has
// the state it had when it was first reached, and that the checkpoints
// stay within their bound.
func TestHistory_BoundedCheckpoints(t *testing.T) {
	tl := newTimeline(t, newTestWorld(t, ControllerGC))
	h, do := tl.h, tl.do
	h.budget = 200 // a world here holds 4 namespaces and up to 25 objects
	most := 0
	cycle := func(i int) {
		t.Helper()
		owner := fmt.Sprintf("o-%d", i)
		do(Create{Object: cm(owner, owner+"-uid")})
		for j := range 20 {
			d := fmt.Sprintf("d-%d-%d", i, j)
			do(Create{Object: cm(d, d+"-uid", ref("ConfigMap", owner, owner+"-uid"))})
		}
		tl.settle()
		do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: owner}})
		tl.settle()
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
	check := tl.goTo
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
	tl.states = tl.states[:cut+1]
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

// TestHistory_StepBackTakesOverBehind scrubs a small world's timeline back
// one step at a time, as the TUI's ← does: a step back leaves the states
// just behind its target, the next steps back take them over as the live
// world (the very world kept, no clone), every state is the one first
// reached there, and a branch drops those after it. A large world leaves
// none.
func TestHistory_StepBackTakesOverBehind(t *testing.T) {
	tl := newTimeline(t, newTestWorld(t, ControllerGC))
	h, do := tl.h, tl.do
	do(Create{Object: cm("owner", "owner-uid")})
	for i := range 6 {
		d := fmt.Sprintf("d-%d", i)
		do(Create{Object: cm(d, d+"-uid", ref("ConfigMap", "owner", "owner-uid"))})
	}
	do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "owner"}})
	tl.settle()
	end := h.Len()
	if end < 2*behindCount+2 {
		t.Fatalf("a timeline of %d records is too short to scrub", end)
	}
	tl.goTo(end - 1)
	if len(h.behind) != behindCount {
		t.Fatalf("a step back left %d states behind it, want %d", len(h.behind), behindCount)
	}
	taken := 0
	for p := end - 2; p >= 0; p-- {
		kept := h.behind[p]
		tl.goTo(p)
		if kept != nil {
			if h.World() != kept {
				t.Fatalf("the step back to %d cloned the state kept there instead of taking it over", p)
			}
			if _, ok := h.behind[p]; ok {
				t.Fatalf("the state taken over at %d is still kept", p)
			}
			taken++
		}
		for k, w := range h.behind {
			if k >= p || w == h.World() {
				t.Fatalf("at %d a state kept at %d is not behind the live world", p, k)
			}
		}
	}
	if taken < end/2 {
		t.Fatalf("%d steps back of %d took a kept state over", taken, end-1)
	}
	// Forward again, then back and a branch: nothing kept lies after it.
	for p := 1; p <= end; p++ {
		tl.goTo(p)
	}
	cut := end - 3
	tl.goTo(cut)
	tl.states = tl.states[:cut+1]
	do(Create{Object: cm("branch", "branch-uid")})
	for k := range h.behind {
		if k > cut {
			t.Fatalf("a state kept at %d survived a branch at %d", k, cut)
		}
	}
	for p := h.Len(); p >= 0; p-- {
		tl.goTo(p)
	}

	// A large world keeps nothing behind (a clone copies every object).
	big := newTimeline(t, newTestWorld(t))
	for i := range behindObjects/behindCount + 128 { // checkpoints are 64 records apart
		big.do(Create{Object: cm(fmt.Sprintf("c-%d", i), fmt.Sprintf("c-%d-uid", i))})
	}
	big.goTo(big.h.Len() - 10)
	if len(big.h.behind) != 0 {
		t.Fatalf("a world of %d objects kept %d states behind a step back", big.h.World().store.Len(), len(big.h.behind))
	}
}
