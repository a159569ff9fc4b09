package engine

import (
	"fmt"
	"reflect"

	"github.com/gcplay/gcplay/fakeapi"
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
	if a.Ref.Kind != "Deployment" {
		return w.userEnd(fakeapi.NewError(fakeapi.ReasonBadRequest, "rollout undo is only implemented for Deployments here, not %s", a.Ref.Kind))
	}
	if a.ToRevision < 0 {
		return w.userEnd(fmt.Errorf("unable to find specified revision %d in history", a.ToRevision))
	}
	d, err := w.store.Get(kubectlClient, a.Ref)
	if err != nil {
		return w.userEnd(err)
	}
	if nestedBool(specOf(d), "paused") {
		return w.userEnd(fmt.Errorf("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"))
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
		return w.userEnd(fmt.Errorf("failed restoring revision %d: %v", rev, err))
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
		return nil, fmt.Errorf("unable to find specified revision %d in history", to)
	}
	if previous == nil {
		return nil, fmt.Errorf("no rollout history found for deployment %q", d.Metadata.Name)
	}
	return previous, nil
}
