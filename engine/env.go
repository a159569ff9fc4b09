package engine

import (
	"slices"
	"sort"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// virtualClock is the world's clock: time elapsed since fakeapi.Epoch.
type virtualClock struct{ now time.Duration }

// Now returns the virtual wall-clock time.
func (c *virtualClock) Now() time.Time { return fakeapi.Epoch.Add(c.now) }

// env is what the controllers share while a step runs: the apiserver, the
// clock, and the record being written.
type env struct {
	store *fakeapi.Store
	clock *virtualClock
	rec   *Record
	// changed collects the UIDs the current step touched (with repeats,
	// sorted and compacted at the end of the step).
	changed []string
	active  bool
}

func (e *env) now() time.Duration { return e.clock.now }

func (e *env) touch(uid string) {
	if e.active && uid != "" {
		e.changed = append(e.changed, uid)
	}
}

// begin starts a new record; end finishes it.
func (e *env) begin(actor string) *Record {
	e.rec = &Record{Actor: actor, At: e.clock.now}
	e.changed = e.changed[:0]
	e.active = true
	return e.rec
}

func (e *env) end() Record {
	r := e.rec
	if len(e.changed) > 0 {
		sort.Strings(e.changed)
		r.Changed = slices.Clone(slices.Compact(e.changed))
	}
	e.rec = &Record{}
	e.active = false
	return *r
}

// enqueued notes, in the record being written, that item was put on queue.
func (e *env) enqueued(queue, item string, after time.Duration) {
	if e.rec != nil {
		e.rec.Enqueued = append(e.rec.Enqueued, Enqueue{Queue: queue, Item: item, After: after})
	}
}
