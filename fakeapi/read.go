package fakeapi

import (
	"cmp"
	"slices"

	"github.com/gcplay/gcplay/internal/objtable"
)

// Get returns a copy of the object at ref, read through ref.APIVersion:
// any served version of the object's group/kind reads the same object.
// A namespaced kind needs ref.Namespace.
func (s *Store) Get(client string, ref Ref) (*Object, error) {
	return s.getAs(client, ref, view)
}

// GetShared is Get for a caller that only reads the answer (the garbage
// collector's workers, the kubelet): the request is handled and recorded exactly as
// Get does, but the object returned is the stored snapshot itself rather
// than a copy (or, read through another apiVersion, a shallow copy with
// that apiVersion). It must not be modified.
func (s *Store) GetShared(client string, ref Ref) (*Object, error) {
	return s.getAs(client, ref, sharedView)
}

// getAs handles and records a GET; answer makes the reply from the stored
// object (view copies it, sharedView does not).
func (s *Store) getAs(client string, ref Ref, answer func(*Object, string) *Object) (*Object, error) {
	req := Request{Verb: "get", Client: client, Ref: ref, Code: 200}
	cur, se := s.get(&req, ref)
	s.finish(&req, se)
	if se != nil {
		return nil, se
	}
	return answer(cur, ref.APIVersion), nil
}

// get finds the stored object a GET addresses; the caller makes the
// answer from it.
func (s *Store) get(req *Request, ref Ref) (*Object, *StatusError) {
	info, se := s.resolve(ref.APIVersion, ref.Kind)
	if se != nil {
		return nil, se
	}
	ns := ref.Namespace
	if !info.Namespaced() {
		ns = ""
	}
	if se := s.takeFault(req, info, ns, ref.Name); se != nil {
		return nil, se
	}
	return s.lookupForRequest(info, ns, ref.Name)
}

// lookupForRequest finds the stored object a request addresses. A
// namespaced kind addressed without a namespace has no route, as in the
// real REST API.
func (s *Store) lookupForRequest(info KindInfo, namespace, name string) (*Object, *StatusError) {
	if info.Namespaced() && namespace == "" {
		return nil, errNoResource()
	}
	key := keyOf(info, namespace, name)
	if s.found.obj != nil && s.found.key == key {
		return s.found.obj, nil
	}
	cur := s.object(key)
	if cur == nil {
		return nil, NewNotFound(qualifiedResource(info), name)
	}
	s.found.key, s.found.obj = key, cur
	return cur, nil
}

// List returns copies of the objects of a kind, in one namespace or ("")
// all, sorted by namespace and name, read through apiVersion. Label and
// field selectors are not modelled.
func (s *Store) List(client string, apiVersion, kind, namespace string) ([]*Object, error) {
	return s.listAs(client, apiVersion, kind, namespace, view)
}

// ListShared is List for a caller that only reads the answer (an informer
// filling its cache, as a watch event's object is shared too): the
// objects are storage's own and must not be modified. A relist of 100,000
// objects then copies none of them.
func (s *Store) ListShared(client string, apiVersion, kind, namespace string) ([]*Object, error) {
	return s.listAs(client, apiVersion, kind, namespace, sharedView)
}

func (s *Store) listAs(client string, apiVersion, kind, namespace string, as func(*Object, string) *Object) ([]*Object, error) {
	req := Request{Verb: "list", Client: client, Ref: Ref{APIVersion: apiVersion, Kind: kind, Namespace: namespace}, Code: 200}
	out, se := s.list(&req, apiVersion, kind, namespace, as)
	s.finish(&req, se)
	if se != nil {
		return nil, se
	}
	return out, nil
}

func (s *Store) list(req *Request, apiVersion, kind, namespace string, as func(*Object, string) *Object) ([]*Object, *StatusError) {
	info, se := s.resolve(apiVersion, kind)
	if se != nil {
		return nil, se
	}
	if !info.Namespaced() {
		namespace = ""
	}
	if se := s.takeFault(req, info, namespace, ""); se != nil {
		return nil, se
	}
	return s.listObjects(info, apiVersion, namespace, as), nil
}

// listObjects is what a LIST of a kind answers, without the request.
// listedScope is what listedObjects lists: a kind, in one namespace or ("")
// in all.
type listedScope struct{ group, kind, namespace string }

// listedObjects are a listedScope's stored objects in list order.
type listedObjects []*Object

// listsChanged forgets the listed objects and the object the last
// request found: an object came, went or was written.
func (s *Store) listsChanged() {
	if len(s.listed) > 0 {
		clear(s.listed)
	}
	s.found.obj = nil
}

// listedObjects returns the stored objects of a kind, in namespace or ("") in
// all, by namespace and name. The answer is shared: the caller must not
// modify it.
func (s *Store) listedObjects(info KindInfo, namespace string) listedObjects {
	group := info.Group()
	scope := listedScope{group, info.Kind, namespace}
	if objs, ok := s.listed[scope]; ok {
		return objs
	}
	in := func(sc objtable.Scope) bool {
		return sc.Group == group && sc.Kind == info.Kind && (namespace == "" || sc.Namespace == namespace)
	}
	type entry struct {
		namespace, name string
		o               *Object
	}
	var entries []entry
	if n := s.objects.LenWhere(in); n > 0 {
		entries = make([]entry, 0, n)
	}
	for k, o := range s.objects.Where(in) {
		entries = append(entries, entry{k.Namespace, k.Name, o})
	}
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	})
	var objs listedObjects
	if len(entries) > 0 {
		objs = make(listedObjects, len(entries))
	}
	for i, e := range entries {
		objs[i] = e.o
	}
	if s.listed == nil {
		s.listed = map[listedScope]listedObjects{}
	}
	s.listed[scope] = objs
	return objs
}

func (s *Store) listObjects(info KindInfo, apiVersion, namespace string, as func(*Object, string) *Object) []*Object {
	objs := s.listedObjects(info, namespace)
	out := make([]*Object, len(objs))
	for i, o := range objs {
		out[i] = as(o, apiVersion)
	}
	return out
}
