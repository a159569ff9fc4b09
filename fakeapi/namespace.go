package fakeapi

import (
	"slices"
	"strings"
)

// Namespace lifecycle, as the namespace registry (pkg/registry/core/namespace)
// and the NamespaceLifecycle admission plugin have it:
//
//   - create (namespaceStrategy.PrepareForCreate, Canonicalize): status is
//     {phase: Active} whatever the client sent, spec.finalizers gets
//     "kubernetes" appended when missing, and the label
//     kubernetes.io/metadata.name carries the name;
//   - update and patch (PrepareForUpdate): spec.finalizers and status are
//     kept from storage: only the finalize and status subresources change
//     them;
//   - DELETE (REST.Delete): the first one sets deletionTimestamp and
//     status.phase Terminating, keeps spec.finalizers, and sets or clears
//     the GC finalizers only as the request's options say (a namespace has
//     no default policy); a later one returns the namespace unchanged while
//     spec.finalizers is not empty, and is an ordinary delete after that;
//   - a namespace leaves storage when a write leaves both spec.finalizers
//     and metadata.finalizers empty once it is deleting
//     (ShouldDeleteNamespaceDuringUpdate).

// FinalizerKubernetes is the spec.finalizers entry every namespace gets on
// create, and that the namespace controller removes through the finalize
// subresource once the namespace is empty.
const FinalizerKubernetes = "kubernetes"

// The phases of a namespace.
const (
	NamespaceActive      = "Active"
	NamespaceTerminating = "Terminating"
)

// labelMetadataName is the label the apiserver puts on every namespace.
const labelMetadataName = "kubernetes.io/metadata.name"

// isNamespaceKind reports whether info is core/v1 Namespace.
func isNamespaceKind(info KindInfo) bool { return info.Group() == "" && info.Kind == "Namespace" }

// NamespaceFinalizers returns the spec.finalizers of a Namespace.
func NamespaceFinalizers(o *Object) []string {
	v, _ := nestedField(o.Fields, "spec", "finalizers")
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, f := range l {
		if s, ok := f.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// NamespacePhase returns the status.phase of a Namespace ("" when unset).
func NamespacePhase(o *Object) string {
	v, _ := nestedField(o.Fields, "status", "phase")
	s, _ := v.(string)
	return s
}

// withField returns a copy of fields whose top-level map key holds a copy
// of its map with sub set to v (stored objects are never modified).
func withField(fields Fields, key, sub string, v any) Fields {
	out := fields.Clone()
	inner := map[string]any{}
	if m, ok := fields.Get(key).(map[string]any); ok {
		for k, x := range m {
			inner[k] = x
		}
	}
	if v == nil {
		delete(inner, sub)
	} else {
		inner[sub] = v
	}
	if len(inner) == 0 {
		out.Delete(key)
	} else {
		out.Set(key, inner)
	}
	return out
}

func stringList(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

// prepareNamespaceCreate is namespaceStrategy.PrepareForCreate and
// Canonicalize: phase Active, the kubernetes finalizer, the name label.
func prepareNamespaceCreate(o *Object) {
	o.Fields.Set("status", map[string]any{"phase": NamespaceActive})
	fins := NamespaceFinalizers(o)
	if !slices.Contains(fins, FinalizerKubernetes) {
		o.Fields = withField(o.Fields, "spec", "finalizers", stringList(append(fins, FinalizerKubernetes)))
	}
	setNameLabel(&o.Metadata)
}

func setNameLabel(m *ObjectMeta) {
	if m.Labels[labelMetadataName] == m.Name {
		return
	}
	labels := make(map[string]string, len(m.Labels)+1)
	for k, v := range m.Labels {
		labels[k] = v
	}
	labels[labelMetadataName] = m.Name
	m.Labels = labels
}

// The ways an update reaches a namespace: the object itself, or its
// status or finalize subresource.
type subresource int

const (
	mainResource subresource = iota
	statusSubresource
	finalizeSubresource
)

// prepareNamespaceUpdate is the PrepareForUpdate of the namespace
// strategy the request went through: the main resource keeps
// spec.finalizers and status from storage, /status keeps spec, /finalize
// keeps status (an empty phase sent to /status is Active, as defaulting
// makes it). The name label is put back in every case.
func prepareNamespaceUpdate(sub subresource, cur, next *Object) {
	switch sub {
	case mainResource:
		var fins []any
		if v, ok := nestedField(cur.Fields, "spec", "finalizers"); ok {
			fins, _ = v.([]any)
		}
		var finsAny any
		if fins != nil {
			finsAny = fins
		}
		next.Fields = withField(next.Fields, "spec", "finalizers", finsAny)
		next.Fields = setTop(next.Fields, "status", cur.Fields.Get("status"))
	case statusSubresource:
		next.Fields = setTop(next.Fields, "spec", cur.Fields.Get("spec"))
		if NamespacePhase(next) == "" {
			// SetDefaults_NamespaceStatus, as the request body is
			// decoded: a status without a phase is Active.
			next.Fields = withField(next.Fields, "status", "phase", NamespaceActive)
		}
	case finalizeSubresource:
		next.Fields = setTop(next.Fields, "status", cur.Fields.Get("status"))
	}
	setNameLabel(&next.Metadata)
}

// setTop returns a copy of fields with key set to v (removed when v is nil).
func setTop(fields Fields, key string, v any) Fields {
	out := fields.Clone()
	if v == nil {
		out.Delete(key)
	} else {
		out.Set(key, v)
	}
	return out
}

// namespaceHeld reports whether a Namespace still has spec.finalizers,
// which keep it in storage whatever its metadata.finalizers say.
func namespaceHeld(info KindInfo, o *Object) bool {
	return isNamespaceKind(info) && len(NamespaceFinalizers(o)) > 0
}

// deleteNamespace is the namespace registry's REST.Delete up to the point
// where it hands over to the generic delete: it answers the first DELETE
// (mark terminating) and a DELETE while spec.finalizers remain (nothing
// changes). done is false when the generic delete must go on: the
// namespace has already been finalized.
func (s *Store) deleteNamespace(info KindInfo, cur *Object, opts *DeleteOptions, code func(bool) int) (res DeleteResult, done bool, se *StatusError) {
	m := &cur.Metadata
	// REST.Delete always sends a UID precondition, and checks both itself,
	// with its own wording.
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != m.UID {
			return DeleteResult{}, true, newConflict("namespaces", m.Name,
				"Precondition failed: UID in precondition: "+*p.UID+", UID in object meta: "+m.UID)
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
			return DeleteResult{}, true, newConflict("namespaces", m.Name,
				"Precondition failed: ResourceVersion in precondition: "+*p.ResourceVersion+", ResourceVersion in object meta: "+m.ResourceVersion)
		}
	}
	// The NamespaceLifecycle admission plugin refuses default, kube-system
	// and kube-public: it runs as the delete's validation, inside the
	// write, after the preconditions.
	if slices.Contains(immortalNamespaces, m.Name) {
		return DeleteResult{}, true, newForbidden("namespaces", m.Name, "this namespace may not be deleted")
	}
	if m.DeletionTimestamp == nil {
		next := &Object{APIVersion: cur.APIVersion, Kind: cur.Kind, Metadata: *m, Fields: cur.Fields}
		next.Metadata.DeletionTimestamp = &Time{s.now()}
		if NamespacePhase(cur) != NamespaceTerminating {
			next.Fields = withField(next.Fields, "status", "phase", NamespaceTerminating)
		}
		next.Metadata.Finalizers = namespaceGCFinalizers(m.Finalizers, opts)
		stored := s.writeUpdate(keyOf(info, "", m.Name), cur, next, len(opts.DryRun) > 0)
		return DeleteResult{Object: stored, Code: code(false)}, true, nil
	}
	if len(NamespaceFinalizers(cur)) > 0 {
		return DeleteResult{Object: cur, Code: code(false)}, true, nil
	}
	return DeleteResult{}, false, nil
}

// namespaceGCFinalizers is the finalizer part of the first DELETE of a
// namespace (shouldHaveOrphanFinalizer, shouldHaveDeleteDependentsFinalizer):
// orphanDependents, else propagationPolicy, decides; without either the
// namespace keeps what it has. Upstream rebuilds the list from a map, in no
// fixed order; here the finalizers kept stay in order and new ones follow.
func namespaceGCFinalizers(current []string, opts *DeleteOptions) []string {
	orphan := slices.Contains(current, FinalizerOrphanDependents)
	foreground := slices.Contains(current, FinalizerDeleteDependents)
	switch {
	case opts.OrphanDependents != nil:
		orphan, foreground = *opts.OrphanDependents, !*opts.OrphanDependents
	case opts.PropagationPolicy != nil:
		orphan = *opts.PropagationPolicy == DeletePropagationOrphan
		foreground = *opts.PropagationPolicy == DeletePropagationForeground
	}
	out := make([]string, 0, len(current)+1)
	for _, f := range current {
		if (f == FinalizerOrphanDependents && !orphan) || (f == FinalizerDeleteDependents && !foreground) {
			continue
		}
		out = append(out, f)
	}
	if orphan && !slices.Contains(out, FinalizerOrphanDependents) {
		out = append(out, FinalizerOrphanDependents)
	}
	if foreground && !slices.Contains(out, FinalizerDeleteDependents) {
		out = append(out, FinalizerDeleteDependents)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// UpdateStatus PUTs obj to the status subresource of a Namespace: only
// status changes; spec is kept from storage (namespaceStatusStrategy).
// The namespace controller writes its phase and conditions this way.
func (s *Store) UpdateStatus(client string, obj *Object) (*Object, error) {
	return s.updateSubresource(client, obj, statusSubresource)
}

// Finalize PUTs obj to the finalize subresource of a Namespace: only
// spec.finalizers changes; status is kept from storage
// (namespaceFinalizeStrategy), and every entry must be a standard or
// qualified finalizer name. When it leaves spec.finalizers and
// metadata.finalizers empty on a deleting namespace, the namespace is
// removed. This is how the namespace controller releases a namespace, and
// the only way a client can remove the "kubernetes" finalizer (an update
// or patch of the namespace keeps spec.finalizers).
func (s *Store) Finalize(client string, obj *Object) (*Object, error) {
	return s.updateSubresource(client, obj, finalizeSubresource)
}

func (s *Store) updateSubresource(client string, obj *Object, sub subresource) (*Object, error) {
	name := "status"
	if sub == finalizeSubresource {
		name = "finalize"
	}
	req := Request{Verb: "update", Client: client, Code: 200}
	if obj != nil {
		req.Ref = RefOf(obj)
		d := []string{"/" + name}
		if sub == finalizeSubresource {
			d = append(d, "spec.finalizers=["+strings.Join(NamespaceFinalizers(obj), ",")+"]")
		}
		if obj.Metadata.ResourceVersion != "" {
			d = append(d, "resourceVersion="+obj.Metadata.ResourceVersion)
		}
		req.Detail = strings.Join(d, " ")
	}
	out, se := s.updateSub(&req, obj, sub)
	s.finish(&req, se)
	if se != nil {
		return nil, se
	}
	return out, nil
}

func (s *Store) updateSub(req *Request, in *Object, sub subresource) (*Object, *StatusError) {
	if in == nil {
		return nil, NewError(ReasonBadRequest, "the body of the request was empty")
	}
	info, se := s.resolve(in.APIVersion, in.Kind)
	if se != nil {
		return nil, se
	}
	if !isNamespaceKind(info) {
		// Only namespaces have a finalize subresource; gcplay writes other
		// kinds' status with a plain update (see the package doc).
		return nil, errNoResource()
	}
	if se := s.takeFault(req, info, "", in.Metadata.Name); se != nil {
		return nil, se
	}
	cur, se := s.lookupForRequest(info, "", in.Metadata.Name)
	if se != nil {
		return nil, se
	}
	if se := uidPrecondition(info, in, cur); se != nil {
		return nil, se
	}
	next := in.DeepCopy()
	next.Metadata.Namespace = ""
	out, se := s.applyUpdateTo(sub, info, cur, next)
	if se != nil {
		return nil, se
	}
	return view(out, in.APIVersion), nil
}

// validateNamespacePhase is the phase rule of ValidateNamespaceStatusUpdate:
// Active while deletionTimestamp is unset, Terminating once it is set. An
// empty phase is Active, as API defaulting makes it. (The field path is
// upstream's, with its capital P.)
func validateNamespacePhase(o *Object) []fieldError {
	phase := NamespacePhase(o)
	if phase == "" {
		phase = NamespaceActive
	}
	switch {
	case o.Metadata.DeletionTimestamp == nil && phase != NamespaceActive:
		return []fieldError{invalidField("status.Phase", jsonValue(phase), "may only be 'Active' if `deletionTimestamp` is empty")}
	case o.Metadata.DeletionTimestamp != nil && phase != NamespaceTerminating:
		return []fieldError{invalidField("status.Phase", jsonValue(phase), "may only be 'Terminating' if `deletionTimestamp` is not empty")}
	}
	return nil
}

// validateNamespaceFinalizerName is validateFinalizerName of the core
// validation: a qualified name, and one without a "/" must be a standard
// finalizer name (kubernetes, orphan, foregroundDeletion). ValidateNamespace
// (create) reports every entry at path spec.finalizers,
// ValidateNamespaceFinalizeUpdate at spec.finalizers[i].
func validateNamespaceFinalizerName(f, path string) []fieldError {
	var errs []fieldError
	for _, msg := range isQualifiedName(f) {
		errs = append(errs, invalidField(path, goString(f), msg))
	}
	if !strings.Contains(f, "/") && f != FinalizerKubernetes && f != FinalizerOrphanDependents && f != FinalizerDeleteDependents {
		errs = append(errs, invalidField(path, goString(f), "name is neither a standard finalizer name nor is it fully qualified"))
	}
	return errs
}

// DeleteCollection DELETEs every object of a kind in a namespace, as the
// registry's Store.DeleteCollection does: it lists them, then deletes each
// one with the same options, as if by its own DELETE (so each follows the
// deletion rules, R13-R21). An object that vanished meanwhile is skipped;
// the first other error ends the request. It is recorded as one request
// (verb "deletecollection"); the watch events of every deletion follow it.
// The namespace controller empties a namespace this way.
func (s *Store) DeleteCollection(client, apiVersion, kind, namespace string, opts *DeleteOptions) error {
	req := Request{Verb: "deletecollection", Client: client, Code: 200,
		Ref: Ref{APIVersion: apiVersion, Kind: kind, Namespace: namespace}}
	if s.detailRead() {
		req.Detail = describeDeleteOptions(&s.text, opts)
	}
	se := s.deleteCollection(&req, apiVersion, kind, namespace, opts)
	s.finish(&req, se)
	if se != nil {
		return se
	}
	return nil
}

func (s *Store) deleteCollection(req *Request, apiVersion, kind, namespace string, opts *DeleteOptions) *StatusError {
	info, se := s.resolve(apiVersion, kind)
	if se != nil {
		return se
	}
	if !info.Namespaced() {
		namespace = ""
	}
	if se := s.takeFault(req, info, namespace, ""); se != nil {
		return se
	}
	if errs := validateDeleteOptions(copyDeleteOptions(opts)); len(errs) > 0 {
		return errInvalidDeleteOptions(errs)
	}
	for _, o := range s.listObjects(info, apiVersion, namespace, view) {
		// Each item is deleted inside this request: no fault of its own.
		item := Request{}
		ref := Ref{APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: o.Metadata.Name}
		if _, se := s.delete(&item, ref, opts); se != nil && se.Reason != ReasonNotFound {
			return se
		}
	}
	return nil
}
