package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/strarena"
)

// recorder writes the records of a world's steps. The controllers write
// a plain Record: they set its Item and Reason (rec.Because words a
// one-sentence reason from its form and values), call rec.Note for a
// secondary decision and rec.Sprintf for a sentence, and the world tells
// the recorder of each API request, enqueued item and changed object.
//
// How the records are stored is this file's business alone, because this
// is where they pile up (a cascade of 100,000 objects writes 300,000 of
// them, a timeline keeps them all): their lists are carved from shared
// chunks, their sentences from a text arena, a sentence equal to one
// written a moment ago is that same string, and an API request keeps only
// what differs from the requests of its kind. docs/BENCHMARKS.md has the
// figures.
type recorder struct {
	// rec is the record being written: cur during a step, idle between
	// steps (what happens then is collected and thrown away). Both are
	// reused, so no one may keep a *Record past the step it was given
	// for (World.Do copies the finished record).
	rec       *Record
	cur, idle Record
	active    bool
	// changed collects the UIDs the current step touched (with repeats,
	// sorted and compacted at the end of the step); lastChanged is the
	// list the last record got.
	changed, lastChanged []string
	// Calls and enqueued items are gathered in stepCalls and
	// stepEnqueued, reused from step to step, and copied into chunks at
	// their exact length when the step ends.
	stepCalls    []call
	stepEnqueued []enqueue
	calls        chunks[call]
	kinds        callKinds
	enqueues     chunks[enqueue]
	strs         chunks[string]
	// text holds the sentences; recent are the last ones written, which
	// a sentence equal to one of them shares (the 1,000 Pods of one
	// ReplicaSet get the same reason and the same note).
	text   strarena.Arena
	recent recentTexts
	buf    []byte
	// refs are the references ref wrote last, kept in the same way: an
	// owner named in a note of each of its dependents is written once.
	refs     [4]refText
	refsNext int
	// spans and vals are because's scratch: where each value of a
	// sentence starts and ends, and the values.
	spans []int
	vals  []string
	// texts shares the collector's reasons that repeat (see textCache);
	// slab holds the one-sentence reasons written by because (see
	// textSlab).
	texts textCache
	slab  textSlab
	// discard says that no one will read the records of the steps now
	// running (a quiet settle of a world without a history): the
	// requests, enqueued items, changed objects and notes of a step are
	// then not stored at all. A record still gets its actor, item and
	// reason, which the decisions themselves write (see wordless for the
	// reason's sentence).
	discard bool
	// wordless says, with discard, that the reasons' sentences are not
	// written either (Because and reason return the reason as given,
	// with its code, rule and function), nor the labels of graph events
	// until asked for, nor the item of a graphChanges step: no one reads
	// them. A world that checks its invariants keeps them, as it checks
	// their texts.
	wordless bool
}

const recentSentences = 8

// scratchKeep is the most a step's scratch lists keep for the next step.
const scratchKeep = 1024

func (w *recorder) init() {
	w.idle = Record{w: w}
	w.rec = &w.idle
}

// begin starts a new record; end finishes it.
func (w *recorder) begin(actor string, at time.Duration) *Record {
	w.cur = Record{Actor: actor, At: at, w: w}
	w.rec = &w.cur
	w.changed = w.changed[:0]
	w.stepCalls, w.stepEnqueued = w.stepCalls[:0], w.stepEnqueued[:0]
	w.active = true
	return w.rec
}

// end finishes the record being written and returns it; it stays valid
// until the next begin.
func (w *recorder) end() *Record {
	r := w.rec
	if w.discard {
		w.changed = w.changed[:0]
		w.stepCalls, w.stepEnqueued = w.stepCalls[:0], w.stepEnqueued[:0]
	}
	if len(w.changed) > 0 {
		if len(w.changed) > 1 {
			sort.Strings(w.changed)
		}
		changed := slices.Compact(w.changed)
		if slices.Equal(changed, w.lastChanged) {
			// Consecutive steps often change the same object (a Pod's
			// deletion, then its two events): they share the list, which
			// is capped, so no record can write into another's.
			r.Changed = w.lastChanged
		} else {
			r.Changed = w.strs.clone(changed)
			w.lastChanged = r.Changed
		}
	}
	// The lists are capped, so appending to a returned record's list
	// copies it rather than writing into a chunk.
	r.calls = w.calls.clone(w.stepCalls)
	r.enqueued = w.enqueues.clone(w.stepEnqueued)
	w.stepCalls, w.stepEnqueued = w.stepCalls[:0], w.stepEnqueued[:0]
	// A step that gathered a whole world (a restart's relist enqueues
	// every object) leaves no scratch of that size behind for the steps
	// after it, which gather a few each.
	if cap(w.stepEnqueued) > scratchKeep {
		w.stepEnqueued = nil
	}
	if cap(w.stepCalls) > scratchKeep {
		w.stepCalls = nil
	}
	if cap(w.changed) > scratchKeep {
		w.changed = nil
	}
	r.Notes = slices.Clip(r.Notes)
	if r == &w.idle { // ended without begin
		w.cur = w.idle
		r = &w.cur
	}
	r.w = nil
	w.idle = Record{w: w}
	w.rec = &w.idle
	w.active = false
	return r
}

// touch notes that the step changed the object or node with uid.
func (w *recorder) touch(uid string) {
	if w.active && uid != "" && !w.discard {
		w.changed = append(w.changed, uid)
	}
}

// enqueued notes, in the record being written, that item was put on queue.
func (w *recorder) enqueued(queue, item string, after time.Duration) {
	if w.discard {
		return
	}
	w.stepEnqueued = append(w.stepEnqueued, packEnqueue(queue, item, after))
}

// called notes an API request in the record being written.
func (w *recorder) called(r *fakeapi.Request) {
	if w.discard {
		return
	}
	w.stepCalls = append(w.stepCalls, w.kinds.compact(r))
}

// Note adds a secondary decision of the step to the record, worded as
// fmt.Sprintf words it.
func (r *Record) Note(format string, args ...any) {
	if r == nil {
		return
	}
	if r.w == nil {
		r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
		return
	}
	if r.w.discard {
		return
	}
	r.Notes = r.w.strs.add(r.Notes, r.w.sprintf(format, args))
}

// Noting reports whether a Note on r is kept: a caller whose note's
// values cost something to make (a reference's text, boxing into any)
// asks first.
func (r *Record) Noting() bool { return r != nil && (r.w == nil || !r.w.discard) }

// Sprintf is fmt.Sprintf for the record's sentences (its item and reason):
// the same text, kept by the recorder while the record is being written.
func (r *Record) Sprintf(format string, args ...any) string {
	if r == nil || r.w == nil {
		return fmt.Sprintf(format, args...)
	}
	return r.w.sprintf(format, args)
}

// Because is reason saying the one sentence form filled with args, as
// Reason.Say words it. The recorder writes the sentence while the record
// is being written, and its values are the parts of it they fill.
func (r *Record) Because(reason Reason, form string, args ...any) Reason {
	if r == nil || r.w == nil {
		return reason.Say(form, args...)
	}
	if r.w.wordless {
		return reason
	}
	return r.w.because(reason, form, args)
}

// BecauseItem is Because with the record's item as the sentence's one
// value: a settle that writes no sentences then boxes nothing.
func (r *Record) BecauseItem(reason Reason, form string) Reason {
	if r != nil && r.w != nil && r.w.wordless {
		return reason
	}
	return r.Because(reason, form, r.Item)
}

// reason is r saying the classes of an object's owner references, then
// the sentences more (which have no values), shared with an earlier equal
// reason while the record is being written (see textCache.reason).
func (r *Record) reason(reason Reason, classes refClasses, more ...Text) Reason {
	if r == nil || r.w == nil {
		return reason.Saying(append(classes.texts(), more...)...)
	}
	if r.w.wordless {
		return reason
	}
	return r.w.texts.reason(reason, classes, more...)
}

func (w *recorder) sprintf(format string, args []any) string {
	w.buf = appendf(w.buf[:0], format, args)
	return w.keep(w.buf)
}

func (w *recorder) because(r Reason, form string, args []any) Reason {
	w.spans = w.spans[:0]
	b, ok := appendArgs(w.buf[:0], form, args, &w.spans)
	w.buf = b
	if !ok {
		return r.Say(form, args...)
	}
	msg := w.text.String(b) // most name an object: few repeat
	vals := w.vals[:0]
	for i := 0; i < len(w.spans); i += 2 {
		vals = append(vals, msg[w.spans[i]:w.spans[i+1]])
	}
	w.vals = vals
	r.Message, r.Texts = msg, w.slab.said(form, vals...)
	return r
}

// Sprintf is fmt.Sprintf for sentences that name one object and so do
// not repeat (the labels of graphChanges items), written between steps
// too: kept in the text arena.
func (w *recorder) Sprintf(format string, args ...any) string {
	w.buf = appendf(w.buf[:0], format, args)
	return w.text.String(w.buf)
}

// keep returns b as a string: one of the recent sentences when it is
// equal to it, else a copy in the text arena.
func (w *recorder) keep(b []byte) string {
	if s, ok := w.recent.find(b); ok {
		return s
	}
	s := w.text.String(b)
	w.recent.add(s)
	return s
}

// recentTexts are the last sentences written. The one found last is kept
// first, where no new sentence replaces it; the others give way to new
// ones in turn. So a sentence that repeats (the note each of an owner's
// 1,000 dependents gets) stays while sentences that name one object come
// and go, and nothing is moved but the one found.
type recentTexts struct {
	s    [recentSentences]string
	next int // the slot the next new sentence takes, 1 to recentSentences-1
}

func (t *recentTexts) find(b []byte) (string, bool) {
	for i := range t.s {
		if t.s[i] == string(b) && t.s[i] != "" {
			if i > 0 {
				t.s[0], t.s[i] = t.s[i], t.s[0]
			}
			return t.s[0], true
		}
	}
	return "", false
}

func (t *recentTexts) add(s string) {
	if t.next == 0 {
		t.next = 1
	}
	t.s[t.next] = s
	t.next++
	if t.next == len(t.s) {
		t.next = 1
	}
}

// appendf appends what fmt.Appendf would (see appendArgs).
func appendf(b []byte, format string, args []any) []byte {
	out, ok := appendArgs(b, format, args, nil)
	if !ok {
		return fmt.Appendf(b, format, args...)
	}
	return out
}

// appendArgs appends format filled with args, as fmt.Appendf would, and
// appends to *spans (unless spans is nil) where each value starts and
// ends in b. It writes the
// verbs of the sentences written for every collected object itself: %s of
// a string, a node, an object, an event type, a duration or a graph event, and %d of
// an int; a format with any other verb, flag or argument reports ok
// false, and b is then left as it was given.
func appendArgs(b []byte, format string, args []any, spans *[]int) (_ []byte, ok bool) {
	start, arg := len(b), 0
	fail := func() ([]byte, bool) { return b[:start], false }
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				b = append(b, format[i:]...)
				break
			}
			b = append(b, format[i:i+j]...)
			i += j
		}
		if i+1 == len(format) || arg == len(args) {
			return fail()
		}
		verb := format[i+1]
		from := len(b)
		switch v := args[arg].(type) {
		case string:
			if verb != 's' {
				return fail()
			}
			b = append(b, v...)
		case int:
			if verb != 'd' {
				return fail()
			}
			b = strconv.AppendInt(b, int64(v), 10)
		case *node:
			if verb != 's' || v == nil {
				return fail()
			}
			b = appendRef(b, v.identity.Kind, v.identity.Namespace, v.identity.Name)
		case *fakeapi.Object:
			if verb != 's' || v == nil {
				return fail()
			}
			b = appendRef(b, v.Kind, v.Metadata.Namespace, v.Metadata.Name)
		case eventType:
			if verb != 's' {
				return fail()
			}
			b = append(b, v.String()...)
		case time.Duration:
			if verb != 's' {
				return fail()
			}
			b = append(b, v.String()...)
		default:
			return fail()
		}
		if spans != nil {
			*spans = append(*spans, from, len(b))
		}
		i++
		arg++
	}
	if arg != len(args) {
		return fail()
	}
	return b, true
}

// appendRef appends what fakeapi.RefString returns.
func appendRef(b []byte, kind, namespace, name string) []byte {
	b = append(b, kind...)
	b = append(b, '/')
	if fakeapi.ShowNamespace(namespace) {
		b = append(b, namespace...)
		b = append(b, '/')
	}
	return append(b, name...)
}

// The collector's sentences written for every object it collects are
// built by around and textCache without fmt, and copied into the text
// arena or shared; the texts are exactly what the format strings give.

// around returns prefix + r.ref() + suffix, carved from the world's text
// arena.
func (w *recorder) around(prefix string, r objectReference, suffix string) string {
	if !fakeapi.ShowNamespace(r.Namespace) {
		return w.text.Join(prefix, r.Kind, "/", r.Name, suffix)
	}
	return w.text.Join(prefix, r.Kind, "/", r.Namespace, "/", r.Name, suffix)
}

// ref is r.ref(), carved from the world's text arena, or the same string
// as a recent equal reference's (see refs).
func (w *recorder) ref(r objectReference) string {
	for i := range w.refs {
		if e := &w.refs[i]; e.text != "" && e.name == r.Name && e.kind == r.Kind && e.namespace == r.Namespace {
			if i > 0 {
				w.refs[0], w.refs[i] = w.refs[i], w.refs[0]
			}
			return w.refs[0].text
		}
	}
	s := w.around("", r, "")
	if w.refsNext == 0 {
		w.refsNext = 1
	}
	w.refs[w.refsNext] = refText{kind: r.Kind, namespace: r.Namespace, name: r.Name, text: s}
	w.refsNext++
	if w.refsNext == len(w.refs) {
		w.refsNext = 1
	}
	return s
}

// refText is a reference as ref wrote it.
type refText struct{ kind, namespace, name, text string }

// textCache shares the collector's reasons that repeat: the 1,000 Pods of
// one ReplicaSet get the same reason, and its sentences are written once.
// It holds at most textCacheSize reasons, and starts again when full.
type textCache struct {
	// reasons are the shared reasons by their key (see reason).
	reasons map[string]sharedReason
	// key is the scratch the key is written in.
	key []byte
}

const textCacheSize = 1024

type sharedReason struct {
	message string
	texts   []Text
}

// reason is r saying the classes of an object's owner references, then
// the sentences more (which have no values), shared with an earlier equal
// reason: the objects of one owner get the same sentences, allocated once.
// The key is the classes with their references, then the forms of more.
func (c *textCache) reason(r Reason, classes refClasses, more ...Text) Reason {
	k := c.key[:0]
	for i, refs := range [...][]fakeapi.OwnerReference{classes.solid, classes.dangling, classes.waiting} {
		k = append(k, byte(2+i)) // names never hold control bytes
		for _, ref := range refs {
			k = append(k, ref.Kind...)
			k = append(k, '/')
			k = append(k, ref.Name...)
			k = append(k, 0)
		}
	}
	for _, t := range more {
		k = append(k, 1)
		k = append(k, t.Form...)
	}
	c.key = k
	s, ok := c.reasons[string(k)]
	if !ok {
		if c.reasons == nil || len(c.reasons) >= textCacheSize {
			c.reasons = make(map[string]sharedReason)
		}
		ts := append(classes.texts(), more...)
		s = sharedReason{message: English(ts), texts: ts[:len(ts):len(ts)]}
		c.reasons[string(k)] = s
	}
	r.Message, r.Texts = s.message, s.texts
	return r
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
// chunk: a plain append to it copies it, where an uncapped one would
// write into the chunk's free end, which the next list carved from the
// chunk then overwrote.
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

// call is an API request as a record keeps it; Record.Calls gives it back
// as a fakeapi.Request. What repeats from one request to the next (verb,
// client, apiVersion, kind, namespace and status code) is one shared
// callKind; the rare failure has one of its own that also holds the
// answer.
type call struct {
	kind   *callKind
	name   string
	detail string
}

// callKind is what many requests share. It is never modified once made.
// A request that failed has a callKind of its own, with fail set.
type callKind struct {
	verb, client, apiVersion, kind, namespace string
	code                                      int
	fail                                      *callFailure
}

// callFailure is the answer of a request that failed.
type callFailure struct {
	reason   fakeapi.Reason
	message  string
	injected bool
}

func (c *call) request() fakeapi.Request {
	k := c.kind
	r := fakeapi.Request{
		Verb:   k.verb,
		Client: k.client,
		Ref:    fakeapi.Ref{APIVersion: k.apiVersion, Kind: k.kind, Namespace: k.namespace, Name: c.name},
		Detail: c.detail,
		Code:   k.code,
	}
	if f := k.fail; f != nil {
		r.Reason, r.Message, r.Injected = f.reason, f.message, f.injected
	}
	return r
}

// callKinds hands out one callKind for each distinct set of shared
// values. Requests come in runs of a few kinds (the collector's GET and
// DELETE of Pods), so the few used last are tried before the map.
type callKinds struct {
	recent [4]*callKind
	all    map[callKind]*callKind
}

func (t *callKinds) get(r *fakeapi.Request) *callKind {
	for _, k := range t.recent {
		if k != nil && k.code == r.Code && k.verb == r.Verb && k.client == r.Client && k.namespace == r.Ref.Namespace &&
			k.kind == r.Ref.Kind && k.apiVersion == r.Ref.APIVersion {
			return k
		}
	}
	want := callKind{verb: r.Verb, client: r.Client, apiVersion: r.Ref.APIVersion, kind: r.Ref.Kind, namespace: r.Ref.Namespace, code: r.Code}
	k := t.all[want]
	if k == nil {
		if t.all == nil {
			t.all = make(map[callKind]*callKind)
		}
		k = &want
		t.all[want] = k
	}
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = k
	return k
}

// compact is r as a record keeps it.
func (t *callKinds) compact(r *fakeapi.Request) call {
	c := call{kind: t.get(r), name: r.Ref.Name, detail: r.Detail}
	if r.Reason != "" || r.Message != "" || r.Injected {
		failed := *c.kind
		failed.fail = &callFailure{reason: r.Reason, message: r.Message, injected: r.Injected}
		c.kind = &failed
	}
	return c
}

// enqueue is an Enqueue as a record keeps it (see Record.Enqueued): the
// queue is an index in queueNames rather than a string.
type enqueue struct {
	item  string
	after time.Duration
	queue uint8 // index in queueNames
}

func packEnqueue(queue, item string, after time.Duration) enqueue {
	for i, q := range queueNames {
		if q == queue {
			return enqueue{item: item, after: after, queue: uint8(i)}
		}
	}
	panic("engine: no queue " + queue)
}

func (e enqueue) unpack() Enqueue {
	return Enqueue{Queue: queueNames[e.queue], Item: e.item, After: e.after}
}
