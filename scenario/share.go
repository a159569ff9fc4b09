package scenario

import (
	"encoding/binary"
	"math"
	"slices"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// maxShared bounds the text of a subtree that sharer looks up: larger
// ones (a Pod's whole spec with many containers) are not shared as a
// whole, though their parts are.
const maxShared = 2048

// sharer stores each distinct small part of a dump's objects once: the
// objects of one controller repeat their labels, owner references,
// creation time and most of their spec (a Pod's containers, the
// ReplicaSet's template), and a world of 100,000 objects would otherwise
// hold 100,000 copies of each. A shared part is never changed afterwards:
// storage and the controllers treat stored objects as immutable (every
// write makes a new object from a deep copy), and the store already shares
// unchanged parts between versions of one object.
type sharer struct {
	// trees are the shared maps and lists of Fields, by their text.
	trees  map[string]any
	labels map[string]map[string]string
	refs   map[string][]fakeapi.OwnerReference
	times  map[int64]*fakeapi.Time
	buf    []byte
}

func newSharer() *sharer {
	return &sharer{trees: map[string]any{}, labels: map[string]map[string]string{},
		refs: map[string][]fakeapi.OwnerReference{}, times: map[int64]*fakeapi.Time{}}
}

// object makes o share the parts it has in common with the objects seen
// before it.
func (s *sharer) object(o *fakeapi.Object) {
	if s == nil {
		return
	}
	s.metadata(o)
	for k, v := range o.Fields.All() {
		s.buf = s.buf[:0]
		v, _ = s.value(v)
		o.Fields.Set(k, v)
	}
}

// metadata makes o's labels, annotations, creation time and owner
// references those of an object seen before when they are equal: all
// object does for an object whose Fields the direct decoding has shared
// already (fastYAML.sharedBlock).
func (s *sharer) metadata(o *fakeapi.Object) {
	if s == nil {
		return
	}
	m := &o.Metadata
	m.Labels = s.stringMap(m.Labels)
	m.Annotations = s.stringMap(m.Annotations)
	if t := m.CreationTimestamp; t != nil && t.Location() == time.UTC {
		if prev := s.times[t.UnixNano()]; prev != nil {
			m.CreationTimestamp = prev
		} else {
			s.times[t.UnixNano()] = t
		}
	}
	// A reference without a uid is completed later, by the object it
	// names in the dependent's namespace: it stays the dependent's own.
	if len(m.OwnerReferences) > 0 && !slices.ContainsFunc(m.OwnerReferences, func(r fakeapi.OwnerReference) bool { return r.UID == "" }) {
		s.buf = s.buf[:0]
		for _, r := range m.OwnerReferences {
			s.str(r.APIVersion)
			s.str(r.Kind)
			s.str(r.Name)
			s.str(r.UID)
			s.buf = append(s.buf, boolPtrByte(r.Controller), boolPtrByte(r.BlockOwnerDeletion))
		}
		if prev, ok := s.refs[string(s.buf)]; ok {
			m.OwnerReferences = prev
		} else {
			// Clipped: an append to one object's references never
			// writes into another's.
			m.OwnerReferences = slices.Clip(m.OwnerReferences)
			s.refs[string(s.buf)] = m.OwnerReferences
		}
	}
}

func boolPtrByte(b *bool) byte {
	switch {
	case b == nil:
		return 'n'
	case *b:
		return 't'
	}
	return 'f'
}

func (s *sharer) stringMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	s.buf = s.buf[:0]
	var scratch [8]string
	for _, k := range sortedKeysOf(m, scratch[:0]) {
		s.str(k)
		s.str(m[k])
	}
	if prev, ok := s.labels[string(s.buf)]; ok {
		return prev
	}
	s.labels[string(s.buf)] = m
	return m
}

func (s *sharer) str(v string) {
	s.buf = binary.AppendUvarint(s.buf, uint64(len(v)))
	s.buf = append(s.buf, v...)
}

// value appends v's text to buf and returns v, or the equal value seen
// before in its place; false when v is too large or of a type that is not
// shared, and then buf is as it was.
func (s *sharer) value(v any) (any, bool) {
	start := len(s.buf)
	switch t := v.(type) {
	case nil:
		s.buf = append(s.buf, 'n')
	case bool:
		s.buf = append(s.buf, boolPtrByte(&t))
	case float64:
		s.buf = binary.LittleEndian.AppendUint64(append(s.buf, 'd'), math.Float64bits(t))
	case string:
		s.buf = append(s.buf, 's')
		s.str(t)
	case map[string]any:
		s.buf = binary.AppendUvarint(append(s.buf, 'm'), uint64(len(t)))
		ok := true
		var scratch [8]string
		for _, k := range sortedKeysOf(t, scratch[:0]) {
			s.str(k)
			c, cok := s.value(t[k])
			t[k] = c
			if ok = ok && cok; !ok {
				// The rest is shared on its own, not as part of t.
				s.buf = s.buf[:start]
			}
		}
		return s.share(v, start, ok)
	case []any:
		t = slices.Clip(t) // an append to one object's list never writes into another's
		v = t
		s.buf = binary.AppendUvarint(append(s.buf, 'l'), uint64(len(t)))
		ok := true
		for i, e := range t {
			c, cok := s.value(e)
			t[i] = c
			if ok = ok && cok; !ok {
				s.buf = s.buf[:start]
			}
		}
		return s.share(v, start, ok)
	default:
		return v, false
	}
	return v, true
}

// share looks up the map or list v whose text is buf[start:].
func (s *sharer) share(v any, start int, ok bool) (any, bool) {
	if !ok || len(s.buf)-start > maxShared {
		s.buf = s.buf[:start]
		return v, false
	}
	if prev, found := s.trees[string(s.buf[start:])]; found {
		return prev, true
	}
	s.trees[string(s.buf[start:])] = v
	return v, true
}

// sortedKeysOf appends m's keys to into, sorted (into has room for a
// small map's, so that most maps sort without an allocation).
func sortedKeysOf[V any](m map[string]V, into []string) []string {
	for k := range m {
		into = append(into, k)
	}
	slices.Sort(into)
	return into
}
