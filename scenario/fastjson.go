package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fastJSON reads what `kubectl get -o json` prints into the trees yaml.v3
// would build from the same text (JSON is YAML), with each node's line and
// column, through encoding/json's tokenizer: several times faster than
// yaml.v3, and a List's items go to onItem one at a time, so one object's
// tree is alive at a time. Any JSON error makes it give up; the caller
// then reads the text with yaml.v3, which reports the error on its line.
type fastJSON struct {
	data  []byte
	dec   *json.Decoder
	lines []int // offsets where lines start
}

// fastJSONDocuments reads each top-level JSON value of data as a document.
// The entries of a top-level object's "items" array, or of a top-level
// array, go to onItem; onDoc gets the rest of the document. It reports
// false when data is not JSON, or not all of it.
func fastJSONDocuments(data []byte, onItem func(doc int, n *yaml.Node) bool, onDoc func(doc int, root *yaml.Node) bool) bool {
	f := &fastJSON{data: data, dec: json.NewDecoder(bytes.NewReader(data)), lines: []int{0}}
	f.dec.UseNumber()
	for i, c := range data {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	for doc := 0; ; doc++ {
		start := f.start()
		tok, err := f.dec.Token()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
		var root *yaml.Node
		switch tok {
		case json.Delim('{'):
			root, err = f.object(start, func(key string) bool { return key == "items" }, func(n *yaml.Node) bool { return onItem(doc, n) })
		case json.Delim('['):
			// A list of manifests: each entry is an item.
			_, err = f.array(start, func(n *yaml.Node) bool { return onItem(doc, n) })
			if err == nil {
				continue
			}
		default:
			root, err = f.scalar(tok, start)
		}
		if err != nil {
			return false
		}
		if !onDoc(doc, root) {
			return true
		}
	}
}

var errNotJSON = errors.New("not JSON")

// start is the offset of the next token: the decoder's offset is the end
// of the last one.
func (f *fastJSON) start() int {
	p := int(f.dec.InputOffset())
	for p < len(f.data) && strings.IndexByte(" \t\r\n,:", f.data[p]) >= 0 {
		p++
	}
	return p
}

func (f *fastJSON) at(n *yaml.Node, off int) *yaml.Node {
	l := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	n.Line, n.Column = l+1, off-f.lines[l]+1
	return n
}

func (f *fastJSON) value() (*yaml.Node, error) {
	start := f.start()
	tok, err := f.dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		return f.object(start, nil, nil)
	case json.Delim('['):
		return f.array(start, nil)
	}
	return f.scalar(tok, start)
}

// object reads the rest of an object whose '{' was at start. The value of
// a key that stream accepts, when it is an array, goes entry by entry to
// onItem and stays empty in the tree.
func (f *fastJSON) object(start int, stream func(string) bool, onItem func(*yaml.Node) bool) (*yaml.Node, error) {
	n := f.at(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}, start)
	for f.dec.More() {
		kstart := f.start()
		tok, err := f.dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errNotJSON
		}
		k := f.at(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: key}, kstart)
		var v *yaml.Node
		if stream != nil && stream(key) {
			vstart := f.start()
			if vstart < len(f.data) && f.data[vstart] == '[' {
				if _, err := f.dec.Token(); err != nil {
					return nil, err
				}
				if v, err = f.array(vstart, onItem); err != nil {
					return nil, err
				}
				n.Content = append(n.Content, k, v)
				continue
			}
		}
		if v, err = f.value(); err != nil {
			return nil, err
		}
		n.Content = append(n.Content, k, v)
	}
	if _, err := f.dec.Token(); err != nil { // '}'
		return nil, err
	}
	return n, nil
}

// array reads the rest of an array whose '[' was at start; with onItem,
// its entries go there instead of into the tree.
func (f *fastJSON) array(start int, onItem func(*yaml.Node) bool) (*yaml.Node, error) {
	n := f.at(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}, start)
	for f.dec.More() {
		v, err := f.value()
		if err != nil {
			return nil, err
		}
		if onItem != nil {
			onItem(v)
			continue
		}
		n.Content = append(n.Content, v)
	}
	if _, err := f.dec.Token(); err != nil { // ']'
		return nil, err
	}
	return n, nil
}

func (f *fastJSON) scalar(tok json.Token, start int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.ScalarNode}
	switch v := tok.(type) {
	case string:
		n.Tag, n.Style, n.Value = "!!str", yaml.DoubleQuotedStyle, v
	case json.Number:
		n.Value = string(v)
		n.Tag = "!!float"
		if !strings.ContainsAny(n.Value, ".eE") {
			n.Tag = "!!int"
		}
	case bool:
		n.Tag, n.Value = "!!bool", "false"
		if v {
			n.Value = "true"
		}
	case nil:
		n.Tag, n.Value = "!!null", "null"
	default:
		return nil, errNotJSON
	}
	return f.at(n, start), nil
}
