package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestSettleQuietlyStoresNoLists settles the same cascade three ways:
// with its records kept (Settle), quietly on a World (whose records no
// one reads, so their lists are not stored), and quietly through a
// History (which keeps every record whole). The worlds end alike; only
// the quiet World's records lack requests and enqueued items, and the
// world records them again once the quiet settle is over.
func TestSettleQuietlyStoresNoLists(t *testing.T) {
	del := func(d Doer) {
		bg := fakeapi.DeletePropagationBackground
		mustDo(t, d, Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"},
			Options: &fakeapi.DeleteOptions{PropagationPolicy: &bg}})
	}
	state := func(w *World) string {
		return fmt.Sprint(w.Seq(), w.Elapsed(), w.Store().Removals(), len(w.Store().Objects()))
	}
	lists := func(recs []Record) (calls, enqueued, changed int) {
		for _, r := range recs {
			calls += len(r.Calls())
			enqueued += len(r.Enqueued())
			changed += len(r.Changed)
		}
		return
	}

	kept := buildTree(t, 3, 5, false)
	del(kept)
	res, err := Settle(kept, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	if c, e, ch := lists(res.Records); c == 0 || e == 0 || ch == 0 {
		t.Fatalf("the kept records have %d calls, %d enqueued items, %d changed objects", c, e, ch)
	}

	quiet := buildTree(t, 3, 5, false)
	del(quiet)
	var recs []Record
	for !quiet.Idle() { // only the collector runs: no delays to cross
		// What SettleQuietly's loop does, keeping the records to look at.
		quiet.env.discard = true
		r, err := quiet.Do(Step{})
		quiet.env.discard = false
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if c, e, ch := lists(recs); c != 0 || e != 0 || ch != 0 {
		t.Fatalf("discarded records have %d calls, %d enqueued items, %d changed objects", c, e, ch)
	}
	if len(recs) != res.Steps || recs[0].Reason.Message != res.Records[0].Reason.Message {
		t.Fatalf("quiet: %d steps, first %q; kept: %d steps, first %q", len(recs), recs[0].Reason.Message, res.Steps, res.Records[0].Reason.Message)
	}

	viaSettle := buildTree(t, 3, 5, false)
	del(viaSettle)
	qres := mustSettle(t, viaSettle)
	if qres.Steps != res.Steps || state(viaSettle) != state(kept) {
		t.Fatalf("SettleQuietly: %d steps, %s; Settle: %d steps, %s", qres.Steps, state(viaSettle), res.Steps, state(kept))
	}
	if viaSettle.env.discard {
		t.Fatal("the world still discards its records after SettleQuietly")
	}
	r, err := viaSettle.Do(Create{Object: &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{Name: "after", Namespace: "default"}}})
	if err != nil || len(r.Calls()) != 1 || len(r.Changed) != 1 {
		t.Fatalf("the create after a quiet settle records %d calls, %d changed: %v", len(r.Calls()), len(r.Changed), err)
	}

	h := NewHistory(buildTree(t, 3, 5, false))
	del(h)
	before := h.Len()
	mustSettle(t, h)
	hist := h.AppendRecords(nil, before, h.Len())
	if c, e, ch := lists(hist); c == 0 || e == 0 || ch == 0 || len(hist) != res.Steps {
		t.Fatalf("a History's quiet settle kept %d records with %d calls, %d enqueued items, %d changed objects", len(hist), c, e, ch)
	}
}

// TestQuietSettleWritesNoWords checks that a quiet settle's steps give
// their reasons' code, rule and function but not their sentences (no one
// reads them), that the outcome is the same as a settle that writes them,
// and that a world checking its invariants, which reads the sentences,
// still gets them.
func TestQuietSettleWritesNoWords(t *testing.T) {
	del := func(d Doer) {
		bg := fakeapi.DeletePropagationBackground
		mustDo(t, d, Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"},
			Options: &fakeapi.DeleteOptions{PropagationPolicy: &bg}})
	}
	loud := buildTree(t, 3, 5, false)
	del(loud)
	res, err := Settle(loud, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	quiet := buildTree(t, 3, 5, false)
	del(quiet)
	var recs []Record
	for !quiet.Idle() { // only the collector runs: no delays to cross
		// What SettleQuietly's loop does, keeping the records to look at.
		quiet.env.discard, quiet.env.wordless = true, true
		r, err := quiet.Do(Step{})
		quiet.env.discard, quiet.env.wordless = false, false
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs) != len(res.Records) {
		t.Fatalf("quiet: %d steps; loud: %d", len(recs), len(res.Records))
	}
	worded := 0
	for i, r := range recs {
		l := res.Records[i].Reason
		if r.Reason.Code != l.Code || r.Reason.Rule != l.Rule || r.Reason.Func != l.Func {
			t.Fatalf("step %d: quiet reason %s/%s/%s, loud %s/%s/%s", i, r.Reason.Code, r.Reason.Rule, r.Reason.Func, l.Code, l.Rule, l.Func)
		}
		// What a step adds after its reason's sentence (Reason.and)
		// is still written, after an empty sentence.
		if !strings.HasSuffix(l.Message, r.Reason.Message) {
			t.Fatalf("step %d of a quiet settle wrote the reason %q (loud: %q)", i, r.Reason.Message, l.Message)
		}
		if r.Reason.Message == "" && l.Message != "" {
			worded++
		}
	}
	if worded == 0 {
		t.Fatal("no step of the quiet settle left out a sentence: the test compares nothing")
	}

	checked := buildTree(t, 3, 5, false)
	checked.cfg.CheckInvariants = true
	del(checked)
	viaSettle := buildTree(t, 3, 5, false)
	del(viaSettle)
	for _, w := range []*World{checked, viaSettle} {
		if _, err := SettleQuietly(w, 10_000); err != nil {
			t.Fatal(err)
		}
		if w.env.wordless || w.env.discard {
			t.Fatal("the world still drops its records' words after SettleQuietly")
		}
	}
	if fmt.Sprint(checked.Seq(), checked.Elapsed(), checked.Store().Removals()) != fmt.Sprint(viaSettle.Seq(), viaSettle.Elapsed(), viaSettle.Store().Removals()) ||
		fmt.Sprint(loud.Seq(), loud.Elapsed(), loud.Store().Removals()) != fmt.Sprint(viaSettle.Seq(), viaSettle.Elapsed(), viaSettle.Store().Removals()) {
		t.Fatal("a quiet settle without words ends elsewhere than one with them")
	}
}

// TestNewWorldGathersNothingForTheRestarts: the controllers' first lists
// in NewWorld enqueue every restored object, but no record is written
// for them (the first step's begin would drop what was gathered), so the
// world gathers no enqueued items or requests then; the queues hold the
// work all the same, and the first step's record has only its own.
func TestNewWorldGathersNothingForTheRestarts(t *testing.T) {
	var restore []*fakeapi.Object
	for i := range 50 {
		restore = append(restore, &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap",
			Metadata: fakeapi.ObjectMeta{Name: fmt.Sprintf("cm-%d", i), Namespace: "default", UID: fmt.Sprintf("u-%d", i),
				OwnerReferences: []fakeapi.OwnerReference{{APIVersion: "v1", Kind: "Secret", Name: "gone", UID: "u-gone"}}}})
	}
	w, err := NewWorld(Config{Restore: restore})
	if err != nil {
		t.Fatal(err)
	}
	if w.env.discard || w.env.wordless || len(w.env.stepEnqueued) != 0 || len(w.env.stepCalls) != 0 {
		t.Fatalf("after NewWorld: discard %v, %d enqueued items and %d requests gathered for no record", w.env.discard, len(w.env.stepEnqueued), len(w.env.stepCalls))
	}
	if g := w.collector(); g == nil || g.graphChanges.Len() < len(restore) {
		t.Fatal("the collector's first list queued less than every restored object")
	}
	r, err := w.Do(Step{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Enqueued()) > 5 || len(r.Calls()) > 5 {
		t.Fatalf("the first step's record has %d enqueued items and %d requests: %v", len(r.Enqueued()), len(r.Calls()), r)
	}
}

// TestGraphEventLabelWhenAskedFor: an event made in a settle no one
// reads is labelled only when asked, with the label it would have had.
func TestGraphEventLabelWhenAskedFor(t *testing.T) {
	w := buildTree(t, 1, 1, false)
	g := w.collector()
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "p", Namespace: "default", UID: "u-p"}}
	for _, virtual := range []bool{false, true} {
		for _, typ := range []eventType{addEvent, updateEvent, deleteEvent} {
			loud := g.newGraphEvent(typ, virtual, pod, nil)
			w.env.wordless = true
			quiet := g.newGraphEvent(typ, virtual, pod, nil)
			w.env.wordless = false
			if quiet.label != "" {
				t.Fatalf("a wordless settle labelled its event %q when it was made", quiet.label)
			}
			if loud.label == "" || quiet.String() != loud.String() {
				t.Fatalf("label %q, asked for later %q", loud.String(), quiet.String())
			}
		}
	}
}

// promoteCounter counts a controller's promotes.
type promoteCounter struct {
	controller
	n *int
}

func (p promoteCounter) promote(now time.Duration) { *p.n++; p.controller.promote(now) }

// TestStepAfterIdleTakesItsQueue: a settle asks Idle, then steps; the step
// takes the queue Idle found without promoting and looking again, unless
// a watch event, another record or a move of the clock came between.
func TestStepAfterIdleTakesItsQueue(t *testing.T) {
	w := buildTree(t, 1, 2, false) // the collector alone, settled
	promotes := 0
	for i := range w.running {
		w.running[i].c = promoteCounter{w.running[i].c, &promotes}
	}
	cm := func(name string) *fakeapi.Object {
		return &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{Name: name, Namespace: "default"}}
	}

	// A write outside any action after Idle found nothing: its event
	// is on graphChanges, and the step takes it.
	if !w.Idle() {
		t.Fatal("the settled world is not idle")
	}
	if _, err := w.Store().Create("test", cm("a")); err != nil {
		t.Fatal(err)
	}
	promotes = 0
	if r, err := w.Do(Step{}); err != nil || r.Actor != QueueGraphChanges {
		t.Fatalf("the step after a write: %s, %v", r.Actor, err)
	}
	if promotes != 1 {
		t.Fatalf("the step after a write promoted %d times, want 1", promotes)
	}

	// Idle, then the step at once: one promote, Idle's.
	mustDo(t, w, Create{Object: cm("b")})
	promotes = 0
	if w.Idle() {
		t.Fatal("idle with the create's event queued")
	}
	if r, err := w.Do(Step{}); err != nil || r.Actor != QueueGraphChanges {
		t.Fatalf("the step after Idle: %s, %v", r.Actor, err)
	}
	if promotes != 1 {
		t.Fatalf("Idle and the step after it promoted %d times, want 1", promotes)
	}

	// Idle, then another action: the step looks again.
	if !w.Idle() {
		t.Fatal("not idle after the create's event")
	}
	mustDo(t, w, Create{Object: cm("c")})
	if r, err := w.Do(Step{}); err != nil || r.Actor != QueueGraphChanges {
		t.Fatalf("the step after a create: %s, %v", r.Actor, err)
	}

	// Idle, then the clock moves: the step promotes again.
	if !w.Idle() {
		t.Fatal("not idle")
	}
	mustDo(t, w, Advance{D: time.Second})
	promotes = 0
	if _, err := w.Do(Step{}); !errors.Is(err, ErrNothingToDo) {
		t.Fatalf("a step with nothing to do: %v", err)
	}
	if promotes != 1 {
		t.Fatalf("the step after an advance promoted %d times, want 1", promotes)
	}
}
