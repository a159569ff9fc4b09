package scenario

import (
	"strconv"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// The entries of a List that `kubectl get -o json` prints are decoded
// straight from the text as the YAML ones are (dumpdirect.go): the entry
// into the values value() would give (map[string]any, []any, string,
// float64, bool, nil), then apiVersion, kind and metadata into the
// object's fields and the rest into Fields. At anything the checks would
// report, anything it does not read (a number with a fraction or
// exponent, an integer past int64, a duplicate key, nesting past
// directMaxDepth) or a syntax error, it gives up on the entry, having
// kept nothing, and fastJSON reads the entry again as a tree.

// directJSON decodes the List entry at j's position and keeps it, as
// fastItem would from its tree; false, having kept nothing, when it gives
// up on the entry.
func (d *dumpReader) directJSON(doc int, j *fastJSON, _ int) bool {
	if j.pos == len(j.data) || j.data[j.pos] != '{' {
		return false
	}
	line := j.line
	v, ok := j.directValue(0)
	if !ok {
		return false
	}
	m := v.(map[string]any)
	obj := &fakeapi.Object{}
	if obj.APIVersion, ok = m["apiVersion"].(string); !ok {
		return false
	}
	if obj.Kind, ok = m["kind"].(string); !ok {
		return false
	}
	meta, ok := m["metadata"].(map[string]any)
	if !ok {
		return false
	}
	namespaced, ok := d.metaFromMap(meta, &obj.Metadata)
	if !ok {
		return false
	}
	if len(m) > 3 {
		delete(m, "apiVersion")
		delete(m, "kind")
		delete(m, "metadata")
		obj.Fields = fakeapi.FieldsOf(m)
	}
	return d.keepDirect(doc, obj, namespaced, line, false)
}

// directValue reads the JSON value at pos as value() converts its node;
// depth is value()'s.
func (j *fastJSON) directValue(depth int) (any, bool) {
	j.ws()
	if j.pos == len(j.data) || depth > directMaxDepth {
		return nil, false
	}
	switch c := j.data[j.pos]; {
	case c == '{':
		j.pos++
		j.ws()
		if j.pos < len(j.data) && j.data[j.pos] == '}' {
			j.pos++
			return map[string]any{}, true
		}
		f := j.nodes
		mark := len(f.dpairs)
		defer func() {
			clear(f.dpairs[mark:])
			f.dpairs = f.dpairs[:mark]
		}()
		for {
			j.ws()
			if j.pos == len(j.data) || j.data[j.pos] != '"' {
				return nil, false
			}
			key, ok := j.str()
			if !ok {
				return nil, false
			}
			j.ws()
			if j.pos == len(j.data) || j.data[j.pos] != ':' {
				return nil, false
			}
			j.pos++
			v, ok := j.directValue(depth + 1)
			if !ok {
				return nil, false
			}
			f.dpairs = append(f.dpairs, anyPair{key, v})
			more, ok := j.next('}')
			if !ok {
				return nil, false
			}
			if more {
				continue
			}
			pairs := f.dpairs[mark:]
			m := make(map[string]any, len(pairs))
			for _, p := range pairs {
				m[p.key] = p.val
			}
			return m, len(m) == len(pairs) // fewer: a duplicate key
		}
	case c == '[':
		j.pos++
		j.ws()
		if j.pos < len(j.data) && j.data[j.pos] == ']' {
			j.pos++
			return []any{}, true
		}
		f := j.nodes
		mark := len(f.dstack)
		defer func() {
			clear(f.dstack[mark:])
			f.dstack = f.dstack[:mark]
		}()
		for {
			v, ok := j.directValue(depth + 1)
			if !ok {
				return nil, false
			}
			f.dstack = append(f.dstack, v)
			more, ok := j.next(']')
			if !ok {
				return nil, false
			}
			if more {
				continue
			}
			return append([]any(nil), f.dstack[mark:]...), true
		}
	case c == '"':
		v, ok := j.str()
		if !ok {
			return nil, false
		}
		return j.nodes.box(v), true
	case c == '-' || c >= '0' && c <= '9':
		s, float, ok := j.number()
		if !ok || float {
			return nil, false
		}
		i, err := strconv.ParseInt(s, 10, 64)
		return float64(i), err == nil
	}
	for _, lit := range [...]struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(j.data)-j.pos >= len(lit.text) && string(j.data[j.pos:j.pos+len(lit.text)]) == lit.text {
			j.pos += len(lit.text)
			return lit.v, true
		}
	}
	return nil, false
}

// metaFromMap reads metadata read by directValue into m, as metadata()
// checks it and objectMeta() reads it; namespaced is whether it has a
// namespace that is not null.
func (d *dumpReader) metaFromMap(meta map[string]any, m *fakeapi.ObjectMeta) (namespaced, ok bool) {
	for k, v := range meta {
		switch k {
		case "name", "generateName", "namespace", "uid", "resourceVersion":
			s, ok := v.(string)
			if !ok && v != nil {
				return false, false
			}
			switch k {
			case "name":
				m.Name = s
			case "generateName":
				m.GenerateName = s
			case "namespace":
				m.Namespace, namespaced = s, v != nil
			case "uid":
				m.UID = s
			case "resourceVersion":
				m.ResourceVersion = s
			}
		case "generation", "deletionGracePeriodSeconds":
			if v == nil {
				continue
			}
			// directValue reads only integers, as float64: those below
			// 2^53 are exact.
			x, ok := v.(float64)
			if !ok || x < 0 || x >= 1<<53 {
				return false, false
			}
			if i := int64(x); k == "generation" {
				m.Generation = i
			} else {
				m.DeletionGracePeriodSeconds = &i
			}
		case "creationTimestamp", "deletionTimestamp":
			if v == nil {
				continue
			}
			s, ok := v.(string)
			if !ok {
				return false, false
			}
			t, ok := d.parseTime(s)
			if !ok {
				return false, false
			}
			if k == "creationTimestamp" {
				m.CreationTimestamp = t
			} else {
				m.DeletionTimestamp = t
			}
		case "labels", "annotations":
			if v == nil {
				continue
			}
			mm, ok := v.(map[string]any)
			if !ok {
				return false, false
			}
			out := make(map[string]string, len(mm))
			for lk, lv := range mm {
				s, ok := lv.(string)
				if !ok && lv != nil {
					return false, false
				}
				out[lk] = s
			}
			if k == "labels" {
				m.Labels = out
			} else {
				m.Annotations = out
			}
		case "finalizers":
			if v == nil {
				continue
			}
			l, ok := v.([]any)
			if !ok {
				return false, false
			}
			for _, e := range l {
				s, ok := e.(string)
				if !ok {
					return false, false
				}
				m.Finalizers = append(m.Finalizers, s)
			}
		case "ownerReferences":
			if v == nil {
				continue
			}
			l, ok := v.([]any)
			if !ok {
				return false, false
			}
			for _, e := range l {
				r, ok := d.ownerRefFromMap(e)
				if !ok {
					return false, false
				}
				m.OwnerReferences = append(m.OwnerReferences, r)
			}
		case "managedFields", "selfLink":
			// tolerated, dropped
		default:
			return false, false
		}
	}
	if m.Name == "" && m.GenerateName == "" {
		return false, false
	}
	return namespaced, true
}

// ownerRefFromMap reads one ownerReference read by directValue, as
// ownerReference() checks it and objectMeta() reads it.
func (d *dumpReader) ownerRefFromMap(v any) (fakeapi.OwnerReference, bool) {
	var r fakeapi.OwnerReference
	e, ok := v.(map[string]any)
	if !ok {
		return r, false
	}
	for k, v := range e {
		switch k {
		case "apiVersion", "kind", "name", "uid":
			s, ok := v.(string)
			if !ok && v != nil {
				return r, false
			}
			switch k {
			case "apiVersion":
				r.APIVersion = s
			case "kind":
				r.Kind = s
			case "name":
				r.Name = s
			case "uid":
				r.UID = s
			}
		case "controller", "blockOwnerDeletion":
			if v == nil {
				continue
			}
			b, ok := v.(bool)
			if !ok {
				return r, false
			}
			if k == "controller" {
				r.Controller = &b
			} else {
				r.BlockOwnerDeletion = &b
			}
		default:
			return r, false
		}
	}
	return r, d.ownerRefFindable(r)
}

// parseTime reads an RFC 3339 time; the last one read is parsed once (a
// dump's objects share a few creation times).
func (d *dumpReader) parseTime(s string) (*fakeapi.Time, bool) {
	if s != d.lastTime.text || s == "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil, false
		}
		d.lastTime.text, d.lastTime.t = s, t
	}
	return &fakeapi.Time{Time: d.lastTime.t}, true
}
