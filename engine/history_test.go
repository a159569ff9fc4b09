package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

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

// TestHistory_SharedStartLargeWorld opens a timeline on a world too large
// for minCheckpoints copies of it in the budget, kept as its first
// checkpoint without a copy (NewHistoryFrom), as the TUI opens a cluster
// dump. A cascade, a foreground delete and a scale-up make a timeline of
// thousands of steps, and the checkpoints are thinned to what the budget
// holds. Then positions reached by jumps, across checkpoints, backwards
// and forwards, and by steps back, must give byte for byte the world a
// fresh replay from the start gives (every object in full, the graph,
// the queues, the clock), and the start must be left as it was.
func TestHistory_SharedStartLargeWorld(t *testing.T) {
	start := newTestWorld(t)
	mustDo(t, start, Create{Object: manifest(t, deploymentYAML("web", 60, ""))})
	mustSettle(t, start)
	for i := range 3 {
		owner := fmt.Sprintf("o-%d", i)
		mustDo(t, start, Create{Object: cm(owner, owner+"-uid")})
		for j := range 60 {
			d := fmt.Sprintf("d-%d-%d", i, j)
			mustDo(t, start, Create{Object: cm(d, d+"-uid", ref("ConfigMap", owner, owner+"-uid"))})
		}
	}
	mustSettle(t, start)
	startState := fullState(t, start)

	h := NewHistoryFrom(start)
	size := start.store.Len()
	h.budget = 4 * size // room for 4 copies: fewer than minCheckpoints
	most := 0
	do := func(a Action) {
		t.Helper()
		if _, err := h.Do(a); err != nil && err != ErrNothingToDo {
			t.Fatal(err)
		}
		most = max(most, len(h.checkpoints))
	}
	settle := func() {
		for !h.World().Idle() {
			do(Step{})
		}
	}
	do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "o-0"}})
	settle()
	do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "o-1"}, Options: &fakeapi.DeleteOptions{PropagationPolicy: policyOf(fakeapi.DeletePropagationForeground)}})
	settle()
	do(Patch{Ref: deployRef("web"), Merge: []byte(`{"spec":{"replicas":300}}`)})
	settle()
	do(Delete{Ref: deployRef("web")})
	settle()
	n := h.Len()
	if len(h.checkpoints) < leastCheckpoints {
		t.Fatalf("a timeline of %d steps has %d checkpoints: jumps cross none", n, len(h.checkpoints))
	}
	if h.spacing == 0 {
		t.Fatal("the checkpoints were never thinned: the test does not exercise the bound")
	}
	// Thinning keeps what the budget holds; a checkpoint taken since may
	// exceed it by one.
	if most > 4+1 {
		t.Fatalf("up to %d checkpoints of a world of %d objects, budget %d objects", most, size, h.budget)
	}
	if h.checkpoints[0] != start {
		t.Fatal("the start is not the first checkpoint")
	}

	// Where to go, in this order: jumps across checkpoints both ways,
	// then a scrub back one step at a time from a jump.
	r := rand.New(rand.NewPCG(13, 26))
	var targets []int
	for range 12 {
		targets = append(targets, r.IntN(n+1))
	}
	targets = append(targets, n, 0, n/2, n/4, 3*n/4)
	for p := n/2 - 1; p > n/2-70; p-- {
		targets = append(targets, p)
	}
	want := replayStates(t, start, h.Actions(), targets)
	for i, p := range targets {
		if err := h.Goto(p); err != nil {
			t.Fatal(err)
		}
		if got := fullState(t, h.World()); got != want[p] {
			t.Fatalf("the world at %d differs from a fresh replay:\n%s\nwant:\n%s", p, got, want[p])
		}
		if p == n/2 && i > 0 && targets[i-1] == n/4 {
			// A long replay in a large world leaves largeNearCount
			// clones, an interval and two intervals behind its target.
			gap := h.baseInterval()
			if len(h.near) != largeNearCount || h.near[p-gap] == nil || h.near[p-2*gap] == nil {
				t.Fatalf("a jump to %d left near clones at %v, want %d and %d", p, slices.Sorted(maps.Keys(h.near)), p-gap, p-2*gap)
			}
		}
	}
	if got := fullState(t, start); got != startState {
		t.Fatal("moving along the timeline changed the start it shares")
	}
}

// fullState is worldState with every object in full (its JSON).
func fullState(t *testing.T, w *World) string {
	t.Helper()
	b, err := json.Marshal(w.Store().Objects())
	if err != nil {
		t.Fatal(err)
	}
	return worldState(w) + "\n" + string(b)
}

// replayStates replays actions on a fresh clone of start and returns the
// full state at each of the positions.
func replayStates(t *testing.T, start *World, actions []Action, positions []int) map[int]string {
	t.Helper()
	want := map[int]bool{}
	for _, p := range positions {
		want[p] = true
	}
	w := start.Clone()
	out := map[int]string{}
	for i := 0; ; i++ {
		if want[i] {
			out[i] = fullState(t, w)
		}
		if i == len(actions) {
			return out
		}
		w.Do(actions[i]) //nolint:errcheck // the history kept the errors
	}
}

// TestRecordBlocks: the timeline's records, kept in blocks, read back in
// order across blocks, and a cut (a branch) inside a block, at a block's
// edge and past the end keeps exactly the records before it, the new
// ones after.
func TestRecordBlocks(t *testing.T) {
	var r recordBlocks
	check := func(want []int) {
		t.Helper()
		if r.n != len(want) {
			t.Fatalf("%d records, want %d", r.n, len(want))
		}
		for i, seq := range want {
			if got := r.at(i).Seq; got != seq {
				t.Fatalf("record %d has seq %d, want %d", i, got, seq)
			}
		}
	}
	var want []int
	add := func(n, from int) {
		for i := range n {
			r.append(Record{Seq: from + i})
			want = append(want, from+i)
		}
	}
	add(2*recordBlock+100, 0)
	check(want)
	for _, cut := range []int{recordBlock + 7, recordBlock, 3 * recordBlock, 0} {
		r.truncate(cut)
		want = want[:min(cut, len(want))]
		check(want)
		add(recordBlock+3, 1_000_000*(cut+1))
		check(want)
	}
	if len(r.blocks) != r.n/recordBlock+1 {
		t.Errorf("%d records in %d blocks", r.n, len(r.blocks))
	}
}

// TestHistory_RecordsKeptWhole: every record a History gives back is the
// one its action returned, field for field, though it keeps them in a
// shorter form: steps of every controller, user requests, a refused one
// (Err), steps with notes, and records after a branch.
func TestHistory_RecordsKeptWhole(t *testing.T) {
	// keptRecord holds every field of a Record; one added to Record (or
	// Reason) must be added there too.
	if n := reflect.TypeFor[Record]().NumField(); n != 11 {
		t.Fatalf("Record has %d fields: keep the new one in keptRecord, then count it here", n)
	}
	if n := reflect.TypeFor[Reason]().NumField(); n != 5 {
		t.Fatalf("Reason has %d fields: keep the new one in keptRecord, then count it here", n)
	}
	h := NewHistory(newTestWorld(t))
	var want []Record
	do := func(a Action) {
		t.Helper()
		rec, _ := h.Do(a)
		want = append(want, rec)
	}
	settle := func() {
		for !h.World().Idle() {
			do(Step{})
		}
	}
	do(Create{Object: manifest(t, deploymentYAML("web", 5, ""))})
	settle()
	do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "missing"}})
	do(Create{Object: cm("owner", "owner-uid")})
	do(Create{Object: cm("d", "d-uid", ref("ConfigMap", "owner", "owner-uid"))})
	settle()
	do(Delete{Ref: deployRef("web"), Options: &fakeapi.DeleteOptions{PropagationPolicy: policyOf(fakeapi.DeletePropagationForeground)}})
	settle()
	cut := len(want) / 2
	if err := h.Goto(cut); err != nil {
		t.Fatal(err)
	}
	want = want[:cut]
	do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "owner"}})
	settle()
	if h.Len() != len(want) {
		t.Fatalf("%d records kept, want %d", h.Len(), len(want))
	}
	errs, notes := 0, 0
	for i, w := range want {
		if w.Err != "" {
			errs++
		}
		if len(w.Notes) > 0 {
			notes++
		}
		if got := h.Record(i); !reflect.DeepEqual(got, w) {
			t.Fatalf("record %d:\n%#v\nwant\n%#v", i, got, w)
		}
		if !reflect.DeepEqual(h.Changed(i), w.Changed) {
			t.Fatalf("record %d changed %v, want %v", i, h.Changed(i), w.Changed)
		}
	}
	if errs == 0 || notes == 0 {
		t.Fatalf("%d records with an error and %d with notes: the test does not exercise the rare fields", errs, notes)
	}
}

// TestRecordBlocks_KeptAsPointers: a record kept as pointers and lengths
// comes back as it went in: nil slices nil, empty ones empty, strings
// and slices that are parts of larger ones the same parts (the same
// elements, not copies), each with the capacity of its length so that an
// append copies rather than writing over what follows; across blocks and
// after a truncate.
func TestRecordBlocks_KeptAsPointers(t *testing.T) {
	if n := unsafe.Sizeof(keptRecord{}); n != 112 {
		t.Fatalf("keptRecord is %d bytes, want 112", n)
	}
	texts := []Text{{Form: "a %s", Args: []string{"x"}}, {Form: "b"}, {Form: "c"}}
	calls := make([]call, 5)
	enq := []enqueue{{item: "i", queue: 1}, {item: "j", after: 3}}
	changed := []string{"u1", "u2", "u3", "u4"}
	long := "the first item and more"
	recs := []Record{
		{},
		{Seq: 1, At: 2, Actor: "user", Item: long[:14], Reason: Reason{Code: "C", Message: long[4:9], Texts: texts[1:2]},
			calls: calls[2:4], enqueued: enq, Changed: changed[1:3]},
		{Seq: 2, Reason: Reason{Texts: []Text{}}, calls: calls[5:], enqueued: []enqueue{}, Changed: changed[:0], Notes: []string{"n"}, Err: "e"},
		{Seq: 3, Item: "", Reason: Reason{Rule: "R1", Func: "f", Texts: texts}, calls: calls, Changed: changed},
	}
	var r recordBlocks
	for i := range 2*recordBlock + 7 {
		r.append(recs[i%len(recs)])
	}
	check := func(n int) {
		t.Helper()
		if r.n != n {
			t.Fatalf("%d records kept, want %d", r.n, n)
		}
		for i := range n {
			want := recs[i%len(recs)]
			got := r.at(i)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("record %d:\n%#v\nwant\n%#v", i, got, want)
			}
			if cap(got.calls) != len(got.calls) || cap(got.Changed) != len(got.Changed) || cap(got.Reason.Texts) != len(got.Reason.Texts) || cap(got.enqueued) != len(got.enqueued) {
				t.Fatalf("record %d: a slice given back has room past its length", i)
			}
			if len(want.calls) > 0 && &got.calls[0] != &want.calls[0] || len(want.Changed) > 0 && &got.Changed[0] != &want.Changed[0] ||
				len(want.Reason.Texts) > 0 && &got.Reason.Texts[0] != &want.Reason.Texts[0] ||
				len(want.Item) > 0 && unsafe.StringData(got.Item) != unsafe.StringData(want.Item) {
				t.Fatalf("record %d: given back as a copy, not the elements kept", i)
			}
			if !reflect.DeepEqual(r.changed(i), want.Changed) {
				t.Fatalf("record %d changed %#v, want %#v", i, r.changed(i), want.Changed)
			}
		}
	}
	check(2*recordBlock + 7)
	r.truncate(recordBlock + 3)
	check(recordBlock + 3)
	r.append(recs[(recordBlock+3)%len(recs)])
	check(recordBlock + 4)
}

// TestClone_TwoClonesShareNoNode clones one world twice, as a step back
// clones a checkpoint each time: each clone has a graph of its own (a
// node copied for the first clone, and pointed to while it was made,
// must not turn up in the second), the original's nodes point to no copy
// once a clone is made, and acting in one clone leaves the other and the
// original as they were.
func TestClone_TwoClonesShareNoNode(t *testing.T) {
	w := newTestWorld(t, ControllerGC)
	mustDo(t, w, Create{Object: cm("owner", "owner-uid")})
	for _, n := range []string{"a", "b", "c"} {
		mustDo(t, w, Create{Object: cm(n, n+"-uid", ref("ConfigMap", "owner", "owner-uid"))})
	}
	mustSettle(t, w)
	// A dangling owner leaves a virtual node, reached only as an owner.
	mustDo(t, w, Create{Object: cm("d", "d-uid", ref("ConfigMap", "gone", "gone-uid"))})
	mustDo(t, w, Step{}) // the graph takes the event; its virtual owner is queued
	before := fullState(t, w)

	c1, c2 := w.Clone(), w.Clone()
	nodes := func(x *World) map[string]*node {
		out := map[string]*node{}
		for uid, n := range x.collector().uidToNode.All() {
			out[uid] = n
		}
		return out
	}
	orig, n1, n2 := nodes(w), nodes(c1), nodes(c2)
	if len(orig) < 6 || len(n1) != len(orig) || len(n2) != len(orig) {
		t.Fatalf("graphs of %d, %d and %d nodes, want the same 6 or more", len(orig), len(n1), len(n2))
	}
	for uid, n := range orig {
		if n.copied != nil {
			t.Errorf("%s still points to a copy after the clones", uid)
		}
		if n1[uid] == n || n2[uid] == n || n1[uid] == n2[uid] {
			t.Errorf("%s: the clones share a node with each other or with the original", uid)
		}
		for i, own := range []map[string]*node{n1, n2} {
			for d := range own[uid].dependents {
				if own[d.identity.UID] != d {
					t.Errorf("clone %d: %s's dependent %s is not that clone's node", i+1, uid, d.identity.UID)
				}
			}
		}
	}

	mustDo(t, c1, Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "owner"}})
	mustSettle(t, c1)
	if got := fullState(t, c2); got != before {
		t.Errorf("acting in one clone changed the other:\n%s\nwant\n%s", got, before)
	}
	if got := fullState(t, w); got != before {
		t.Errorf("acting in a clone changed the original:\n%s\nwant\n%s", got, before)
	}
}
