package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Status is the outcome of one check on the real cluster.
type Status string

const (
	// Agree: the real cluster shows what the scenario expects.
	Agree Status = "agree"
	// Disagree: it does not.
	Disagree Status = "DISAGREE"
	// Known: it does not, and docs/CONFORMANCE.md documents why.
	Known Status = "known"
	// Skipped: a real cluster cannot show this (the collector's queues and
	// graph, a check after a fault injection, ...). Never a pass.
	Skipped Status = "skipped"
)

// CheckResult is one expectation (or one expectError) checked on the real
// cluster.
type CheckResult struct {
	Step     string
	Line     int
	Key      string
	Subject  string
	Expected string
	Real     string
	Status   Status
	// Reason says why a check was skipped, or why a known disagreement is
	// accepted.
	Reason string
}

// StepReport is what one object creation or step did on the real cluster.
type StepReport struct {
	Label   string
	Line    int
	Summary string
	// Outcome says in a few words what happened ("removed from storage",
	// "settled in 2.1s", "skipped: ...").
	Outcome string
	Failed  bool
	Checks  []CheckResult
}

// options tune a run.
type options struct {
	// quiet is how long nothing may be written (and the collector's queues
	// stay empty) for a settle to count as settled.
	quiet time.Duration
	// settleTimeout bounds one settle.
	settleTimeout time.Duration
	// maxWait is the longest real-time wait the runner accepts for an
	// advance step or for a Pod's grace period inside a settle.
	maxWait time.Duration
	// kubectl is the kubectl the exported scripts run with.
	kubectl string
}

// executor runs one scenario on one cluster.
type executor struct {
	s   *scenario.Scenario
	c   *Cluster
	reg *fakeapi.Registry
	// customKinds are the scenario's kinds, as the registry completed them.
	customKinds []fakeapi.KindInfo
	opts        options
	// kinds maps "apiVersion|Kind" to the served resource.
	kinds map[string]kindRes
	rec   *recorder
	// uids maps a UID written in the file (metadata.uid) or assigned by
	// gcplay's own run (as steps may name it, uid:<uid>) to the real UID.
	uids map[string]string
	// simUIDs holds the UID gcplay assigned to each created object, by
	// step label ("object 2", "step 5").
	simUIDs map[string]string
	// controllers are the controllers the scenario runs.
	controllers []string
	// taint, once set, makes every later check not observable: the run
	// skipped something that changes the world (a fault injection, a long
	// advance).
	taint string
	// stepped is set by a step step and cleared by settle: in between the
	// world is an intermediate state of the simulator's scheduler.
	stepped bool
	// moving is set by an action while controllers run and cleared by
	// settle: an expect then races the real controllers.
	moving bool
	notes  []string

	// simMade are the objects gcplay's controllers created, in order;
	// simGenerated the names gcplay gave objects the file created with
	// generateName, by step label. userNames maps gcplay's name of such
	// an object ("Kind|namespace|name") to the real one; createdUIDs holds
	// the UIDs of every object the runner created; names pairs gcplay's
	// controller-made names with the real ones (names.go).
	simMade      []simCreation
	simGenerated map[string]string
	userNames    map[string]string
	createdUIDs  map[string]bool
	names        *names
	// laterUIDs are the file UIDs of starting objects not created yet;
	// pending the objects waiting for references to them.
	laterUIDs map[string]bool
	pending   []pendingRefs
}

// errStop stops the run of a file after a step that failed on the real
// cluster: what follows would check a world that already went another way.
var errStop = errors.New("stop")

func (x *executor) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	if !slices.Contains(x.notes, n) {
		x.notes = append(x.notes, n)
	}
}

// prepare serves the custom kinds, maps every kind to its resource and
// starts the recorder.
func (x *executor) prepare(ctx context.Context) error {
	if err := x.c.InstallKinds(ctx, x.customKinds); err != nil {
		return err
	}
	x.kinds = map[string]kindRes{}
	var watch []kindRes
	watched := map[schema.GroupKind]bool{}
	for _, k := range x.reg.Kinds() {
		g, v := fakeapi.SplitAPIVersion(k.APIVersion)
		m, err := x.c.mapper.RESTMapping(schema.GroupKind{Group: g, Kind: k.Kind}, v)
		if err != nil {
			continue // not served by this release: steps naming it fail as the real cluster would
		}
		kr := kindRes{info: k, gvr: m.Resource}
		x.kinds[k.APIVersion+"|"+k.Kind] = kr
		gk := schema.GroupKind{Group: g, Kind: k.Kind}
		if k.Kind == "Event" || watched[gk] {
			continue
		}
		watched[gk] = true
		watch = append(watch, kr)
	}
	rec, err := x.c.startRecorder(watch)
	if err != nil {
		return err
	}
	x.rec = rec
	return nil
}

func (x *executor) kindFor(apiVersion, kind string) (kindRes, error) {
	if kr, ok := x.kinds[apiVersion+"|"+kind]; ok {
		return kr, nil
	}
	g, v := fakeapi.SplitAPIVersion(apiVersion)
	m, err := x.c.mapper.RESTMapping(schema.GroupKind{Group: g, Kind: kind}, v)
	if err != nil {
		return kindRes{}, fmt.Errorf("the cluster serves no %s %s: %w", apiVersion, kind, err)
	}
	info, _ := x.reg.Lookup(apiVersion, kind)
	kr := kindRes{info: info, gvr: m.Resource}
	x.kinds[apiVersion+"|"+kind] = kr
	return kr, nil
}

// resource returns the dynamic client for a kind in a namespace.
func (x *executor) resource(kr kindRes, namespace string) dynamic.ResourceInterface {
	r := x.c.dyn.Resource(kr.gvr)
	if kr.info.Namespaced() {
		return r.Namespace(namespace)
	}
	return r
}

// realUID maps a UID of the file or of gcplay's run to the real one.
func (x *executor) realUID(uid string) string {
	if r, ok := x.uids[uid]; ok {
		return r
	}
	return uid
}

// target turns a step's reference into the kind, namespace and name of a
// real object; uid:<uid> names the object with that UID.
func (x *executor) target(ref scenario.Ref) (kindRes, string, string, error) {
	if ref.UID != "" {
		uid := x.realUID(ref.UID)
		k, ok := x.rec.Lookup(uid)
		if !ok {
			return kindRes{}, "", "", apierrors.NewNotFound(schema.GroupResource{}, "uid:"+ref.UID)
		}
		for _, kr := range x.kinds {
			if kr.gvr == k.gvr {
				return kr, k.namespace, k.name, nil
			}
		}
		return kindRes{}, "", "", fmt.Errorf("uid:%s: no kind for %s", ref.UID, k.gvr)
	}
	kr, err := x.kindFor(ref.APIVersion, ref.Kind)
	if err != nil {
		return kr, "", "", err
	}
	name, ok := x.realName(ref.Kind, ref.Namespace, ref.Name)
	if !ok {
		return kindRes{}, "", "", apierrors.NewNotFound(kr.gvr.GroupResource(), ref.Name+" (a name gcplay's controllers generated; no real object stands for it yet)")
	}
	return kr, ref.Namespace, name, nil
}

// startControllers starts the scenario's controllers, once. They start at
// the first step that lets controllers run (settle, step, advance,
// restart), not before: in gcplay nothing processes the starting world
// until then, so the real controllers see the objects created so far as
// their initial list, and expects before that see the world untouched.
func (x *executor) startControllers() error {
	if x.c.ctrls.started() {
		return nil
	}
	for _, name := range x.controllers {
		if err := x.c.ctrls.start(name); err != nil {
			return err
		}
	}
	return nil
}

// runStep performs one step and returns its report.
func (x *executor) runStep(ctx context.Context, label string, st *scenario.Step) (sr StepReport, err error) {
	sr = StepReport{Label: label, Line: st.Line, Summary: st.Describe()}
	x.refreshNames()
	if st.Action == scenario.ActionExpect {
		sr.Checks = x.expect(ctx, label, st.Expect)
		held := 0
		for _, c := range sr.Checks {
			if c.Status == Agree {
				held++
			}
		}
		sr.Outcome = fmt.Sprintf("%d of %d checks agree", held, len(sr.Checks))
		return sr, nil
	}
	// The action's own result races the controllers only if an earlier
	// action left them busy; the action itself is what the step is about.
	wasMoving := x.moving
	outcome, skip, actErr := x.act(ctx, label, st)
	nowMoving := x.moving
	x.moving = wasMoving
	defer func() { x.moving = nowMoving }()
	if skip != "" {
		sr.Outcome = "skipped: " + skip
		return sr, nil
	}
	if actErr != nil && apierrors.ReasonForError(actErr) == metav1.StatusReasonUnknown && !isAPIError(actErr) {
		// The runner could not do the step at all (not an answer of the
		// apiserver): the run cannot go on.
		sr.Failed = true
		sr.Outcome = "runner error: " + actErr.Error()
		return sr, errStop
	}
	got := ""
	if actErr != nil {
		got = string(apierrors.ReasonForError(actErr))
	}
	switch {
	case st.ExpectsError():
		// `expectError: ""` expects an answer with the empty reason
		// (StatusReasonUnknown); success never matches it.
		c := CheckResult{Step: label, Line: st.Line, Key: "expectError", Subject: st.Describe(),
			Expected: "fails with " + st.ExpectedError(), Real: describeActionResult(actErr, outcome)}
		if actErr != nil && got == string(st.ExpectError) {
			c.Status = Agree
			sr.Outcome = "failed as expected: " + describeErr(actErr)
		} else {
			c.Status = Disagree
			sr.Failed = true
			sr.Outcome = c.Real
		}
		x.classify(&c)
		sr.Checks = append(sr.Checks, c)
		if c.Status == Disagree {
			return sr, errStop
		}
		if sr.Failed && x.taint == "" {
			// The action went another way only because the real
			// controllers were still running (a race, classify): the world
			// after it is not the one gcplay has, so what follows it is not
			// compared, as after a skipped step.
			x.taint = fmt.Sprintf("follows %s, which went another way in a race", label)
		}
		return sr, nil
	case actErr != nil:
		c := CheckResult{Step: label, Line: st.Line, Key: "action", Subject: st.Describe(),
			Expected: "succeeds (it does in gcplay)", Real: "fails: " + describeErr(actErr), Status: Disagree}
		x.classify(&c)
		sr.Checks = append(sr.Checks, c)
		sr.Failed = true
		sr.Outcome = "failed: " + describeErr(actErr)
		return sr, errStop
	}
	sr.Outcome = outcome
	return sr, nil
}

func isAPIError(err error) bool {
	var s apierrors.APIStatus
	return errors.As(err, &s)
}

func describeErr(err error) string {
	if r := apierrors.ReasonForError(err); r != metav1.StatusReasonUnknown {
		return fmt.Sprintf("%s: %v", r, err)
	}
	return err.Error()
}

func describeActionResult(err error, outcome string) string {
	if err != nil {
		return "fails with " + describeErr(err)
	}
	return "succeeds (" + outcome + ")"
}

// act performs a step's action on the real cluster. skip is set when the
// step cannot be done on a real cluster, with the reason.
func (x *executor) act(ctx context.Context, label string, st *scenario.Step) (outcome, skip string, err error) {
	switch st.Action {
	case scenario.ActionCreate:
		return x.create(ctx, label, st.Create)
	case scenario.ActionDelete:
		return x.delete(ctx, st)
	case scenario.ActionPatch:
		kr, ns, name, err := x.target(st.Target)
		if err != nil {
			return "", "", err
		}
		x.moving = x.c.ctrls.started()
		patch := x.mapPatchUIDs(st.Merge)
		if _, err := x.resource(kr, ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return "", "", err
		}
		// gcplay's store writes a Pod's status with the rest of a patch;
		// kube-apiserver keeps the stored status on a write of the Pod
		// itself (the pod strategy's PrepareForUpdate), so the status
		// part goes to the status subresource too, as `kubectl patch
		// --subresource=status` sends it.
		if status, ok := scenario.StatusPatch(patch); ok && kr.gvr.Resource == "pods" && kr.gvr.Group == "" {
			if _, err := x.resource(kr, ns).Patch(ctx, name, types.MergePatchType, status, metav1.PatchOptions{}, "status"); err != nil {
				return "", "", err
			}
		}
		return "patched", "", nil
	case scenario.ActionSettle:
		if err := x.startControllers(); err != nil {
			return "", "", err
		}
		out, err := x.settle(ctx)
		x.stepped, x.moving = false, false
		return out, "", err
	case scenario.ActionStep:
		if err := x.startControllers(); err != nil {
			return "", "", err
		}
		x.stepped = true
		return "", "a real cluster cannot stop its controllers after N work items; they run freely from here, and expects until the next settle are not observable", nil
	case scenario.ActionAdvance:
		if err := x.startControllers(); err != nil {
			return "", "", err
		}
		if st.Duration > x.opts.maxWait {
			x.taint = fmt.Sprintf("follows %s, skipped", label)
			return "", fmt.Sprintf("advancing %v would take %v of real time (the runner waits at most %v); later checks are not observable", st.Duration, st.Duration, x.opts.maxWait), nil
		}
		select {
		case <-time.After(st.Duration):
		case <-ctx.Done():
			return "", "", ctx.Err()
		}
		return fmt.Sprintf("waited %v of real time", st.Duration), "", nil
	case scenario.ActionRestart:
		if !x.c.ctrls.started() {
			if err := x.startControllers(); err != nil {
				return "", "", err
			}
			return "started the controllers (they had not run yet)", "", nil
		}
		x.c.ctrls.stop(st.Controller)
		if err := x.c.ctrls.start(st.Controller); err != nil {
			return "", "", err
		}
		x.moving = true
		return "stopped and started " + st.Controller, "", nil
	case scenario.ActionExit:
		x.moving = x.c.ctrls.started()
		out, err := x.exit(ctx, st.Exit)
		return out, "", err
	case scenario.ActionRolloutUndo:
		out, err := x.rolloutUndo(ctx, st)
		return out, "", err
	case scenario.ActionInject:
		x.taint = fmt.Sprintf("follows %s, skipped", label)
		return "", "a real apiserver cannot be made to fail requests on cue; later checks are not observable", nil
	}
	return "", "", fmt.Errorf("unknown action %q", st.Action)
}

// mapPatchUIDs gives every "uid" field of a merge patch whose value is a
// UID of the file (or of gcplay's run) the real UID, so that a patch can
// write an ownerReference to an object created earlier in the scenario.
func (x *executor) mapPatchUIDs(patch []byte) []byte {
	var v any
	if err := json.Unmarshal(patch, &v); err != nil {
		return patch
	}
	var walk func(any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				if s, ok := e.(string); ok && k == "uid" {
					t[k] = x.realUID(s)
				} else {
					t[k] = walk(e)
				}
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		}
		return v
	}
	b, err := json.Marshal(walk(v))
	if err != nil {
		return patch
	}
	return b
}

var simUIDRE = regexp.MustCompile(`uid (\S+)$`)

// create creates a manifest: metadata.uid is dropped (the apiserver
// assigns UIDs) and remembered, ownerReferences without uid are resolved
// as the scenario format says, and ones whose uid names an object of the
// file get that object's real UID.
func (x *executor) create(ctx context.Context, label string, m *scenario.Manifest) (string, string, error) {
	obj := m.Object.DeepCopy()
	fileUID := obj.Metadata.UID
	obj.Metadata.UID = ""
	obj.Metadata.ResourceVersion = ""
	kr, err := x.kindFor(obj.APIVersion, obj.Kind)
	if err != nil {
		return "", "", err
	}
	var forward []fakeapi.OwnerReference // references to objects of the file not created yet
	for i := range obj.Metadata.OwnerReferences {
		or := &obj.Metadata.OwnerReferences[i]
		if or.UID != "" {
			if x.laterUIDs[or.UID] {
				forward = append(forward, *or)
				continue
			}
			or.UID = x.realUID(or.UID)
			continue
		}
		okr, err := x.kindFor(or.APIVersion, or.Kind)
		if err != nil {
			return "", "", fmt.Errorf("%s: ownerReferences[%d]: %w", obj.String(), i, err)
		}
		ns := ""
		if okr.info.Namespaced() {
			ns = obj.Metadata.Namespace
		}
		owner, err := x.getMeta(ctx, okr, ns, or.Name)
		if err != nil {
			return "", "", fmt.Errorf("%s: ownerReferences[%d]: no %s %q to take the uid from: %w", obj.String(), i, or.Kind, or.Name, err)
		}
		or.UID = string(owner.UID)
	}
	full := obj.Metadata.OwnerReferences
	if len(forward) > 0 {
		// A real apiserver assigns UIDs, so an object cannot name one
		// created after it: create it without those references and add
		// them once their owners exist (before any controller runs, so no
		// controller sees the difference).
		var now []fakeapi.OwnerReference
		for _, or := range full {
			if !x.laterUIDs[or.UID] {
				now = append(now, or)
			}
		}
		obj.Metadata.OwnerReferences = now
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return "", "", err
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(b); err != nil {
		return "", "", err
	}
	x.moving = x.c.ctrls.started()
	created, err := x.resource(kr, obj.Metadata.Namespace).Create(ctx, u, metav1.CreateOptions{})
	if err != nil {
		return "", "", err
	}
	uid := string(created.GetUID())
	x.createdUIDs[uid] = true
	if obj.APIVersion == "v1" && obj.Kind == "Node" {
		if err := x.nodeReady(ctx, kr, created.GetName(), obj); err != nil {
			return "", "", err
		}
	}
	if len(forward) > 0 {
		x.pending = append(x.pending, pendingRefs{kr: kr, namespace: created.GetNamespace(), name: created.GetName(), refs: full})
		var names []string
		for _, or := range forward {
			names = append(names, or.Kind+"/"+or.Name+" (uid "+or.UID+")")
		}
		x.note("%s names %s before it exists; a real apiserver assigns UIDs, so the runner created it without that reference and patched it in once the owner existed, before any controller ran", fakeapi.RefString(obj.Kind, created.GetNamespace(), created.GetName()), strings.Join(names, ", "))
	}
	delete(x.laterUIDs, fileUID)
	if sim, ok := x.simGenerated[label]; ok && obj.Metadata.Name == "" {
		if kind, ns, name, ok := parseRefString(sim, "default"); ok {
			x.userNames[nameKey(kind, ns, name)] = created.GetName()
		}
	}
	if fileUID != "" {
		x.uids[fileUID] = uid
	}
	if sim, ok := x.simUIDs[label]; ok {
		x.uids[sim] = uid
	}
	if err := x.patchPending(ctx); err != nil {
		return "", "", err
	}
	if obj.Metadata.Name == "" {
		return fmt.Sprintf("created %s, uid %s", fakeapi.RefString(obj.Kind, created.GetNamespace(), created.GetName()), uid), "", nil
	}
	return "created, uid " + uid, "", nil
}

// pendingRefs is an object created without its references to objects
// created after it; refs is the whole list it should have.
type pendingRefs struct {
	kr              kindRes
	namespace, name string
	refs            []fakeapi.OwnerReference
}

// patchPending gives each pending object its whole ownerReferences list
// once every owner it names exists.
func (x *executor) patchPending(ctx context.Context) error {
	var still []pendingRefs
	for _, p := range x.pending {
		ready := true
		for _, or := range p.refs {
			ready = ready && !x.laterUIDs[or.UID]
		}
		if !ready {
			still = append(still, p)
			continue
		}
		refs := make([]fakeapi.OwnerReference, len(p.refs))
		for i, or := range p.refs {
			or.UID = x.realUID(or.UID)
			refs[i] = or
		}
		patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"ownerReferences": refs}})
		if err != nil {
			return err
		}
		if _, err := x.resource(p.kr, p.namespace).Patch(ctx, p.name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return fmt.Errorf("adding the references of %s: %w", p.name, err)
		}
	}
	x.pending = still
	return nil
}

func (x *executor) getMeta(ctx context.Context, kr kindRes, ns, name string) (*metav1.PartialObjectMetadata, error) {
	r := x.c.meta.Resource(kr.gvr)
	if kr.info.Namespaced() {
		return r.Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	}
	return r.Get(ctx, name, metav1.GetOptions{})
}

func (x *executor) delete(ctx context.Context, st *scenario.Step) (string, string, error) {
	kr, ns, name, err := x.target(st.Target)
	if err != nil {
		return "", "", err
	}
	d := st.DeleteOptions
	// The scenario format passes the deprecated orphanDependents through,
	// as the API still honours it (R13); scenarios test it on purpose.
	//lint:ignore SA1019 the deprecated field is part of what is being tested
	o := metav1.DeleteOptions{OrphanDependents: d.OrphanDependents, GracePeriodSeconds: d.GracePeriodSeconds, DryRun: d.DryRun}
	if d.PropagationPolicy != nil {
		p := metav1.DeletionPropagation(*d.PropagationPolicy)
		o.PropagationPolicy = &p
	}
	if d.Preconditions != nil {
		o.Preconditions = &metav1.Preconditions{}
		if d.Preconditions.UID != nil {
			u := types.UID(x.realUID(*d.Preconditions.UID))
			o.Preconditions.UID = &u
		}
		if d.Preconditions.ResourceVersion != nil {
			rv := *d.Preconditions.ResourceVersion
			if !st.ExpectsError() {
				// gcplay's resourceVersions are its own; a precondition
				// meant to hold gets the object's real one.
				if cur, err := x.getMeta(ctx, kr, ns, name); err == nil {
					rv = cur.ResourceVersion
					x.note("a resourceVersion precondition meant to hold was given the object's real resourceVersion")
				}
			}
			o.Preconditions.ResourceVersion = &rv
		}
	}
	x.moving = x.c.ctrls.started()
	if err := x.resource(kr, ns).Delete(ctx, name, o); err != nil {
		return "", "", err
	}
	if len(o.DryRun) > 0 {
		return "dry run", "", nil
	}
	cur, err := x.getMeta(ctx, kr, ns, name)
	switch {
	case isNotFound(err):
		return "removed from storage", "", nil
	case err != nil:
		return "deleted; reading it back: " + err.Error(), "", nil
	case cur.DeletionTimestamp != nil:
		return "terminating, finalizers " + list(cur.Finalizers), "", nil
	}
	return "still in storage, not terminating", "", nil
}

func list(s []string) string { return "[" + strings.Join(s, " ") + "]" }

// notReadyTaint is the taint the apiserver's TaintNodesByCondition
// admission plugin gives every new Node (node.kubernetes.io/not-ready,
// NoSchedule), which the node lifecycle controller removes once the
// Node's kubelet reports it Ready.
const notReadyTaint = "node.kubernetes.io/not-ready"

// nodeReady plays the kubelet and the node lifecycle controller for a Node
// the scenario creates: it removes the not-ready NoSchedule taint the
// apiserver added, unless the file wrote that taint itself. gcplay's
// apiserver adds no taint, so its Nodes are as Ready as these; without
// this, no DaemonSet Pod (which tolerates not-ready only for NoExecute)
// would be created on them.
func (x *executor) nodeReady(ctx context.Context, kr kindRes, name string, written *fakeapi.Object) error {
	if list, _ := nestedList(written.Fields.Get("spec"), "taints"); hasTaint(list, notReadyTaint, "NoSchedule") {
		return nil
	}
	for range 5 {
		n, err := x.resource(kr, "").Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		taints, _, _ := unstructured.NestedSlice(n.Object, "spec", "taints")
		if !hasTaint(taints, notReadyTaint, "NoSchedule") {
			return nil
		}
		var keep []any
		for _, t := range taints {
			if m, ok := t.(map[string]any); ok && m["key"] == notReadyTaint && m["effect"] == "NoSchedule" {
				continue
			}
			keep = append(keep, t)
		}
		if len(keep) == 0 {
			unstructured.RemoveNestedField(n.Object, "spec", "taints")
		} else if err := unstructured.SetNestedSlice(n.Object, keep, "spec", "taints"); err != nil {
			return err
		}
		if _, err = x.resource(kr, "").Update(ctx, n, metav1.UpdateOptions{}); err == nil || !apierrors.IsConflict(err) {
			return err
		}
	}
	return fmt.Errorf("node %s: could not remove the %s taint", name, notReadyTaint)
}

func nestedList(v any, key string) ([]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	l, ok := m[key].([]any)
	return l, ok
}

func hasTaint(list []any, key, effect string) bool {
	for _, t := range list {
		if m, ok := t.(map[string]any); ok && m["key"] == key && m["effect"] == effect {
			return true
		}
	}
	return false
}
