package engine

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// A queue's map of item states starts afresh once emptied after being
// large, and keeps its contents otherwise.
func TestItemStates_ShrinkWhenEmptied(t *testing.T) {
	var s itemStates[int]
	for i := range 1000 {
		s.make(i).flags = dirtyItem
	}
	for i := range 999 {
		st := s.get(i)
		st.flags = 0
		s.release(i, st)
	}
	if s.get(999) == nil || s.get(0) != nil || s.m == nil {
		t.Fatal("the states lost or kept the wrong items")
	}
	st := s.get(999)
	st.flags = 0
	s.release(999, st)
	if s.m != nil || s.peak != 0 {
		t.Fatal("an emptied large map of states must be dropped")
	}
	s.make(1).flags = dirtyItem
	st = s.get(1)
	st.flags = 0
	s.release(1, st)
	if s.m == nil {
		t.Fatal("a small map of states is kept")
	}
	if st := s.make(2); st.flags != 0 || st.wait != nil {
		t.Fatal("a reused state is not empty")
	}
}

// refQueue is client-go's workqueue semantics written plainly, as the
// model TestWorkqueueAgainstModel checks both kinds of queue against.
type refQueue struct {
	queue             []string
	dirty, processing map[string]bool
	waiting           []refWait
	seq               int
}

type refWait struct {
	item string
	due  time.Duration
	seq  int
}

func (r *refQueue) add(item string) {
	if r.dirty[item] {
		return
	}
	r.dirty[item] = true
	if !r.processing[item] {
		r.queue = append(r.queue, item)
	}
}

func (r *refQueue) addAfter(item string, d, now time.Duration) {
	if d <= 0 {
		r.add(item)
		return
	}
	for i, w := range r.waiting {
		if w.item == item {
			r.waiting[i].due = min(w.due, now+d)
			return
		}
	}
	r.seq++
	r.waiting = append(r.waiting, refWait{item, now + d, r.seq})
}

func (r *refQueue) promote(now time.Duration) {
	slices.SortFunc(r.waiting, func(a, b refWait) int {
		if a.due != b.due {
			return cmp.Compare(a.due, b.due)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for len(r.waiting) > 0 && r.waiting[0].due <= now {
		w := r.waiting[0]
		r.waiting = r.waiting[1:]
		r.add(w.item)
	}
}

func (r *refQueue) get() (string, bool) {
	if len(r.queue) == 0 {
		return "", false
	}
	item := r.queue[0]
	r.queue = r.queue[1:]
	r.processing[item] = true
	delete(r.dirty, item)
	return item, true
}

func (r *refQueue) done(item string) {
	delete(r.processing, item)
	if r.dirty[item] {
		r.queue = append(r.queue, item)
	}
}

// flagged is an item that carries its own queue flags, as graph nodes do.
type flagged struct {
	name  string
	flags uint8
}

// TestWorkqueueAgainstModel drives a queue of strings (whose states are
// kept in a map), a queue of items with flags of their own, and clones
// of both through random adds, delayed adds, promotions, Gets and Dones,
// and checks their ready and waiting items against the model after each.
func TestWorkqueueAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 62))
	items := map[string]*flagged{}
	names := []string{"a", "b", "c", "d", "e", "f"}
	for _, n := range names {
		items[n] = &flagged{name: n}
	}
	ref := &refQueue{dirty: map[string]bool{}, processing: map[string]bool{}}
	keyed := newWorkqueue[string]("keyed")
	flags := newFlaggedQueue("flagged", func(f *flagged) *uint8 { return &f.flags }, 4, 16)
	var now time.Duration
	var taken []string
	for step := range 20000 {
		item := names[r.IntN(len(names))]
		switch r.IntN(6) {
		case 0:
			ref.add(item)
			keyed.Add(item)
			flags.Add(items[item])
		case 1:
			d := time.Duration(r.IntN(4)) * time.Second
			ref.addAfter(item, d, now)
			keyed.AddAfter(item, d, now)
			flags.AddAfter(items[item], d, now)
		case 2:
			now += time.Duration(r.IntN(3)) * time.Second
			ref.promote(now)
			keyed.Promote(now)
			flags.Promote(now)
		case 3:
			want, ok := ref.get()
			k, kok := keyed.Get()
			f, fok := flags.Get()
			if ok != kok || ok != fok || (ok && (k != want || f.name != want)) {
				t.Fatalf("step %d: Get: model %q %v, keyed %q %v, flagged %v %v", step, want, ok, k, kok, f, fok)
			}
			if ok {
				taken = append(taken, want)
			}
		case 4, 5:
			if len(taken) > 0 {
				i := r.IntN(len(taken))
				it := taken[i]
				taken = slices.Delete(taken, i, i+1)
				ref.done(it)
				keyed.Done(it)
				flags.Done(items[it])
			}
		}
		if step%1000 == 999 { // carry on with clones
			keyed = keyed.clone(func(s string) string { return s })
			flags = flags.clone(func(f *flagged) *flagged { return f })
		}
		ready := func(q []*flagged) []string {
			var out []string
			for _, f := range q {
				out = append(out, f.name)
			}
			return out
		}
		if !slices.Equal(keyed.Items(), ref.queue) || !slices.Equal(ready(flags.Items()), ref.queue) {
			t.Fatalf("step %d: ready: model %q, keyed %q, flagged %q", step, ref.queue, keyed.Items(), ready(flags.Items()))
		}
		if keyed.NumWaiting() != len(ref.waiting) || flags.NumWaiting() != len(ref.waiting) {
			t.Fatalf("step %d: waiting: model %d, keyed %d, flagged %d", step, len(ref.waiting), keyed.NumWaiting(), flags.NumWaiting())
		}
		// The waiting items, in due order, and the next due time.
		want := slices.Clone(ref.waiting)
		slices.SortFunc(want, func(a, b refWait) int { return cmp.Or(cmp.Compare(a.due, b.due), cmp.Compare(a.seq, b.seq)) })
		var wantWait, gotKeyed, gotFlagged []string
		for _, w := range want {
			wantWait = append(wantWait, fmt.Sprint(w.item, "@", w.due))
		}
		for _, w := range keyed.Waiting() {
			gotKeyed = append(gotKeyed, fmt.Sprint(w.item, "@", w.due))
		}
		for _, w := range flags.Waiting() {
			gotFlagged = append(gotFlagged, fmt.Sprint(w.item.name, "@", w.due))
		}
		if !slices.Equal(gotKeyed, wantWait) || !slices.Equal(gotFlagged, wantWait) {
			t.Fatalf("step %d: waiting: model %q, keyed %q, flagged %q", step, wantWait, gotKeyed, gotFlagged)
		}
		kd, kok := keyed.NextDue()
		fd, fok := flags.NextDue()
		if kok != (len(want) > 0) || fok != kok || (kok && (kd != want[0].due || fd != kd)) {
			t.Fatalf("step %d: NextDue: keyed %v %v, flagged %v %v, model %v", step, kd, kok, fd, fok, want)
		}
	}
	if len(keyed.states.m) > len(names) {
		t.Fatalf("the keyed queue keeps %d states for %d items", len(keyed.states.m), len(names))
	}
}

// TestWorkqueueLongQueueAgainstModel runs a keyed queue long enough that
// Get moves the rest of its array to the front (past 1,024 taken items),
// with items re-added while they are processing and Dones out of order,
// and checks it against the model: the state each queued item carries
// must stay its own through the moves.
func TestWorkqueueLongQueueAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 11))
	ref := &refQueue{dirty: map[string]bool{}, processing: map[string]bool{}}
	q := newWorkqueue[string]("keyed")
	var taken []string
	var now time.Duration
	for step := range 60000 {
		item := fmt.Sprintf("pod-%d", r.IntN(5000))
		switch n := r.IntN(12); {
		case n < 3:
			ref.add(item)
			q.Add(item)
		case n < 5:
			d := time.Duration(r.IntN(2000)) * time.Millisecond
			ref.addAfter(item, d, now)
			q.AddAfter(item, d, now)
		case n == 5:
			now += time.Duration(r.IntN(300)) * time.Millisecond
			ref.promote(now)
			q.Promote(now)
		case n < 8:
			want, ok := ref.get()
			got, gok := q.Get()
			if ok != gok || got != want {
				t.Fatalf("step %d: Get: model %q %v, queue %q %v", step, want, ok, got, gok)
			}
			if ok {
				taken = append(taken, want)
			}
		default:
			if len(taken) > 0 {
				// Mostly the item taken last, as a worker ends it.
				i := len(taken) - 1
				if r.IntN(3) == 0 {
					i = r.IntN(len(taken))
				}
				it := taken[i]
				taken = slices.Delete(taken, i, i+1)
				ref.done(it)
				q.Done(it)
			}
		}
		if step%20000 == 19999 {
			q = q.clone(func(s string) string { return s })
		}
		if !slices.Equal(q.Items(), ref.queue) {
			t.Fatalf("step %d: ready: model has %d, queue %d", step, len(ref.queue), q.Len())
		}
		if q.NumWaiting() != len(ref.waiting) {
			t.Fatalf("step %d: waiting: model %d, queue %d", step, len(ref.waiting), q.NumWaiting())
		}
	}
	now += time.Hour
	ref.promote(now)
	q.Promote(now)
	if !slices.Equal(q.Items(), ref.queue) || q.NumWaiting() != 0 {
		t.Fatalf("after the waits: model has %d ready, queue %d ready and %d waiting", len(ref.queue), q.Len(), q.NumWaiting())
	}
	for len(taken) > 0 {
		it := taken[0]
		taken = taken[1:]
		ref.done(it)
		q.Done(it)
	}
	for {
		want, ok := ref.get()
		got, gok := q.Get()
		if ok != gok || got != want {
			t.Fatalf("drain: model %q %v, queue %q %v", want, ok, got, gok)
		}
		if !ok {
			break
		}
		ref.done(want)
		q.Done(got)
	}
	if len(q.states.m) != 0 {
		t.Fatalf("the drained queue keeps %d states", len(q.states.m))
	}
}
