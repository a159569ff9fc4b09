package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// The checks below mean what scenario/expect.go means by them, evaluated
// over the real API (live GETs and LISTs through the metadata client,
// core/v1 Events, and the recorder's watch of removals) instead of
// gcplay's store.

// classify turns a check into "skipped" when the world it looks at is not
// one the real cluster can be compared in: after a skipped fault
// injection or long advance, after a step step (until the next settle),
// or — for a disagreement only — while the real controllers were still
// running after an action with no settle in between.
func (x *executor) classify(c *CheckResult) {
	if c.Status == Skipped {
		return
	}
	switch {
	case x.taint != "":
		c.Status, c.Reason = Skipped, "not observable: "+x.taint
	case x.stepped:
		c.Status, c.Reason = Skipped, "not observable: follows a step step; the real controllers ran freely since"
	case x.moving && c.Status == Disagree:
		c.Status, c.Reason = Skipped, "not observable: no settle since the last action, and the real controllers run concurrently (a race, not a verdict)"
	}
}

// lookup returns the real object a reference names, nil when it is not
// in storage.
func (x *executor) lookup(ctx context.Context, r scenario.Ref) (*metav1.PartialObjectMetadata, error) {
	kr, ns, name, err := x.target(r)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	o, err := x.getMeta(ctx, kr, ns, name)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.UID != "" && string(o.UID) != x.realUID(r.UID) {
		return nil, nil // the name now belongs to another object
	}
	return o, nil
}

func describeState(o *metav1.PartialObjectMetadata) string {
	switch {
	case o == nil:
		return "absent"
	case o.DeletionTimestamp != nil:
		return "terminating, finalizers " + list(o.Finalizers)
	default:
		return "in storage, not terminating"
	}
}

func (x *executor) expect(ctx context.Context, label string, e *scenario.Expect) []CheckResult {
	var out []CheckResult
	add := func(c CheckResult) {
		c.Step = label
		x.classify(&c)
		out = append(out, c)
	}
	state := func(key string, rc scenario.RefCheck, expected string, ok func(*metav1.PartialObjectMetadata) bool) {
		c := CheckResult{Line: rc.Line, Key: key, Subject: rc.Ref.String(), Expected: expected}
		o, err := x.lookup(ctx, rc.Ref)
		if err != nil {
			c.Real, c.Status = "error: "+err.Error(), Disagree
		} else {
			c.Real = describeState(o)
			c.Status = status(ok(o))
		}
		add(c)
	}
	for _, rc := range e.Exists {
		state("exists", rc, "in storage", func(o *metav1.PartialObjectMetadata) bool { return o != nil })
	}
	for _, rc := range e.Absent {
		state("absent", rc, "absent", func(o *metav1.PartialObjectMetadata) bool { return o == nil })
	}
	for _, rc := range e.Terminating {
		state("terminating", rc, "terminating", func(o *metav1.PartialObjectMetadata) bool { return o != nil && o.DeletionTimestamp != nil })
	}
	for _, rc := range e.NotTerminating {
		state("notTerminating", rc, "in storage, not terminating", func(o *metav1.PartialObjectMetadata) bool { return o != nil && o.DeletionTimestamp == nil })
	}
	for _, fc := range e.Finalizers {
		c := CheckResult{Line: fc.Line, Key: "finalizers", Subject: fc.Ref.String(), Expected: list(fc.Finalizers)}
		o, err := x.lookup(ctx, fc.Ref)
		switch {
		case err != nil:
			c.Real, c.Status = "error: "+err.Error(), Disagree
		case o == nil:
			c.Real, c.Status = "absent", Disagree
		default:
			c.Real = list(o.Finalizers)
			c.Status = status(slices.Equal(o.Finalizers, fc.Finalizers) || (len(o.Finalizers) == 0 && len(fc.Finalizers) == 0))
		}
		add(c)
	}
	for _, oc := range e.OwnerReferences {
		add(x.checkOwners(ctx, oc))
	}
	if e.DeletionOrder != nil {
		add(x.checkDeletionOrder(ctx, e.DeletionOrder))
	}
	var events []corev1.Event
	var eventsErr error
	if len(e.Events) > 0 || len(e.NoEvents) > 0 {
		var l *corev1.EventList
		l, eventsErr = x.c.client.CoreV1().Events("").List(ctx, metav1.ListOptions{})
		if eventsErr == nil {
			events = l.Items
			sort.SliceStable(events, func(i, j int) bool { return events[i].CreationTimestamp.Before(&events[j].CreationTimestamp) })
		}
	}
	for _, ec := range e.Events {
		add(x.checkEvent(ec, events, eventsErr))
	}
	for _, rc := range e.NoEvents {
		c := CheckResult{Line: rc.Line, Key: "noEvents", Subject: rc.Ref.String(), Expected: "no events"}
		if eventsErr != nil {
			c.Real, c.Status = "error: "+eventsErr.Error(), Disagree
		} else {
			evs := x.eventsAbout(rc.Ref, events)
			c.Real, c.Status = describeEvents(evs), status(len(evs) == 0)
		}
		add(c)
	}
	for _, gc := range e.Graph {
		add(CheckResult{Line: gc.Line, Key: "graph", Subject: gc.Ref.String(), Expected: describeGraphCheck(gc),
			Real: "-", Status: Skipped, Reason: "not observable: the collector's uidToNode graph is internal state a real cluster does not show"})
	}
	for _, qc := range e.Queues {
		var items []string
		for _, r := range qc.Items {
			items = append(items, r.String())
		}
		add(CheckResult{Line: qc.Line, Key: "queues." + qc.Queue, Expected: list(items),
			Real: "-", Status: Skipped, Reason: "not observable: the collector's work queues are internal state a real cluster does not show"})
	}
	for _, cc := range e.Count {
		add(x.checkCount(ctx, cc))
	}
	for _, fc := range e.Fields {
		for _, c := range x.checkFields(ctx, fc) {
			add(c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func status(ok bool) Status {
	if ok {
		return Agree
	}
	return Disagree
}

func describeGraphCheck(gc scenario.GraphCheck) string {
	var parts []string
	for _, f := range []struct {
		name string
		v    *bool
	}{{"virtual", gc.Virtual}, {"beingDeleted", gc.BeingDeleted}, {"deletingDependents", gc.DeletingDependents}, {"absent", gc.Absent}} {
		if f.v != nil {
			parts = append(parts, fmt.Sprintf("%s=%t", f.name, *f.v))
		}
	}
	if len(parts) == 0 {
		return "a node"
	}
	return "a node with " + strings.Join(parts, " ")
}

func (x *executor) checkOwners(ctx context.Context, oc scenario.OwnersCheck) CheckResult {
	c := CheckResult{Line: oc.Line, Key: "ownerReferences", Subject: oc.Ref.String()}
	flags := false
	var exp []string
	for _, e := range oc.Owners {
		exp = append(exp, e.String())
		flags = flags || e.Controller != nil || e.BlockOwnerDeletion != nil
	}
	c.Expected = list(exp)
	o, err := x.lookup(ctx, oc.Ref)
	switch {
	case err != nil:
		c.Real, c.Status = "error: "+err.Error(), Disagree
		return c
	case o == nil:
		c.Real, c.Status = "absent", Disagree
		return c
	}
	var found []string
	for _, r := range o.OwnerReferences {
		s := r.Kind + "/" + x.simName(r.Kind, o.Namespace, r.Name)
		if flags {
			s += fmt.Sprintf("{controller:%t,blockOwnerDeletion:%t}", r.Controller != nil && *r.Controller, r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion)
		}
		found = append(found, s)
	}
	c.Real = list(found)
	c.Status = status(x.matchOwners(oc.Owners, o))
	return c
}

// matchOwners pairs expected owners with the real ownerReferences one to
// one, flagged expectations first (as scenario's matchOwners does).
func (x *executor) matchOwners(exp []scenario.OwnerExpectation, o *metav1.PartialObjectMetadata) bool {
	refs := o.OwnerReferences
	if len(exp) != len(refs) {
		return false
	}
	nflags := func(e scenario.OwnerExpectation) int {
		n := 0
		if e.Controller != nil {
			n++
		}
		if e.BlockOwnerDeletion != nil {
			n++
		}
		return n
	}
	order := make([]int, len(exp))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return nflags(exp[order[i]]) > nflags(exp[order[j]]) })
	used := make([]bool, len(refs))
	for _, i := range order {
		e := exp[i]
		ok := false
		for j, r := range refs {
			if used[j] {
				continue
			}
			if e.Owner.UID != "" {
				if string(r.UID) != x.realUID(e.Owner.UID) {
					continue
				}
			} else if r.Kind != e.Owner.Kind || x.simName(r.Kind, o.Namespace, r.Name) != e.Owner.Name || (e.Owner.NamespaceGiven && e.Owner.Namespace != o.Namespace) {
				continue
			}
			if e.Controller != nil && (r.Controller != nil && *r.Controller) != *e.Controller {
				continue
			}
			if e.BlockOwnerDeletion != nil && (r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion) != *e.BlockOwnerDeletion {
				continue
			}
			used[j], ok = true, true
			break
		}
		if !ok {
			return false
		}
	}
	return true
}

func (x *executor) refMatches(r scenario.Ref, kind, namespace, name, uid string) bool {
	if r.UID != "" {
		return x.realUID(r.UID) == uid
	}
	return r.Kind == kind && r.Namespace == namespace && r.Name == x.simName(kind, namespace, name)
}

// checkDeletionOrder expects the objects absent and removed in this
// relative order, by the revisions of their watch DELETED events. A
// removal can reach the recorder's watch a moment after the object is
// gone, so it waits up to five seconds for each absent object's removal.
func (x *executor) checkDeletionOrder(ctx context.Context, oc *scenario.OrderCheck) CheckResult {
	var exp []string
	for _, r := range oc.Refs {
		exp = append(exp, r.String())
	}
	c := CheckResult{Line: oc.Line, Key: "deletionOrder", Expected: list(exp) + " removed in this order"}
	type seen struct {
		ref string
		rv  int64
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		x.refreshNames()
		var got []seen
		var problems []string
		missing := false
		removals := x.rec.Removals()
		for _, r := range oc.Refs {
			o, err := x.lookup(ctx, r)
			if err != nil {
				problems = append(problems, r.String()+": "+err.Error())
				continue
			}
			if o != nil {
				problems = append(problems, r.String()+" still in storage")
				continue
			}
			var rv int64 = -1
			for _, rm := range removals {
				if x.refMatches(r, rm.kind, rm.namespace, rm.name, rm.uid) {
					rv = rm.rv // the last removal counts
				}
			}
			if rv < 0 {
				problems = append(problems, r.String()+" never removed")
				missing = true
				continue
			}
			got = append(got, seen{r.String(), rv})
		}
		if missing && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if len(problems) > 0 {
			c.Real, c.Status = strings.Join(problems, ", "), Disagree
			return c
		}
		sort.SliceStable(got, func(i, j int) bool { return got[i].rv < got[j].rv })
		var order []string
		for _, g := range got {
			order = append(order, g.ref)
		}
		c.Real = list(order)
		c.Status = status(slices.Equal(order, exp))
		return c
	}
}

func (x *executor) eventsAbout(r scenario.Ref, events []corev1.Event) []corev1.Event {
	var out []corev1.Event
	for _, ev := range events {
		io := ev.InvolvedObject
		if x.refMatches(r, io.Kind, io.Namespace, io.Name, string(io.UID)) {
			out = append(out, ev)
		}
	}
	return out
}

func describeEvents(evs []corev1.Event) string {
	if len(evs) == 0 {
		return "none"
	}
	var parts []string
	for _, ev := range evs {
		parts = append(parts, fmt.Sprintf("%s %s %q (from %s)", ev.Type, ev.Reason, ev.Message, ev.Source.Component))
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

func (x *executor) checkEvent(ec scenario.EventCheck, events []corev1.Event, err error) CheckResult {
	c := CheckResult{Line: ec.Line, Key: "events", Subject: ec.Object.String(), Expected: ec.Describe()}
	if err != nil {
		c.Real, c.Status = "error: "+err.Error(), Disagree
		return c
	}
	evs := x.eventsAbout(ec.Object, events)
	c.Real, c.Status = describeEvents(evs), Disagree
	for _, ev := range evs {
		if ec.Matches(ev.Type, ev.Reason, ev.Message) {
			c.Status = Agree
		}
	}
	return c
}

func (x *executor) checkCount(ctx context.Context, cc scenario.CountCheck) CheckResult {
	c := CheckResult{Line: cc.Line, Key: "count", Expected: fmt.Sprintf("%d (%s)", cc.Equals, cc.Describe())}
	info, err := x.reg.ByKind(cc.Kind)
	if err != nil {
		c.Real, c.Status = "error: "+err.Error(), Disagree
		return c
	}
	kr, err := x.kindFor(info.APIVersion, info.Kind)
	if err != nil {
		c.Real, c.Status = "error: "+err.Error(), Disagree
		return c
	}
	r := x.c.meta.Resource(kr.gvr)
	var l *metav1.PartialObjectMetadataList
	if kr.info.Namespaced() {
		l, err = r.Namespace(cc.Namespace).List(ctx, metav1.ListOptions{})
	} else {
		l, err = r.List(ctx, metav1.ListOptions{})
	}
	if err != nil {
		c.Real, c.Status = "error: "+err.Error(), Disagree
		return c
	}
	var owner *metav1.PartialObjectMetadata
	if cc.OwnedBy != nil {
		owner, _ = x.lookup(ctx, *cc.OwnedBy)
	}
	var names []string
	for i := range l.Items {
		o := &l.Items[i]
		if !cc.Selector.Matches(o.Labels) {
			continue
		}
		if cc.Terminating != nil && (o.DeletionTimestamp != nil) != *cc.Terminating {
			continue
		}
		if cc.OwnedBy != nil && !x.ownedBy(o, *cc.OwnedBy, owner) {
			continue
		}
		names = append(names, fakeapi.RefString(info.Kind, o.Namespace, x.simName(info.Kind, o.Namespace, o.Name)))
	}
	sort.Strings(names)
	c.Real = fmt.Sprintf("%d %s", len(names), list(names))
	c.Status = status(len(names) == cc.Equals)
	return c
}

func (x *executor) ownedBy(o *metav1.PartialObjectMetadata, r scenario.Ref, owner *metav1.PartialObjectMetadata) bool {
	for _, or := range o.OwnerReferences {
		switch {
		case owner != nil:
			if or.UID == owner.UID {
				return true
			}
		case r.UID != "":
			if string(or.UID) == x.realUID(r.UID) {
				return true
			}
		default:
			if or.Kind == r.Kind && x.simName(or.Kind, o.Namespace, or.Name) == r.Name && (r.Namespace == "" || r.Namespace == o.Namespace) {
				return true
			}
		}
	}
	return false
}

// checkFields is expect.fields over the real object: a GET of the whole
// object through the dynamic client, its JSON read as gcplay reads its
// own (scenario.ObjectValue), compared as the format says
// (scenario.FieldValuesEqual).
func (x *executor) checkFields(ctx context.Context, fc scenario.FieldCheck) []CheckResult {
	var out []CheckResult
	var obj *fakeapi.Object
	var ferr error
	kr, ns, name, err := x.target(fc.Ref)
	if err == nil {
		u, gerr := x.resource(kr, ns).Get(ctx, name, metav1.GetOptions{})
		switch {
		case isNotFound(gerr):
		case gerr != nil:
			ferr = gerr
		default:
			// Server-only metadata gcplay's objects do not carry.
			unstructured.RemoveNestedField(u.Object, "metadata", "managedFields")
			b, merr := u.MarshalJSON()
			if merr == nil {
				obj = &fakeapi.Object{}
				merr = obj.UnmarshalJSON(b)
			}
			ferr = merr
		}
	} else if !isNotFound(err) {
		ferr = err
	}
	for _, fv := range fc.Values {
		c := CheckResult{Line: fv.Line, Key: "fields." + fv.Path, Subject: fc.Ref.String(), Expected: scenario.FormatFieldValue(fv.Want, true)}
		switch {
		case ferr != nil:
			c.Real, c.Status = "error: "+ferr.Error(), Disagree
		case obj == nil:
			c.Real, c.Status = "absent", Disagree
		default:
			got, ok := scenario.ObjectValue(obj, fv.Segments)
			c.Real = scenario.FormatFieldValue(got, ok)
			c.Status = status(scenario.FieldValuesEqual(fv.Want, got))
		}
		out = append(out, c)
	}
	return out
}
