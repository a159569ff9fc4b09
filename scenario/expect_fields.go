package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

// FieldCheck is one object's entry of expect.fields: values inside it.
type FieldCheck struct {
	Ref    Ref
	Line   int
	Values []FieldValue
}

// FieldValue expects the value at one path inside an object.
type FieldValue struct {
	// Path is the path as written ("status.conditions[type=Ready].status").
	Path     string
	Segments []PathSegment
	// Want is the expected value as decoded from YAML, in JSON's types
	// (nil, bool, float64, string, []any, map[string]any).
	Want any
	Line int
}

// PathSegment is one field name of a path, with an optional list
// selector: name[N] (Index) or name[key=value] (Key, Value).
type PathSegment struct {
	Name string
	// Index is the list position of name[N]; -1 when there is none.
	Index int
	// Key and Value select the first element whose field Key, written as
	// YAML writes it, equals Value; Key is "" when there is no selector.
	Key, Value string
}

// ParseFieldPath reads a path of expect.fields: field names joined by
// ".", a "\." standing for a dot inside a name, and each name optionally
// followed by [N] or [key=value].
func ParseFieldPath(path string) ([]PathSegment, error) {
	if path == "" {
		return nil, fmt.Errorf("empty field path")
	}
	var segs []PathSegment
	var name strings.Builder
	seg := PathSegment{Index: -1}
	inBracket := false
	var bracket strings.Builder
	closed := false
	finish := func() error {
		if name.Len() == 0 {
			return fmt.Errorf("field path %q has an empty field name", path)
		}
		seg.Name = name.String()
		segs = append(segs, seg)
		name.Reset()
		seg = PathSegment{Index: -1}
		closed = false
		return nil
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case inBracket:
			if c != ']' {
				bracket.WriteByte(c)
				continue
			}
			inBracket = false
			closed = true
			sel := bracket.String()
			bracket.Reset()
			if k, v, ok := strings.Cut(sel, "="); ok {
				if k == "" {
					return nil, fmt.Errorf("field path %q: selector [%s] needs a field name before '='", path, sel)
				}
				seg.Key, seg.Value = k, v
			} else {
				n, err := strconv.Atoi(sel)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("field path %q: [%s] is neither a list index (0, 1, ...) nor a selector [key=value]", path, sel)
				}
				seg.Index = n
			}
		case c == '\\' && i+1 < len(path) && path[i+1] == '.':
			if closed {
				return nil, fmt.Errorf("field path %q: a '.' must follow ']'", path)
			}
			name.WriteByte('.')
			i++
		case c == '.':
			if err := finish(); err != nil {
				return nil, err
			}
		case c == '[':
			if closed {
				return nil, fmt.Errorf("field path %q: one [...] per field name", path)
			}
			if name.Len() == 0 {
				return nil, fmt.Errorf("field path %q: [ must follow a field name", path)
			}
			inBracket = true
		case closed:
			return nil, fmt.Errorf("field path %q: a '.' must follow ']'", path)
		default:
			name.WriteByte(c)
		}
	}
	if inBracket {
		return nil, fmt.Errorf("field path %q: unclosed [", path)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return segs, nil
}

// parseFields reads expect.fields: a mapping of object references to
// mappings of paths to expected values.
func (p *parser) parseFields(n *yaml.Node, path string, reg *fakeapi.Registry) []FieldCheck {
	var out []FieldCheck
	for _, kv := range p.refMap(n, path, reg) {
		v := deref(kv.value)
		if v == nil || v.Kind != yaml.MappingNode {
			p.errorf(v, kv.path, "expected a mapping of field paths to values, found %s", kindName(v))
			continue
		}
		fc := FieldCheck{Ref: kv.ref, Line: kv.line}
		for _, e := range p.pairs(v, kv.path, 1) {
			segs, err := ParseFieldPath(e.Key)
			if err != nil {
				p.errorf(e.KeyN, kv.path, "%v", err)
				continue
			}
			var want any
			if err := deref(e.Value).Decode(&want); err != nil {
				p.errorf(deref(e.Value), kv.path+"."+e.Key, "%v", err)
				continue
			}
			want, err = jsonValue(want)
			if err != nil {
				p.errorf(deref(e.Value), kv.path+"."+e.Key, "%v", err)
				continue
			}
			fc.Values = append(fc.Values, FieldValue{Path: e.Key, Segments: segs, Want: want, Line: e.KeyN.Line})
		}
		out = append(out, fc)
	}
	return out
}

// jsonValue turns a decoded YAML value into JSON's types: numbers become
// float64, mappings need string keys.
func jsonValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string, float64:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = j
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = j
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("mapping key %v is not a string", k)
			}
			j, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			out[ks] = j
		}
		return out, nil
	default:
		return nil, fmt.Errorf("value %v (%T) has no JSON form", v, v)
	}
}

// ObjectValue returns the value at segs inside o, read from the object's
// JSON form; ok is false when some field, index or selected element is
// missing.
func ObjectValue(o *fakeapi.Object, segs []PathSegment) (any, bool) {
	b, err := o.MarshalJSON()
	if err != nil {
		return nil, false
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, false
	}
	cur := doc
	for _, s := range segs {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[s.Name]; !ok {
			return nil, false
		}
		if s.Index < 0 && s.Key == "" {
			continue
		}
		l, ok := cur.([]any)
		if !ok {
			return nil, false
		}
		if s.Index >= 0 {
			if s.Index >= len(l) {
				return nil, false
			}
			cur = l[s.Index]
			continue
		}
		found := false
		for _, e := range l {
			if em, ok := e.(map[string]any); ok {
				if v, ok := em[s.Key]; ok && yamlScalar(v) == s.Value {
					cur, found = e, true
					break
				}
			}
		}
		if !found {
			return nil, false
		}
	}
	return cur, true
}

// yamlScalar writes a JSON value as YAML writes a plain scalar, for
// [key=value] selectors: 80, 2.5, true, null, or the string itself.
func yamlScalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return formatNumber(x)
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

func formatNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// isZeroValue reports whether v is one of the values Kubernetes may leave
// out of its JSON: null, 0, false, "", [] or {}.
func isZeroValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case float64:
		return x == 0
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// FieldValuesEqual compares an expected and a found value as expect.fields
// does: by value (2 and 2.0 are equal, "True" and true are not), and any
// two of missing, null, 0, false, "", [] and {} match, at any depth.
func FieldValuesEqual(want, got any) bool {
	if isZeroValue(want) && isZeroValue(got) {
		return true
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !FieldValuesEqual(v, g[k]) {
				return false
			}
		}
		for k, v := range g {
			if _, ok := w[k]; !ok && !isZeroValue(v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !FieldValuesEqual(w[i], g[i]) {
				return false
			}
		}
		return true
	default:
		return want == got
	}
}

// FormatFieldValue writes a value for a message: JSON, "missing" for a
// field that is not there.
func FormatFieldValue(v any, present bool) string {
	if !present {
		return "missing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// checkFields evaluates one object's expect.fields entry: one Check per
// path, keyed "fields.<path>".
func checkFields(v view, fc FieldCheck) []Check {
	o := lookup(v, fc.Ref)
	out := make([]Check, 0, len(fc.Values))
	for _, fv := range fc.Values {
		c := Check{Line: fv.Line, Key: "fields." + fv.Path, Subject: fc.Ref.String(), Expected: FormatFieldValue(fv.Want, true)}
		if o == nil {
			c.Found = "absent"
		} else {
			got, ok := ObjectValue(o, fv.Segments)
			c.Found = FormatFieldValue(got, ok)
			c.Passed = FieldValuesEqual(fv.Want, got)
		}
		out = append(out, c)
	}
	return out
}
