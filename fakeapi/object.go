package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"
)

// OwnerReference names an owner of an object. Field names follow
// meta/v1 OwnerReference. The coordinates of a reference are its UID, Name,
// Kind and APIVersion; Controller and BlockOwnerDeletion are not.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// IsController reports whether the reference has controller=true.
func (r OwnerReference) IsController() bool { return r.Controller != nil && *r.Controller }

// Blocks reports whether the reference has blockOwnerDeletion=true.
func (r OwnerReference) Blocks() bool { return r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion }

// Equal reports whether two references are equal in every field.
func (r OwnerReference) Equal(o OwnerReference) bool {
	return r.APIVersion == o.APIVersion && r.Kind == o.Kind && r.Name == o.Name && r.UID == o.UID &&
		boolPtrEqual(r.Controller, o.Controller) && boolPtrEqual(r.BlockOwnerDeletion, o.BlockOwnerDeletion)
}

func boolPtrEqual(a, b *bool) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// Bool returns a pointer to b, for the optional flags of OwnerReference.
func Bool(b bool) *bool { return &b }

// Int64 returns a pointer to v.
func Int64(v int64) *int64 { return &v }

// Time is a point on the virtual clock, written as RFC 3339 in UTC like
// meta/v1 Time (second precision).
type Time struct{ time.Time }

// MarshalJSON writes the time as an RFC 3339 string.
func (t Time) MarshalJSON() ([]byte, error) {
	return json.Marshal(t.UTC().Format(time.RFC3339))
}

// UnmarshalJSON reads an RFC 3339 string.
func (t *Time) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	p, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = p
	return nil
}

// ObjectMeta is the metadata of every object, with meta/v1 field names.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          *Time             `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time             `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// HasFinalizer reports whether f is among the finalizers.
func (m *ObjectMeta) HasFinalizer(f string) bool { return slices.Contains(m.Finalizers, f) }

// Object is any Kubernetes object: apiVersion, kind, metadata, and every
// other top-level field (spec, data, status, ...) kept as given in Fields.
type Object struct {
	APIVersion string
	Kind       string
	Metadata   ObjectMeta
	// Fields holds the top-level fields other than apiVersion, kind and
	// metadata, as decoded from JSON (map[string]any, []any, string,
	// float64, bool, nil).
	Fields Fields
}

// MarshalJSON writes the object as one JSON object with its fields at the
// top level, keys in a fixed order (apiVersion, kind, metadata, then the
// rest sorted), so output is deterministic.
func (o *Object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(`{"apiVersion":`)
	writeJSON(&buf, o.APIVersion)
	buf.WriteString(`,"kind":`)
	writeJSON(&buf, o.Kind)
	buf.WriteString(`,"metadata":`)
	mb, err := json.Marshal(o.Metadata)
	if err != nil {
		return nil, err
	}
	buf.Write(mb)
	for k, v := range o.Fields.All() {
		buf.WriteByte(',')
		writeJSON(&buf, k)
		buf.WriteByte(':')
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", k, err)
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

// UnmarshalJSON reads an object; unknown top-level fields go to Fields.
// Unknown metadata fields are an error.
func (o *Object) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*o = Object{}
	for k, v := range raw {
		switch k {
		case "apiVersion":
			if err := json.Unmarshal(v, &o.APIVersion); err != nil {
				return fmt.Errorf("apiVersion: %w", err)
			}
		case "kind":
			if err := json.Unmarshal(v, &o.Kind); err != nil {
				return fmt.Errorf("kind: %w", err)
			}
		case "metadata":
			dec := json.NewDecoder(bytes.NewReader(v))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&o.Metadata); err != nil {
				return fmt.Errorf("metadata: %w", err)
			}
		default:
			var val any
			if err := json.Unmarshal(v, &val); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			o.Fields.Set(k, val)
		}
	}
	return nil
}

// DeepCopy returns a copy of o that shares no memory with it.
func (o *Object) DeepCopy() *Object {
	if o == nil {
		return nil
	}
	c := &Object{APIVersion: o.APIVersion, Kind: o.Kind, Metadata: o.Metadata.DeepCopy()}
	if n := o.Fields.Len(); n > 0 {
		list := make([]Field, 0, n)
		for _, e := range o.Fields.list {
			list = append(list, Field{e.Name, copyJSONValue(e.Value)})
		}
		c.Fields = Fields{list}
	}
	return c
}

// DeepCopy returns a copy of m that shares no memory with it.
func (m ObjectMeta) DeepCopy() ObjectMeta {
	c := m
	if m.CreationTimestamp != nil {
		t := *m.CreationTimestamp
		c.CreationTimestamp = &t
	}
	if m.DeletionTimestamp != nil {
		t := *m.DeletionTimestamp
		c.DeletionTimestamp = &t
	}
	if m.DeletionGracePeriodSeconds != nil {
		c.DeletionGracePeriodSeconds = Int64(*m.DeletionGracePeriodSeconds)
	}
	c.Labels = maps.Clone(m.Labels)
	c.Annotations = maps.Clone(m.Annotations)
	c.Finalizers = slices.Clone(m.Finalizers)
	if m.OwnerReferences != nil {
		c.OwnerReferences = make([]OwnerReference, len(m.OwnerReferences))
		for i, r := range m.OwnerReferences {
			c.OwnerReferences[i] = r.DeepCopy()
		}
	}
	return c
}

// DeepCopy returns a copy of r that shares no memory with it.
func (r OwnerReference) DeepCopy() OwnerReference {
	c := r
	if r.Controller != nil {
		c.Controller = Bool(*r.Controller)
	}
	if r.BlockOwnerDeletion != nil {
		c.BlockOwnerDeletion = Bool(*r.BlockOwnerDeletion)
	}
	return c
}

func copyJSONValue(v any) any {
	switch t := v.(type) {
	case *packedMap: // a copy is a map (Fields)
		c := make(map[string]any, len(t.list))
		for _, e := range t.list {
			c[e.Name] = copyJSONValue(e.Value)
		}
		return c
	case map[string]any:
		c := make(map[string]any, len(t))
		for k, e := range t {
			c[k] = copyJSONValue(e)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, e := range t {
			c[i] = copyJSONValue(e)
		}
		return c
	default:
		return v
	}
}

// Key returns the storage key of the object's coordinates:
// "namespace/name" (or "name" for cluster-scoped objects).
func (o *Object) Key() string {
	if o.Metadata.Namespace == "" {
		return o.Metadata.Name
	}
	return o.Metadata.Namespace + "/" + o.Metadata.Name
}

// String returns "Kind/name" or "Kind/namespace/name", the reference form
// used by scenario files, the trace and the TUI.
func (o *Object) String() string {
	return RefString(o.Kind, o.Metadata.Namespace, o.Metadata.Name)
}

// RefString formats a reference the way scenario files write it: objects in
// namespace "default" and cluster-scoped objects as Kind/name, others as
// Kind/namespace/name.
func RefString(kind, namespace, name string) string {
	if !ShowNamespace(namespace) {
		return kind + "/" + name
	}
	return kind + "/" + namespace + "/" + name
}

// ShowNamespace is the one rule for writing a reference or a command: the
// namespace is written unless it is "default" or empty (cluster-scoped).
func ShowNamespace(namespace string) bool {
	return namespace != "" && namespace != "default"
}

// SortObjects sorts objects by kind, namespace and name.
func SortObjects(objs []*Object) {
	sort.Slice(objs, func(i, j int) bool {
		a, b := objs[i], objs[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Metadata.Namespace != b.Metadata.Namespace {
			return a.Metadata.Namespace < b.Metadata.Namespace
		}
		return a.Metadata.Name < b.Metadata.Name
	})
}
