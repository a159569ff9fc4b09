package engine

import "time"

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
// (docs/BENCHMARKS.md, "History").
type keptRecord struct {
	seq      int
	at       time.Duration
	item     string
	message  string
	texts    []Text
	calls    []call
	enqueued []enqueue
	changed  []string
	words    [4]uint32 // actor, code, rule, func
	rare     *rareFields
}

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
		seq: rec.Seq, at: rec.At, item: rec.Item, message: rec.Reason.Message, texts: rec.Reason.Texts,
		calls: rec.calls, enqueued: rec.enqueued, changed: rec.Changed,
		words: [4]uint32{r.word(rec.Actor), r.word(rec.Reason.Code), r.word(rec.Reason.Rule), r.word(rec.Reason.Func)},
	}
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
		Seq: k.seq, At: k.at, Actor: r.words[k.words[0]], Item: k.item,
		Reason: Reason{Code: r.words[k.words[1]], Message: k.message, Rule: r.words[k.words[2]], Func: r.words[k.words[3]], Texts: k.texts},
		calls:  k.calls, enqueued: k.enqueued, Changed: k.changed,
	}
	if k.rare != nil {
		rec.Notes, rec.Err = k.rare.notes, k.rare.err
	}
	return rec
}

// changed returns the Changed of record i.
func (r *recordBlocks) changed(i int) []string { return r.kept(i).changed }

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
