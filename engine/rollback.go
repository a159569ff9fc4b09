package engine

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// kubectlClient is the client name of requests kubectl makes for a user.
const kubectlClient = "kubectl"

// RolloutUndo is `kubectl rollout undo deployment/NAME [--to-revision=N]`:
// apps/v1 has no rollback subresource, so kubectl does it on the client
// (DeploymentRollbacker.Rollback in kubectl's polymorphichelpers): it
// finds the Deployment's ReplicaSet of that revision (ToRevision 0: the
// one before the newest) and writes that ReplicaSet's pod template, less
// the pod-template-hash label, and its annotations back into the
// Deployment. The Deployment controller then finds the old ReplicaSet
// equal to the template, gives it the next revision and scales it up.
//
// kubectl sends a JSON patch replacing /spec/template and
// /metadata/annotations; gcplay's apiserver has no JSON patch, so the
// same change is written with an update of the object kubectl read.
type RolloutUndo struct {
	Ref        fakeapi.Ref
	ToRevision int64
}

func (a RolloutUndo) String() string {
	s := "rollout undo " + a.Ref.String()
	if a.ToRevision != 0 {
		s += fmt.Sprintf(" --to-revision=%d", a.ToRevision)
	}
	return s
}

func (a RolloutUndo) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	switch a.Ref.Kind {
	case "Deployment":
	case "StatefulSet", "DaemonSet":
		return a.undoFromHistory(w, rec)
	default:
		return w.userEnd(fakeapi.NewError(fakeapi.ReasonBadRequest, "rollout undo is only implemented for Deployments, StatefulSets and DaemonSets here, not %s", a.Ref.Kind))
	}
	if a.ToRevision < 0 {
		return w.userEnd(revisionNotFound(a.ToRevision))
	}
	d, err := w.store.Get(kubectlClient, a.Ref)
	if err != nil {
		return w.userEnd(err)
	}
	if nestedBool(specOf(d), "paused") {
		return w.userEnd(errSay("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"))
	}
	rs, err := rsForRevision(w, d, a.ToRevision)
	if err != nil {
		return w.userEnd(err)
	}
	rev, _ := revisionOf(rs)
	if equalIgnoreHash(rsTemplate(rs), nestedMap(specOf(d), "template")) {
		rec.Reason = Reason{Code: "RollbackSkipped", Func: "DeploymentRollbacker.Rollback"}.
			Say("skipped rollback (current template already matches revision %d)", rev)
		return w.end(), nil
	}
	tmpl := templateWithoutHash(rsTemplate(rs))
	annotations := map[string]string{}
	for k, v := range d.Metadata.Annotations {
		if rollbackSkipAnnotation(k) {
			annotations[k] = v
		}
	}
	for k, v := range rs.Metadata.Annotations {
		if !rollbackSkipAnnotation(k) {
			annotations[k] = v
		}
	}
	fresh := d.DeepCopy()
	specOf(fresh)["template"] = copyJSONMap(tmpl)
	if len(annotations) == 0 {
		annotations = nil
	}
	fresh.Metadata.Annotations = annotations
	out, err := w.store.Update(kubectlClient, fresh)
	if err != nil {
		return w.userEnd(errSay("failed restoring revision %d: %v", rev, err))
	}
	changed := "its pod template"
	if !reflect.DeepEqual(d.Metadata.Annotations, out.Metadata.Annotations) {
		changed += " and annotations"
	}
	rec.Reason = Reason{Code: "RolledBack", Func: "DeploymentRollbacker.Rollback, deploymentRevision"}.
		Say("rolled back: %s has %s from %s (revision %d); the Deployment controller makes that ReplicaSet the new one, with the next revision", a.Ref, changed, rs, rev)
	return w.end(), nil
}

// rollbackSkipAnnotation is kubectl's annotationsToSkip: the Deployment
// keeps its own values of these.
func rollbackSkipAnnotation(k string) bool {
	return skipCopyAnnotation(k) || k == "deprecated.deployment.rollback.to"
}

// rsForRevision is kubectl's deploymentRevision: among the ReplicaSets the
// Deployment controls, the one of revision to, or for 0 the second newest.
func rsForRevision(w *World, d *fakeapi.Object, to int64) (*fakeapi.Object, error) {
	rss, err := w.store.List(kubectlClient, "apps/v1", "ReplicaSet", d.Metadata.Namespace)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve replica sets from deployment %s: %v", d.Metadata.Name, err)
	}
	var latest, previous *fakeapi.Object
	latestRev, previousRev := int64(-1), int64(-1)
	for _, rs := range rss {
		if ref := controllerOf(rs); ref == nil || ref.UID != d.Metadata.UID {
			continue
		}
		v, err := revisionOf(rs)
		if err != nil {
			continue
		}
		switch {
		case to == 0 && latestRev < v:
			previous, previousRev = latest, latestRev
			latest, latestRev = rs, v
		case to == 0 && previousRev < v:
			previous, previousRev = rs, v
		case to != 0 && to == v:
			return rs, nil
		}
	}
	if to > 0 {
		return nil, revisionNotFound(to)
	}
	if previous == nil {
		return nil, errSay("no rollout history found for deployment %q", d.Metadata.Name)
	}
	return previous, nil
}

// revisionNotFound is kubectl's revisionNotFoundErr.
func revisionNotFound(to int64) error {
	return errSay("unable to find specified revision %d in history", to)
}

// undoFromHistory is `kubectl rollout undo statefulset/NAME` or
// `daemonset/NAME` (StatefulSetRollbacker and DaemonSetRollbacker in
// kubectl's polymorphichelpers): the set's history is the
// ControllerRevisions its selector selects and it controls
// (statefulSetHistory, daemonSetHistory); findHistory picks the one of
// ToRevision, or for 0 the second highest revision; a revision whose
// data equals the set's own getPatch (its template, to be restored with
// a replace) is skipped; otherwise the revision's data is the patch: the
// set's spec.template becomes the revision's template. The set's
// controller then finds that revision equal to the template and makes
// it the newest (renumbered), and rolls its Pods to it.
//
// kubectl sends the revision's data as a strategic-merge patch; its
// "$patch": "replace" replaces spec.template whole, which gcplay writes
// as an update of the object kubectl read.
func (a RolloutUndo) undoFromHistory(w *World, rec *Record) (*Record, error) {
	fn, match := "StatefulSetRollbacker.Rollback", "statefulsetMatch"
	if a.Ref.Kind == "DaemonSet" {
		fn, match = "DaemonSetRollbacker.Rollback", "daemonSetMatch"
	}
	if a.ToRevision < 0 {
		return w.userEnd(revisionNotFound(a.ToRevision))
	}
	set, err := w.store.Get(kubectlClient, a.Ref)
	if err != nil {
		return w.userEnd(err)
	}
	sel, err := parseSelector(nestedMap(specOf(set), "selector"))
	if err != nil {
		return w.userEnd(errSay("failed to create selector for %s %s: %v", a.Ref.Kind, set.Metadata.Name, err))
	}
	crs, err := w.store.List(kubectlClient, "apps/v1", "ControllerRevision", set.Metadata.Namespace)
	if err != nil {
		return w.userEnd(errSay("unable to find history controlled by %s %s: %v", a.Ref.Kind, set.Metadata.Name, err))
	}
	history := controlledRevisions(set, sel, crs)
	if a.ToRevision == 0 && len(history) <= 1 {
		return w.userEnd(errSay("no last revision to roll back to"))
	}
	to := findHistory(a.ToRevision, history)
	if to == nil {
		return w.userEnd(revisionNotFound(a.ToRevision))
	}
	current := copyJSONMap(nestedMap(specOf(set), "template"))
	if current == nil {
		current = map[string]any{}
	}
	current["$patch"] = "replace"
	own := map[string]any{"spec": map[string]any{"template": current}}
	if reflect.DeepEqual(toJSONValue(own), toJSONValue(to.Fields.Get("data"))) {
		// kubectl names the revision it was asked for: 0 when none was.
		rec.Reason = Reason{Code: "RollbackSkipped", Func: fn + ", " + match}.
			Say("skipped rollback (current template already matches revision %d)", a.ToRevision)
		return w.end(), nil
	}
	fresh := set.DeepCopy()
	if t, ok := nested(to.Fields, "data", "spec", "template"); ok {
		tm, _ := toJSONValue(t).(map[string]any)
		delete(tm, "$patch")
		specOf(fresh)["template"] = tm
	}
	if _, err := w.store.Update(kubectlClient, fresh); err != nil {
		return w.userEnd(errSay("failed restoring revision %d: %v", a.ToRevision, err))
	}
	rec.Reason = Reason{Code: "RolledBack", Func: fn + ", findHistory"}.
		Say("rolled back: %s has the pod template of %s (revision %d); the %s controller makes that revision the newest and rolls its Pods to it", a.Ref, fakeapi.RefOf(to), revisionNumber(to), a.Ref.Kind)
	return w.end(), nil
}

// controlledRevisions is controlledHistory: the namespace's
// ControllerRevisions that set's selector selects and set controls.
func controlledRevisions(set *fakeapi.Object, sel labelsel.Selector, crs []*fakeapi.Object) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, cr := range crs {
		if !sel.Matches(cr.Metadata.Labels) {
			continue
		}
		if c := controllerOf(cr); c != nil && c.UID == set.Metadata.UID {
			out = append(out, cr)
		}
	}
	return out
}

// findHistory is kubectl's: the revision numbered to, or for 0 the
// second highest.
func findHistory(to int64, history []*fakeapi.Object) *fakeapi.Object {
	if to == 0 {
		if len(history) <= 1 {
			return nil
		}
		sorted := slices.Clone(history)
		slices.SortStableFunc(sorted, func(a, b *fakeapi.Object) int { return cmp.Compare(revisionNumber(a), revisionNumber(b)) })
		return sorted[len(sorted)-2]
	}
	for _, h := range history {
		if revisionNumber(h) == to {
			return h
		}
	}
	return nil
}

// RolloutHistory is the history `kubectl rollout history` lists for a
// StatefulSet or DaemonSet (statefulSetHistory, daemonSetHistory): the
// ControllerRevisions in objs that set's selector selects and set
// controls, by revision number. It reads objs as they are, without a
// request.
func RolloutHistory(set *fakeapi.Object, objs []*fakeapi.Object) []*fakeapi.Object {
	sel, err := parseSelector(nestedMap(specOf(set), "selector"))
	if err != nil {
		return nil
	}
	var crs []*fakeapi.Object
	for _, o := range objs {
		if o.Kind == "ControllerRevision" && o.Metadata.Namespace == set.Metadata.Namespace {
			crs = append(crs, o)
		}
	}
	out := controlledRevisions(set, sel, crs)
	slices.SortStableFunc(out, func(a, b *fakeapi.Object) int { return cmp.Compare(revisionNumber(a), revisionNumber(b)) })
	return out
}

// RevisionNumber is a ControllerRevision's revision.
func RevisionNumber(cr *fakeapi.Object) int64 { return revisionNumber(cr) }
