package fakeapi

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/gcplay/gcplay/internal/objtable"
	"github.com/gcplay/gcplay/internal/uidmap"
)

// Restore puts obj into storage as it was on another cluster, without a
// request and without a watch event: the world before anyone watches it,
// as etcd holds it when kube-controller-manager restarts. Its UID,
// creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds,
// finalizers, generation, labels, annotations, ownerReferences and every
// other field are kept; the resourceVersion is this store's own. A
// restored Namespace named like one the store starts with takes its place.
//
// Restore keeps obj itself (a dump of 100,000 objects is not copied): the
// caller must not change it afterwards.
//
// What the apiserver would refuse to store is refused: a kind it does not
// serve, invalid metadata (R2, R3), a name or UID in use, and a namespaced
// object whose namespace is not stored (restore the Namespace first).
func (s *Store) Restore(in *Object) error {
	info, se := s.resolve(in.APIVersion, in.Kind)
	if se != nil {
		return se
	}
	obj := in
	if !info.Namespaced() {
		obj.Metadata.Namespace = ""
	}
	if !s.storedForm.check(obj.Fields) {
		fields, err := canonicalFields(obj.Fields)
		if err != nil {
			return NewError(ReasonBadRequest, "the object cannot be written as JSON: %v", err)
		}
		obj.Fields = fields
	}
	obj.APIVersion = s.storageVersion(info)
	obj.Kind = info.Kind
	m := &obj.Metadata
	normalizeMeta(m)
	if isNamespaceKind(info) && NamespacePhase(obj) == "" {
		// SetDefaults_NamespaceStatus: a Namespace read from etcd
		// decodes with phase Active when it has none.
		obj.Fields = withField(obj.Fields, "status", "phase", NamespaceActive)
	}
	if m.Name == "" {
		return newInvalid(qualifiedKind(info), m.Name, []fieldError{requiredField("metadata.name", "a restored object has a name")})
	}
	if errs := append(validateObjectMeta(info, m), validateRestoredStatefulSet(obj)...); len(errs) > 0 {
		return newInvalid(qualifiedKind(info), m.Name, errs)
	}
	if info.Namespaced() && s.object(namespaceKey(m.Namespace)) == nil {
		return NewNotFound("namespaces", m.Namespace)
	}
	key := keyOf(info, m.Namespace, m.Name)
	if existing := s.object(key); existing != nil {
		if info.Kind != "Namespace" || !slices.Contains(systemNamespaces, m.Name) || s.given(existing.Metadata.UID) {
			return NewError(ReasonAlreadyExists, "%s %q already exists", qualifiedResource(info), m.Name)
		}
		s.byUID.Delete(existing.Metadata.UID)
	}
	if m.UID == "" {
		m.UID = s.newUID()
	} else if s.byUID.Has(m.UID) {
		return newInvalid(qualifiedKind(info), m.Name, []fieldError{duplicateField("metadata.uid", goString(m.UID))})
	}
	s.giveUID(m.UID)
	if m.CreationTimestamp == nil {
		m.CreationTimestamp = &Time{s.now()}
	}
	m.ResourceVersion = s.nextRV()
	s.objects.Set(key, obj)
	s.listsChanged()
	s.byUID.Set(m.UID, uidEntry{obj: obj, created: s.rv})
	return nil
}

// storedFormCache remembers maps and lists of fields that were found in
// the stored form (isJSONValue) as a restored object's top-level values:
// a dump's objects share equal parts (a Pod's spec is one map for
// thousands of Pods), and each was walked again for every object that
// holds it. Restored objects are the store's and never change, and the
// cache holds what it remembers, so a remembered map stays what it was
// and its address names no other. It is a table by address, each part
// taking the place of the one before at its slot: the parts every object
// has of its own (a Pod's status) pass through it without pushing out
// most of the shared ones.
type storedFormCache struct {
	seen *[storedFormSlots]storedPart
}

const storedFormSlots = 256

// slot returns where part is remembered.
func (c *storedFormCache) slot(part storedPart) *storedPart {
	if c.seen == nil {
		c.seen = new([storedFormSlots]storedPart)
	}
	h := uint64(uintptr(part.p)>>4) * 0x9E3779B97F4A7C15
	return &c.seen[h>>56]
}

// storedPart is a map's or a list's address and length.
type storedPart struct {
	p unsafe.Pointer
	n int
}

// check reports whether fields is already what canonicalFields makes of
// it, so that Restore, which keeps the object it is given, can keep its
// fields too instead of copying them. It walks only the values it does
// not remember.
func (c *storedFormCache) check(fields Fields) bool {
	for _, e := range fields.list { // packed values as they are (PackMap)
		switch e.Name {
		case "apiVersion", "kind", "metadata":
			return false
		}
		v := e.Value
		var part storedPart
		switch t := v.(type) {
		case map[string]any:
			part = storedPart{reflect.ValueOf(t).UnsafePointer(), len(t)}
		case []any:
			part = storedPart{unsafe.Pointer(unsafe.SliceData(t)), len(t)}
		case *packedMap:
			part = storedPart{unsafe.Pointer(t), len(t.list)}
		}
		var at *storedPart
		if part.p != nil {
			if at = c.slot(part); *at == part {
				continue
			}
		}
		if !isJSONValue(v) {
			return false
		}
		if at != nil {
			*at = part
		}
	}
	return true
}

// Reserve makes room for objs, which are about to be restored one by one:
// each storage table (the objects' and the UIDs') is sized once for them instead of doubling (and
// rehashing) as 100,000 objects of a dump arrive. It changes nothing a
// request or a list can see; an object it cannot place (a kind not
// served) is left for Restore to refuse.
func (s *Store) Reserve(objs []*Object) {
	type scopeCount struct {
		scope objtable.Scope
		n     int
	}
	var counts []scopeCount // a dump has a handful of scopes, in runs
	given := 0
	for _, o := range objs {
		info, ok := s.kinds.Lookup(s.reg, o.APIVersion, o.Kind)
		if !ok {
			continue
		}
		sc := keyOf(info, o.Metadata.Namespace, "").Scope
		if i := len(counts) - 1; i >= 0 && counts[i].scope == sc {
			counts[i].n++
		} else if j := slices.IndexFunc(counts, func(c scopeCount) bool { return c.scope == sc }); j >= 0 {
			counts[j].n++
		} else {
			counts = append(counts, scopeCount{sc, 1})
		}
		if _, generated := uidmap.Serial(o.Metadata.UID); !generated && o.Metadata.UID != "" {
			given++
		}
	}
	for _, c := range counts {
		s.objects.Grow(c.scope, c.n)
	}
	s.byUID.Grow(given)
}
