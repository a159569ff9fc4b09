package scenario

import (
	"bytes"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

// A dump's List entries are decoded straight from fastYAML's lines into
// objects: metadata into ObjectMeta's fields, the rest into Fields, in one
// pass, with no yaml.Node tree and no second pass of checks. The decoder
// reads only entries that are well formed: at anything the checks of
// manifest() would report (a wrong type, a missing or unknown key, a
// duplicate), anything it does not read itself (a merge key, a timestamp
// or a float among the fields, a kind gcplay must take as custom), or
// text outside fastYAML's subset, it gives up on the entry, having kept
// nothing, and the entry is read as before, through its tree and the
// checks, which report every problem as they always have. What it keeps
// is what object() would build from the tree (TestDumpDirectMatchesTree).

// directMaxDepth is how deep the decoder reads a field's value; deeper
// values go through the tree, whose walk reports nesting past maxDepth.
const directMaxDepth = 100

// undoLine is a line the decoder rewrote (a "- " entry's first line,
// read as the entry's content at its own column), to put back.
type undoLine struct {
	i int
	l fastLine
}

type anyPair struct {
	key string
	val any
}

type strPair struct{ key, val string }

// setLine rewrites lines[i], remembering what it was.
func (f *fastYAML) setLine(i int, l fastLine) {
	f.undo = append(f.undo, undoLine{i, f.lines[i]})
	f.lines[i] = l
}

// rollback puts back the lines the decoder rewrote and its position, and
// empties its scratch space, after it gave up on an entry that starts at
// line index start.
func (f *fastYAML) rollback(start int) {
	for k := len(f.undo) - 1; k >= 0; k-- {
		f.lines[f.undo[k].i] = f.undo[k].l
	}
	f.undo = f.undo[:0]
	f.i, f.nth = start, 0
	clear(f.dpairs)
	clear(f.dstack)
	f.dpairs, f.spairs, f.dstack = f.dpairs[:0], f.spairs[:0], f.dstack[:0]
}

// Where a mapping entry's value is.
const (
	yNull   = iota // nothing after the key
	yInline        // s, on the key's line
	yBlock         // on the lines after the key's, indented by ind
	ySeq           // a sequence whose "- " lines are at the key's own indentation, ind
	yStr           // str, a literal block scalar (| or |-) read already
)

type yval struct {
	kind uint8
	s    []byte
	ind  int
	str  string
}

// atKey reports whether the current line is the next entry of the block
// mapping whose keys are at ind.
func (f *fastYAML) atKey(ind int) bool {
	return f.more() && f.lines[f.i].ind == ind && !isSeqItem(f.lines[f.i].s)
}

// atItem reports whether the current line is the next entry of the block
// sequence whose "- " lines are at ind.
func (f *fastYAML) atItem(ind int) bool {
	return f.more() && f.lines[f.i].ind == ind && isSeqItem(f.lines[f.i].s)
}

// blockEnd reports whether a block at ind ends where fastYAML's reading
// would go on: no line left indented more than it, the text in the
// subset.
func (f *fastYAML) blockEnd(ind int) bool {
	return !(f.more() && f.lines[f.i].ind > ind) && !f.failed
}

// entry reads the key line of a block mapping's entry at ind (atKey has
// said there is one): its key, and where its value is. false when the line
// is not an entry of the subset or, unless merge is set, its key is a
// merge key (<<).
func (f *fastYAML) entry(ind int, merge bool) (string, yval, bool) {
	l := f.lines[f.i]
	kl := f.keyAt(l.s)
	if kl == 0 {
		return "", yval{}, false
	}
	k, ok := f.scalarText(l.s[:kl])
	if !ok || k.kind != yaml.ScalarNode || (!merge && k.tag == "!!merge") {
		return "", yval{}, false
	}
	rest := bytes.TrimLeft(l.s[kl+1:], " ")
	f.i++
	switch {
	case len(rest) > 0:
		if f.more() && f.lines[f.i].ind > ind {
			// A scalar that goes on over lines: read here when it is a
			// block (kubectl's last-applied-configuration) or folded.
			if s, ok := f.blockScalar(ind, l, rest); ok {
				return k.value, yval{kind: yStr, str: s}, true
			}
			if s, ok := f.folded(ind, l, rest); ok {
				return k.value, yval{kind: yStr, str: s}, true
			}
			return "", yval{}, false
		}
		if rest[0] == '"' && bytes.IndexByte(rest, '\\') >= 0 {
			s, ok := f.quotedLine(l, rest)
			return k.value, yval{kind: yStr, str: s}, ok
		}
		return k.value, yval{kind: yInline, s: rest}, true
	case f.more() && f.lines[f.i].ind > ind:
		return k.value, yval{kind: yBlock, ind: f.lines[f.i].ind}, true
	case f.atItem(ind):
		return k.value, yval{kind: ySeq, ind: ind}, true
	}
	return k.value, yval{kind: yNull}, true
}

// blockScalar reads the block scalar whose header, rest, ends the key
// line l of a mapping at ind, from the document's text (its lines as
// fastYAML splits them drop comments and trailing spaces, which are its
// content), as YAML reads it. The header is "|" (literal) or ">"
// (folded), then, in either order and each optional, a chomping
// indicator ("-" strips the line breaks at the end, "+" keeps them all,
// none keeps one) and an indentation indicator, a digit: the block's
// indentation past ind; without it the block's indentation is that of its
// first non-empty line, more than ind. Each line of the block is read
// without the indentation; a literal block keeps its line breaks, a
// folded one reads a line break between two lines that do not start
// with a space or a tab as a space, and drops it before empty lines. It
// moves f past the block's lines. false, having moved nothing, for what
// it does not read: a comment on the header, an empty block, leading
// empty lines longer than the first, a carriage return, a tab where an
// indentation space is wanted.
func (f *fastYAML) blockScalar(ind int, l fastLine, rest []byte) (string, bool) {
	literal := rest[0] == '|'
	if !literal && rest[0] != '>' {
		return "", false
	}
	chomp, indent := 0, 0
	for _, c := range rest[1:] {
		switch {
		case (c == '-' || c == '+') && chomp == 0:
			if chomp = 1; c == '-' {
				chomp = -1
			}
		case c >= '1' && c <= '9' && indent == 0:
			indent = ind + int(c-'0')
		default:
			return "", false
		}
	}
	doc := f.doc
	if len(doc) == 0 {
		return "", false
	}
	p, ok := f.lineAfter(l)
	if !ok {
		return "", false
	}
	// line returns the line at q: its text, the offset of the next one,
	// and how many spaces start it, counted up to the indentation when
	// it is known; false when it has a carriage return, or a tab where
	// an indentation space is wanted.
	line := func(q, indent int) (text []byte, next, sp int, ok bool) {
		lineEnd, next := len(doc), len(doc)
		if e := bytes.IndexByte(doc[q:], '\n'); e >= 0 {
			lineEnd, next = q+e, q+e+1
		}
		text = noCR(doc[q:lineEnd])
		for sp < len(text) && text[sp] == ' ' && (indent == 0 || sp < indent) {
			sp++
		}
		ok = bytes.IndexByte(text, '\r') < 0 && !(sp < len(text) && text[sp] == '\t' && (indent == 0 || sp < indent))
		return text, next, sp, ok
	}
	// The empty lines before the first, and the indentation.
	q, lead, breaks := p, 0, 0
	for q < len(doc) {
		text, next, sp, ok := line(q, indent)
		if !ok {
			return "", false
		}
		if sp < len(text) {
			if indent == 0 {
				if sp <= ind || sp < lead {
					return "", false // an empty block
				}
				indent = sp
			} else if sp < indent {
				return "", false
			}
			break
		}
		lead = max(lead, sp)
		breaks++
		q = next
	}
	if q == len(doc) || indent == 0 {
		return "", false
	}
	var b []byte
	// nl says the last line read ended with a line break; blank that it
	// started with a space or a tab.
	nl, blank := false, false
	for q < len(doc) {
		text, next, sp, ok := line(q, indent)
		if !ok {
			return "", false
		}
		if sp == len(text) && next > q+len(text) { // an empty line
			breaks++
			q = next
			continue
		}
		if sp < indent || sp == len(text) {
			break // the line after the block, or the text's end
		}
		content := text[indent:]
		startsBlank := content[0] == ' ' || content[0] == '\t'
		if nl && !literal && !blank && !startsBlank {
			if breaks == 0 {
				b = append(b, ' ')
			}
		} else if nl {
			b = append(b, '\n')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		blank = startsBlank
		b = append(b, content...)
		nl = next > q+len(text)
		q = next
	}
	if chomp >= 0 && nl {
		b = append(b, '\n')
	}
	if chomp > 0 {
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
	}
	f.skipTo(l, p, q)
	return string(b), true
}

// skipTo moves f to the offset end of the document's text, the start of
// a line after the lines of a scalar whose first line, l, ends with the
// line break before offset p.
func (f *fastYAML) skipTo(l fastLine, p, end int) {
	doc := f.doc
	f.skipped = true
	// The lines split already that are the scalar's are dropped; when
	// none after it is split, the text goes on after it.
	k := f.i
	for k < len(f.lines) && f.docOffset(f.lines[k].s) < end {
		k++
	}
	if k < len(f.lines) {
		f.lines = append(f.lines[:f.i], f.lines[k:]...)
	} else {
		f.lines = f.lines[:f.i]
		f.text = doc[end:]
		f.num = l.num + bytes.Count(doc[p:end], []byte{'\n'})
		if end == len(doc) && end > p && doc[end-1] != '\n' {
			f.num++
		}
	}
}

// folded reads a plain or quoted scalar that starts with rest,
// the value on the key line l of a mapping at ind, and goes on over the
// lines after it (kubectl folds a long condition message so), from the
// document's text, as YAML folds it: a line break between two lines a
// space, n empty lines n line breaks, the spaces around a break dropped,
// and in a double-quoted one, escapes read (a line that ends with an
// escape of its line break joined to the next without a space). It
// moves f past the scalar's lines. false, having moved nothing, for
// what it does not read: a tab or a carriage return, a plain line that
// holds ": " or " #" or starts with an indicator, a plain scalar that
// reads as other than a string, a quoted one not closed before a line
// indented no more than ind, or closed before the end of its line, an
// escape YAML does not have.
func (f *fastYAML) folded(ind int, l fastLine, rest []byte) (string, bool) {
	doc := f.doc
	quote := rest[0]
	quoted := quote == '\'' || quote == '"'
	if len(doc) == 0 || bytes.IndexByte(rest, '\t') >= 0 {
		return "", false
	}
	p, ok := f.lineAfter(l)
	if !ok {
		return "", false
	}
	var b []byte
	escBreak := false
	if quoted {
		// (The line as it is in the text: its spaces at the end count
		// after an escape.)
		text, closed, esc, ok := flowQuoted(noCR(doc[f.docOffset(rest)+1:p-1]), quote)
		if closed || !ok {
			return "", false
		}
		b, escBreak = append(b, text...), esc
	} else {
		if !plainLine(rest) {
			return "", false
		}
		b = append(b, rest...)
	}
	end, breaks, closed := len(doc), 0, false
	for q := p; q < len(doc) && !closed; {
		end = len(doc)
		lineEnd, next := len(doc), len(doc)
		if e := bytes.IndexByte(doc[q:], '\n'); e >= 0 {
			lineEnd, next = q+e, q+e+1
		}
		line := noCR(doc[q:lineEnd])
		if bytes.IndexByte(line, '\r') >= 0 || bytes.IndexByte(line, '\t') >= 0 {
			return "", false
		}
		sp := 0
		for sp < len(line) && line[sp] == ' ' {
			sp++
		}
		text := bytes.TrimRight(line[sp:], " ")
		switch {
		case len(text) == 0:
			breaks++
			q = next
			continue
		case sp <= ind:
			if quoted {
				return "", false
			}
			end = q
		}
		if end == q {
			break // the line after the scalar
		}
		esc := false
		if quoted {
			var t []byte
			var ok bool
			if t, closed, esc, ok = flowQuoted(line[sp:], quote); !ok {
				return "", false
			}
			text = t
		} else if !plainLine(text) {
			return "", false
		}
		if breaks == 0 && !escBreak {
			b = append(b, ' ')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		b = append(b, text...)
		escBreak = esc
		q = next
		end = next
	}
	if quoted && !closed {
		return "", false
	}
	v := string(b)
	if !quoted && plainTag(v) != "!!str" {
		return "", false
	}
	f.skipTo(l, p, end)
	return v, true
}

// quotedLine reads the double-quoted scalar with an escape that is rest,
// the value on the key line l, all on that line (as kubectl prints a
// string with a quote or a control character in it); false when it is
// not closed there, or has text after it, or an escape YAML does not
// have.
func (f *fastYAML) quotedLine(l fastLine, rest []byte) (string, bool) {
	doc := f.doc
	if len(doc) == 0 {
		return "", false
	}
	start := f.docOffset(rest)
	if start < 0 || start >= len(doc) {
		return "", false
	}
	line := doc[start:]
	if e := bytes.IndexByte(line, '\n'); e >= 0 {
		line = noCR(line[:e])
	}
	if bytes.IndexByte(line, '\r') >= 0 || bytes.IndexByte(line, '\t') >= 0 {
		return "", false
	}
	text, closed, _, ok := flowQuoted(line[1:], '"')
	if !closed || !ok {
		return "", false
	}
	return string(text), true
}

// flowQuoted reads s, one line of a scalar quoted by quote, ' or "
// (after its opening quote, if on its first line), as it is in the text:
// its value up to the closing quote (in a single-quoted one, two quotes
// read as one; in a double-quoted one, escapes read), and whether the
// quote closes it there. When it does not, the spaces at the end of the
// line are not the value's, and esc says the line ends with an escape of
// its line break. ok is false when there is text after the closing
// quote, or an escape YAML does not have.
func flowQuoted(s []byte, quote byte) (out []byte, closed, esc, ok bool) {
	keep := 0 // the value's length without the spaces at the end
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote && quote == '\'' && i+1 < len(s) && s[i+1] == '\'':
			out = append(out, '\'')
			i++
		case c == quote:
			return out, true, false, len(bytes.TrimRight(s[i+1:], " ")) == 0
		case c == '\\' && quote == '"':
			if i+1 == len(s) {
				return out, false, true, true
			}
			var n int
			if out, n = unescape(out, s[i+1:]); n == 0 {
				return nil, false, false, false
			}
			i += n
		default:
			out = append(out, c)
			if c == ' ' {
				continue
			}
		}
		keep = len(out)
	}
	return out[:keep], false, false, true
}

// unescape appends to out the character that the escape s (the text
// after a backslash) stands for in a double-quoted scalar, as yaml.v3
// reads it; n is the length of the escape, 0 when YAML has no such
// escape.
func unescape(out, s []byte) ([]byte, int) {
	if len(s) == 0 {
		return out, 0
	}
	var r rune
	switch s[0] {
	case '0':
		return append(out, 0), 1
	case 'a':
		return append(out, '\a'), 1
	case 'b':
		return append(out, '\b'), 1
	case 't':
		return append(out, '\t'), 1
	case 'n':
		return append(out, '\n'), 1
	case 'v':
		return append(out, '\v'), 1
	case 'f':
		return append(out, '\f'), 1
	case 'r':
		return append(out, '\r'), 1
	case 'e':
		return append(out, 0x1b), 1
	case ' ', '"', '\'', '\\':
		return append(out, s[0]), 1
	case 'N':
		r = 0x85
	case '_':
		r = 0xa0
	case 'L':
		r = 0x2028
	case 'P':
		r = 0x2029
	case 'x', 'u', 'U':
		n := 2
		if s[0] == 'u' {
			n = 4
		} else if s[0] == 'U' {
			n = 8
		}
		if len(s) < 1+n {
			return out, 0
		}
		v, err := strconv.ParseUint(string(s[1:1+n]), 16, 32)
		if err != nil || v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
			return out, 0
		}
		return utf8.AppendRune(out, rune(v)), 1 + n
	default:
		return out, 0
	}
	return utf8.AppendRune(out, r), 1
}

// plainLine reports whether s, one line of a plain scalar, is one that
// folded reads: no indicator first, no ": " or " #" in it, not ending
// with ':'.
func plainLine(s []byte) bool {
	if bytes.IndexByte([]byte("-?:,[]{}#&*!|>'\"%@`"), s[0]) >= 0 {
		return false
	}
	return s[len(s)-1] != ':' && !commentOrColon(s)
}

// lineAfter is the offset in the document of the line after l, whose
// text ends with the key's value indicator: ok is false when l is not
// in the document, or is the last line.
func (f *fastYAML) lineAfter(l fastLine) (int, bool) {
	doc := f.doc
	keyEnd := f.docOffset(l.s) + len(l.s)
	if keyEnd < 0 || keyEnd > len(doc) {
		return 0, false
	}
	nl := bytes.IndexByte(doc[keyEnd:], '\n')
	if nl < 0 || bytes.IndexByte(noCR(doc[keyEnd:keyEnd+nl]), '\r') >= 0 {
		return 0, false
	}
	return keyEnd + nl + 1, true
}

// noCR returns line, a line's text, without the carriage return of a
// CRLF line end (the only carriage return plainText lets through), which
// YAML reads as a line feed.
func noCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// docOffset returns the offset of s in f.doc.
func (f *fastYAML) docOffset(s []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(s))) - uintptr(unsafe.Pointer(unsafe.SliceData(f.doc))))
}

// itemStart moves into the "- " entry of a block sequence at ind (the
// current line) and returns the indentation of the entry's content,
// which starts at the current line; false when the entry is empty.
func (f *fastYAML) itemStart(ind int) (int, bool) {
	l := f.lines[f.i]
	rest, k := l.s[1:], 1
	for len(rest) > 0 && rest[0] == ' ' {
		rest, k = rest[1:], k+1
	}
	if len(rest) == 0 {
		f.i++
		if f.more() && f.lines[f.i].ind > ind {
			return f.lines[f.i].ind, true
		}
		return 0, false
	}
	// The entry's content starts a node at its own column: "- a: 1" is
	// a mapping whose keys are at ind+k.
	f.setLine(f.i, fastLine{ind: ind + k, s: rest, num: l.num})
	return ind + k, true
}

// startsMapping reports whether the current line starts a block mapping
// (rather than a sequence or a scalar).
func (f *fastYAML) startsMapping() bool {
	s := f.lines[f.i].s
	return !isSeqItem(s) && f.keyAt(s) > 0
}

// value reads v as value() converts a node: map[string]any, []any,
// string, float64, bool or nil; false for what it does not read, or for
// what value() or the checks would report. depth is value()'s.
func (f *fastYAML) value(v yval, depth int) (any, bool) {
	if depth > directMaxDepth {
		return nil, false
	}
	f.deepest = max(f.deepest, depth)
	switch v.kind {
	case yInline:
		return f.scalarValue(v.s)
	case yBlock, ySeq:
		return f.sharedBlock(v, depth)
	case yStr:
		return v.str, true
	}
	return nil, true
}

// blockKey is the text of a block of lines (from its first line's
// content to its last line's end, the lines after the first with their
// indentation) and the indentation of its first line: two blocks with the
// same key read as the same value. An object's field is read packed
// (mapValue), a block deeper down not: top keeps the two apart.
type blockKey struct {
	ind  int
	text string
	top  bool
}

type blockValue struct {
	v any
	// height is how many levels below the block's own its reading went.
	height int
}

// maxBlockText bounds the text of a block looked up in fastYAML.blocks.
const maxBlockText = 8 << 10

// sharedBlock reads the block value v, and returns the value read from
// an earlier block with the same text instead when there is one: the
// objects of one controller repeat most of their fields (a Pod's
// containers, a ReplicaSet's template), which are then read once and
// stored once. A value is never changed once read (see sharer).
//
// A block is its first line and the lines after it indented more (or as
// much, when its lines are a mapping's or sequence's at that indentation;
// for a sequence at its key's own indentation, only the "- " lines at
// it). The reading of a block that consumed exactly these lines depends
// on nothing else: a line after it is indented less, and ends every
// mapping and sequence inside it.
func (f *fastYAML) sharedBlock(v yval, depth int) (any, bool) {
	start, end := f.i, f.i
	for f.has(end) {
		l := f.lines[end]
		if l.ind < v.ind || (l.ind == v.ind && v.kind == ySeq && !isSeqItem(l.s)) {
			break
		}
		end++
	}
	if f.failed || end == start {
		return nil, false
	}
	first, last := f.lines[start].s, f.lines[end-1].s
	n := int(uintptr(unsafe.Pointer(&last[len(last)-1]))-uintptr(unsafe.Pointer(&first[0]))) + 1
	if n > maxBlockText {
		return f.readBlock(v, depth)
	}
	// The key's text is the document's own bytes, which outlive the
	// map: no copy.
	key := blockKey{v.ind, unsafe.String(&first[0], n), depth == 1}
	if b, ok := f.blocks[key]; ok && depth+b.height <= directMaxDepth {
		f.i = end
		return b.v, true
	}
	outer := f.deepest
	f.deepest = depth
	val, ok := f.readBlock(v, depth)
	height := f.deepest - depth
	f.deepest = max(outer, f.deepest)
	if ok && f.i == end {
		if f.blocks == nil {
			f.blocks = map[blockKey]blockValue{}
		}
		f.blocks[key] = blockValue{val, height}
	}
	return val, ok
}

// readBlock reads the block value v.
func (f *fastYAML) readBlock(v yval, depth int) (any, bool) {
	if v.kind == ySeq {
		return f.seqValue(v.ind, depth)
	}
	return f.blockValue(v.ind, depth)
}

// blockValue reads the block at ind that starts at the current line.
func (f *fastYAML) blockValue(ind, depth int) (any, bool) {
	if depth > directMaxDepth {
		return nil, false
	}
	f.deepest = max(f.deepest, depth)
	l := f.lines[f.i]
	switch {
	case isSeqItem(l.s):
		return f.seqValue(ind, depth)
	case f.keyAt(l.s) > 0:
		return f.mapValue(ind, depth)
	}
	v, ok := f.scalarValue(l.s)
	f.i++
	if !ok || (f.more() && f.lines[f.i].ind > ind) {
		return nil, false
	}
	return v, true
}

func (f *fastYAML) mapValue(ind, depth int) (any, bool) {
	mark := len(f.dpairs)
	for f.atKey(ind) {
		k, v, ok := f.entry(ind, false)
		if !ok {
			return nil, false
		}
		val, ok := f.value(v, depth+1)
		if !ok {
			return nil, false
		}
		f.dpairs = append(f.dpairs, anyPair{k, val})
	}
	if !f.blockEnd(ind) {
		return nil, false
	}
	pairs := f.dpairs[mark:]
	if depth == 1 {
		// An object's field's map (a Pod's spec, its status): packed
		// (fakeapi.PackMap), read only through the object's Fields.
		entries := make([]fakeapi.Field, len(pairs))
		for i, p := range pairs {
			entries[i] = fakeapi.Field{Name: p.key, Value: p.val}
		}
		p, ok := fakeapi.PackMap(entries)
		clear(pairs)
		f.dpairs = f.dpairs[:mark]
		return p, ok
	}
	m := make(map[string]any, len(pairs))
	for _, p := range pairs {
		m[p.key] = p.val
	}
	n := len(pairs)
	clear(pairs)
	f.dpairs = f.dpairs[:mark]
	return m, len(m) == n // fewer: a duplicate key
}

func (f *fastYAML) seqValue(ind, depth int) (any, bool) {
	mark := len(f.dstack)
	for f.atItem(ind) {
		var v any
		if cind, ok := f.itemStart(ind); ok {
			if v, ok = f.blockValue(cind, depth+1); !ok {
				return nil, false
			}
		}
		f.dstack = append(f.dstack, v)
	}
	if !f.blockEnd(ind) {
		return nil, false
	}
	l := make([]any, len(f.dstack)-mark)
	copy(l, f.dstack[mark:])
	clear(f.dstack[mark:])
	f.dstack = f.dstack[:mark]
	return l, true
}

// scalarValue reads a one-line value as plainScalar reads its node, for
// the values that cannot be wrong: null, true, false, a decimal integer
// (as a float64, as JSON decodes it), a string, {} and []. A string is
// always a !!str (timestamps are left to the tree), so that the checks
// of typed fields can be made on the values.
func (f *fastYAML) scalarValue(s []byte) (any, bool) {
	sc, ok := f.scalarText(s)
	if !ok {
		return nil, false
	}
	switch sc.kind {
	case yaml.MappingNode:
		return map[string]any{}, true
	case yaml.SequenceNode:
		return []any{}, true
	}
	switch sc.tag {
	case "!!str":
		return f.box(sc.value), true
	case "!!null":
		return nil, true
	case "!!bool":
		switch sc.value {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case "!!int":
		if v := sc.value; decimalInt(v) {
			i, err := strconv.ParseInt(v, 10, 64)
			return float64(i), err == nil
		}
	}
	return nil, false
}

// decimalInt reports whether v is an integer written as JSON writes it,
// with fewer than 19 digits: what plainTag takes as an int at once, or
// that with a minus sign.
func decimalInt(v string) bool {
	if len(v) > 1 && v[0] == '-' && v[1] != '0' {
		v = v[1:]
	}
	return len(v) < 19 && allDigits(v) && (v[0] != '0' || len(v) == 1)
}

// skip reads v as fastYAML would and keeps nothing: a value the checks do
// not look into (managedFields), so that only the subset's syntax counts.
func (f *fastYAML) skip(v yval) bool {
	switch v.kind {
	case yInline:
		_, ok := f.scalarText(v.s)
		return ok
	case yBlock:
		return f.skipBlock(v.ind)
	case ySeq:
		return f.skipSeq(v.ind)
	}
	return true
}

func (f *fastYAML) skipBlock(ind int) bool {
	l := f.lines[f.i]
	switch {
	case isSeqItem(l.s):
		return f.skipSeq(ind)
	case f.keyAt(l.s) > 0:
		for f.atKey(ind) {
			_, v, ok := f.entry(ind, true)
			if !ok || !f.skip(v) {
				return false
			}
		}
		return f.blockEnd(ind)
	}
	_, ok := f.scalarText(l.s)
	f.i++
	return ok && !(f.more() && f.lines[f.i].ind > ind)
}

func (f *fastYAML) skipSeq(ind int) bool {
	for f.atItem(ind) {
		if cind, ok := f.itemStart(ind); ok && !f.skipBlock(cind) {
			return false
		}
	}
	return f.blockEnd(ind)
}

// strOrNull reads a value that must be a string or null.
func (f *fastYAML) strOrNull(v yval) (s string, null, ok bool) {
	switch v.kind {
	case yNull:
		return "", true, true
	case yStr:
		return v.str, false, true
	}
	if v.kind != yInline {
		return "", false, false
	}
	switch x, ok := f.scalarValue(v.s); t := x.(type) {
	case string:
		return t, false, ok
	case nil:
		return "", true, ok
	}
	return "", false, false
}

// intOrNull reads a value that must be an integer or null, as integer()
// reads it without a problem.
func (f *fastYAML) intOrNull(v yval) (i int64, null, ok bool) {
	if v.kind == yNull {
		return 0, true, true
	}
	if v.kind != yInline {
		return 0, false, false
	}
	sc, ok := f.scalarText(v.s)
	switch {
	case !ok || sc.kind != yaml.ScalarNode:
		return 0, false, false
	case sc.tag == "!!null":
		return 0, true, true
	case sc.tag == "!!int" && sc.value[0] != '-' && decimalInt(sc.value):
		i, err := strconv.ParseInt(sc.value, 10, 64)
		return i, false, err == nil
	}
	return 0, false, false
}

// boolOrNull reads a value that must be true, false or null.
func (f *fastYAML) boolOrNull(v yval) (b, null, ok bool) {
	if v.kind == yNull {
		return false, true, true
	}
	if v.kind != yInline {
		return false, false, false
	}
	switch x, ok := f.scalarValue(v.s); t := x.(type) {
	case bool:
		return t, false, ok
	case nil:
		return false, true, ok
	}
	return false, false, false
}

// directItem decodes the List entry at f's current line (a "- " line at
// indentation ind) and keeps it, as fastItem would from its tree; false,
// having kept nothing, when it gives up on the entry.
func (d *dumpReader) directItem(doc int, f *fastYAML, ind int) bool {
	d.rel.past(f, d.pre)
	// Decoded by a worker already (dumpparallel.go)?
	if took, found := takeDecoded(d, doc, f, ind); found {
		return took
	}
	obj, namespaced, line, ok := decodeItem(d, f, ind)
	if !ok {
		return false
	}
	return d.keepDirect(doc, obj, namespaced, line, true)
}

// decodeItem decodes the List entry at f's current line (a "- " line at
// indentation ind) into an object, whether its metadata has a namespace
// that is not null, and the line its content starts at; false when it
// gives up on the entry. It keeps nothing, and of d it uses only the
// cache of parseTime and, for an ownerReference without a uid, the
// registry (ownerRefFindable). (Functions rather than methods, such as
// this and takeDecoded, leave no name in the browser build, which has
// no use for them.)
func decodeItem(d *dumpReader, f *fastYAML, ind int) (obj *fakeapi.Object, namespaced bool, line int, ok bool) {
	mind, ok := f.itemStart(ind)
	if !ok || !f.startsMapping() {
		return nil, false, 0, false
	}
	line = f.lines[f.i].num
	obj = &fakeapi.Object{}
	var seen uint8
	for f.atKey(mind) {
		k, v, ok := f.entry(mind, false)
		if !ok {
			return nil, false, 0, false
		}
		var bit uint8
		switch k {
		case "apiVersion", "kind":
			s, null, ok := f.strOrNull(v)
			if !ok || null {
				return nil, false, 0, false
			}
			if bit = 1; k == "kind" {
				bit = 2
			}
			if k == "kind" {
				obj.Kind = s
			} else {
				obj.APIVersion = s
			}
		case "metadata":
			bit = 4
			if v.kind != yBlock || !f.startsMapping() {
				return nil, false, 0, false
			}
			if namespaced, ok = d.directMeta(f, v.ind, &obj.Metadata); !ok {
				return nil, false, 0, false
			}
		default:
			val, ok := f.value(v, 1)
			if !ok {
				return nil, false, 0, false
			}
			if _, dup := obj.Fields.Lookup(k); dup {
				return nil, false, 0, false
			}
			obj.Fields.Set(k, val)
		}
		if seen&bit != 0 {
			return nil, false, 0, false // a duplicate key
		}
		seen |= bit
	}
	if !f.blockEnd(mind) || seen != 7 {
		return nil, false, 0, false
	}
	return obj, namespaced, line, true
}

// keepDirect keeps an object the direct decoding read, as object() would
// keep it, when the checks that need the registry pass; false, having
// kept nothing, when they do not (or when its kind is to be taken as
// custom first). namespaced is whether its metadata has a namespace that
// is not null.
// fieldsShared says the Fields share their parts already (sharedBlock).
func (d *dumpReader) keepDirect(doc int, obj *fakeapi.Object, namespaced bool, line int, fieldsShared bool) bool {
	info, ok := d.kindCache.Lookup(d.reg, obj.APIVersion, obj.Kind)
	if !ok {
		return false // a kind to take as custom first, or a problem to report
	}
	var ik *impliedKind
	if info.Custom {
		// Taken as custom from an object before: this one must agree on
		// the scope.
		if ik = d.implied[obj.APIVersion+" "+obj.Kind]; ik == nil || namespaced != ik.info.Namespaced() {
			return false
		}
	}
	if obj.Metadata.Namespace != "" && !info.Namespaced() {
		return false
	}
	if !info.Custom && !typedFieldsOK(obj.Fields, info.Kind) {
		return false
	}
	if info.Namespaced() && obj.Metadata.Namespace == "" {
		obj.Metadata.Namespace = "default"
	}
	if ik != nil {
		ik.count++
	}
	path := d.itemPath(doc)
	d.direct++
	if fieldsShared {
		d.share.metadata(obj)
	} else {
		d.share.object(obj)
	}
	d.restore = append(d.restore, Manifest{Object: obj, Line: line, Path: path})
	return true
}

// typedFieldsOK reports whether every typed field of a built-in kind's
// object is null or passes typedFieldOK: a string where a string is
// wanted, a small non-negative decimal integer (value() reads only
// decimal integers, and a string only from a !!str).
func typedFieldsOK(fields fakeapi.Fields, kind string) bool {
	types := typedFields[kind]
	for _, tf := range typedFieldOrder[kind] {
		v, _ := fields.Nested(tf.keys...)
		switch t := v.(type) {
		case nil:
		case string:
			if types[tf.path].kind != "string" {
				return false
			}
		case float64:
			if types[tf.path].kind == "string" || t < 0 || t >= 1e9 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// metaKeyBit numbers the metadata keys a dump may have, for finding a
// duplicate.
func metaKeyBit(k string) uint16 {
	for i, m := range dumpMetadataKeys {
		if m == k {
			return 1 << i
		}
	}
	return 0
}

// directMeta reads an object's metadata, the block mapping at ind, into
// m, as metadata() checks it and objectMeta() reads it; namespaced is
// whether it has a namespace that is not null (the scope a custom kind
// takes from it).
func (d *dumpReader) directMeta(f *fastYAML, ind int, m *fakeapi.ObjectMeta) (namespaced, ok bool) {
	var seen uint16
	for f.atKey(ind) {
		k, v, ok := f.entry(ind, false)
		if !ok {
			return false, false
		}
		bit := metaKeyBit(k)
		if bit == 0 || seen&bit != 0 {
			return false, false // an unknown key, or a duplicate
		}
		seen |= bit
		switch k {
		case "name", "generateName", "namespace", "uid", "resourceVersion":
			s, null, ok := f.strOrNull(v)
			if !ok {
				return false, false
			}
			switch k {
			case "name":
				m.Name = s
			case "generateName":
				m.GenerateName = s
			case "namespace":
				m.Namespace, namespaced = s, !null
			case "uid":
				m.UID = s
			case "resourceVersion":
				m.ResourceVersion = s
			}
		case "generation", "deletionGracePeriodSeconds":
			i, null, ok := f.intOrNull(v)
			switch {
			case !ok:
				return false, false
			case null:
			case k == "generation":
				m.Generation = i
			default:
				m.DeletionGracePeriodSeconds = &i
			}
		case "creationTimestamp", "deletionTimestamp":
			t, ok := d.timeOrNull(f, v)
			if !ok {
				return false, false
			}
			if k == "creationTimestamp" {
				m.CreationTimestamp = t
			} else {
				m.DeletionTimestamp = t
			}
		case "labels", "annotations":
			sm, ok := f.strMap(v)
			if !ok {
				return false, false
			}
			if k == "labels" {
				m.Labels = sm
			} else {
				m.Annotations = sm
			}
		case "finalizers":
			fins, ok := f.strList(v)
			if !ok {
				return false, false
			}
			m.Finalizers = fins
		case "ownerReferences":
			refs, ok := d.ownerRefs(f, v)
			if !ok {
				return false, false
			}
			m.OwnerReferences = refs
		default: // managedFields, selfLink: tolerated, dropped
			if !f.skip(v) {
				return false, false
			}
		}
	}
	if !f.blockEnd(ind) || (m.Name == "" && m.GenerateName == "") {
		return false, false
	}
	return namespaced, true
}

// timeOrNull reads an RFC 3339 time or null.
func (d *dumpReader) timeOrNull(f *fastYAML, v yval) (*fakeapi.Time, bool) {
	if v.kind == yNull {
		return nil, true
	}
	if v.kind != yInline {
		return nil, false
	}
	sc, ok := f.scalarText(v.s)
	switch {
	case !ok || sc.kind != yaml.ScalarNode:
		return nil, false
	case sc.tag == "!!null":
		return nil, true
	}
	return d.parseTime(sc.value)
}

// strMap reads labels or annotations: a mapping of strings (a null value
// reads as ""), or null.
func (f *fastYAML) strMap(v yval) (map[string]string, bool) {
	switch v.kind {
	case yNull:
		return nil, true
	case yStr:
		return nil, false
	case yInline:
		x, ok := f.scalarValue(v.s)
		switch x.(type) {
		case nil:
			return nil, ok
		case map[string]any:
			return map[string]string{}, ok
		}
		return nil, false
	case ySeq:
		return nil, false
	}
	if !f.startsMapping() {
		return nil, false
	}
	mark := len(f.spairs)
	for f.atKey(v.ind) {
		k, ev, ok := f.entry(v.ind, false)
		if !ok {
			return nil, false
		}
		s, _, ok := f.strOrNull(ev)
		if !ok {
			return nil, false
		}
		f.spairs = append(f.spairs, strPair{k, s})
	}
	if !f.blockEnd(v.ind) {
		return nil, false
	}
	pairs := f.spairs[mark:]
	m := make(map[string]string, len(pairs))
	for _, p := range pairs {
		m[p.key] = p.val
	}
	n := len(pairs)
	f.spairs = f.spairs[:mark]
	return m, len(m) == n
}

// strList reads finalizers: a list of strings, or null; an empty list
// reads as nil, as objectMeta() appends to nil.
func (f *fastYAML) strList(v yval) ([]string, bool) {
	var l any
	ok := true
	switch v.kind {
	case yNull:
		return nil, true
	case yStr:
		return nil, false
	case yInline:
		l, ok = f.scalarValue(v.s)
	case yBlock:
		if !isSeqItem(f.lines[f.i].s) {
			return nil, false
		}
		l, ok = f.seqValue(v.ind, 2)
	case ySeq:
		l, ok = f.seqValue(v.ind, 2)
	}
	if !ok {
		return nil, false
	}
	switch t := l.(type) {
	case nil:
		return nil, true
	case []any:
		var out []string
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// ownerRefs reads ownerReferences: a list of references, or null.
func (d *dumpReader) ownerRefs(f *fastYAML, v yval) ([]fakeapi.OwnerReference, bool) {
	switch v.kind {
	case yNull:
		return nil, true
	case yStr:
		return nil, false
	case yInline:
		x, ok := f.scalarValue(v.s)
		switch t := x.(type) {
		case nil:
			return nil, ok
		case []any:
			return nil, ok && len(t) == 0
		}
		return nil, false
	case yBlock:
		if !isSeqItem(f.lines[f.i].s) {
			return nil, false
		}
	}
	var refs []fakeapi.OwnerReference
	for f.atItem(v.ind) {
		rind, ok := f.itemStart(v.ind)
		if !ok || !f.startsMapping() {
			return nil, false
		}
		r, ok := d.ownerRef(f, rind)
		if !ok {
			return nil, false
		}
		refs = append(refs, r)
	}
	return refs, f.blockEnd(v.ind)
}

// ownerRef reads one ownerReference, the block mapping at ind, as
// ownerReference() checks it and objectMeta() reads it.
func (d *dumpReader) ownerRef(f *fastYAML, ind int) (fakeapi.OwnerReference, bool) {
	var r fakeapi.OwnerReference
	var seen uint8
	for f.atKey(ind) {
		k, v, ok := f.entry(ind, false)
		if !ok {
			return r, false
		}
		var bit uint8
		switch k {
		case "apiVersion", "kind", "name", "uid":
			s, _, ok := f.strOrNull(v)
			if !ok {
				return r, false
			}
			switch k {
			case "apiVersion":
				r.APIVersion, bit = s, 1
			case "kind":
				r.Kind, bit = s, 2
			case "name":
				r.Name, bit = s, 4
			case "uid":
				r.UID, bit = s, 8
			}
		case "controller", "blockOwnerDeletion":
			b, null, ok := f.boolOrNull(v)
			if !ok {
				return r, false
			}
			if bit = 16; k == "blockOwnerDeletion" {
				bit = 32
			}
			if !null {
				if k == "controller" {
					r.Controller = &b
				} else {
					r.BlockOwnerDeletion = &b
				}
			}
		default:
			return r, false
		}
		if seen&bit != 0 {
			return r, false
		}
		seen |= bit
	}
	if !f.blockEnd(ind) {
		return r, false
	}
	return r, d.ownerRefFindable(r)
}

// ownerRefFindable reports whether a reference names its owner: by uid,
// or by apiVersion, kind and name of a kind gcplay serves.
func (d *dumpReader) ownerRefFindable(r fakeapi.OwnerReference) bool {
	if r.UID != "" {
		return true
	}
	if r.APIVersion == "" || r.Kind == "" || r.Name == "" {
		return false
	}
	if d.reg == nil {
		return false // a worker's reader (dumpparallel.go): left to the reading in order
	}
	_, ok := d.kindCache.Lookup(d.reg, r.APIVersion, r.Kind)
	return ok
}
