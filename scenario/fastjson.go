package scenario

import (
	"encoding/json"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// fastJSON reads what `kubectl get -o json` prints into the trees yaml.v3
// would build from the same text (JSON is YAML), with each node's line and
// column (in bytes). It scans the bytes itself, several times faster than
// yaml.v3 and than encoding/json's tokens, and a List's items go to onItem
// one at a time, each entry's nodes reusing the memory of the one before,
// so one object's tree is alive at a time. Anything it is not sure of
// (a syntax error, invalid UTF-8, nesting deeper than encoding/json
// allows) makes it give up; the caller then reads the text with yaml.v3,
// which reports the error on its line.
type fastJSON struct {
	data []byte
	pos  int
	// line is the line of pos, which starts at offset lineStart.
	line, lineStart int
	// nodes allocates the nodes and shares the short strings, as for
	// fastYAML.
	nodes *fastYAML
	// direct, when set, is tried first on each entry that would go to
	// onItem: it reads the entry straight into an object
	// (dumpdirect_json.go); when it does not take it, the entry is read
	// again as a tree.
	direct func(depth int) bool
}

// maxJSONDepth is encoding/json's nesting limit.
const maxJSONDepth = 10000

// fastJSONDocuments reads each top-level JSON value of data as a document.
// The entries of a top-level object's "items" array, or of a top-level
// array, go to onItem, which must not keep their nodes once it returns;
// onDoc gets the rest of the document. It reports false when data is not
// JSON, or not all of it, or when onDoc reports false. data must be
// plainText.
//
// direct, when not nil, is offered each such entry first (fastJSON.direct).
//
// onArray, when not nil, is told when a top-level array's entries start
// (in) and end: their paths are not a List's.
func fastJSONDocuments(data []byte, onItem func(doc int, n *yaml.Node) bool, onDoc func(doc int, root *yaml.Node) bool, direct func(doc int, j *fastJSON, depth int) bool, onArray func(doc int, in bool)) bool {
	j := &fastJSON{data: data, line: 1, nodes: &fastYAML{strs: map[string]string{}}}
	for doc := 0; ; doc++ {
		j.ws()
		if j.pos == len(data) {
			return true
		}
		item := func(n *yaml.Node) { onItem(doc, n) }
		if direct != nil {
			j.direct = func(depth int) bool { return direct(doc, j, depth) }
		}
		var root *yaml.Node
		ok := true
		switch data[j.pos] {
		case '{':
			root, ok = j.object(0, item)
		case '[':
			// A list of manifests: each entry is an item.
			if onArray != nil {
				onArray(doc, true)
			}
			if _, ok = j.array(0, item); !ok {
				return false
			}
			if onArray != nil {
				onArray(doc, false)
			}
			if !j.docEnd() {
				return false
			}
			continue
		default:
			root, ok = j.value(0)
		}
		if !ok || !j.docEnd() {
			return false
		}
		if !onDoc(doc, root) {
			return false
		}
	}
}

// docEnd reports whether a document may end here: at the end of the text
// or where another value begins.
func (j *fastJSON) docEnd() bool {
	j.ws()
	if j.pos == len(j.data) {
		return true
	}
	switch j.data[j.pos] {
	case '{', '[', '"':
		return true
	}
	return false
}

// ws skips whitespace, counting lines.
func (j *fastJSON) ws() {
	for j.pos < len(j.data) {
		switch j.data[j.pos] {
		case ' ', '\t', '\r':
			j.pos++
		case '\n':
			j.pos++
			j.line, j.lineStart = j.line+1, j.pos
		default:
			return
		}
	}
}

// node returns n, placed at pos.
func (j *fastJSON) node(n yaml.Node) *yaml.Node {
	n.Line, n.Column = j.line, j.pos-j.lineStart+1
	return j.nodes.node(n)
}

func (j *fastJSON) value(depth int) (*yaml.Node, bool) {
	j.ws()
	if j.pos == len(j.data) || depth > maxJSONDepth {
		return nil, false
	}
	switch c := j.data[j.pos]; {
	case c == '{':
		return j.object(depth, nil)
	case c == '[':
		return j.array(depth, nil)
	case c == '"':
		n := j.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle})
		s, ok := j.str()
		n.Value = s
		return n, ok
	case c == '-' || c >= '0' && c <= '9':
		n := j.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int"})
		s, float, ok := j.number()
		n.Value = s
		if float {
			n.Tag = "!!float"
		}
		return n, ok
	}
	for _, lit := range [...]struct{ text, tag string }{{"true", "!!bool"}, {"false", "!!bool"}, {"null", "!!null"}} {
		if len(j.data)-j.pos >= len(lit.text) && string(j.data[j.pos:j.pos+len(lit.text)]) == lit.text {
			n := j.node(yaml.Node{Kind: yaml.ScalarNode, Tag: lit.tag, Value: lit.text})
			j.pos += len(lit.text)
			return n, true
		}
	}
	return nil, false
}

// object reads an object at pos. With onItem (the top level), the entries
// of an "items" array go there one by one and the array stays empty in
// the tree.
func (j *fastJSON) object(depth int, onItem func(*yaml.Node)) (*yaml.Node, bool) {
	n := j.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle})
	j.pos++ // {
	j.ws()
	if j.pos < len(j.data) && j.data[j.pos] == '}' {
		j.pos++
		return n, true
	}
	for {
		j.ws()
		if j.pos == len(j.data) || j.data[j.pos] != '"' {
			return nil, false
		}
		k := j.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle})
		key, ok := j.str()
		if !ok {
			return nil, false
		}
		k.Value = key
		j.ws()
		if j.pos == len(j.data) || j.data[j.pos] != ':' {
			return nil, false
		}
		j.pos++
		j.ws()
		var v *yaml.Node
		if onItem != nil && key == "items" && j.pos < len(j.data) && j.data[j.pos] == '[' {
			v, ok = j.array(depth+1, onItem)
		} else {
			v, ok = j.value(depth + 1)
		}
		if !ok {
			return nil, false
		}
		n.Content = append(n.Content, k, v)
		more, ok := j.next('}')
		if !ok {
			return nil, false
		}
		if !more {
			return n, true
		}
	}
}

// next reads what follows a member of an object or an entry of an array:
// a comma (more follow) or the closing byte (the last one was read).
func (j *fastJSON) next(closing byte) (more, ok bool) {
	j.ws()
	if j.pos == len(j.data) {
		return false, false
	}
	switch j.data[j.pos] {
	case ',':
		j.pos++
		return true, true
	case closing:
		j.pos++
		return false, true
	}
	return false, false
}

// array reads an array at pos; with onItem, its entries go there instead
// of into the tree, each on memory of its own that the next entry reuses.
func (j *fastJSON) array(depth int, onItem func(*yaml.Node)) (*yaml.Node, bool) {
	n := j.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle})
	j.pos++ // [
	j.ws()
	if j.pos < len(j.data) && j.data[j.pos] == ']' {
		j.pos++
		return n, true
	}
	for {
		if onItem != nil && j.direct != nil && j.directEntry(depth+1) {
			// taken
		} else if onItem != nil {
			mark := j.nodes.startEntry()
			v, ok := j.value(depth + 1)
			if !ok {
				return nil, false
			}
			onItem(v)
			j.nodes.endEntry(mark)
		} else {
			v, ok := j.value(depth + 1)
			if !ok {
				return nil, false
			}
			n.Content = append(n.Content, v)
		}
		more, ok := j.next(']')
		if !ok {
			return nil, false
		}
		if !more {
			return n, true
		}
	}
}

// directEntry offers the entry at pos to direct, and puts pos back when
// direct does not take it.
func (j *fastJSON) directEntry(depth int) bool {
	j.ws()
	pos, line, lineStart := j.pos, j.line, j.lineStart
	j.nodes.nth = 0 // str and box count an entry's strings from its start
	if j.direct(depth) {
		return true
	}
	j.pos, j.line, j.lineStart = pos, line, lineStart
	return false
}

// str reads a string at pos: its bytes when it has no escapes, else what
// encoding/json decodes.
func (j *fastJSON) str() (string, bool) {
	start := j.pos
	escaped := false
	for i := start + 1; i < len(j.data); i++ {
		switch c := j.data[i]; {
		case c == '\\':
			escaped = true
			i++
		case c < 0x20:
			return "", false
		case c == '"':
			j.pos = i + 1
			inner := j.data[start+1 : i]
			if !escaped && utf8.Valid(inner) {
				return j.nodes.str(inner), true
			}
			var s string
			if err := json.Unmarshal(j.data[start:i+1], &s); err != nil {
				return "", false
			}
			return s, true
		}
	}
	return "", false
}

// number reads a number at pos as JSON writes it, and whether it has a
// fraction or an exponent.
func (j *fastJSON) number() (string, bool, bool) {
	d, start := j.data, j.pos
	p := start
	digits := func() bool {
		from := p
		for p < len(d) && d[p] >= '0' && d[p] <= '9' {
			p++
		}
		return p > from
	}
	if p < len(d) && d[p] == '-' {
		p++
	}
	switch {
	case p < len(d) && d[p] == '0':
		p++
	case !digits():
		return "", false, false
	}
	float := false
	if p < len(d) && d[p] == '.' {
		p++
		if !digits() {
			return "", false, false
		}
		float = true
	}
	if p < len(d) && (d[p] == 'e' || d[p] == 'E') {
		p++
		if p < len(d) && (d[p] == '+' || d[p] == '-') {
			p++
		}
		if !digits() {
			return "", false, false
		}
		float = true
	}
	j.pos = p
	return j.nodes.str(d[start:p]), float, true
}
