//go:build !js

package scenario

import (
	"bytes"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gcplay/gcplay/fakeapi"
)

// A large dump's List entries are decoded on all the machine's cores: the
// entries are independent, and decoding them is most of the reading. The
// text of each List's items is cut into chunks at lines that start an
// entry ("- " at the entries' indentation); workers decode the entries of
// the chunks (decodeItem), each chunk in turn, into objects that nothing
// has kept yet. The reading in order then goes on exactly as without
// them: at each entry, directItem takes the object a worker decoded from
// the same lines, if there is one, and keeps it as it would keep the
// object it decoded itself (keepDirect: the path, the registry's checks,
// the sharing), or else reads the entry itself. Whatever the workers did
// not take (an entry they gave up on, a chunk cut where the text is not
// what it seemed) is read in order as before, so the result, objects,
// notes and errors, is the reading in order's.
//
// The decoding of an entry depends only on its lines and the first line
// after them (a line indented no more than the entry's dash ends it as
// the end of the text does), and on nothing read before it, but for two
// things a worker leaves to the reading in order: an ownerReference
// without a uid (findable or not by the registry, which the entries
// before may extend) and keeping. Each worker has its own caches
// (strings, blocks shared by their text, the last time parsed): they
// share memory between the objects they read, never change what is read.

// parallelMin is the smallest text whose entries are decoded in parallel,
// and parallelChunk how much text a chunk takes: chunks are handed out in
// order, so the reading in order waits only for the first ones.
const (
	parallelMin   = 1 << 20
	parallelChunk = 256 << 10
)

// preItem is an entry a worker decoded: the object, whether its metadata
// has a namespace, its content's line; off is the offset in the text of
// the entry's "- " line, end the offset of the first line after its
// lines, which is line number endNum.
type preItem struct {
	off, end     int
	ind          int
	line, endNum int
	obj          *fakeapi.Object
	namespaced   bool
}

// preChunk is a piece of the text, [start, end), which has newlines
// newline characters, and its items, once done is closed. The items'
// line numbers count from the chunk's first line, as 1.
type preChunk struct {
	start, end int
	newlines   int
	ind        int
	items      []preItem
	done       chan struct{}
}

// predecoder runs the workers over the chunks of one text, and hands
// their items to the reading in order.
type predecoder struct {
	data   []byte
	chunk  int
	chunks []*preChunk
	next   atomic.Int64 // the next chunk to hand to a worker
	stop   atomic.Bool
	wg     sync.WaitGroup
	// The reading in order's place: chunks[c].items[k] is the next item
	// not passed; line is the number of chunks[c]'s first line.
	c, k, line int
	// from, when the text read is given back (releaser), holds for each
	// worker the offset of the first text its cache of blocks has keys
	// in (math.MaxInt64 before its first chunk): the worker starts its
	// cache again every step of text, so that what it refers to can be
	// given back behind it.
	from []atomic.Int64
	step int
}

// takeDecoded keeps the entry at f's current line, a "- " line at ind,
// when a worker decoded it, as directItem keeps the object it decodes
// itself, and passes over its lines: found says a worker had decoded
// it, took whether it was kept.
func takeDecoded(d *dumpReader, doc int, f *fastYAML, ind int) (took, found bool) {
	if d.pre == nil {
		return false, false
	}
	r, ok := d.pre.find(f, ind)
	if !ok {
		return false, false
	}
	if !d.keepDirect(doc, r.obj, r.namespaced, r.line, true) {
		return false, true
	}
	d.pre.skip(f, r)
	d.parallel++
	return true, true
}

// cutPredecode cuts the items of data's Lists into chunks for workers to
// decode, when data is large enough and there is more than one core; nil
// when it does not. It reads data's bytes and nothing else, so it may
// run before data is known to be plainText; the workers start only with
// start. chunk, when not 0, is the chunks' size, and the chunks are cut
// whatever data's size and the cores (as the tests have them).
//
// step, when not 0, says the text read is given back behind the reading
// in order every step bytes (readFrom).
func cutPredecode(data []byte, chunk, step int) *predecoder {
	if chunk == 0 {
		if runtime.GOMAXPROCS(0) < 2 || len(data) < parallelMin {
			return nil
		}
		chunk = parallelChunk
	}
	pd := &predecoder{data: data, chunk: chunk, step: step}
	pd.cut()
	if len(pd.chunks) == 0 {
		return nil
	}
	return pd
}

// start starts the workers decoding pd's chunks, and returns pd (nil
// when pd is nil). closePredecode must be called once the reading is
// done.
func (pd *predecoder) start() *predecoder {
	if pd == nil {
		return nil
	}
	pd.line = 1 + bytes.Count(pd.data[:pd.chunks[0].start], []byte{'\n'})
	workers := min(max(runtime.GOMAXPROCS(0), 2), len(pd.chunks))
	if pd.step > 0 {
		pd.from = make([]atomic.Int64, workers)
		for w := range pd.from {
			pd.from[w].Store(math.MaxInt64)
		}
	}
	pd.wg.Add(workers)
	for w := range workers {
		go pd.work(w)
	}
	return pd
}

// readFrom is the offset of the first byte of the text that a worker may
// still read: the first chunk the reading in order has not taken whole,
// or text a worker's cache refers to (from). Only the reading in order
// calls it.
func (pd *predecoder) readFrom() int {
	if pd == nil {
		return math.MaxInt
	}
	n := len(pd.data)
	if pd.c < len(pd.chunks) {
		n = pd.chunks[pd.c].start
	}
	for w := range pd.from {
		n = min(n, int(pd.from[w].Load()))
	}
	return n
}

// cut finds the items of each top-level "items:" key in data (a List
// as kubectl prints it) and cuts them into chunks of about parallelChunk
// at lines that start an entry. A cut made where the text is not what it
// seems (a line in a multi-line scalar, a sequence of another document)
// costs only the work spent on it: the reading in order takes an item
// only at an entry it reads itself, decoded from the same lines.
func (pd *predecoder) cut() {
	data := pd.data
	for off := 0; off < len(data); {
		// A line "items:" in the first column.
		i := off
		if !(i == 0 && bytes.HasPrefix(data, []byte("items:"))) {
			j := bytes.Index(data[off:], []byte("\nitems:"))
			if j < 0 {
				return
			}
			i = off + j + 1
		}
		rest := bytes.TrimLeft(data[i+len("items:"):], " \r")
		off = len(data) - len(rest)
		if len(rest) == 0 || rest[0] != '\n' {
			continue // a value on the key's line
		}
		// The first entry: a "- " line, at indentation ind.
		start := off + 1
		ind := 0
		for start+ind < len(data) && data[start+ind] == ' ' {
			ind++
		}
		if !bytes.HasPrefix(data[start+ind:], []byte("- ")) {
			continue
		}
		// The items end at the document's end, if not before.
		end := len(data)
		if j := bytes.Index(data[start:], []byte("\n---")); j >= 0 {
			end = start + j + 1
		}
		mark := make([]byte, 0, ind+3)
		mark = append(mark, '\n')
		for range ind {
			mark = append(mark, ' ')
		}
		mark = append(mark, '-', ' ')
		for start < end {
			cut := end
			if start+pd.chunk < end {
				if j := bytes.Index(data[start+pd.chunk:end], mark); j >= 0 {
					cut = start + pd.chunk + j + 1
				}
			}
			pd.chunks = append(pd.chunks, &preChunk{start: start, end: cut, ind: ind, done: make(chan struct{})})
			start = cut
		}
		off = end
	}
}

// work decodes chunks until there are none left or the reading is done.
func (pd *predecoder) work(w int) {
	defer pd.wg.Done()
	from := math.MaxInt
	// The worker's own reader and caches, kept from chunk to chunk.
	d := &dumpReader{}
	// per is the items a byte of the last chunk held, to size the next
	// chunk's items at once rather than by doubling.
	per := 0.0
	f := &fastYAML{strs: map[string]string{}}
	for {
		n := int(pd.next.Add(1)) - 1
		if n >= len(pd.chunks) {
			if pd.from != nil {
				pd.from[w].Store(math.MaxInt64) // the cache is read no more
			}
			return
		}
		ch := pd.chunks[n]
		if pd.from != nil && (from == math.MaxInt || ch.start-from >= pd.step) {
			// Keys of the cache in text that may be given back.
			clear(f.blocks)
			from = ch.start
			pd.from[w].Store(int64(from))
		}
		// Counted here rather than in order: the reading in order
		// numbers the lines of the chunks it reaches by it.
		ch.newlines = bytes.Count(pd.data[ch.start:ch.end], []byte{'\n'})
		if !pd.stop.Load() {
			ch.items = make([]preItem, 0, int(per*float64(ch.end-ch.start))+8)
			pd.decodeChunk(d, f, ch)
			per = float64(len(ch.items)) / float64(ch.end-ch.start)
		}
		close(ch.done)
	}
}

// decodeChunk decodes the entries of one chunk, from its first line while
// lines start entries at the chunk's indentation.
func (pd *predecoder) decodeChunk(d *dumpReader, f *fastYAML, ch *preChunk) {
	text := pd.data[ch.start:ch.end]
	*f = fastYAML{text: text, doc: text, num: 0, tabs: bytes.IndexByte(text, '\t') >= 0, strs: f.strs, recent: f.recent, blocks: f.blocks,
		lines: f.lines[:0], undo: f.undo[:0], dpairs: f.dpairs[:0], spairs: f.spairs[:0], dstack: f.dstack[:0]}
	for !pd.stop.Load() && f.more() && f.lines[f.i].ind == ch.ind && isSeqItem(f.lines[f.i].s) {
		start := f.i
		off := pd.offset(f.lines[f.i])
		f.nth = 0
		obj, namespaced, line, ok := decodeItem(d, f, ch.ind)
		if f.failed {
			return // text outside the subset: the reading in order says so
		}
		if !ok {
			// Passed over: its first line, and those indented more.
			f.rollback(start)
			f.i++
			for f.more() && f.lines[f.i].ind > ch.ind {
				f.i++
			}
			if f.failed {
				return
			}
			f.drop()
			continue
		}
		it := preItem{off: off, ind: ch.ind, line: line, obj: obj, namespaced: namespaced, end: ch.end, endNum: f.num + 1}
		if f.more() {
			it.end, it.endNum = pd.offset(f.lines[f.i]), f.lines[f.i].num
		} else if f.failed {
			return
		}
		ch.items = append(ch.items, it)
		f.undo = f.undo[:0]
		f.drop()
	}
}

// offset returns the offset in the text of the start of line l.
func (pd *predecoder) offset(l fastLine) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(l.s)))-uintptr(unsafe.Pointer(unsafe.SliceData(pd.data)))) - l.ind
}

// find returns the item a worker decoded from the entry at f's current
// line, a "- " line at ind, when there is one; nil when there is not,
// and the reading in order decodes the entry itself. The entries asked
// for come in the text's order.
func (pd *predecoder) find(f *fastYAML, ind int) (preItem, bool) {
	// The lines after the current one are still text: the item's end is
	// found there.
	if len(f.lines) != f.i+1 || len(f.text) == 0 {
		return preItem{}, false
	}
	off := pd.offset(f.lines[f.i])
	for pd.c < len(pd.chunks) && pd.chunks[pd.c].end <= off {
		ch := pd.chunks[pd.c]
		<-ch.done
		pd.line += ch.newlines
		if pd.c+1 < len(pd.chunks) {
			pd.line += bytes.Count(pd.data[ch.end:pd.chunks[pd.c+1].start], []byte{'\n'})
		}
		pd.c, pd.k = pd.c+1, 0
	}
	if pd.c == len(pd.chunks) || off < pd.chunks[pd.c].start {
		return preItem{}, false
	}
	ch := pd.chunks[pd.c]
	<-ch.done
	for pd.k < len(ch.items) && ch.items[pd.k].off < off {
		pd.k++
	}
	if pd.k == len(ch.items) || ch.items[pd.k].off != off || ch.items[pd.k].ind != ind {
		return preItem{}, false
	}
	r := ch.items[pd.k]
	r.line += pd.line - 1
	r.endNum += pd.line - 1
	// The item's lines must be those the reading in order has next.
	text := pd.offset(fastLine{s: f.text})
	if r.end < text || r.end-text > len(f.text) {
		return preItem{}, false
	}
	return r, true
}

// skip moves f past the lines of item r (find's), to the first line after
// them, which is not split yet.
func (pd *predecoder) skip(f *fastYAML, r preItem) {
	text := pd.offset(fastLine{s: f.text})
	f.text = f.text[r.end-text:]
	f.num = r.endNum - 1
	f.lines = f.lines[:f.i]
	pd.chunks[pd.c].items[pd.k].obj = nil // kept by the reader now
	pd.k++
}

// closePredecode stops pd's workers and waits for them: no goroutine
// outlives the reading.
func closePredecode(pd *predecoder) {
	if pd == nil {
		return
	}
	pd.stop.Store(true)
	pd.wg.Wait()
}

// cutDocument returns the text before the first "---" line, the text
// after it (nil when there is none), and how many lines the first part
// and the marker take (0 when there is no marker: the last document's
// lines are not counted).
func cutDocument(data []byte) (doc, rest []byte, lines int) {
	// Only a line that starts with "---" can be the marker: those are
	// looked for, not every line.
	for off := 0; off < len(data); {
		i := off
		if off > 0 || !bytes.HasPrefix(data, []byte("---")) {
			j := bytes.Index(data[off:], []byte("\n---"))
			if j < 0 {
				break
			}
			i = off + j + 1
		}
		lineEnd := len(data)
		if end := bytes.IndexByte(data[i:], '\n'); end >= 0 {
			lineEnd = i + end
		}
		if string(bytes.TrimRight(data[i:lineEnd], " \r")) == "---" {
			lines = bytes.Count(data[:i], []byte{'\n'}) + 1
			if lineEnd == len(data) {
				return data[:i], []byte{}, lines
			}
			return data[:i], data[lineEnd+1:], lines
		}
		off = lineEnd
	}
	return data, nil, 0
}
