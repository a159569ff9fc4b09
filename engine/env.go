package engine

import (
	"slices"
	"sort"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/strarena"
)

// virtualClock is the world's clock: time elapsed since fakeapi.Epoch.
type virtualClock struct{ now time.Duration }

// Now returns the virtual wall-clock time.
func (c *virtualClock) Now() time.Time { return fakeapi.Epoch.Add(c.now) }

// apiserver is all of the apiserver a controller may touch: requests, each
// recorded in the step's record (with the client that made it), and
// discovery. What a controller knows besides is what its informers were
// shown by watch events; nothing reads storage behind the record.
type apiserver interface {
	Registry() *fakeapi.Registry
	Get(client string, ref fakeapi.Ref) (*fakeapi.Object, error)
	// GetShared is Get for a caller that only reads the answer: it is
	// the store's snapshot, not a copy.
	GetShared(client string, ref fakeapi.Ref) (*fakeapi.Object, error)
	List(client, apiVersion, kind, namespace string) ([]*fakeapi.Object, error)
	// ListShared is List for a caller that only reads the answer (an
	// informer's relist): storage's objects, not copies.
	ListShared(client, apiVersion, kind, namespace string) ([]*fakeapi.Object, error)
	Create(client string, obj *fakeapi.Object) (*fakeapi.Object, error)
	Update(client string, obj *fakeapi.Object) (*fakeapi.Object, error)
	Patch(client string, ref fakeapi.Ref, pt fakeapi.PatchType, body []byte) (*fakeapi.Object, error)
	Delete(client string, ref fakeapi.Ref, opts *fakeapi.DeleteOptions) (fakeapi.DeleteResult, error)
	DeleteShared(client string, ref fakeapi.Ref, opts *fakeapi.DeleteOptions) (fakeapi.DeleteResult, error)
	RecordEvent(client string, ev fakeapi.Event)
	// The namespace controller's requests: a Namespace's status and
	// finalize subresources, and a collection's DELETE.
	UpdateStatus(client string, obj *fakeapi.Object) (*fakeapi.Object, error)
	Finalize(client string, obj *fakeapi.Object) (*fakeapi.Object, error)
	DeleteCollection(client, apiVersion, kind, namespace string, opts *fakeapi.DeleteOptions) error
}

// env is what the controllers share while a step runs: the apiserver, the
// clock, and the record being written.
type env struct {
	api   apiserver
	clock *virtualClock
	rec   *Record
	// changed collects the UIDs the current step touched (with repeats,
	// sorted and compacted at the end of the step); lastChanged is the
	// list the last record got.
	changed, lastChanged []string
	active               bool
	// cur is the record being written during a step, and idle the one
	// that collects what happens between steps (and is thrown away): rec
	// points at one of them. Both are reused, so no one may keep a
	// *Record past the step it was given for (World.Do copies the
	// finished record).
	cur, idle Record
	// The lists of the records are carved from shared chunks, so that a
	// step's record costs a few allocations per hundred steps rather than
	// one per list (see chunks). Calls and enqueued items are gathered in
	// stepCalls and stepEnqueued, reused from step to step, and copied
	// once the step ends, at their exact length: a step that queues the
	// 1,000 dependents of a ReplicaSet no longer moves its growing list
	// from chunk to chunk.
	calls        chunks[call]
	kinds        callKinds
	enqueues     chunks[enqueue]
	strs         chunks[string]
	stepCalls    []call
	stepEnqueued []enqueue
	// text holds the sentences that name one object, written for every
	// collected object (see strarena).
	text strarena.Arena
}

func newEnv(api apiserver, clock *virtualClock) *env {
	e := &env{api: api, clock: clock}
	e.rec = &e.idle
	return e
}

func (e *env) now() time.Duration { return e.clock.now }

func (e *env) touch(uid string) {
	if e.active && uid != "" {
		e.changed = append(e.changed, uid)
	}
}

// begin starts a new record; end finishes it.
func (e *env) begin(actor string) *Record {
	e.cur = Record{Actor: actor, At: e.clock.now}
	e.rec = &e.cur
	e.changed = e.changed[:0]
	e.stepCalls, e.stepEnqueued = e.stepCalls[:0], e.stepEnqueued[:0]
	e.active = true
	return e.rec
}

// end finishes the record being written and returns it; it stays valid
// until the next begin.
func (e *env) end() *Record {
	r := e.rec
	if len(e.changed) > 0 {
		if len(e.changed) > 1 {
			sort.Strings(e.changed)
		}
		changed := slices.Compact(e.changed)
		if slices.Equal(changed, e.lastChanged) {
			// Consecutive steps often change the same object (a Pod's
			// deletion, then its two events): they share the list, which
			// is capped, so no record can write into another's.
			r.Changed = e.lastChanged
		} else {
			r.Changed = e.strs.clone(changed)
			e.lastChanged = r.Changed
		}
	}
	// The lists are capped, so appending to a returned record's list
	// copies it rather than writing into a chunk.
	r.calls = e.calls.clone(e.stepCalls)
	r.enqueued = e.enqueues.clone(e.stepEnqueued)
	e.stepCalls, e.stepEnqueued = e.stepCalls[:0], e.stepEnqueued[:0]
	r.Notes = slices.Clip(r.Notes)
	if r == &e.idle { // ended without begin
		e.cur = e.idle
		r = &e.cur
	}
	e.idle = Record{}
	e.rec = &e.idle
	e.active = false
	return r
}

// enqueued notes, in the record being written, that item was put on queue.
func (e *env) enqueued(queue, item string, after time.Duration) {
	if e.rec != nil {
		e.stepEnqueued = append(e.stepEnqueued, packEnqueue(queue, item, after))
	}
}

// called notes an API request in the record being written.
func (e *env) called(r *fakeapi.Request) {
	if e.rec != nil {
		e.stepCalls = append(e.stepCalls, e.kinds.compact(r))
	}
}

// note adds a note (already worded) to rec.
func (e *env) note(rec *Record, s string) {
	if rec != nil {
		rec.Notes = e.strs.add(rec.Notes, s)
	}
}

// chunks hands out short lists carved from shared chunks. A list being
// built by add grows in place while it is the last thing carved from the
// current chunk, which is the case for each list of the record being
// written; otherwise add copies it to the end of the chunk. Lists are
// never shrunk or reused: a chunk lives as long as any list carved from
// it.
type chunks[T any] struct{ cur []T }

// Chunks start small (a world that writes a few records, such as one
// replayed for a jump back in history, allocates little) and double up to
// chunkLen.
const (
	firstChunkLen = 8
	chunkLen      = 256
)

// room makes sure the current chunk has n free elements. A new chunk also
// has room for twice n, so a long list moved to it keeps growing in place.
func (c *chunks[T]) room(n int) {
	if cap(c.cur)-len(c.cur) < n {
		c.cur = make([]T, 0, max(min(2*cap(c.cur), chunkLen), firstChunkLen, 2*n))
	}
}

// add appends v to list, which is nil, a list that add returned, or any
// other slice. The list returned is capped, like every list carved from a
// chunk: a plain append to it (Record.note appends to Notes that way)
// copies it, where an uncapped one wrote into the chunk's free end, which
// the next list carved from the chunk then overwrote.
func (c *chunks[T]) add(list []T, v T) []T {
	n := len(list)
	if n > 0 && len(c.cur) > 0 && &list[n-1] == &c.cur[len(c.cur)-1] && len(c.cur) < cap(c.cur) {
		// list is the last thing carved: it grows in place.
		c.cur = append(c.cur, v)
		return c.cur[len(c.cur)-n-1 : len(c.cur) : len(c.cur)]
	}
	c.room(n + 1)
	start := len(c.cur)
	c.cur = append(c.cur, list...)
	c.cur = append(c.cur, v)
	return c.cur[start:len(c.cur):len(c.cur)]
}

// clone copies list into a chunk; the copy is capped. A list longer than
// a chunk gets a block of its own, of its exact length, and the current
// chunk keeps its room for the lists that follow.
func (c *chunks[T]) clone(list []T) []T {
	if len(list) == 0 {
		return nil
	}
	if len(list) > chunkLen {
		return slices.Clip(slices.Clone(list))
	}
	c.room(len(list))
	start := len(c.cur)
	c.cur = append(c.cur, list...)
	return c.cur[start:len(c.cur):len(c.cur)]
}
