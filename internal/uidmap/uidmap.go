// Package uidmap is a map keyed by object UIDs that is fast for the UIDs
// gcplay's apiserver generates.
//
// The apiserver (fakeapi) gives new objects the UIDs "uid-0001",
// "uid-0002", ... in order. A Map keeps the entries of such UIDs in a slice
// indexed by their serial number, so a lookup parses a few digits and reads
// one slot instead of hashing the string and probing a table: in a world
// of 100,000 objects the table does not fit in the processor's caches, the
// slice read in creation order does. Any other UID (scenarios may give
// their own) lives in an ordinary map beside the slice.
package uidmap

import (
	"iter"
	"maps"
	"strconv"
)

// Prefix starts every generated UID.
const Prefix = "uid-"

// minDigits is the zero-padded width of a generated UID's serial.
const minDigits = 4

// Format returns the generated UID with serial n (n ≥ 0): "uid-0042".
func Format(n int) string {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	var buf [32]byte
	b := append(buf[:0], Prefix...)
	for range minDigits - len(d) {
		b = append(b, '0')
	}
	return string(append(b, d...))
}

// Serial returns n when uid is exactly Format(n). The test is strict, so
// that no two UIDs share a serial: "uid-042" and "uid-00042" are not
// generated UIDs.
func Serial(uid string) (int, bool) {
	if len(uid) < len(Prefix)+minDigits || uid[:len(Prefix)] != Prefix {
		return 0, false
	}
	digits := uid[len(Prefix):]
	if len(digits) > 9 || (len(digits) > minDigits && digits[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// denseSlack is how far past the slice's end a serial may be and still
// grow the slice: UIDs are generated in order, so the slice grows by one
// at a time; a far larger serial given by hand goes to the map instead of
// allocating the gap.
const denseSlack = 1 << 12

// Map maps UIDs to values. The zero Map is empty and ready to use. The
// order of All is unspecified, as a Go map's. A copy of the struct shares
// its storage, as a copied Go map does; Clone makes an independent one.
type Map[V any] struct {
	dense  []slot[V]
	sparse map[string]V
	n      int
}

type slot[V any] struct {
	uid string
	v   V
	ok  bool
}

// Len returns the number of entries.
func (m *Map[V]) Len() int { return m.n }

// Grow makes room for n more UIDs that are not generated ones (those
// live in the map; generated ones in the slice, which grows by itself).
func (m *Map[V]) Grow(n int) {
	if n <= 0 {
		return
	}
	sparse := make(map[string]V, len(m.sparse)+n)
	for uid, v := range m.sparse {
		sparse[uid] = v
	}
	m.sparse = sparse
}

// Get returns the value for uid.
func (m *Map[V]) Get(uid string) (V, bool) {
	if s, ok := Serial(uid); ok && s < len(m.dense) && m.dense[s].ok {
		return m.dense[s].v, true
	}
	if len(m.sparse) > 0 {
		v, ok := m.sparse[uid]
		return v, ok
	}
	var zero V
	return zero, false
}

// Has reports whether uid has an entry.
func (m *Map[V]) Has(uid string) bool {
	_, ok := m.Get(uid)
	return ok
}

// Set sets the value for uid.
func (m *Map[V]) Set(uid string, v V) {
	s, gen := Serial(uid)
	if gen && s < len(m.dense) && m.dense[s].ok {
		m.dense[s].v = v
		return
	}
	if !gen {
		// Any other UID lives in the map: one assignment, which tells an
		// insert from an update by the map's length (a dump's UUIDs are
		// all of this kind, and a second lookup in a map of 100,000 is a
		// cache miss).
		if m.sparse == nil {
			m.sparse = make(map[string]V)
		}
		n := len(m.sparse)
		m.sparse[uid] = v
		if len(m.sparse) > n {
			m.n++
		}
		return
	}
	// A UID that went to the map while the slice was shorter stays there.
	if _, ok := m.sparse[uid]; ok {
		m.sparse[uid] = v
		return
	}
	m.n++
	if gen && s < len(m.dense)+denseSlack {
		if s >= len(m.dense) {
			m.dense = append(m.dense, make([]slot[V], s+1-len(m.dense))...)
		}
		m.dense[s] = slot[V]{uid: uid, v: v, ok: true}
		return
	}
	if m.sparse == nil {
		m.sparse = make(map[string]V)
	}
	m.sparse[uid] = v
}

// Delete removes the entry for uid, if any.
func (m *Map[V]) Delete(uid string) {
	if s, ok := Serial(uid); ok && s < len(m.dense) && m.dense[s].ok {
		m.dense[s] = slot[V]{}
		m.n--
		return
	}
	if n := len(m.sparse); n > 0 {
		delete(m.sparse, uid)
		if len(m.sparse) < n {
			m.n--
		}
	}
}

// All yields every entry, in no particular order.
func (m *Map[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for i := range m.dense {
			if e := &m.dense[i]; e.ok && !yield(e.uid, e.v) {
				return
			}
		}
		for uid, v := range m.sparse {
			if !yield(uid, v) {
				return
			}
		}
	}
}

// Clone returns a copy whose values are f applied to the values of m (the
// values themselves when f is nil).
func (m *Map[V]) Clone(f func(V) V) Map[V] {
	c := Map[V]{n: m.n}
	if m.dense != nil {
		c.dense = make([]slot[V], len(m.dense), cap(m.dense))
		copy(c.dense, m.dense)
		if f != nil {
			for i := range c.dense {
				if c.dense[i].ok {
					c.dense[i].v = f(c.dense[i].v)
				}
			}
		}
	}
	if len(m.sparse) > 0 {
		// The map's tables copied as they are, then each value replaced
		// in the clone's own order: a new map of a large dump's UUIDs,
		// filled entry by entry in another map's order, misses the
		// processor's caches at every insert (docs/BENCHMARKS.md,
		// "Fifteenth session: play -f ..., stepping back").
		c.sparse = maps.Clone(m.sparse)
		if f != nil {
			for uid, v := range c.sparse {
				c.sparse[uid] = f(v)
			}
		}
	}
	return c
}
