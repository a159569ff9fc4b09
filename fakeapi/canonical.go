package fakeapi

import (
	"encoding/json"
	"reflect"

	"github.com/gcplay/gcplay/internal/jsoneq"
)

// normalizeMeta gives metadata one stored form: empty lists and maps are
// nil, as they are after a JSON round trip (omitempty), so that two states
// that serialize alike also compare alike.
func normalizeMeta(m *ObjectMeta) {
	if len(m.Finalizers) == 0 {
		m.Finalizers = nil
	}
	if len(m.OwnerReferences) == 0 {
		m.OwnerReferences = nil
	}
	if len(m.Labels) == 0 {
		m.Labels = nil
	}
	if len(m.Annotations) == 0 {
		m.Annotations = nil
	}
}

// sameObject reports whether two states of one object are equal in every
// field, resourceVersion included: reflect.DeepEqual of the two, field by
// field, with the plain fields compared first and the lists, maps and
// pointers only when those agree (a write usually changes a plain field or
// a timestamp, so most calls end without reflection).
func sameObject(a, b *Object) bool {
	if a.APIVersion != b.APIVersion || a.Kind != b.Kind || !sameMeta(&a.Metadata, &b.Metadata) {
		return false
	}
	return sameFields(a.Fields, b.Fields)
}

// sameFields reports whether two objects' fields are equal.
func sameFields(a, b Fields) bool {
	if a.Len() != b.Len() {
		return false
	}
	for i, e := range a.list {
		if o := b.list[i]; e.Name != o.Name || !sameValue(e.Value, o.Value) {
			return false
		}
	}
	return true
}

// sameValue is jsoneq.Equal for a field's values, either of which may be
// packed (PackMap): a packed map equals the map of its entries.
func sameValue(a, b any) bool {
	pa, aok := a.(*packedMap)
	pb, bok := b.(*packedMap)
	switch {
	case aok && bok:
		if len(pa.list) != len(pb.list) {
			return false
		}
		for i, e := range pa.list {
			if o := pb.list[i]; e.Name != o.Name || !jsoneq.Equal(e.Value, o.Value) {
				return false
			}
		}
		return true
	case bok:
		pa, b = pb, a
	case !aok:
		return jsoneq.Equal(a, b)
	}
	m, ok := b.(map[string]any)
	if !ok || m == nil || len(m) != len(pa.list) {
		return false
	}
	for _, e := range pa.list {
		if w, ok := m[e.Name]; !ok || !jsoneq.Equal(e.Value, w) {
			return false
		}
	}
	return true
}

// sameMeta is reflect.DeepEqual(*a, *b) for metadata.
func sameMeta(a, b *ObjectMeta) bool {
	if a.Name != b.Name || a.GenerateName != b.GenerateName || a.Namespace != b.Namespace || a.UID != b.UID ||
		a.ResourceVersion != b.ResourceVersion || a.Generation != b.Generation {
		return false
	}
	// Pointers: nil and non-nil differ; the same pointer is equal; else
	// the values are compared.
	if (a.CreationTimestamp == nil) != (b.CreationTimestamp == nil) || (a.DeletionTimestamp == nil) != (b.DeletionTimestamp == nil) ||
		(a.DeletionGracePeriodSeconds == nil) != (b.DeletionGracePeriodSeconds == nil) {
		return false
	}
	if a.DeletionGracePeriodSeconds != nil && *a.DeletionGracePeriodSeconds != *b.DeletionGracePeriodSeconds {
		return false
	}
	if a.CreationTimestamp != b.CreationTimestamp && !reflect.DeepEqual(*a.CreationTimestamp, *b.CreationTimestamp) {
		return false
	}
	if a.DeletionTimestamp != b.DeletionTimestamp && !reflect.DeepEqual(*a.DeletionTimestamp, *b.DeletionTimestamp) {
		return false
	}
	// Lists and maps: nil and non-nil differ, as do lengths; otherwise the
	// elements are compared (the same backing array or map is equal).
	if (a.Finalizers == nil) != (b.Finalizers == nil) || len(a.Finalizers) != len(b.Finalizers) ||
		(a.OwnerReferences == nil) != (b.OwnerReferences == nil) || len(a.OwnerReferences) != len(b.OwnerReferences) ||
		(a.Labels == nil) != (b.Labels == nil) || len(a.Labels) != len(b.Labels) ||
		(a.Annotations == nil) != (b.Annotations == nil) || len(a.Annotations) != len(b.Annotations) {
		return false
	}
	for i := range a.Finalizers {
		if a.Finalizers[i] != b.Finalizers[i] {
			return false
		}
	}
	for i := range a.OwnerReferences {
		if !a.OwnerReferences[i].Equal(b.OwnerReferences[i]) {
			return false
		}
	}
	for k, v := range a.Labels {
		if w, ok := b.Labels[k]; !ok || w != v {
			return false
		}
	}
	for k, v := range a.Annotations {
		if w, ok := b.Annotations[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// canonicalFields returns the top-level fields as JSON decodes them
// (map[string]any, []any, string, float64, bool, nil), so that a value
// written as int by a Go caller and the same value read back from a patch
// compare equal. Fields named apiVersion, kind or metadata are dropped:
// those live in their own places. It fails when a value cannot be written
// as JSON.
func canonicalFields(f Fields) (Fields, error) {
	if f.Len() == 0 {
		return Fields{}, nil
	}
	out := make([]Field, 0, f.Len())
	canonical := true
	for _, e := range f.list {
		switch e.Name {
		case "apiVersion", "kind", "metadata":
			continue
		}
		out = append(out, e)
		if canonical && !isJSONValue(e.Value) {
			canonical = false
		}
	}
	if len(out) == 0 {
		return Fields{}, nil
	}
	if canonical {
		return Fields{out}, nil
	}
	b, err := json.Marshal(Fields{out})
	if err != nil {
		return Fields{}, err
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		return Fields{}, err
	}
	return FieldsOf(back), nil
}

// isJSONValue reports whether v is made only of the types encoding/json
// decodes into.
func isJSONValue(v any) bool {
	switch t := v.(type) {
	case nil, string, float64, bool:
		return true
	case map[string]any:
		for _, e := range t {
			if !isJSONValue(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range t {
			if !isJSONValue(e) {
				return false
			}
		}
		return true
	case *packedMap:
		for _, e := range t.list {
			if !isJSONValue(e.Value) {
				return false
			}
		}
		return true
	default:
		return false
	}
}

// numberValue reads a JSON number that a Go caller may also have written
// as an integer type.
func numberValue(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		return int64(n), true
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	default:
		return 0, false
	}
}

// nestedField walks maps along path and returns the value found, if any.
func nestedField(fields Fields, path ...string) (any, bool) {
	cur, ok := fields.Lookup(path[0])
	if !ok {
		return nil, false
	}
	for _, p := range path[1:] {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = m[p]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}
