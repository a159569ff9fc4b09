package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Limits that keep a hostile file (alias bombs, self-referencing anchors,
// deep nesting) from using unbounded time, memory or stack. They measure
// what aliases add, not the file's size: a document without aliases has
// fewer nodes than bytes, so the walk may visit as many nodes as the file
// has bytes, and maxAliasExpansion more; a file of 100,000 objects needs
// no more than its size.
const (
	maxAliasExpansion = 1 << 17
	maxDepth          = 200
)

// parser holds the state of one Parse call: the file name for messages,
// the errors found so far, and the node budget.
type parser struct {
	file   string
	errs   ErrorList
	visits int
	// budget is how many node visits the walk may make: the file's size
	// plus maxAliasExpansion.
	budget int
	// jsonNumbers makes value() give every number as a float64, as
	// encoding/json decodes into any (for an object's fields).
	jsonNumbers bool
	// dump is set while reading a cluster dump (ParseDump).
	dump bool
	// exhausted is set once the node budget ran out, so the error is
	// reported only once.
	exhausted bool
	// pairStack holds the entries of the mappings value() is inside.
	pairStack []pair
}

func (p *parser) errorf(n *yaml.Node, path, format string, args ...any) {
	if p.exhausted {
		return // what follows a truncated walk would only mislead
	}
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Path: path, Message: fmt.Sprintf(format, args...), column: col})
}

// visit counts one node against the budget and reports whether the walk
// may go on.
func (p *parser) visit(n *yaml.Node, depth int) bool {
	if p.exhausted {
		return false
	}
	p.visits++
	switch {
	case depth > maxDepth:
		p.errorf(n, "", "the document is nested more than %d levels deep once aliases are expanded", maxDepth)
	case p.visits > p.budget:
		p.errorf(n, "", "aliases expand the document past %d nodes, %d more than a file of this size holds without them", p.budget, maxAliasExpansion)
	default:
		return true
	}
	p.exhausted = true
	return false
}

// deref follows aliases.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// kindName names a node's type for messages.
func kindName(n *yaml.Node) string {
	n = deref(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return n.Value
	}
	return "an unsupported YAML node"
}

// pair is one key/value entry of a mapping.
type pair struct {
	Key   string
	KeyN  *yaml.Node
	Value *yaml.Node
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge"
}

// pairs returns the entries of a mapping node in file order, with YAML
// merge keys (<<) expanded: explicit keys first, then merged ones not
// already present. Duplicate and non-scalar keys are reported.
func (p *parser) pairs(n *yaml.Node, path string, depth int) []pair {
	return p.appendPairs(nil, n, path, depth)
}

// appendPairs is pairs appending to out.
func (p *parser) appendPairs(out []pair, n *yaml.Node, path string, depth int) []pair {
	n = deref(n)
	if !p.visit(n, depth) {
		return out
	}
	base := len(out)
	if out == nil {
		out = make([]pair, 0, len(n.Content)/2)
	}
	// Duplicates are found by a scan of what came before in a small
	// mapping, by a map in a large one: most mappings of a manifest have
	// a few keys, and a map each was a third of the allocations.
	var seenMap map[string]bool
	if len(n.Content) > 32 {
		seenMap = map[string]bool{}
	}
	seenKey := func(k string) bool {
		if seenMap != nil {
			return seenMap[k]
		}
		for _, e := range out[base:] {
			if e.Key == k {
				return true
			}
		}
		return false
	}
	var merged []pair
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), n.Content[i+1]
		if k == nil {
			continue
		}
		if isMergeKey(k) {
			merged = append(merged, p.mergeSources(v, path, depth+1)...)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.errorf(k, path, "keys must be strings, found %s", kindName(k))
			continue
		}
		if seenKey(k.Value) {
			p.errorf(k, path, "duplicate key %q", k.Value)
			continue
		}
		if seenMap != nil {
			seenMap[k.Value] = true
		}
		out = append(out, pair{Key: k.Value, KeyN: k, Value: v})
	}
	for _, m := range merged {
		if !seenKey(m.Key) {
			if seenMap != nil {
				seenMap[m.Key] = true
			}
			out = append(out, m)
		}
	}
	return out
}

func (p *parser) mergeSources(v *yaml.Node, path string, depth int) []pair {
	v = deref(v)
	if v == nil {
		return nil
	}
	switch v.Kind {
	case yaml.MappingNode:
		return p.pairs(v, path, depth)
	case yaml.SequenceNode:
		var out []pair
		for _, e := range v.Content {
			if e = deref(e); e != nil && e.Kind == yaml.MappingNode {
				out = append(out, p.pairs(e, path, depth)...)
			} else {
				p.errorf(e, path, "a merge key (<<) takes a mapping or a list of mappings")
			}
		}
		return out
	}
	p.errorf(v, path, "a merge key (<<) takes a mapping or a list of mappings")
	return nil
}

// fields returns the entries of a mapping whose keys must all be among
// allowed, reporting the others (with a suggestion) and dropping them.
// It reports a node that is not a mapping and returns ok=false.
func (p *parser) fields(n *yaml.Node, path string, allowed []string) (map[string]pair, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		p.errorf(n, path, "expected a mapping, found %s", kindName(n))
		return nil, false
	}
	out := map[string]pair{}
	for _, e := range p.pairs(n, path, 0) {
		if !slices.Contains(allowed, e.Key) {
			p.errorf(e.KeyN, path, "unknown key %q%s", e.Key, suggest(e.Key, allowed))
			continue
		}
		out[e.Key] = e
	}
	return out, true
}

// isNull reports whether n is absent or an explicit null.
func isNull(n *yaml.Node) bool {
	n = deref(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// str reads a string scalar.
func (p *parser) str(n *yaml.Node, path string) (string, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		p.errorf(n, path, "expected a string, found %s", kindName(n))
		return "", false
	}
	return n.Value, true
}

// strAt is str for the value of key under path: the path is built only
// when there is a problem to report.
func (p *parser) strAt(n *yaml.Node, path, key string) (string, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str" {
		return d.Value, true
	}
	return p.str(n, path+"."+key)
}

// booleanAt is boolean for the value of key under path, as strAt.
func (p *parser) booleanAt(n *yaml.Node, path, key string) (bool, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode && d.ShortTag() == "!!bool" {
		switch d.Value {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return p.boolean(n, path+"."+key)
}

// boolean reads a boolean scalar.
func (p *parser) boolean(n *yaml.Node, path string) (bool, bool) {
	n = deref(n)
	if n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool" {
		switch n.Value { // what Decode gives, without a decoder for each
		case "true":
			return true, true
		case "false":
			return false, true
		}
		var b bool
		if err := n.Decode(&b); err == nil {
			return b, true
		}
	}
	p.errorf(n, path, "expected true or false, found %s", kindName(n))
	return false, false
}

// integer reads an integer scalar.
func (p *parser) integer(n *yaml.Node, path string) (int64, bool) {
	n = deref(n)
	if n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int" {
		if v := n.Value; len(v) < 19 && allDigits(v) && (v[0] != '0' || len(v) == 1) {
			i, _ := strconv.ParseInt(v, 10, 64) // what Decode gives, without a decoder
			return i, true
		}
		var i int64
		if err := n.Decode(&i); err == nil {
			return i, true
		}
		p.errorf(n, path, "integer %s is out of range", n.Value)
		return 0, false
	}
	p.errorf(n, path, "expected an integer, found %s", kindName(n))
	return 0, false
}

// strList reads a list of strings, returning each with its node.
func (p *parser) strList(n *yaml.Node, path string) ([]string, []*yaml.Node, bool) {
	n = deref(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		p.errorf(n, path, "expected a list, found %s", kindName(n))
		return nil, nil, false
	}
	var out []string
	var nodes []*yaml.Node
	ok := true
	for i, e := range n.Content {
		s, good := p.str(e, indexPath(path, i))
		if !good {
			ok = false
			continue
		}
		out = append(out, s)
		nodes = append(nodes, deref(e))
	}
	return out, nodes, ok
}

// value converts a node to the value encoding/json would decode from the
// same document: map[string]any, []any, string, float64/int64, bool, nil.
func (p *parser) value(n *yaml.Node, path string, depth int) (any, bool) {
	n = deref(n)
	if n == nil {
		return nil, true
	}
	if !p.visit(n, depth) {
		return nil, false
	}
	switch n.Kind {
	case yaml.MappingNode:
		// The entries go on a stack that the nested mappings share, not
		// in a slice of their own (a tenth of what a dump's reading
		// allocated).
		mark := len(p.pairStack)
		p.pairStack = p.appendPairs(p.pairStack, n, path, depth)
		m := make(map[string]any, len(p.pairStack)-mark)
		ok := true
		for _, e := range p.pairStack[mark:len(p.pairStack):len(p.pairStack)] {
			v, good := p.entry(e.Value, path, e.Key, -1, depth+1)
			ok = ok && good
			m[e.Key] = v
		}
		clear(p.pairStack[mark:])
		p.pairStack = p.pairStack[:mark]
		return m, ok
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		ok := true
		for i, e := range n.Content {
			v, good := p.entry(e, path, "", i, depth+1)
			ok = ok && good
			l = append(l, v)
		}
		return l, ok
	case yaml.ScalarNode:
		return p.scalar(n, path)
	}
	p.errorf(n, path, "unsupported YAML node")
	return nil, false
}

// entry is value for a mapping's value under key, or a list's entry at
// index (key ""): its path is built only when a message may need it, not
// for the scalars that read without a problem (most of a dump's nodes).
func (p *parser) entry(n *yaml.Node, path, key string, index, depth int) (any, bool) {
	if d := deref(n); d != nil && d.Kind == yaml.ScalarNode {
		if !p.visit(d, depth) {
			return nil, false
		}
		if v, ok := p.plainScalar(d); ok {
			return v, true
		}
		n = d
	}
	if key == "" {
		path = indexPath(path, index)
	} else {
		path = joinPath(path, key)
	}
	if n != nil && n.Kind == yaml.ScalarNode {
		return p.scalar(n, path) // visited above
	}
	return p.value(n, path, depth)
}

// plainScalar is scalar for the values that cannot be wrong: null, true,
// false, a decimal integer, a string.
func (p *parser) plainScalar(n *yaml.Node) (any, bool) {
	switch n.ShortTag() {
	case "!!null":
		return nil, true
	case "!!bool":
		switch n.Value {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			if p.jsonNumbers {
				return float64(i), true
			}
			return i, true
		}
	case "!!str", "!!timestamp", "!!binary":
		return n.Value, true
	}
	return nil, false
}

func (p *parser) scalar(n *yaml.Node, path string) (any, bool) {
	switch n.ShortTag() {
	case "!!null":
		return nil, true
	case "!!bool":
		switch n.Value {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		var b bool
		if err := n.Decode(&b); err != nil {
			p.errorf(n, path, "invalid boolean %q", n.Value)
			return nil, false
		}
		return b, true
	case "!!int":
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			if p.jsonNumbers {
				return float64(i), true
			}
			return i, true
		}
		var i int64
		if err := n.Decode(&i); err == nil {
			if p.jsonNumbers {
				return float64(i), true
			}
			return i, true
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil {
			p.errorf(n, path, "invalid integer %q", n.Value)
			return nil, false
		}
		return f, true
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			p.errorf(n, path, "%q is not a number JSON can hold", n.Value)
			return nil, false
		}
		return f, true
	case "!!str", "!!timestamp", "!!binary":
		// Timestamps stay strings, as they do in JSON.
		return n.Value, true
	}
	p.errorf(n, path, "unsupported YAML tag %s", n.Tag)
	return nil, false
}

// indexPath is path[i], the path of a list's entry.
func indexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
