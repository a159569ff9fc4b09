package fakeapi

import (
	"slices"
	"strconv"
	"time"

	"github.com/gcplay/gcplay/internal/strarena"
)

// Delete DELETEs the object at ref.
//
// It follows the DELETE handler, rest.BeforeDelete and the registry
// Store.Delete in their order:
//
//   - DeleteOptions are validated first (R5): the handler does it before
//     the object is read, so bad options on a missing object are 422;
//   - a missing object is 404 (R11);
//   - Namespaces: the namespace registry checks the preconditions, then the
//     NamespaceLifecycle admission plugin refuses default, kube-system and
//     kube-public; the registry marks a namespace Terminating on the first
//     DELETE and keeps it while spec.finalizers remain (deleteNamespace);
//   - preconditions are checked (R12, 409);
//   - the grace period of graceful kinds (Pods) is worked out (R18), and a
//     deletion already pending with an equal or shorter grace leaves the
//     object untouched (pendingGraceful, R19);
//   - the GC finalizers are resolved (R13, R14), and the object is either
//     written with a deletionTimestamp (MODIFIED) or removed (DELETED) as
//     R16 and R17 say;
//   - the code is 202 only when the object is still there and
//     orphanDependents=false was sent (R20);
//   - dryRun=All computes and returns everything and writes nothing (R21).
//
// A nil opts is a DELETE without a body, like an empty DeleteOptions (the
// apiserver's internal nil, meaning grace 0, cannot come over HTTP).
// Nothing here removes a terminating Pod when its grace period ends: a
// kubelet does that, elsewhere, by deleting it again with grace 0.
func (s *Store) Delete(client string, ref Ref, opts *DeleteOptions) (DeleteResult, error) {
	return s.deleteAs(client, ref, opts, view)
}

// DeleteShared is Delete for a caller that only reads the answer (the
// garbage collector's workers, the kubelet): the request is handled and recorded
// exactly as Delete does, but DeleteResult.Object is the stored (or last
// stored) snapshot itself rather than a copy (or, read through another
// apiVersion, a shallow copy with that apiVersion). It must not be
// modified.
func (s *Store) DeleteShared(client string, ref Ref, opts *DeleteOptions) (DeleteResult, error) {
	return s.deleteAs(client, ref, opts, sharedView)
}

// deleteAs handles and records a DELETE; answer makes the reply's object
// from the stored snapshot (view copies it, sharedView does not).
func (s *Store) deleteAs(client string, ref Ref, opts *DeleteOptions, answer func(*Object, string) *Object) (DeleteResult, error) {
	req := Request{Verb: "delete", Client: client, Ref: ref}
	if s.detailRead() {
		req.Detail = describeDeleteOptions(&s.text, opts)
	}
	res, se := s.delete(&req, ref, opts)
	if se == nil {
		req.Code = res.Code
	}
	s.finish(&req, se)
	if se != nil {
		return DeleteResult{}, se
	}
	res.Object = answer(res.Object, ref.APIVersion)
	return res, nil
}

// describeDeleteOptions is the one-line Detail of a DELETE, such as
// "propagationPolicy=Foreground, preconditions uid=uid-0003 rv=12",
// carved from text.
func describeDeleteOptions(text *strarena.Arena, o *DeleteOptions) string {
	if o == nil {
		return ""
	}
	// Built in one buffer: every DELETE the collector sends is described.
	var buf [128]byte
	b := buf[:0]
	sep := func() {
		if len(b) > 0 {
			b = append(b, ", "...)
		}
	}
	if o.PropagationPolicy != nil {
		b = append(b, "propagationPolicy="...)
		b = append(b, *o.PropagationPolicy...)
	}
	if o.OrphanDependents != nil {
		sep()
		b = append(b, "orphanDependents="...)
		b = strconv.AppendBool(b, *o.OrphanDependents)
	}
	if o.GracePeriodSeconds != nil {
		sep()
		b = append(b, "gracePeriodSeconds="...)
		b = strconv.AppendInt(b, *o.GracePeriodSeconds, 10)
	}
	if p := o.Preconditions; p != nil && (p.UID != nil || p.ResourceVersion != nil) {
		sep()
		b = append(b, "preconditions"...)
		if p.UID != nil {
			b = append(b, " uid="...)
			b = append(b, *p.UID...)
		}
		if p.ResourceVersion != nil {
			b = append(b, " rv="...)
			b = append(b, *p.ResourceVersion...)
		}
	}
	if len(o.DryRun) > 0 {
		sep()
		b = append(b, "dryRun="...)
		for i, d := range o.DryRun {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, d...)
		}
	}
	return text.String(b)
}

// copyDeleteOptions returns options the delete path may change (the grace
// period is filled in, as BeforeDelete does to its argument).
func copyDeleteOptions(in *DeleteOptions) *DeleteOptions {
	if in == nil {
		return &DeleteOptions{}
	}
	o := *in
	if in.GracePeriodSeconds != nil {
		o.GracePeriodSeconds = Int64(*in.GracePeriodSeconds)
	}
	return &o
}

// delete handles a DELETE. DeleteResult.Object is the stored snapshot
// (not yet the answer: see Delete and DeleteShared).
func (s *Store) delete(req *Request, ref Ref, in *DeleteOptions) (DeleteResult, *StatusError) {
	info, se := s.resolve(ref.APIVersion, ref.Kind)
	if se != nil {
		return DeleteResult{}, se
	}
	ns := ref.Namespace
	if !info.Namespaced() {
		ns = ""
	}
	if se := s.takeFault(req, info, ns, ref.Name); se != nil {
		return DeleteResult{}, se
	}
	opts := copyDeleteOptions(in)
	if errs := validateDeleteOptions(opts); len(errs) > 0 {
		return DeleteResult{}, errInvalidDeleteOptions(errs)
	}
	cur, se := s.lookupForRequest(info, ns, ref.Name)
	if se != nil {
		return DeleteResult{}, se
	}
	code := func(removed bool) int {
		if !removed && opts.OrphanDependents != nil && !*opts.OrphanDependents {
			return 202
		}
		return 200
	}
	if isNamespaceKind(info) {
		if res, done, se := s.deleteNamespace(info, cur, opts, code); done {
			return res, se
		}
	}
	key := keyOf(info, ns, ref.Name)
	m := &cur.Metadata

	// rest.BeforeDelete: preconditions fail early (R12). The resource in the
	// message is the kind, as BeforeDelete words it.
	if p := opts.Preconditions; p != nil {
		if p.UID != nil && *p.UID != m.UID {
			return DeleteResult{}, newConflict(qualifiedKind(info), m.Name,
				"the UID in the precondition ("+*p.UID+") does not match the UID in record ("+m.UID+
					"). The object might have been deleted and then recreated")
		}
		if p.ResourceVersion != nil && *p.ResourceVersion != m.ResourceVersion {
			return DeleteResult{}, newConflict(qualifiedKind(info), m.Name,
				"the ResourceVersion in the precondition ("+*p.ResourceVersion+") does not match the ResourceVersion in record ("+
					m.ResourceVersion+"). The object might have been modified")
		}
	}
	// Negative grace periods count as 1 second: the request's, and a
	// stored deletionGracePeriodSeconds (which only a restored object can
	// hold: create clears it and updates cannot change it), as BeforeDelete
	// sets both to 1 on the object in hand; that copy is what a pending
	// graceful deletion answers with.
	if g := opts.GracePeriodSeconds; g != nil && *g < 0 {
		opts.GracePeriodSeconds = Int64(1)
	}
	storedGrace := m.DeletionGracePeriodSeconds
	if storedGrace != nil && *storedGrace < 0 {
		storedGrace = Int64(1)
	}

	now := s.now()
	dryRun := len(opts.DryRun) > 0
	graceful, pendingGraceful := false, false
	var newDeletionTimestamp *Time
	var newGrace *int64
	bumpGeneration := false
	if info.Graceful {
		switch {
		case m.DeletionTimestamp == nil:
			// First deletion: CheckGracefulDelete (R18).
			period := podGracePeriod(cur, opts.GracePeriodSeconds)
			graceful = true
			newDeletionTimestamp, newGrace = s.stamps.get(now.Add(time.Duration(period)*time.Second), period)
			opts.GracePeriodSeconds = newGrace // only read from here on
			bumpGeneration = m.Generation > 0
		case storedGrace == nil || *storedGrace == 0:
			// Already deleting with no grace pending: not graceful; the
			// finalizers are resolved again below (R19).
		case opts.GracePeriodSeconds == nil:
			pendingGraceful = true
		case *opts.GracePeriodSeconds >= *storedGrace:
			pendingGraceful = true
		default:
			// Only a shorter grace period may be given (R18).
			period := *opts.GracePeriodSeconds
			graceful = true
			t := m.DeletionTimestamp.Add(-time.Duration(*storedGrace) * time.Second).
				Add(time.Duration(period) * time.Second)
			// A deletionTimestamp the shorter grace would put in the
			// past becomes now, and a grace above 0 becomes 1: another
			// client (the kubelet) still deletes it with grace 0.
			if t.Before(s.clock.Now()) {
				t = now
				if period != 0 {
					period = 1
				}
			}
			newDeletionTimestamp, newGrace = s.stamps.get(t, period)
		}
	}
	// pendingGraceful: the object is returned unchanged; the finalizers
	// cannot be changed through DeleteOptions then (R16, R19).
	if pendingGraceful {
		if storedGrace != m.DeletionGracePeriodSeconds {
			c := *cur
			c.Metadata.DeletionGracePeriodSeconds = storedGrace
			return DeleteResult{Object: &c, Code: code(false)}, nil
		}
		return DeleteResult{Object: cur, Code: code(false)}, nil
	}

	changed, finalizers := gcFinalizers(info, m.Finalizers, opts)
	if !graceful && len(m.Finalizers) == 0 && !changed {
		// R16: nothing holds the object; it is removed at once, with one
		// DELETED event and no MODIFIED before it.
		s.remove(key, cur, dryRun)
		return DeleteResult{Object: cur, Code: code(true), Removed: !dryRun}, nil
	}

	// updateForGracefulDeletionAndFinalizers (R17). The new state shares
	// the lists, maps and pointers it does not change with the stored one:
	// stored objects are never modified, and below only whole fields of
	// next.Metadata are assigned.
	next := &Object{APIVersion: cur.APIVersion, Kind: cur.Kind, Metadata: *m, Fields: cur.Fields}
	if changed {
		next.Metadata.Finalizers = finalizers
	}
	pendingFinalizers := len(next.Metadata.Finalizers) > 0
	if !graceful {
		if !pendingFinalizers {
			// The GC finalizers were the only ones and the policy drops
			// them: removed now, without writing the update first.
			s.remove(key, cur, dryRun)
			return DeleteResult{Object: cur, Code: code(true), Removed: !dryRun}, nil
		}
		markAsDeleting(&next.Metadata, now)
		stored := s.writeUpdate(key, cur, next, dryRun)
		return DeleteResult{Object: stored, Code: code(false)}, nil
	}
	next.Metadata.DeletionTimestamp = newDeletionTimestamp
	next.Metadata.DeletionGracePeriodSeconds = newGrace
	if bumpGeneration {
		next.Metadata.Generation++
	}
	if pendingFinalizers || *opts.GracePeriodSeconds > 0 {
		stored := s.writeUpdate(key, cur, next, dryRun)
		return DeleteResult{Object: stored, Code: code(false)}, nil
	}
	// Graceful kind, grace 0, no finalizers: written first (MODIFIED), then
	// removed (DELETED), R16. The resourceVersion precondition moves to the
	// version just written (R12), so it holds. Nothing can read storage
	// between the two, so the written state is announced without being put
	// in the tables only to be taken out again.
	stored := s.writeUpdateThenRemove(key, cur, next, dryRun)
	return DeleteResult{Object: stored, Code: code(true), Removed: !dryRun}, nil
}

// podGracePeriod is the pod strategy's CheckGracefulDelete (R18): the
// requested grace period, else spec.terminationGracePeriodSeconds, else 30
// (the value API defaulting gives that field); 0 when the pod is not
// scheduled or has finished; a negative value becomes 1.
func podGracePeriod(pod *Object, requested *int64) int64 {
	var period int64 = 30
	if requested != nil {
		period = *requested
	} else if v, ok := pod.Fields.Nested("spec", "terminationGracePeriodSeconds"); ok {
		if n, ok := numberValue(v); ok {
			period = n
		}
	}
	if node, _ := pod.Fields.Nested("spec", "nodeName"); node == nil || node == "" {
		period = 0
	}
	if phase, _ := pod.Fields.Nested("status", "phase"); phase == "Succeeded" || phase == "Failed" {
		period = 0
	}
	if period < 0 {
		period = 1
	}
	return period
}

// gcFinalizers is deletionFinalizersForGarbageCollection (R13, R14): it
// removes both GC finalizers, keeps the others in order, appends orphan
// and/or foregroundDeletion as the policy says, and reports a change only
// when the set of finalizers changed.
func gcFinalizers(info KindInfo, current []string, opts *DeleteOptions) (bool, []string) {
	orphan := shouldOrphanDependents(info, current, opts)
	foreground := shouldDeleteDependents(info, current, opts)
	if !orphan && !foreground && !slices.Contains(current, FinalizerOrphanDependents) && !slices.Contains(current, FinalizerDeleteDependents) {
		return false, current // the common case: nothing to add or remove
	}
	next := make([]string, 0, len(current)+1)
	for _, f := range current {
		if f != FinalizerOrphanDependents && f != FinalizerDeleteDependents {
			next = append(next, f)
		}
	}
	if orphan {
		next = append(next, FinalizerOrphanDependents)
	}
	if foreground {
		next = append(next, FinalizerDeleteDependents)
	}
	if sameSet(current, next) {
		return false, current
	}
	return true, next
}

func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// shouldOrphanDependents resolves the orphan finalizer (R13): an
// Unsupported default never orphans; then orphanDependents; then
// propagationPolicy; then the first GC finalizer on the object; then the
// kind's default for the request's version (R15).
func shouldOrphanDependents(info KindInfo, finalizers []string, opts *DeleteOptions) bool {
	if info.DefaultPolicy == PolicyUnsupported {
		return false
	}
	if opts.OrphanDependents != nil {
		return *opts.OrphanDependents
	}
	if opts.PropagationPolicy != nil {
		switch *opts.PropagationPolicy {
		case DeletePropagationOrphan:
			return true
		case DeletePropagationBackground, DeletePropagationForeground:
			return false
		}
	}
	for _, f := range finalizers {
		switch f {
		case FinalizerOrphanDependents:
			return true
		case FinalizerDeleteDependents:
			return false
		}
	}
	return info.DefaultPolicy == PolicyOrphan
}

// shouldDeleteDependents resolves the foregroundDeletion finalizer (R13):
// as shouldOrphanDependents, except that any orphanDependents value means
// no, and Foreground is never a default.
func shouldDeleteDependents(info KindInfo, finalizers []string, opts *DeleteOptions) bool {
	if info.DefaultPolicy == PolicyUnsupported {
		return false
	}
	if opts.OrphanDependents != nil {
		return false
	}
	if opts.PropagationPolicy != nil {
		switch *opts.PropagationPolicy {
		case DeletePropagationForeground:
			return true
		case DeletePropagationBackground, DeletePropagationOrphan:
			return false
		}
	}
	for _, f := range finalizers {
		switch f {
		case FinalizerDeleteDependents:
			return true
		case FinalizerOrphanDependents:
			return false
		}
	}
	return false
}

// markAsDeleting marks a non-graceful object that still has finalizers
// (R17): deletionTimestamp now unless an earlier one exists,
// deletionGracePeriodSeconds 0, and generation up on the first deletion.
func markAsDeleting(m *ObjectMeta, now time.Time) {
	if m.DeletionTimestamp == nil && m.Generation > 0 {
		m.Generation++
	}
	if m.DeletionTimestamp == nil || m.DeletionTimestamp.After(now) {
		m.DeletionTimestamp = &Time{now}
	}
	m.DeletionGracePeriodSeconds = Int64(0)
}

// deletionStamps hands out the deletionTimestamp and
// deletionGracePeriodSeconds of graceful deletions. A cascade deletes
// thousands of Pods at one instant with one grace period, and the kubelet
// shortens all their graces to 0 when it has passed; as stored objects
// and what they point to are never modified, those Pods share one pair of
// values instead of allocating two for each.
type deletionStamps struct {
	at    *Time
	grace *int64
}

func (d *deletionStamps) get(at time.Time, grace int64) (*Time, *int64) {
	if d.at == nil || d.at.Time != at {
		d.at = &Time{at}
	}
	if d.grace == nil || *d.grace != grace {
		d.grace = Int64(grace)
	}
	return d.at, d.grace
}
