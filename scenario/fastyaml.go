package scenario

import (
	"bytes"
	"strings"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// fastYAML parses the block-style subset of YAML that kubectl and YAML
// encoders print (block mappings and sequences, one-line plain, single- or
// double-quoted scalars without escapes, {} and [], comments on their own
// lines) into the same yaml.Node trees go.yaml.in/yaml/v3 builds, about
// ten times faster. Anything else (anchors, aliases, tags, flow
// collections, block or multi-line scalars, escapes, trailing comments,
// directives) makes it give up, and the caller parses the text with
// yaml.v3, which then also reports the syntax errors.
//
// A hook can take the entries of one top-level sequence one at a time
// (a List's items), so that a large dump never holds all its trees at
// once: the hook must not keep an entry's nodes, whose memory serves the
// next entry.
type fastYAML struct {
	// text is the document's text not split into lines yet; num is the
	// number of the last line split. doc is the document's whole text,
	// of which text is the end.
	text []byte
	num  int
	doc  []byte
	// lines are the content lines split and not yet dropped; lines[i] is
	// the current one. A streamed entry's lines are dropped once onItem
	// has it, so that a large List is never held as lines at once.
	lines []fastLine
	i     int
	// streamKey names the top-level key whose block sequence goes to
	// onItem entry by entry instead of into the tree.
	streamKey string
	onItem    func(n *yaml.Node) bool
	// direct, when set, is tried first on each streamed entry: it reads
	// the entry straight from the lines (dumpdirect.go) and reports
	// whether it took it; when it did not, the entry's lines are as
	// they were and the entry goes to onItem as a tree.
	direct func(ind int) bool
	// undo holds the lines direct rewrote, to put back when it gives up;
	// dpairs, spairs and dstack are its scratch space.
	undo   []undoLine
	dpairs []anyPair
	spairs []strPair
	dstack []any
	// blocks holds the values direct read from blocks of lines, by their
	// text and indentation, for the blocks of later entries with the
	// same text; deepest is the depth direct's reading reached.
	blocks  map[blockKey]blockValue
	deepest int
	// failed is set when the text leaves the subset.
	failed bool
	// tabs says the text has a tab: a line with one leaves the subset.
	tabs bool
	// alone counts the streamed entries read alone by yaml.v3.
	alone int
	// skipped is set when direct read a scalar over lines from the
	// text and dropped its lines (skipTo): the entry's lines are then
	// no longer all there for its tree.
	skipped bool
	// stopped is set when onItem asked to stop.
	stopped bool
	// slab is where nodes are allocated, many at a time: the rest of
	// the last of chunks. The chunks a streamed entry took go to free
	// once onItem is done with the entry, for the next one.
	slab   []yaml.Node
	chunks [][]yaml.Node
	free   [][]yaml.Node
	// strs holds the short strings read so far, shared by the documents
	// of one text: a dump repeats its keys and most values (kinds,
	// labels, images) thousands of times, and each is then stored once.
	strs map[string]string
	// recent holds the strings of the last List entry in the order they
	// were read; nth counts the strings of the current one.
	recent []string
	nth    int
	// boxes holds, by the same count, the string values of the last
	// entries as the decoder handed them on (see box).
	boxes []any
}

// maxKey bounds the length of a key fastYAML reads.
const maxKey = 1000

// internMax bounds strs: once full, only the strings already in it are
// shared (those that repeat come early in a dump).
const internMax = 1 << 14

// internLen is the longest string str shares.
const internLen = 32

// str returns b as a string, shared with an equal one read before when
// b is short.
func (f *fastYAML) str(b []byte) string {
	// The n-th string of a List entry is most often the n-th string of
	// the entry before (the same key, kind, label or image): compared
	// there first, it needs no hashing.
	n := f.nth
	f.nth++
	if n < len(f.recent) && f.recent[n] == string(b) {
		return f.recent[n]
	}
	s := f.shared(b)
	switch {
	case n < len(f.recent):
		f.recent[n] = s
	case n == len(f.recent) && n < recentMax:
		f.recent = append(f.recent, s)
	}
	return s
}

// box returns the string value v as an any. A string in an interface is
// a 16-byte allocation of its own even when its text is shared; the
// value read at the same place of an entry before (a Pod's phase, its
// QoS class) is handed on in the same one. v is the string str returned
// last, so its place is nth-1; any other string only misses the reuse.
func (f *fastYAML) box(v string) any {
	n := f.nth - 1
	if n < 0 || n >= recentMax {
		return v
	}
	for len(f.boxes) <= n {
		f.boxes = append(f.boxes, nil)
	}
	if b, ok := f.boxes[n].(string); ok && b == v {
		return f.boxes[n]
	}
	var b any = v
	f.boxes[n] = b
	return b
}

// recentMax bounds recent: the strings of an entry past it are not
// compared with the entry before's.
const recentMax = 1024

// shared returns b as a string, the one in strs when b is short.
func (f *fastYAML) shared(b []byte) string {
	if len(b) > internLen {
		return string(b) // never in strs: a UID, a name with a hash
	}
	if s, ok := f.strs[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(f.strs) < internMax {
		f.strs[s] = s
	}
	return s
}

// node returns a new node holding n, from the slab: one allocation for
// many nodes (a Pod's tree has about fifty).
func (f *fastYAML) node(n yaml.Node) *yaml.Node {
	if len(f.slab) == 0 {
		if k := len(f.free); k > 0 {
			f.slab, f.free = f.free[k-1], f.free[:k-1]
		} else {
			f.slab = make([]yaml.Node, 256)
		}
		f.chunks = append(f.chunks, f.slab)
	}
	p := &f.slab[0]
	*p = n
	f.slab = f.slab[1:]
	return p
}

type fastLine struct {
	ind int    // columns of indentation (the content's column - 1)
	s   []byte // the content, right-trimmed
	num int    // 1-based line number
}

// more reports whether there is a current line, f.lines[f.i], splitting
// the text's next content line when needed. Text outside the subset (tabs
// in the indentation, directives, document markers) sets failed.
func (f *fastYAML) more() bool { return f.has(f.i) }

// has reports whether there is a line f.lines[j], splitting the text's
// next content lines as more does.
func (f *fastYAML) has(j int) bool {
	for j >= len(f.lines) {
		if len(f.text) == 0 || f.failed {
			return false
		}
		f.num++
		var line []byte
		if j := bytes.IndexByte(f.text, '\n'); j >= 0 {
			line, f.text = f.text[:j], f.text[j+1:]
		} else {
			line, f.text = f.text, nil
		}
		ind := 0
		for ind < len(line) && line[ind] == ' ' {
			ind++
		}
		s := trimSpaceCR(line[ind:])
		if len(s) == 0 || s[0] == '#' {
			continue
		}
		if s[0] == '\t' || (ind == 0 && (s[0] == '%' || bytes.HasPrefix(s, []byte("---")) || bytes.HasPrefix(s, []byte("...")))) ||
			(f.tabs && bytes.IndexByte(s, '\t') >= 0) {
			// (A tab in a line may separate as a space does, where
			// fastYAML looks only for spaces.)
			f.failed = true
			return false
		}
		f.lines = append(f.lines, fastLine{ind: ind, s: s, num: f.num})
	}
	return true
}

// trimSpaceCR is bytes.TrimRight(s, " \r"), which builds its set of two
// bytes at every call: has trims every line of a dump with it.
func trimSpaceCR(s []byte) []byte {
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// commentOrColon reports whether s holds " #" or ": ", which a plain
// scalar's one line cannot; both hold a space, which most scalars of a
// dump (names, UIDs, images, times) do not, so that is looked for first.
func commentOrColon(s []byte) bool {
	return bytes.IndexByte(s, ' ') >= 0 && (bytes.Contains(s, []byte(" #")) || bytes.Contains(s, []byte(": ")))
}

// drop forgets the lines before the current one.
func (f *fastYAML) drop() {
	n := copy(f.lines, f.lines[f.i:])
	f.lines, f.i = f.lines[:n], 0
}

// parseDocument parses the lines of one document; nil when the document
// is empty. It reports false when the text leaves the subset.
func (f *fastYAML) parseDocument() (*yaml.Node, bool) {
	if !f.more() {
		return nil, !f.failed
	}
	n := f.block(f.lines[0].ind, true)
	if !f.stopped && f.more() { // text the root does not hold
		return nil, false
	}
	return n, !f.failed
}

func isSeqItem(s []byte) bool { return s[0] == '-' && (len(s) == 1 || s[1] == ' ') }

// block parses the node that starts at the current line, whose indentation
// is ind.
func (f *fastYAML) block(ind int, top bool) *yaml.Node {
	l := f.lines[f.i]
	switch {
	case isSeqItem(l.s):
		return f.seq(ind)
	case f.keyAt(l.s) > 0:
		return f.mapping(ind, top)
	}
	n := f.scalar(l.s, l.num, l.ind+1)
	f.i++
	if f.more() && f.lines[f.i].ind > ind {
		f.failed = true // a scalar that goes on over lines
	}
	return n
}

func (f *fastYAML) seq(ind int) *yaml.Node {
	n := f.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: f.lines[f.i].num, Column: ind + 1})
	for !f.failed && f.more() && f.lines[f.i].ind == ind && isSeqItem(f.lines[f.i].s) {
		n.Content = append(n.Content, f.item(ind))
	}
	if f.more() && f.lines[f.i].ind > ind {
		f.failed = true
	}
	return n
}

// item parses one "- ..." entry of a sequence at ind.
func (f *fastYAML) item(ind int) *yaml.Node {
	l := f.lines[f.i]
	rest := l.s[1:]
	k := 1
	for len(rest) > 0 && rest[0] == ' ' {
		rest, k = rest[1:], k+1
	}
	if len(rest) == 0 {
		f.i++
		if f.more() && f.lines[f.i].ind > ind {
			return f.block(f.lines[f.i].ind, false)
		}
		return f.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: l.num, Column: l.ind + 2})
	}
	// The entry's content starts a node at its own column: "- a: 1" is a
	// mapping whose keys are at ind+k.
	f.lines[f.i] = fastLine{ind: ind + k, s: rest, num: l.num}
	return f.block(ind+k, false)
}

// keyAt returns the length of the key when s starts a mapping entry
// ("key: value" or "key:"), 0 otherwise, and for a key longer than
// maxKey (yaml.v3 takes no key of more than 1024 characters).
func (f *fastYAML) keyAt(s []byte) int {
	if len(s) > maxKey {
		s = s[:maxKey]
	}
	if s[0] == '"' || s[0] == '\'' {
		j := bytes.IndexByte(s[1:], s[0])
		if j < 0 {
			return 0
		}
		end := j + 2
		if end < len(s) && s[end] == ':' && (end+1 == len(s) || s[end+1] == ' ') {
			return end
		}
		return 0
	}
	for j := 0; j < len(s); j++ {
		if s[j] == ':' && (j+1 == len(s) || s[j+1] == ' ') {
			return j
		}
	}
	return 0
}

func (f *fastYAML) mapping(ind int, top bool) *yaml.Node {
	n := f.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: f.lines[f.i].num, Column: ind + 1})
	for !f.failed && !f.stopped && f.more() && f.lines[f.i].ind == ind && !isSeqItem(f.lines[f.i].s) {
		l := f.lines[f.i]
		kl := f.keyAt(l.s)
		if kl == 0 {
			f.failed = true
			return n
		}
		key := f.scalar(l.s[:kl], l.num, ind+1)
		if key == nil || key.Kind != yaml.ScalarNode {
			f.failed = true
			return n
		}
		rest := bytes.TrimLeft(l.s[kl+1:], " ")
		f.i++
		var v *yaml.Node
		switch {
		case len(rest) > 0:
			v = f.scalar(rest, l.num, ind+1+len(l.s)-len(rest))
			if f.more() && f.lines[f.i].ind > ind {
				f.failed = true // a scalar that goes on over lines
			}
		case f.more() && f.lines[f.i].ind > ind:
			v = f.block(f.lines[f.i].ind, false)
		case f.more() && f.lines[f.i].ind == ind && isSeqItem(f.lines[f.i].s):
			if top && f.onItem != nil && key.Value == f.streamKey && !hasKey(n, key.Value) {
				v = f.stream(ind)
			} else {
				v = f.seq(ind)
			}
		default:
			v = f.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: l.num, Column: ind + 1 + kl + 1})
		}
		if f.failed || v == nil {
			f.failed = true
			return n
		}
		n.Content = append(n.Content, key, v)
	}
	if !f.stopped && f.more() && f.lines[f.i].ind > ind {
		f.failed = true
	}
	return n
}

// hasKey reports whether the mapping n has the key k already (a List's
// items are then the first key's, as yaml.v3's reading has them, and
// the second's are not streamed).
func hasKey(n *yaml.Node, k string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return true
		}
	}
	return false
}

// startEntry starts the nodes of a streamed entry on a chunk of their
// own, so that the chunks it takes hold nothing else; endEntry, once the
// entry is handed over, gives them to the next one.
func (f *fastYAML) startEntry() int {
	f.slab, f.nth = nil, 0
	return len(f.chunks)
}

func (f *fastYAML) endEntry(mark int) {
	f.free = append(f.free, f.chunks[mark:]...)
	f.chunks, f.slab = f.chunks[:mark], nil
}

// stream hands the entries of a top-level sequence to onItem one by one,
// and leaves an empty sequence in the tree. An entry whose text leaves
// the subset (a multi-line scalar, as kubectl prints long strings) is
// read alone by yaml.v3 (entryAlone), and the entries after it go on as
// before.
func (f *fastYAML) stream(ind int) *yaml.Node {
	n := f.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: f.lines[f.i].num, Column: ind + 1})
	for !f.failed && f.more() && f.lines[f.i].ind == ind && isSeqItem(f.lines[f.i].s) {
		mark := f.startEntry()
		start, first := f.i, f.lines[f.i]
		var item *yaml.Node
		f.skipped = false
		if f.direct != nil {
			took := f.direct(ind)
			if took && !f.failed {
				f.undo = f.undo[:0]
				f.drop()
				f.endEntry(mark)
				continue
			}
			f.rollback(start)
		}
		if !f.failed && !f.skipped {
			item = f.item(ind)
		}
		if f.failed || f.skipped {
			f.endEntry(mark)
			mark = f.startEntry()
			if item = f.entryAlone(start, first, ind); item == nil {
				f.failed = true
				break // yaml.v3 reads the whole text, and reports the error
			}
		}
		if !f.onItem(item) {
			f.stopped = true
			break
		}
		f.drop()
		f.endEntry(mark)
	}
	return n
}

// entryAlone reads with yaml.v3 the entry of a streamed sequence at ind
// whose first line, first, is lines[start], when its text leaves
// fastYAML's subset: its lines are the first one and those after it up
// to the first content line indented no more than its dash (blank and
// comment lines go with it). The node's lines are the document's. It
// moves f past the entry's lines, with failed cleared. nil, leaving f as
// it is, when yaml.v3 does not read the lines alone as one entry, or
// when they hold an anchor or an alias: the whole text is then read by
// yaml.v3, as it always was, which reports any error, and counts
// aliases against the node budget across the whole document.
func (f *fastYAML) entryAlone(start int, first fastLine, ind int) *yaml.Node {
	if len(f.doc) == 0 {
		return nil
	}
	data := f.doc
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(first.s)))-uintptr(unsafe.Pointer(unsafe.SliceData(data)))) - first.ind
	if off < 0 || off >= len(data) {
		return nil
	}
	end, lines := len(data), 0
	for p := off; p < len(data); lines++ {
		nl := bytes.IndexByte(data[p:], '\n')
		if nl < 0 {
			end, lines = len(data), lines+1
			break
		}
		p += nl + 1
		k := p
		for k < len(data) && data[k] == ' ' {
			k++
		}
		rest := data[k:]
		if e := bytes.IndexByte(rest, '\n'); e >= 0 {
			rest = rest[:e]
		}
		rest = bytes.TrimRight(rest, " \r")
		if len(rest) > 0 && rest[0] != '#' && k-p <= ind {
			end, lines = p, lines+1
			break
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data[off:end], &doc); err != nil {
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil
	}
	seq := doc.Content[0]
	if seq.Kind != yaml.SequenceNode || len(seq.Content) != 1 || seq.Anchor != "" || seq.Tag != "!!seq" {
		return nil
	}
	item := seq.Content[0]
	if !shiftLines(item, first.num-1) {
		return nil
	}
	f.failed = false
	f.lines, f.i = f.lines[:start], start
	f.text = data[end:]
	f.num = first.num - 1 + lines
	f.alone++
	return item
}

// shiftLines adds delta to the line of n and of every node under it;
// false when one is an alias or has an anchor.
func shiftLines(n *yaml.Node, delta int) bool {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return false
	}
	n.Line += delta
	for _, c := range n.Content {
		if !shiftLines(c, delta) {
			return false
		}
	}
	return true
}

// scalar reads a one-line scalar (or {} and []); nil and failed when s is
// outside the subset.
func (f *fastYAML) scalar(s []byte, line, col int) *yaml.Node {
	sc, ok := f.scalarText(s)
	if !ok {
		f.failed = true
		return nil
	}
	n := f.node(yaml.Node{Kind: sc.kind, Tag: sc.tag, Style: sc.style, Value: sc.value, Line: line, Column: col})
	return n
}

// fastScalar is what scalarText reads from a one-line value: a scalar,
// or an empty flow mapping or sequence ({} or []).
type fastScalar struct {
	kind  yaml.Kind
	tag   string
	style yaml.Style
	value string
}

// scalarText reads a one-line scalar (or {} and []); false when s is
// outside the subset.
func (f *fastYAML) scalarText(s []byte) (fastScalar, bool) {
	switch s[0] {
	case '"':
		if len(s) < 2 || s[len(s)-1] != '"' || bytes.IndexByte(s[1:len(s)-1], '"') >= 0 || bytes.IndexByte(s, '\\') >= 0 {
			return fastScalar{}, false
		}
		return fastScalar{kind: yaml.ScalarNode, style: yaml.DoubleQuotedStyle, tag: "!!str", value: f.str(s[1 : len(s)-1])}, true
	case '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' || bytes.Contains(bytes.ReplaceAll(s[1:len(s)-1], []byte("''"), nil), []byte("'")) {
			return fastScalar{}, false
		}
		inner := s[1 : len(s)-1]
		return fastScalar{kind: yaml.ScalarNode, style: yaml.SingleQuotedStyle, tag: "!!str", value: string(bytes.ReplaceAll(inner, []byte("''"), []byte("'")))}, true
	case '{', '[':
		switch string(s) {
		case "{}":
			return fastScalar{kind: yaml.MappingNode, tag: "!!map", style: yaml.FlowStyle}, true
		case "[]":
			return fastScalar{kind: yaml.SequenceNode, tag: "!!seq", style: yaml.FlowStyle}, true
		}
		return fastScalar{}, false
	case '&', '*', '!', '|', '>', '%', '@', '`', '?', ',', ']', '}', '#':
		return fastScalar{}, false
	case '-':
		if len(s) == 1 || s[1] == ' ' {
			return fastScalar{}, false
		}
	}
	// (A key's text may end with spaces before its colon, which are not
	// the key's.)
	s = bytes.TrimRight(s, " ")
	if s[len(s)-1] == ':' || commentOrColon(s) {
		return fastScalar{}, false
	}
	v := f.str(s)
	return fastScalar{kind: yaml.ScalarNode, tag: plainTag(v), value: v}, true
}

// plainTag resolves a plain scalar's tag as yaml.v3 does, with the common
// cases answered at once.
func plainTag(v string) string {
	c := v[0]
	switch {
	case c >= '0' && c <= '9' && len(v) < 19 && allDigits(v) && (c != '0' || len(v) == 1):
		return "!!int"
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		// yaml.v3 looks up a word that starts with one of yYnNtTfFoO
		// among its booleans and nulls; any other word is a string.
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool"
		case "null", "Null", "NULL":
			return "!!null"
		}
		return "!!str"
	case c == '/':
		return "!!str"
	case (c >= '0' && c <= '9' || (c == '-' || c == '+') && len(v) > 1 && v[1] >= '0' && v[1] <= '9') && !maybeNumber(v):
		// (A sign and a dot may start one of its words: -.inf.)
		return "!!str"
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Value: v}
	return n.ShortTag() // yaml.v3's own resolution
}

// maybeNumber reports whether yaml.v3 might resolve v, which starts with a
// digit, or a sign and a digit, as other than a string: a number (digits, signs, '.',
// '_', an exponent), a timestamp (four digits and '-'), or a number with
// a base prefix (0x, 0o, 0b). Anything else, such as an IP address's
// neighbour 5d8c7f00 or 10.0.0.1x, is a string to it.
func maybeNumber(v string) bool {
	if len(v) > 4 && allDigits(v[:4]) && v[4] == '-' {
		return true
	}
	if strings.Count(v, ".") > 1 {
		return false // an IP address, a version: no number has two dots
	}
	plain := strings.ReplaceAll(strings.TrimLeft(v, "+-"), "_", "")
	if len(plain) > 1 && plain[0] == '0' && strings.ContainsRune("xXoObB", rune(plain[1])) {
		return true
	}
	for i := 0; i < len(v); i++ {
		if !strings.ContainsRune("0123456789+-._eE", rune(v[i])) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fastDocuments splits data at its document markers ("---" lines) and
// parses each document with fastYAML, calling onDoc with the document's
// root (nil for an empty one) and its index. onItem, when set, takes the
// entries of each document's top-level key streamKey, and must not keep
// their nodes once it returns. It reports false as
// soon as a document leaves the subset, or onDoc reports false: the
// caller then starts again with yaml.v3. data must be plainText.
//
// direct, when not nil, is offered each streamed entry first (see
// fastYAML.direct). alone, when not nil, counts the streamed entries
// read alone by yaml.v3 (entryAlone).
func fastDocuments(data []byte, streamKey string, onItem func(doc int, n *yaml.Node) bool, onDoc func(doc int, root *yaml.Node) bool, direct func(doc int, f *fastYAML, ind int) bool, alone *int) bool {
	line := 1
	strs := map[string]string{}
	for doc := 0; ; doc++ {
		text, rest, next := cutDocument(data)
		f := &fastYAML{text: text, doc: text, num: line - 1, streamKey: streamKey, strs: strs, tabs: bytes.IndexByte(text, '\t') >= 0}
		if onItem != nil {
			d := doc
			f.onItem = func(n *yaml.Node) bool { return onItem(d, n) }
			if direct != nil {
				f.direct = func(ind int) bool { return direct(d, f, ind) }
			}
		}
		root, ok := f.parseDocument()
		if alone != nil {
			*alone += f.alone
		}
		if !ok {
			return false
		}
		if f.stopped {
			return true
		}
		if !onDoc(doc, root) {
			return false
		}
		if rest == nil {
			return true
		}
		data, line = rest, line+next
	}
}

// cutDocumentByLines is cutDocument by a walk over every line of the
// text: the browser build's cutDocument, and the other one's oracle in
// TestCutDocumentMatchesLines.
func cutDocumentByLines(data []byte) (doc, rest []byte, lines int) {
	off := 0
	for off < len(data) {
		end := bytes.IndexByte(data[off:], '\n')
		lineEnd := len(data)
		if end >= 0 {
			lineEnd = off + end
		}
		lines++
		if string(bytes.TrimRight(data[off:lineEnd], " \r")) == "---" {
			if lineEnd == len(data) {
				return data[:off], []byte{}, lines
			}
			return data[:off], data[lineEnd+1:], lines
		}
		if end < 0 {
			break
		}
		off = lineEnd + 1
	}
	return data, nil, lines
}
