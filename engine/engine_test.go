package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestWorkqueue_R62 checks client-go's workqueue semantics: dedup while
// queued, re-adds during processing deferred to Done, per-item exponential
// backoff (5 ms x 2^n, capped at 1000 s) and Forget.
func TestWorkqueue_R62(t *testing.T) {
	q := newWorkqueue[string]("q")
	q.Add("a")
	q.Add("b")
	q.Add("a")
	if got := q.Items(); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("dedup while queued: got %v, want [a b]", got)
	}
	item, _ := q.Get()
	q.Add(item) // re-add while processing: deferred
	if got := q.Items(); len(got) != 1 {
		t.Fatalf("re-add during processing must wait for Done: got %v", got)
	}
	q.Done(item)
	if got := q.Items(); len(got) != 2 || got[1] != "a" {
		t.Fatalf("Done must re-queue a dirty item at the back: got %v", got)
	}

	var delays []time.Duration
	for range 20 {
		delays = append(delays, q.backoff("x"))
	}
	if delays[0] != 5*time.Millisecond || delays[1] != 10*time.Millisecond || delays[3] != 40*time.Millisecond {
		t.Fatalf("backoff must be 5ms x 2^n: %v", delays[:4])
	}
	if delays[19] != 1000*time.Second {
		t.Fatalf("backoff must cap at 1000s, got %v", delays[19])
	}
	q.Forget("x")
	if d := q.backoff("x"); d != 5*time.Millisecond {
		t.Fatalf("Forget must reset the backoff, got %v", d)
	}

	// AddAfter keeps the earlier due time of an item already waiting.
	w := newWorkqueue[string]("w")
	w.AddAfter("p", 10*time.Second, 0)
	w.AddAfter("p", 2*time.Second, 0)
	w.AddAfter("p", 30*time.Second, 0)
	if due, _ := w.NextDue(); due != 2*time.Second || len(w.Waiting()) != 1 {
		t.Fatalf("want one waiting entry due at 2s, got %v (%d entries)", due, len(w.Waiting()))
	}
	w.Promote(time.Second)
	if w.Len() != 0 {
		t.Fatal("an item must not be ready before it is due")
	}
	w.Promote(2 * time.Second)
	if w.Len() != 1 {
		t.Fatal("an item must be ready once due")
	}
}

// TestTokenBucket_R62 checks the global 10 qps / burst 100 bucket: the
// 101st immediate reservation waits 100 ms.
func TestTokenBucket_R62(t *testing.T) {
	b := tokenBucket{tokens: bucketBurst}
	for i := range 100 {
		if d := b.reserve(0); d != 0 {
			t.Fatalf("reservation %d within the burst waited %v", i, d)
		}
	}
	if d := b.reserve(0); d != 100*time.Millisecond {
		t.Fatalf("the 101st reservation must wait 100ms, got %v", d)
	}
	if d := b.reserve(time.Second); d != 0 {
		t.Fatalf("after a second the bucket has refilled, got %v", d)
	}
}

// TestJobQueueBackoff: the Job controller's queues back off from 1 s,
// doubling to 60 s, and have no token bucket: the 101st item failing at
// once waits 1 s like the first (NewTypedItemExponentialFailureRateLimiter
// (DefaultJobApiBackOff, MaxJobApiBackOff) alone), and Forget starts over.
func TestJobQueueBackoff(t *testing.T) {
	q := newJobQueue()
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second,
		16 * time.Second, 32 * time.Second, time.Minute, time.Minute}
	for i, w := range want {
		if d := q.AddRateLimited("default/j", 0); d != w {
			t.Fatalf("failure %d: retried in %v, want %v", i+1, d, w)
		}
	}
	q.Forget("default/j")
	if d := q.AddRateLimited("default/j", 0); d != time.Second {
		t.Fatalf("after Forget: retried in %v, want 1s", d)
	}
	for i := range 200 {
		if d := q.AddRateLimited(fmt.Sprintf("default/j%d", i), 0); d != time.Second {
			t.Fatalf("item %d failing at once: retried in %v, want 1s (no bucket)", i, d)
		}
	}
	if c := q.clone(func(s string) string { return s }); c.AddRateLimited("default/j", 0) != 2*time.Second ||
		c.AddRateLimited("default/new", 0) != time.Second {
		t.Fatal("a clone of the Job queue lost its rate limiter")
	}
}

// TestAbsentOwnerCache_R36 checks the LRU keyed by full coordinates plus
// namespace.
func TestAbsentOwnerCache_R36(t *testing.T) {
	c := newAbsentOwnerCache(2)
	secret := objectReference{APIVersion: "v1", Kind: "Secret", Name: "s", UID: "u", Namespace: "default"}
	deploy := objectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "s", UID: "u", Namespace: "default"}
	c.Add(secret)
	if c.Has(deploy) {
		t.Fatal("an absent Secret with uid u must not make a Deployment with uid u absent")
	}
	other := secret
	other.Namespace = "other"
	if c.Has(other) {
		t.Fatal("the namespace is part of the key")
	}
	c.Add(deploy)
	c.Has(secret) // refresh: deploy is now the least recently used
	c.Add(other)
	if c.Has(deploy) || !c.Has(secret) || !c.Has(other) {
		t.Fatal("LRU eviction must drop the least recently used entry")
	}
}

// TestAbsentOwnerCache_AgainstModel checks the cache, its shortcuts for
// the most recent entry and for keys without a namespace included, against
// a plain LRU list, through random adds and lookups that evict entries of
// both shapes, and through a clone.
func TestAbsentOwnerCache_AgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c := newAbsentOwnerCache(8)
	var model []objectReference // most recent first
	find := func(ref objectReference) int { return slices.Index(model, ref) }
	for i := range 20000 {
		ref := objectReference{APIVersion: "v1", Kind: "ConfigMap", Name: fmt.Sprintf("o%d", r.IntN(12)), UID: "u"}
		if r.IntN(3) > 0 {
			ref.Namespace = "default"
		}
		if r.IntN(2) == 0 {
			c.Add(ref)
			if j := find(ref); j >= 0 {
				model = slices.Delete(model, j, j+1)
			}
			model = slices.Insert(model, 0, ref)
			if len(model) > 8 {
				model = model[:8]
			}
		} else {
			j := find(ref)
			if got := c.Has(ref); got != (j >= 0) {
				t.Fatalf("op %d: Has(%+v) = %v, want %v", i, ref, got, j >= 0)
			}
			if j >= 0 {
				model = slices.Insert(slices.Delete(model, j, j+1), 0, ref)
			}
		}
		if i%1000 == 999 {
			c = c.clone()
		}
		if got := c.entries(); !slices.Equal(got, model) {
			t.Fatalf("op %d: entries %v, want %v", i, got, model)
		}
	}
}

func newTestWorld(t *testing.T, controllers ...string) *World {
	t.Helper()
	w, err := NewWorld(Config{Controllers: controllers})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func cm(name, uid string, owners ...fakeapi.OwnerReference) *fakeapi.Object {
	return &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{Name: name, Namespace: "default", UID: uid, OwnerReferences: owners}}
}

func ref(kind, name, uid string) fakeapi.OwnerReference {
	return fakeapi.OwnerReference{APIVersion: "v1", Kind: kind, Name: name, UID: uid}
}

// TestDeleteObject_R46 checks the v1.34 conflict handling: a DELETE whose
// resourceVersion precondition fails is retried without it when the
// ownerReferences did not change, and returned otherwise.
func TestDeleteObject_R46(t *testing.T) {
	w := newTestWorld(t, ControllerGC)
	mustDo(t, w, Create{Object: cm("dep", "dep-uid", ref("ConfigMap", "gone", "gone-uid"))})
	stale := w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "dep"})
	rv, owners := stale.Metadata.ResourceVersion, stale.Metadata.OwnerReferences
	id := objectReference{APIVersion: "v1", Kind: "ConfigMap", Name: "dep", UID: "dep-uid", Namespace: "default"}

	// An unrelated change (a label) moves the resourceVersion on.
	mustDo(t, w, Patch{Ref: fakeapi.RefOf(stale), Merge: []byte(`{"metadata":{"labels":{"a":"b"}}}`)})
	rec := w.env.begin("test")
	err := w.collector().deleteObject(id, rv, owners, fakeapi.DeletePropagationBackground)
	w.env.end()
	if err != nil {
		t.Fatalf("an unrelated change must not stop the delete: %v", err)
	}
	if calls := rec.Calls(); len(calls) != 3 || calls[0].Code != 409 || calls[2].Code != 200 || strings.Contains(calls[2].Detail, "rv=") {
		t.Fatalf("want DELETE (409), GET, DELETE without rv (200); got %+v", calls)
	}

	// A change to the ownerReferences returns the conflict.
	mustDo(t, w, Create{Object: cm("dep2", "dep2-uid", ref("ConfigMap", "gone", "gone-uid"))})
	stale = w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "dep2"})
	rv, owners = stale.Metadata.ResourceVersion, stale.Metadata.OwnerReferences
	mustDo(t, w, Patch{Ref: fakeapi.RefOf(stale), Merge: []byte(`{"metadata":{"ownerReferences":[]}}`)})
	id.Name, id.UID = "dep2", "dep2-uid"
	w.env.begin("test")
	err = w.collector().deleteObject(id, rv, owners, fakeapi.DeletePropagationBackground)
	w.env.end()
	if !fakeapi.IsConflict(err) {
		t.Fatalf("changed ownerReferences must return the conflict, got %v", err)
	}
	if w.Store().Lookup(fakeapi.RefOf(stale)) == nil {
		t.Fatal("the object whose owners changed must not be deleted")
	}
}

// buildCascade makes an owner with n dependents and settles.
func buildCascade(t *testing.T, h *History, n int) {
	t.Helper()
	if _, err := h.Do(Create{Object: cm("owner", "owner-uid")}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := "d" + string(rune('a'+i))
		if _, err := h.Do(Create{Object: cm(name, name+"-uid", ref("ConfigMap", "owner", "owner-uid"))}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Settle(h, 1000); err != nil {
		t.Fatal(err)
	}
}

func worldState(w *World) string {
	var b strings.Builder
	for _, o := range w.Store().Objects() {
		b.WriteString(objectLine(o) + "\n")
	}
	for _, n := range w.Nodes() {
		b.WriteString(nodeLine(n) + "\n")
	}
	for _, q := range w.QueueNames() {
		for _, it := range w.Queue(q) {
			b.WriteString(q + " " + it.Item + "\n")
		}
	}
	b.WriteString(FormatElapsed(w.Elapsed()))
	return b.String()
}

// TestHistory_GotoReplaysExactly checks that every position of the
// timeline, reached backwards or forwards, gives the same state as when it
// was first reached; and that acting in the past starts a branch.
func TestHistory_GotoReplaysExactly(t *testing.T) {
	tl := newTimeline(t, newTestWorld(t, ControllerGC))
	h, do := tl.h, tl.do
	do(Create{Object: cm("owner", "owner-uid")})
	for _, n := range []string{"a", "b", "c"} {
		do(Create{Object: cm(n, n+"-uid", ref("ConfigMap", "owner", "owner-uid"))})
	}
	tl.settle()
	do(Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "owner"}, Options: &fakeapi.DeleteOptions{PropagationPolicy: policyOf(fakeapi.DeletePropagationForeground)}})
	tl.settle()
	if len(tl.states)-1 != h.Len() {
		t.Fatalf("%d states for %d records", len(tl.states), h.Len())
	}
	for _, pos := range []int{0, h.Len(), 3, 4, h.Len() - 1, 1, h.Len()} {
		tl.goTo(pos)
	}
	// Act in the past: the timeline is cut there.
	if err := h.Goto(2); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Do(Create{Object: cm("new", "new-uid")}); err != nil {
		t.Fatal(err)
	}
	if h.Len() != 3 || h.BranchedAt() != 2 {
		t.Fatalf("acting at 2 must cut the timeline: len %d, branched at %d", h.Len(), h.BranchedAt())
	}
}

// TestHistory_UndoSkipsNoOps checks that undo skips steps that changed
// nothing.
func TestHistory_UndoSkipsNoOps(t *testing.T) {
	h := NewHistory(newTestWorld(t, ControllerGC))
	buildCascade(t, h, 1)
	end := h.Len()
	if err := h.Undo(); err != nil {
		t.Fatal(err)
	}
	if h.Pos() >= end {
		t.Fatalf("undo did not move back (pos %d of %d)", h.Pos(), end)
	}
	for p := h.Pos(); p < end; p++ {
		if r := h.Record(p); len(r.Changed) > 0 && p != h.Pos() {
			t.Fatalf("undo skipped record %d, which changed %v", p+1, r.Changed)
		}
	}
}

// TestClone_Independent checks that a clone of a world mid-cascade evolves
// exactly as the original, and separately from it.
func TestClone_Independent(t *testing.T) {
	w := newTestWorld(t, ControllerGC)
	mustDo(t, w, Create{Object: cm("owner", "owner-uid")})
	mustDo(t, w, Create{Object: cm("a", "a-uid", ref("ConfigMap", "owner", "owner-uid"))})
	mustSettle(t, w)
	mustDo(t, w, Delete{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "owner"}})
	mustDo(t, w, Step{})
	c := w.Clone()
	r1 := mustSettle(t, w)
	r2 := mustSettle(t, c)
	if len(r1.Records) != len(r2.Records) {
		t.Fatalf("clone took %d steps, original %d", len(r2.Records), len(r1.Records))
	}
	for i := range r1.Records {
		if r1.Records[i].Detail() != r2.Records[i].Detail() {
			t.Fatalf("step %d differs:\n%s\n%s", i, r1.Records[i].Detail(), r2.Records[i].Detail())
		}
	}
	if worldState(w) != worldState(c) {
		t.Fatal("clone and original ended in different states")
	}
}

func policyOf(p fakeapi.DeletionPropagation) *fakeapi.DeletionPropagation { return &p }

// TestClone_LockstepFromEveryStep clones a cascade after every one of
// its steps and runs the clone and the original side by side to the end:
// each step must write the same record in both. Queued items carry their
// queues' flags, so this checks that a clone copies them.
func TestClone_LockstepFromEveryStep(t *testing.T) {
	for _, policy := range []fakeapi.DeletionPropagation{fakeapi.DeletePropagationBackground, fakeapi.DeletePropagationForeground, fakeapi.DeletePropagationOrphan} {
		start := func() *World {
			w := buildTree(t, 2, 3, policy == fakeapi.DeletePropagationForeground)
			mustDo(t, w, Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"},
				Options: &fakeapi.DeleteOptions{PropagationPolicy: &policy}})
			return w
		}
		total := mustSettle(t, start()).Steps
		for at := 0; at < total; at++ {
			w := start()
			for range at {
				mustDo(t, w, Step{})
			}
			c := w.Clone()
			for n := at; !w.Idle() || !c.Idle(); n++ {
				a, errA := w.Do(Step{})
				b, errB := c.Do(Step{})
				if errA != nil || errB != nil || a.Detail() != b.Detail() {
					t.Fatalf("%s, cloned after step %d: step %d differs:\n%s%v\n%s%v", policy, at, n, a.Detail(), errA, b.Detail(), errB)
				}
			}
		}
	}
}

// After a restart whose list of a kind failed, the collector's informers
// hold of that kind only what events showed them since, in their own
// table; after a restart whose lists all succeeded they read storage's.
func TestCollectorInformersAfterAFailedList(t *testing.T) {
	w, err := NewWorld(Config{})
	if err != nil {
		t.Fatal(err)
	}
	cm := &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{Name: "cm", Namespace: "default"}}
	if _, err := w.Do(Create{Object: cm}); err != nil {
		t.Fatal(err)
	}
	stored := w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "cm"})
	id := objectReference{APIVersion: "v1", Kind: "ConfigMap", Name: "cm", Namespace: "default", UID: stored.Metadata.UID}
	if _, err := w.Do(Inject{Fault: fakeapi.Fault{Verb: "list", Kind: "ConfigMap", Reason: fakeapi.ReasonInternalError, Times: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Do(Restart{Controller: ControllerGC}); err != nil {
		t.Fatal(err)
	}
	g := w.collector()
	if g.informerIsStorage {
		t.Fatal("the informers read storage after a list failed")
	}
	if o := g.informerGet(id); o != nil {
		t.Fatalf("the informers hold %s, which no list or event showed them", o)
	}
	if _, err := w.Do(Patch{Ref: fakeapi.RefOf(stored), Merge: []byte(`{"metadata":{"labels":{"a":"b"}}}`)}); err != nil {
		t.Fatal(err)
	}
	if o := g.informerGet(id); o == nil || o.Metadata.Labels["a"] != "b" {
		t.Fatalf("after the patch's event the informers hold %v", o)
	}
	if _, err := w.Do(Restart{Controller: ControllerGC}); err != nil {
		t.Fatal(err)
	}
	g = w.collector()
	if !g.informerIsStorage {
		t.Fatal("the informers keep a table after every list succeeded")
	}
	if o := g.informerGet(id); o == nil || o != w.Store().Lookup(fakeapi.RefOf(stored)) {
		t.Fatalf("the informers read %v, storage holds %v", o, w.Store().Lookup(fakeapi.RefOf(stored)))
	}
	events := objectReference{APIVersion: "v1", Kind: "Event", Name: "e", Namespace: "default"}
	if o := g.informerGet(events); o != nil {
		t.Fatalf("the informers hold an Event: %s", o)
	}
}

// TestWorkqueue_WaitingHead checks that the first n waiting items, found
// by walking the heap, are the first n of Waiting (every item sorted)
// for every n, as items are added, moved earlier (leaving stale entries
// in the heap) and promoted.
func TestWorkqueue_WaitingHead(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 26))
	q := newWorkqueue[string]("q")
	now := time.Duration(0)
	for round := range 400 {
		switch r.IntN(5) {
		case 0, 1, 2:
			q.AddAfter(fmt.Sprint("i", r.IntN(60)), time.Duration(1+r.IntN(50))*time.Second, now)
		case 3:
			now += time.Duration(r.IntN(3)) * time.Second
			q.Promote(now)
		case 4:
			for q.Len() > 0 {
				it, _ := q.Get()
				q.Done(it)
			}
		}
		all := q.Waiting()
		if len(all) != q.NumWaiting() {
			t.Fatalf("round %d: %d waiting listed, NumWaiting %d", round, len(all), q.NumWaiting())
		}
		for n := 0; n <= len(all)+1; n++ {
			got := q.WaitingHead(n)
			want := all[:min(n, len(all))]
			if !slices.EqualFunc(got, want, func(a, b waitingItem[string]) bool {
				return a.item == b.item && a.due == b.due && a.seq == b.seq
			}) {
				t.Fatalf("round %d: WaitingHead(%d) = %v, want %v", round, n, got, want)
			}
		}
	}
}

// checkQueueHeads checks, for every queue of w, that QueueHead(n) is the
// first n items of Queue and that QueueCount counts Queue's items and
// its ready ones.
func checkQueueHeads(w *World) error {
	for _, name := range w.QueueNames() {
		all := w.Queue(name)
		ready := 0
		for _, it := range all {
			if !it.Waiting {
				ready++
			}
		}
		if gt, gr := w.QueueCount(name); gt != len(all) || gr != ready {
			return fmt.Errorf("queue %s: QueueCount = %d, %d; Queue lists %d, %d ready", name, gt, gr, len(all), ready)
		}
		for n := 0; n <= len(all)+1; n++ {
			if got := w.QueueHead(name, n); !slices.Equal(got, all[:min(n, len(all))]) {
				return fmt.Errorf("queue %s: QueueHead(%d) = %v, want the first of %v", name, n, got, all)
			}
		}
	}
	return nil
}

// TestReferencesDiffsRepeatedUID: as upstream's referencesDiffs, each old
// UID is matched once, so a new reference repeating it is added; and an
// old UID given twice stands for its last reference, which is what a
// removal reports (its blockOwnerDeletion decides R28).
func TestReferencesDiffsRepeatedUID(t *testing.T) {
	a, b := ref("ConfigMap", "a", "u1"), ref("ConfigMap", "b", "u1")
	added, removed, changed := referencesDiffs([]fakeapi.OwnerReference{a}, []fakeapi.OwnerReference{a, b})
	if len(added) != 1 || added[0].Name != "b" || len(removed) != 0 || len(changed) != 0 {
		t.Fatalf("[a] to [a, b(same uid)]: added %v removed %v changed %v; want b added", added, removed, changed)
	}
	added, removed, changed = referencesDiffs([]fakeapi.OwnerReference{a, a}, []fakeapi.OwnerReference{a, a})
	if len(added) != 1 || len(removed) != 0 || len(changed) != 0 {
		t.Fatalf("[a, a] to [a, a]: added %v removed %v changed %v; want the second a added", added, removed, changed)
	}
	blocking := a
	blocking.BlockOwnerDeletion = fakeapi.Bool(true)
	added, removed, changed = referencesDiffs([]fakeapi.OwnerReference{blocking, a}, nil)
	if len(added) != 0 || len(changed) != 0 || len(removed) != 1 || removed[0].Blocks() {
		t.Fatalf("[a(blocking), a] to []: added %v removed %v changed %v; want the last a, not blocking, removed", added, removed, changed)
	}
}
