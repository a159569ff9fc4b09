package engine

import (
	"time"
	"unsafe"
)

// recordBlocks is the timeline's records as a History keeps them: in
// blocks of recordBlock, the way the store keeps its removals, so that a
// long timeline appends without ever copying its records to a larger
// array (which held the old and the new array at once, and left a
// quarter of the new one unused); and each in the shorter form of a
// keptRecord, a Record being rebuilt when asked for.
type recordBlocks struct {
	blocks [][]keptRecord
	n      int
	// words are the actors and reason codes, rules and funcs the records
	// name, each once; index finds a word's place in words.
	words []string
	index map[string]uint32
}

// recordBlock is the size of a block of records.
const recordBlock = 4096

// keptRecord is a Record without what most records leave empty (Notes,
// Err: in rare) and with the words a timeline repeats (Actor and
// Reason.Code, Rule and Func) as their places in recordBlocks.words
// (docs/BENCHMARKS.md, "History"). Its strings and slices are kept as a
// pointer to their first byte or element and, in lens, their length: a
// string's header is 16 bytes and a slice's 24, and none of their
// capacities is needed to give them back (Record's slices must not be
// appended to in place).
type keptRecord struct {
	seq      int
	at       time.Duration
	item     *byte
	message  *byte
	texts    *Text
	calls    *call
	enqueued *enqueue
	changed  *string
	rare     *rareFields
	lens     [6]uint32 // item, message, texts, calls, enqueued, changed
	words    [4]uint32 // actor, code, rule, func
}

// keptString and keptSlice are a string's and a slice's pointer and
// length, and givenString and givenSlice the string and slice again:
// nil or empty as it was, with the capacity of its length.
func keptString(s string) (*byte, uint32)  { return unsafe.StringData(s), uint32(len(s)) }
func givenString(p *byte, n uint32) string { return unsafe.String(p, n) }
func keptSlice[T any](s []T) (*T, uint32)  { return unsafe.SliceData(s), uint32(len(s)) }
func givenSlice[T any](p *T, n uint32) []T { return unsafe.Slice(p, n) }

// rareFields are a Record's fields most records leave empty.
type rareFields struct {
	notes []string
	err   string
}

// word returns the place of s in r.words, adding it there if new.
func (r *recordBlocks) word(s string) uint32 {
	if i, ok := r.index[s]; ok {
		return i
	}
	if r.index == nil {
		r.index = map[string]uint32{}
	}
	i := uint32(len(r.words))
	r.words = append(r.words, s)
	r.index[s] = i
	return i
}

// keep returns rec in its kept form. rec.w is nil once a record has
// ended (recorder.end).
func (r *recordBlocks) keep(rec *Record) keptRecord {
	k := keptRecord{
		seq: rec.Seq, at: rec.At,
		words: [4]uint32{r.word(rec.Actor), r.word(rec.Reason.Code), r.word(rec.Reason.Rule), r.word(rec.Reason.Func)},
	}
	k.item, k.lens[0] = keptString(rec.Item)
	k.message, k.lens[1] = keptString(rec.Reason.Message)
	k.texts, k.lens[2] = keptSlice(rec.Reason.Texts)
	k.calls, k.lens[3] = keptSlice(rec.calls)
	k.enqueued, k.lens[4] = keptSlice(rec.enqueued)
	k.changed, k.lens[5] = keptSlice(rec.Changed)
	if rec.Notes != nil || rec.Err != "" {
		k.rare = &rareFields{notes: rec.Notes, err: rec.Err}
	}
	return k
}

func (r *recordBlocks) kept(i int) *keptRecord { return &r.blocks[i/recordBlock][i%recordBlock] }

// at returns record i, rebuilt.
func (r *recordBlocks) at(i int) Record {
	k := r.kept(i)
	rec := Record{
		Seq: k.seq, At: k.at, Actor: r.words[k.words[0]], Item: givenString(k.item, k.lens[0]),
		Reason: Reason{Code: r.words[k.words[1]], Message: givenString(k.message, k.lens[1]), Rule: r.words[k.words[2]], Func: r.words[k.words[3]],
			Texts: givenSlice(k.texts, k.lens[2])},
		calls: givenSlice(k.calls, k.lens[3]), enqueued: givenSlice(k.enqueued, k.lens[4]), Changed: givenSlice(k.changed, k.lens[5]),
	}
	if k.rare != nil {
		rec.Notes, rec.Err = k.rare.notes, k.rare.err
	}
	return rec
}

// changed returns the Changed of record i.
func (r *recordBlocks) changed(i int) []string {
	k := r.kept(i)
	return givenSlice(k.changed, k.lens[5])
}

func (r *recordBlocks) append(rec Record) {
	b := r.n / recordBlock
	if b == len(r.blocks) {
		r.blocks = append(r.blocks, make([]keptRecord, 0, recordBlock))
	}
	r.blocks[b] = append(r.blocks[b], r.keep(&rec))
	r.n++
}

// truncate keeps the first n records.
func (r *recordBlocks) truncate(n int) {
	if n >= r.n {
		return
	}
	b := n / recordBlock
	clear(r.blocks[b][n%recordBlock:]) // let go of what the dropped records hold
	r.blocks[b] = r.blocks[b][:n%recordBlock]
	for i := b + 1; i < len(r.blocks); i++ {
		r.blocks[i] = nil
	}
	r.blocks = r.blocks[:b+1]
	r.n = n
}
