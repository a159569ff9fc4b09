package fakeapi

import (
	"strconv"

	"github.com/gcplay/gcplay/internal/jsoneq"
)

// Update PUTs obj: it replaces the stored object with the same kind,
// namespace and name, and returns the result read through obj's
// apiVersion.
//
// It follows the registry Store.Update (R4, R9, R10): a resourceVersion
// that differs from the stored one is 409 Conflict; an empty one means an
// unconditional update for built-in kinds and 422 for custom kinds (their
// strategy does not allow unconditional updates); generation,
// creationTimestamp and a set deletionTimestamp are kept from storage;
// uid, deletionTimestamp and deletionGracePeriodSeconds are immutable; no
// finalizer may be added once the object is deleting; generation goes up
// when spec changes (generationChanges). An update that leaves no finalizers on an object
// whose deletion has no grace period pending removes it instead (R9).
// An update that changes nothing writes nothing.
func (s *Store) Update(client string, obj *Object) (*Object, error) {
	return s.updateAs(client, obj, false)
}

// UpdateShared is Update for a caller that builds obj from a stored
// snapshot and lets go of it (the kubelet's status write): the request
// is handled and recorded exactly as Update does, but storage keeps obj
// itself rather than a deep copy, so obj's metadata and values may be
// shared with stored objects (which are never changed), and obj must not
// be used after the call. The answer is the stored snapshot itself (or a
// shallow copy with obj's apiVersion) and must not be modified.
func (s *Store) UpdateShared(client string, obj *Object) (*Object, error) {
	return s.updateAs(client, obj, true)
}

func (s *Store) updateAs(client string, obj *Object, shared bool) (*Object, error) {
	req := Request{Verb: "update", Client: client, Code: 200}
	if obj != nil {
		req.Ref = RefOf(obj)
		if obj.Metadata.ResourceVersion != "" {
			req.Detail = "resourceVersion=" + obj.Metadata.ResourceVersion
		} else {
			req.Detail = "resourceVersion unset"
		}
	}
	out, se := s.update(&req, obj, shared)
	s.finish(&req, se)
	if se != nil {
		return nil, se
	}
	return out, nil
}

func (s *Store) update(req *Request, in *Object, shared bool) (*Object, *StatusError) {
	if in == nil {
		return nil, NewError(ReasonBadRequest, "the body of the request was empty")
	}
	info, se := s.resolve(in.APIVersion, in.Kind)
	if se != nil {
		return nil, se
	}
	ns := in.Metadata.Namespace
	if !info.Namespaced() {
		ns = ""
	}
	if se := s.takeFault(req, info, ns, in.Metadata.Name); se != nil {
		return nil, se
	}
	if info.Namespaced() && ns == "" {
		return nil, newInvalid(qualifiedKind(info), in.Metadata.Name, []fieldError{requiredField("metadata.namespace", "")})
	}
	cur, se := s.lookupForRequest(info, ns, in.Metadata.Name)
	if se != nil {
		return nil, se
	}
	if se := uidPrecondition(info, in, cur); se != nil {
		return nil, se
	}
	if shared {
		// Storage keeps in's values; the metadata fields it sets are
		// those of a copy of the struct.
		next := *in
		next.Metadata.Namespace = ns
		out, se := s.applyUpdate(info, cur, &next)
		if se != nil {
			return nil, se
		}
		return sharedView(out, in.APIVersion), nil
	}
	next := in.DeepCopy()
	next.Metadata.Namespace = ns
	out, se := s.applyUpdate(info, cur, next)
	if se != nil {
		return nil, se
	}
	return view(out, in.APIVersion), nil
}

// generationChanges reports whether an update moves generation up: for
// the built-in strategies a change of spec; for a custom resource
// (customResourceStrategy.PrepareForUpdate; gcplay serves custom kinds
// without a status subresource) a change of anything outside metadata,
// status included.
func generationChanges(info KindInfo, cur, next *Object) bool {
	if info.Custom {
		return !sameFields(cur.Fields, next.Fields)
	}
	return !jsoneq.Equal(cur.Fields.Get("spec"), next.Fields.Get("spec"))
}

// uidPrecondition is the precondition a PUT carries: the UID of the object
// sent, when it has one (rest.DefaultUpdatedObjectInfo's Preconditions).
// Storage checks it before anything else of the update (GuaranteedUpdate),
// and a mismatch is its invalid-object error, turned into a 409 by
// InterpretUpdateError: the message names the object's etcd key. A patch
// carries no precondition; a changed uid there is an immutable field.
func uidPrecondition(info KindInfo, in, cur *Object) *StatusError {
	uid := in.Metadata.UID
	if uid == "" || uid == cur.Metadata.UID {
		return nil
	}
	return newConflict(qualifiedResource(info), cur.Metadata.Name,
		"StorageError: invalid object, Code: 4, Key: "+storageKey(info, cur.Metadata.Namespace, cur.Metadata.Name)+
			", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: "+uid+
			", UID in object meta: "+cur.Metadata.UID)
}

// specialResourcePrefixes are the etcd prefixes of the core resources not
// stored under their own name (kubeapiserver's
// SpecialDefaultResourcePrefixes).
var specialResourcePrefixes = map[string]string{
	"replicationcontrollers": "controllers",
	"endpoints":              "services/endpoints",
	"nodes":                  "minions",
	"services":               "services/specs",
}

// storageKey is the etcd key kube-apiserver keeps an object at:
// /registry/<prefix>[/<namespace>]/<name>, the prefix being the resource,
// a special one for four core resources, or group/resource for a custom
// resource.
func storageKey(info KindInfo, namespace, name string) string {
	prefix := info.Resource
	if p, ok := specialResourcePrefixes[prefix]; ok && info.Group() == "" {
		prefix = p
	}
	if info.Custom {
		prefix = info.Group() + "/" + info.Resource
	}
	if info.Namespaced() {
		return "/registry/" + prefix + "/" + namespace + "/" + name
	}
	return "/registry/" + prefix + "/" + name
}

// applyUpdate writes next over cur: the update function that Update and
// Patch share (store.go Update and rest.BeforeUpdate). next is owned by
// the store from here on. It returns the stored result, or for R9 the
// would-be object whose emptied finalizers removed it.
func (s *Store) applyUpdate(info KindInfo, cur, next *Object) (*Object, *StatusError) {
	return s.applyUpdateTo(mainResource, info, cur, next)
}

// applyUpdateTo is applyUpdate through the object itself or one of a
// Namespace's subresources.
func (s *Store) applyUpdateTo(sub subresource, info KindInfo, cur, next *Object) (*Object, *StatusError) {
	m, old := &next.Metadata, &cur.Metadata
	// The NamespaceLifecycle admission plugin runs on the updated object,
	// before the resourceVersion is compared: the object's namespace must
	// still exist (it can be gone with the object left in storage, once
	// a namespace is finalized by hand).
	if info.Namespaced() && s.object(namespaceKey(old.Namespace)) == nil {
		return nil, NewNotFound("namespaces", old.Namespace)
	}
	// R10: the resourceVersion is an optimistic lock.
	if m.ResourceVersion == "" {
		if info.Custom {
			return nil, newInvalid(qualifiedResource(info), m.Name,
				[]fieldError{invalidField("metadata.resourceVersion", "0", "must be specified for an update")})
		}
		m.ResourceVersion = old.ResourceVersion
	} else if m.ResourceVersion != old.ResourceVersion {
		return nil, newConflict(qualifiedResource(info), m.Name, optimisticLockMessage)
	}

	fields, err := canonicalFields(next.Fields)
	if err != nil {
		return nil, NewError(ReasonBadRequest, "the object cannot be written as JSON: %v", err)
	}
	next.Fields = fields
	if isNamespaceKind(info) {
		prepareNamespaceUpdate(sub, cur, next)
	}
	next.APIVersion = cur.APIVersion
	next.Kind = cur.Kind
	defaultAppsObject(next)

	// rest.BeforeUpdate: fields the client cannot change.
	m.Generation = old.Generation
	if m.UID == "" {
		m.UID = old.UID
	}
	m.CreationTimestamp = old.CreationTimestamp
	if old.DeletionTimestamp != nil {
		m.DeletionTimestamp = old.DeletionTimestamp
	}
	if old.DeletionGracePeriodSeconds != nil && m.DeletionGracePeriodSeconds == nil {
		m.DeletionGracePeriodSeconds = old.DeletionGracePeriodSeconds
	}
	errs := append(validateObjectMetaUpdate(m, old), validateAppsUpdate(cur, next)...)
	if sub == statusSubresource {
		errs = append(errs, validateNamespacePhase(next)...)
	}
	if sub == finalizeSubresource {
		// ValidateNamespaceFinalizeUpdate, after the metadata checks.
		for i, f := range NamespaceFinalizers(next) {
			errs = append(errs, validateNamespaceFinalizerName(f, "spec.finalizers["+strconv.Itoa(i)+"]")...)
		}
	}
	if errs = append(errs, validateStatefulSetStatus(cur, next)...); len(errs) > 0 {
		return nil, newInvalid(qualifiedKind(info), m.Name, errs)
	}
	if m.Generation > 0 && generationChanges(info, cur, next) {
		m.Generation++
	}
	prepareDaemonSetUpdate(cur, next)
	normalizeMeta(m)

	// R9: emptied finalizers on an object deleting without a pending grace
	// period remove it; watchers see DELETED with the last stored state. A
	// namespace also needs empty spec.finalizers.
	if len(m.Finalizers) == 0 && old.DeletionTimestamp != nil && !namespaceHeld(info, next) &&
		(old.DeletionGracePeriodSeconds == nil || *old.DeletionGracePeriodSeconds == 0) {
		s.remove(keyOf(info, cur.Metadata.Namespace, cur.Metadata.Name), cur, false)
		return next, nil
	}
	return s.writeUpdate(keyOf(info, cur.Metadata.Namespace, cur.Metadata.Name), cur, next, false), nil
}
