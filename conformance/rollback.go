package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gcplay/gcplay/scenario"
)

// rolloutUndo does what `kubectl rollout undo deployment/NAME
// [--to-revision=N]` does (kubectl's DeploymentRollbacker.Rollback): find
// the Deployment's ReplicaSet of that revision (0: the one before the
// newest) and JSON-patch its template, less pod-template-hash, and its
// annotations into the Deployment.
func (x *executor) rolloutUndo(ctx context.Context, st *scenario.Step) (string, error) {
	kr, ns, name, err := x.target(st.Target)
	if err != nil {
		return "", err
	}
	d, err := x.resource(kr, ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	if k := d.GetKind(); k == "StatefulSet" || k == "DaemonSet" {
		return x.rolloutUndoHistory(ctx, kr, d, st.ToRevision)
	}
	if paused, _, _ := unstructured.NestedBool(d.Object, "spec", "paused"); paused {
		return "", fmt.Errorf("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
	}
	rsGVR := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	list, err := x.c.dyn.Resource(rsGVR).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	revision := func(o *unstructured.Unstructured) int64 {
		v, err := strconv.ParseInt(o.GetAnnotations()["deployment.kubernetes.io/revision"], 10, 64)
		if err != nil {
			return 0
		}
		return v
	}
	var latest, previous *unstructured.Unstructured
	latestRev, previousRev := int64(-1), int64(-1)
	var found *unstructured.Unstructured
	for i := range list.Items {
		rs := &list.Items[i]
		if ref := metav1.GetControllerOf(rs); ref == nil || ref.UID != d.GetUID() {
			continue
		}
		v := revision(rs)
		switch {
		case st.ToRevision == 0 && latestRev < v:
			previous, previousRev = latest, latestRev
			latest, latestRev = rs, v
		case st.ToRevision == 0 && previousRev < v:
			previous, previousRev = rs, v
		case st.ToRevision != 0 && st.ToRevision == v:
			found = rs
		}
	}
	if st.ToRevision > 0 && found == nil {
		return "", fmt.Errorf("unable to find specified revision %d in history", st.ToRevision)
	}
	if st.ToRevision == 0 {
		if previous == nil {
			return "", fmt.Errorf("no rollout history found for deployment %q", name)
		}
		found = previous
	}
	tmpl, _, _ := unstructured.NestedMap(found.Object, "spec", "template")
	if labels, ok, _ := unstructured.NestedStringMap(tmpl, "metadata", "labels"); ok {
		delete(labels, "pod-template-hash")
		_ = unstructured.SetNestedStringMap(tmpl, labels, "metadata", "labels")
	}
	cur, _, _ := unstructured.NestedMap(d.Object, "spec", "template")
	if reflect.DeepEqual(tmpl, cur) {
		return fmt.Sprintf("skipped rollback (current template already matches revision %d)", revision(found)), nil
	}
	skip := map[string]bool{"kubectl.kubernetes.io/last-applied-configuration": true, "deployment.kubernetes.io/revision": true,
		"deployment.kubernetes.io/revision-history": true, "deployment.kubernetes.io/desired-replicas": true,
		"deployment.kubernetes.io/max-replicas": true, "deprecated.deployment.rollback.to": true}
	annotations := map[string]string{}
	for k, v := range d.GetAnnotations() {
		if skip[k] {
			annotations[k] = v
		}
	}
	for k, v := range found.GetAnnotations() {
		if !skip[k] {
			annotations[k] = v
		}
	}
	patch, _ := json.Marshal([]map[string]any{
		{"op": "replace", "path": "/spec/template", "value": tmpl},
		{"op": "replace", "path": "/metadata/annotations", "value": annotations},
	})
	x.moving = x.c.ctrls.started()
	if _, err := x.resource(kr, ns).Patch(ctx, name, types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
		return "", fmt.Errorf("failed restoring revision %d: %v", revision(found), err)
	}
	return "rolled back", nil
}

// rolloutUndoHistory does what `kubectl rollout undo statefulset/NAME` or
// `daemonset/NAME` does (kubectl's StatefulSetRollbacker and
// DaemonSetRollbacker): list the ControllerRevisions the set's selector
// selects and keep those it controls, take the one of toRevision (0: the
// second highest) and send its data as a strategic-merge patch, unless it
// already holds the set's template.
func (x *executor) rolloutUndoHistory(ctx context.Context, kr kindRes, set *unstructured.Unstructured, toRevision int64) (string, error) {
	if toRevision < 0 {
		return "", fmt.Errorf("unable to find specified revision %d in history", toRevision)
	}
	ns, name := set.GetNamespace(), set.GetName()
	selMap, _, _ := unstructured.NestedMap(set.Object, "spec", "selector")
	var ls metav1.LabelSelector
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(selMap, &ls); err != nil {
		return "", fmt.Errorf("failed to create selector for %s %s: %v", set.GetKind(), name, err)
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		return "", fmt.Errorf("failed to create selector for %s %s: %v", set.GetKind(), name, err)
	}
	crGVR := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "controllerrevisions"}
	list, err := x.c.dyn.Resource(crGVR).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: sel.String()})
	if err != nil {
		return "", fmt.Errorf("unable to find history controlled by %s %s: %v", set.GetKind(), name, err)
	}
	var history []*unstructured.Unstructured
	for i := range list.Items {
		if metav1.IsControlledBy(&list.Items[i], set) {
			history = append(history, &list.Items[i])
		}
	}
	if toRevision == 0 && len(history) <= 1 {
		return "", fmt.Errorf("no last revision to roll back to")
	}
	revision := func(o *unstructured.Unstructured) int64 {
		v, _, _ := unstructured.NestedInt64(o.Object, "revision")
		return v
	}
	var to *unstructured.Unstructured
	if toRevision == 0 {
		sort.SliceStable(history, func(i, j int) bool { return revision(history[i]) < revision(history[j]) })
		to = history[len(history)-2]
	} else {
		for _, h := range history {
			if revision(h) == toRevision {
				to = h
				break
			}
		}
	}
	if to == nil {
		return "", fmt.Errorf("unable to find specified revision %d in history", toRevision)
	}
	data, _, _ := unstructured.NestedMap(to.Object, "data")
	tmpl, _, _ := unstructured.NestedMap(set.Object, "spec", "template")
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	tmpl["$patch"] = "replace"
	own := map[string]any{"spec": map[string]any{"template": tmpl}}
	// kubectl compares the bytes of the two patches; both are the same
	// JSON encoding of the same values when they match.
	ownJSON, _ := json.Marshal(own)
	dataJSON, _ := json.Marshal(data)
	if string(ownJSON) == string(dataJSON) {
		return fmt.Sprintf("skipped rollback (current template already matches revision %d)", toRevision), nil
	}
	x.moving = x.c.ctrls.started()
	if _, err := x.resource(kr, ns).Patch(ctx, name, types.StrategicMergePatchType, dataJSON, metav1.PatchOptions{}); err != nil {
		return "", fmt.Errorf("failed restoring revision %d: %v", toRevision, err)
	}
	return "rolled back", nil
}
