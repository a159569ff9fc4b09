// Package objtable is a table of API objects by group, kind, namespace and
// name, laid out for large worlds.
//
// It keeps two levels: a scope (group, kind and namespace; a world has a
// handful) and, in each, a map by name. A lookup hashes and compares one
// name instead of four strings, and each scope's map holds small slots
// (docs/BENCHMARKS.md has what one map keyed by all four cost). The scope
// last written is remembered, since work comes in runs
// over one scope; reads use it but never change it, so concurrent readers
// are as safe as with a Go map.
package objtable

import (
	"iter"
	"maps"
)

// Scope is where names are unique: a group and kind, and a namespace
// ("" for cluster-scoped kinds).
type Scope struct{ Group, Kind, Namespace string }

// Key is a Scope and a name.
type Key struct {
	Scope
	Name string
}

// Table maps keys to values. The zero Table is empty and ready to use. A
// Table holds maps: a copy of the struct shares them, as a copied Go map
// does; Clone makes an independent one.
type Table[V any] struct {
	scopes map[Scope]map[string]V
	// lastScope and last are the scope last written and its map.
	lastScope Scope
	last      map[string]V
}

// scope returns the map of s, nil if it has none; write creates it and
// remembers it.
func (t *Table[V]) scope(s Scope, write bool) map[string]V {
	if t.last != nil && s == t.lastScope {
		return t.last
	}
	m := t.scopes[s]
	if !write {
		return m
	}
	if m == nil {
		if t.scopes == nil {
			t.scopes = map[Scope]map[string]V{}
		}
		m = map[string]V{}
		t.scopes[s] = m
	}
	t.lastScope, t.last = s, m
	return m
}

// Grow makes room in scope s for n more entries, so that filling a
// large scope (a world restored from a dump) does not rehash its map as
// it doubles.
func (t *Table[V]) Grow(s Scope, n int) {
	if n <= 0 {
		return
	}
	old := t.scopes[s]
	m := make(map[string]V, len(old)+n)
	for name, v := range old {
		m[name] = v
	}
	if t.scopes == nil {
		t.scopes = map[Scope]map[string]V{}
	}
	t.scopes[s] = m
	if t.last != nil && t.lastScope == s {
		t.last = m
	}
}

// Get returns the value at k.
func (t *Table[V]) Get(k Key) (V, bool) {
	v, ok := t.scope(k.Scope, false)[k.Name]
	return v, ok
}

// Set sets the value at k.
func (t *Table[V]) Set(k Key, v V) {
	t.scope(k.Scope, true)[k.Name] = v
}

// Delete removes the value at k, if any.
func (t *Table[V]) Delete(k Key) {
	if m := t.scope(k.Scope, false); m != nil {
		delete(m, k.Name)
		t.lastScope, t.last = k.Scope, m
	}
}

// LenWhere returns the number of entries in the scopes keep accepts,
// without visiting the entries.
func (t *Table[V]) LenWhere(keep func(Scope) bool) int {
	n := 0
	for s, m := range t.scopes {
		if keep(s) {
			n += len(m)
		}
	}
	return n
}

// Len returns the number of entries. (Counting them as they come and go
// would cost Set a second map access: it could not tell an update from an
// insert otherwise.)
func (t *Table[V]) Len() int {
	n := 0
	for _, m := range t.scopes {
		n += len(m)
	}
	return n
}

// All yields every entry, in no particular order.
func (t *Table[V]) All() iter.Seq2[Key, V] {
	return t.Where(func(Scope) bool { return true })
}

// Where yields the entries of the scopes keep accepts, in no particular
// order.
func (t *Table[V]) Where(keep func(Scope) bool) iter.Seq2[Key, V] {
	return func(yield func(Key, V) bool) {
		for s, m := range t.scopes {
			if !keep(s) {
				continue
			}
			for name, v := range m {
				if !yield(Key{s, name}, v) {
					return
				}
			}
		}
	}
}

// Clone returns a copy sharing the values.
func (t *Table[V]) Clone() Table[V] {
	c := Table[V]{scopes: make(map[Scope]map[string]V, len(t.scopes))}
	for s, m := range t.scopes {
		c.scopes[s] = maps.Clone(m) // its tables copied: no insert
	}
	return c
}

// Scopes returns the scopes that have held an entry, in no particular
// order.
func (t *Table[V]) Scopes() []Scope {
	out := make([]Scope, 0, len(t.scopes))
	for s := range t.scopes {
		out = append(out, s)
	}
	return out
}

// In yields the names and values of one scope, in no particular order.
func (t *Table[V]) In(s Scope) iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for name, v := range t.scopes[s] {
			if !yield(name, v) {
				return
			}
		}
	}
}
