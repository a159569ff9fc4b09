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
	for i, e := range f.list {
		if e.Name >= name {
			return i, e.Name == name
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
		return f.list[i].Value, true
	}
	return nil, false
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
			if !yield(e.Name, e.Value) {
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
		m[e.Name] = e.Value
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
