package fakeapi

import (
	"encoding/json"
	"iter"
	"slices"
	"strings"
)

// Fields are an object's top-level fields other than apiVersion, kind and
// metadata (spec, status, data, ...), each a value as decoded from JSON
// (map[string]any, []any, string, float64, bool, nil). They are read
// like a map (Get, Lookup, All) and kept as a short list sorted by name:
// an object has a few of them, and a Go map of up to eight entries takes
// a whole group of eight slots however few it holds, which for a large
// dump's Pods was much of the settled world's memory (docs/BENCHMARKS.md,
// "Fifteenth session: the peak").
//
// Like a map, Fields copied share their entries: Set of a name they have
// changes every copy; Set of a new name and Delete make a list of their
// own. Stored objects are never changed (a write makes a new object).
//
// A field's value may be held packed (PackMap): a map kept as a list of
// its entries sorted by key, as the fields themselves are. A dump's
// objects each have a map of their own (a Pod's status, whose podIP and
// times differ from every other Pod's), and a Go map of a few entries
// takes a whole group of eight slots. Fields never hand a packed value
// out: Get, Lookup, All and Map give it as a new map[string]any of the
// same entries, and Nested reads into it without making one, so every
// reader sees the value as decoded from JSON.
type Fields struct {
	list []Field
}

// Field is one top-level field.
type Field struct {
	Name  string
	Value any
}

// FieldsOf returns the fields of m.
func FieldsOf(m map[string]any) Fields {
	if len(m) == 0 {
		return Fields{}
	}
	list := make([]Field, 0, len(m))
	for k, v := range m {
		list = append(list, Field{k, v})
	}
	slices.SortFunc(list, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	return Fields{list}
}

func (f Fields) find(name string) (int, bool) {
	// Names are unique: a name is found by equality, which compares
	// lengths first and calls no ordered comparison (a Pod's fields are
	// read several times at each step of a large delete); only an absent
	// name needs its place in the order.
	for i, e := range f.list {
		if e.Name == name {
			return i, true
		}
	}
	for i, e := range f.list {
		if e.Name > name {
			return i, false
		}
	}
	return len(f.list), false
}

// Get returns the field's value, nil when there is none.
func (f Fields) Get(name string) any {
	v, _ := f.Lookup(name)
	return v
}

// Lookup returns the field's value and whether there is one.
func (f Fields) Lookup(name string) (any, bool) {
	if i, ok := f.find(name); ok {
		return unpacked(f.list[i].Value), true
	}
	return nil, false
}

// Nested returns the value at path (a field's name, then keys of the maps
// inside it) and whether there is one, as reading each level's
// map[string]any would; a packed map on the way is read in place.
// Nested() is f itself.
func (f Fields) Nested(path ...string) (any, bool) {
	if len(path) == 0 {
		return f, true
	}
	i, ok := f.find(path[0])
	if !ok {
		return nil, false
	}
	v := f.list[i].Value
	for _, k := range path[1:] {
		switch m := v.(type) {
		case map[string]any:
			v, ok = m[k]
		case *packedMap:
			v, ok = m.lookup(k)
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return unpacked(v), true
}

// Set sets the field's value.
func (f *Fields) Set(name string, v any) {
	i, ok := f.find(name)
	if ok {
		f.list[i].Value = v
		return
	}
	list := make([]Field, len(f.list)+1)
	copy(list, f.list[:i])
	list[i] = Field{name, v}
	copy(list[i+1:], f.list[i:])
	f.list = list
}

// Delete removes the field, if there is one.
func (f *Fields) Delete(name string) {
	i, ok := f.find(name)
	if !ok {
		return
	}
	if len(f.list) == 1 {
		f.list = nil
		return
	}
	list := make([]Field, 0, len(f.list)-1)
	list = append(list, f.list[:i]...)
	f.list = append(list, f.list[i+1:]...)
}

// Len is the number of fields.
func (f Fields) Len() int { return len(f.list) }

// All yields the fields in the order of their names.
func (f Fields) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, e := range f.list {
			if !yield(e.Name, unpacked(e.Value)) {
				return
			}
		}
	}
}

// Map returns the fields as a new map; nil when there are none.
func (f Fields) Map() map[string]any {
	if len(f.list) == 0 {
		return nil
	}
	m := make(map[string]any, len(f.list))
	for _, e := range f.list {
		m[e.Name] = unpacked(e.Value)
	}
	return m
}

// Same reports whether f and g are the same fields, not copies: set from
// the same list.
func (f Fields) Same(g Fields) bool {
	return len(f.list) == len(g.list) && (len(f.list) == 0 || &f.list[0] == &g.list[0])
}

// MarshalJSON writes the fields as one JSON object.
func (f Fields) MarshalJSON() ([]byte, error) { return json.Marshal(f.Map()) }

// MarshalYAML writes the fields as one mapping.
func (f Fields) MarshalYAML() (any, error) { return f.Map(), nil }

// Clone returns a copy of f with a list of its own (the values shared).
func (f Fields) Clone() Fields {
	if len(f.list) == 0 {
		return Fields{}
	}
	return Fields{slices.Clone(f.list)}
}

// packedMap is a map held packed (PackMap): its entries sorted by key.
type packedMap struct {
	list []Field
}

// PackMap returns the map of entries in the packed form an object's field
// may hold (Fields), for Set and nothing else: only Fields read it. It
// keeps entries, sorted by key, and the caller must not use them again.
// It reports false when two entries have one key. A map of up to eight
// entries takes a group of eight slots; packed, it takes one an entry.
func PackMap(entries []Field) (any, bool) {
	list := entries
	for i := range list {
		list[i].Value = unpacked(list[i].Value) // packed only at the top
	}
	slices.SortFunc(list, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(list); i++ {
		if list[i].Name == list[i-1].Name {
			return nil, false
		}
	}
	return &packedMap{list}, true
}

func (p *packedMap) lookup(key string) (any, bool) {
	for _, e := range p.list { // keys are unique: found by equality (see find)
		if e.Name == key {
			return e.Value, true
		}
	}
	return nil, false
}

// unpacked returns v, a packed map as a new map of its entries.
func unpacked(v any) any {
	p, ok := v.(*packedMap)
	if !ok {
		return v
	}
	m := make(map[string]any, len(p.list))
	for _, e := range p.list {
		m[e.Name] = e.Value
	}
	return m
}
