package fakeapi

import "strconv"

// maxNameGenerationAttempts is how often a create with generateName tries
// a new name after a clash (the apiserver's RetryGenerateName behaviour).
const maxNameGenerationAttempts = 8

// Create POSTs obj on behalf of client and returns the stored object as
// read through obj's apiVersion.
//
// It follows rest.BeforeCreate and Store.create (R7, R8): the namespace
// must exist and not be terminating (NamespaceLifecycle admission; the
// store does not default it, callers fill "default"); a cluster-scoped
// kind's namespace is cleared; generateName gets a deterministic 5-letter
// suffix; deletionTimestamp and deletionGracePeriodSeconds are cleared;
// the metadata is validated (R2, R3); the UID is assigned from the counter
// unless obj carries one (scenario files may fix UIDs; a UID already used
// by a stored object is refused); creationTimestamp is now; generation is
// 1 for the kinds whose strategy starts it (startsGeneration). GC finalizers and ownerReferences to missing
// owners are accepted (R7). A name in use is 409 AlreadyExists, prefixed
// "object is being deleted: " when the holder is terminating (R8).
func (s *Store) Create(client string, obj *Object) (*Object, error) {
	req := Request{Verb: "create", Client: client, Code: 201}
	if obj != nil {
		req.Ref = RefOf(obj)
		if obj.Metadata.Name == "" && obj.Metadata.GenerateName != "" {
			req.Detail = "generateName=" + obj.Metadata.GenerateName
		}
	}
	out, se := s.create(&req, obj)
	s.finish(&req, se)
	if se != nil {
		return nil, se
	}
	return out, nil
}

func (s *Store) create(req *Request, in *Object) (*Object, *StatusError) {
	if in == nil {
		return nil, NewError(ReasonBadRequest, "the body of the request was empty")
	}
	info, se := s.resolve(in.APIVersion, in.Kind)
	if se != nil {
		return nil, se
	}
	obj := in.DeepCopy()
	if !info.Namespaced() {
		obj.Metadata.Namespace = ""
	}
	if se := s.takeFault(req, info, obj.Metadata.Namespace, obj.Metadata.Name); se != nil {
		return nil, se
	}
	if se := s.admitCreate(info, obj.Metadata.Namespace, admissionName(&obj.Metadata)); se != nil {
		return nil, se
	}
	fields, err := canonicalFields(obj.Fields)
	if err != nil {
		return nil, NewError(ReasonBadRequest, "the object cannot be written as JSON: %v", err)
	}
	obj.Fields = fields
	namespace := isNamespaceKind(info)
	if namespace {
		prepareNamespaceCreate(obj)
	}
	obj.APIVersion = s.storageVersion(info)
	obj.Kind = info.Kind
	defaultAppsObject(obj)

	m := &obj.Metadata
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.Generation = 0
	if startsGeneration(info) {
		m.Generation = 1
	}
	normalizeMeta(m)

	generate := m.Name == "" && m.GenerateName != ""
	attempts := 1
	if generate {
		attempts = maxNameGenerationAttempts
	}
	var key objKey
	for attempt := 0; ; attempt++ {
		if generate {
			m.Name = s.generateName(m.GenerateName)
		}
		errs := append(validateObjectMeta(info, m), validateAppsCreate(obj)...)
		if namespace {
			setNameLabel(m)
			for _, f := range NamespaceFinalizers(obj) {
				errs = append(errs, validateNamespaceFinalizerName(f, "spec.finalizers")...)
			}
		}
		if len(errs) > 0 {
			return nil, newInvalid(qualifiedKind(info), m.Name, errs)
		}
		if resourceVersionSetOnCreate(m.ResourceVersion) {
			return nil, NewUnknownError("resourceVersion should not be set on objects to be created")
		}
		key = keyOf(info, m.Namespace, m.Name)
		existing := s.object(key)
		if existing == nil {
			break
		}
		// Store.create: the clash is AlreadyExists, worded by
		// rest.CheckGeneratedNameError (NewGenerateNameConflict) for a
		// generated name, and prefixed when the holder is terminating;
		// createWithGenerateNameRetry tries a new name on every
		// AlreadyExists, terminating holder or not, and returns the
		// last attempt's error.
		if generate && attempt+1 < attempts {
			continue
		}
		se := NewError(ReasonAlreadyExists, "%s %q already exists", qualifiedResource(info), m.Name)
		if generate {
			se = NewError(ReasonAlreadyExists, "%s %q already exists, the server was not able to generate a unique name for the object",
				qualifiedResource(info), m.Name)
		}
		if existing.Metadata.DeletionTimestamp != nil {
			se.Message = "object is being deleted: " + se.Message
		}
		return nil, se
	}

	if m.UID != "" {
		if s.byUID.Has(m.UID) {
			return nil, newInvalid(qualifiedKind(info), m.Name, []fieldError{duplicateField("metadata.uid", goString(m.UID))})
		}
		s.giveUID(m.UID)
	} else {
		m.UID = s.newUID()
	}
	prepareBatchCreate(obj)
	prepareDaemonSetCreate(obj)
	preparePodCreate(obj)
	m.CreationTimestamp = &Time{s.now()}
	m.ResourceVersion = s.nextRV() // what the storage's PrepareObjectForStorage clears, etcd's revision
	s.insert(key, obj)
	req.Ref = RefOf(obj)
	req.Ref.APIVersion = in.APIVersion
	return view(obj, in.APIVersion), nil
}

// startsGeneration reports whether the kind's strategy starts generation
// at 1 on create (its PrepareForCreate): among gcplay's built-in kinds the
// workloads and Pods; every custom resource (customResourceStrategy). The
// others (ConfigMap, Service, PersistentVolumeClaim, Node, ...) keep 0.
func startsGeneration(info KindInfo) bool {
	if info.Custom {
		return true
	}
	switch info.Kind {
	case "Pod", "ReplicationController", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob":
		return true
	}
	return false
}

// admissionName is the name an admission error gives the object of a
// create (admission's extractResourceName): its name, else its
// generateName (admission runs before the name is generated), else
// "Unknown".
func admissionName(m *ObjectMeta) string {
	switch {
	case m.Name != "":
		return m.Name
	case m.GenerateName != "":
		return m.GenerateName
	}
	return "Unknown"
}

// admitCreate is the part of the NamespaceLifecycle admission plugin that
// guards creates: the namespace must exist, and its phase must not be
// Terminating. name is the object's name as admission words it
// (admissionName).
func (s *Store) admitCreate(info KindInfo, namespace, name string) *StatusError {
	if !info.Namespaced() || namespace == "" {
		return nil
	}
	ns := s.object(namespaceKey(namespace))
	if ns == nil {
		return NewNotFound("namespaces", namespace)
	}
	if NamespacePhase(ns) == NamespaceTerminating {
		return newForbidden(qualifiedResource(info), name,
			"unable to create new content in namespace "+namespace+" because it is being terminated")
	}
	return nil
}

// resourceVersionSetOnCreate is the etcd3 store's check in Create: a
// resourceVersion that APIObjectVersioner.ObjectResourceVersion reads as
// a number other than 0 is storage.ErrResourceVersionSetOnCreate, a plain
// error the registry passes through (a 500 with no reason); one that is
// not a number, or is "0", is let through and replaced by the stored
// object's own.
func resourceVersionSetOnCreate(rv string) bool {
	if rv == "" {
		return false
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	return err == nil && n != 0
}
