package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// ObjectName writes an object as what-if answers name it:
// Kind/namespace/name, or Kind/name for a cluster-scoped one.
func ObjectName(kind, namespace, name string) string {
	if namespace == "" {
		return kind + "/" + name
	}
	return kind + "/" + namespace + "/" + name
}

func objectName(o *fakeapi.Object) string {
	return ObjectName(o.Kind, o.Metadata.Namespace, o.Metadata.Name)
}

// Deleted is an object a what-if removed from storage, and who deleted it.
type Deleted struct {
	Object string
	// By is the client whose DELETE started its deletion: "user" for the
	// delete asked, the collector or a controller otherwise.
	By string
}

// Orphaned is an object that stays, without the references to owners the
// delete removed.
type Orphaned struct {
	Object  string
	Removed []string
}

// Stuck is an object left terminating: what holds it and why.
type Stuck struct {
	Object string `json:"object"`
	HeldBy string `json:"heldBy"`
	Reason string `json:"reason"`
}

// WhatIf is the answer to "what if I delete this?": every object of the
// world before the delete, in one of four outcomes, plus what the
// controllers did before (Settled) and created during it (Created).
type WhatIf struct {
	// Before says what the controllers did to the imported world before
	// the delete, once they started as after a restart.
	Before string
	// Deleted are in the order storage removed them.
	Deleted  []Deleted
	Orphaned []Orphaned
	Kept     []string
	Stuck    []Stuck
	// Created are objects the controllers created while it settled.
	Created []Deleted
	// Steps is the number of controller steps the delete took to settle.
	Steps int
}

// JSON returns the answer in `gcplay what-if -o json`'s form.
func (w *WhatIf) JSON() any {
	type out struct {
		Deleted  []string `json:"deleted"`
		Orphaned []string `json:"orphaned"`
		Kept     []string `json:"kept"`
		Stuck    []Stuck  `json:"stuck"`
	}
	o := out{Deleted: []string{}, Orphaned: []string{}, Kept: w.Kept, Stuck: w.Stuck}
	for _, d := range w.Deleted {
		o.Deleted = append(o.Deleted, d.Object)
	}
	for _, d := range w.Orphaned {
		o.Orphaned = append(o.Orphaned, d.Object)
	}
	if o.Kept == nil {
		o.Kept = []string{}
	}
	if o.Stuck == nil {
		o.Stuck = []Stuck{}
	}
	return o
}

// Imported is a dump's world, started and settled: the controllers ran as
// after a restart until nothing more happened.
type Imported struct {
	World *engine.World
	// Objects is how many objects the dump restored.
	Objects int
	// Before says what the controllers did while it settled.
	Before string
	// deleters maps an object (Kind/namespace/name) to the client of
	// the first successful DELETE of it.
	deleters map[string]string
	// dumpNamespaces are the Namespaces the dump holds or implies (the
	// others gcplay starts with are left out of answers).
	dumpNamespaces map[string]bool
	// bound is the most steps a settle may take (settleBound).
	bound int
}

// answers reports whether a what-if speaks of o: Events are not the
// collector's business, and the namespaces every world starts with are
// not the dump's unless it holds them.
func (im *Imported) answers(o *fakeapi.Object) bool {
	switch o.Kind {
	case "Event":
		return false
	case "Namespace":
		return im.dumpNamespaces[o.Metadata.Name] || !slices.Contains(standardNamespaces, o.Metadata.Name)
	}
	return true
}

// Start restores a dump's world and lets the controllers settle it, as
// kube-controller-manager would after a restart. The world keeps the
// dump's objects: s.Restore is emptied.
func Start(s *Scenario) (*Imported, error) { return StartReleased(s, nil) }

// StartReleased is Start, calling released (when not nil) once s.Restore
// is emptied and before the world is built, as Run's
// RunOptions.Released.
func StartReleased(s *Scenario, released func()) (*Imported, error) {
	im := &Imported{deleters: map[string]string{}, dumpNamespaces: map[string]bool{}, Objects: len(s.Restore), bound: settleBound(s.Restore, s.Objects)}
	restore := make([]*fakeapi.Object, len(s.Restore))
	for i, m := range s.Restore {
		restore[i] = m.Object
		if m.Object.Kind == "Namespace" {
			im.dumpNamespaces[m.Object.Metadata.Name] = true
		}
	}
	// The store keeps the objects themselves: the scenario lets go of
	// them, so that a large dump is held once.
	s.Restore = nil
	if released != nil {
		released()
	}
	w, err := engine.NewWorld(engine.Config{Kinds: s.Kinds, Controllers: s.Controllers, Restore: restore})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.File, err)
	}
	im.World = w
	var writes int
	var written []string
	im.World.Store().OnRequestReading(func(r fakeapi.Request) {
		// A deletecollection is the namespace controller sweeping a
		// resource, most often an empty one: not counted as a change.
		if r.Code < 300 && r.Verb != "get" && r.Verb != "list" && r.Verb != "deletecollection" && r.Ref.Kind != "Event" {
			writes++
			if k := ObjectName(r.Ref.Kind, r.Ref.Namespace, r.Ref.Name); len(written) < 3 && !slices.Contains(written, k) {
				written = append(written, k)
			}
		}
		if r.Verb == "delete" && r.Code < 300 {
			k := ObjectName(r.Ref.Kind, r.Ref.Namespace, r.Ref.Name)
			if _, ok := im.deleters[k]; !ok {
				im.deleters[k] = r.Client
			}
		}
	}, nil)
	n, err := im.settle()
	if err != nil {
		return nil, fmt.Errorf("%s: once started, the controllers did not settle: %w", s.File, err)
	}
	switch {
	case writes == 0:
		im.Before = fmt.Sprintf("the controllers started as after a restart, relisted (%s) and changed nothing: the dump is at rest", plural(n, "step"))
	default:
		im.Before = fmt.Sprintf("the controllers started as after a restart and wrote %s in %s before the world was at rest (to %s)", plural(writes, "change"), plural(n, "step"), strings.Join(written, ", "))
		if len(written) == 3 {
			im.Before += ", ..."
		}
	}
	return im, nil
}

func (im *Imported) settle() (int, error) {
	res, err := engine.SettleQuietly(im.World, im.bound)
	return res.Steps, err
}

// Delete deletes target with the given propagation policy ("" for the
// apiserver's default), settles, and says what happened to every object.
func (im *Imported) Delete(target Ref, policy string) (*WhatIf, error) {
	store := im.World.Store()
	// Of each object the answer speaks of, what it needs of it as it
	// stood: its uid and owner references. Not the object itself: holding
	// every object would keep each version the delete replaces or removes
	// live to its end, the whole settled world beside the new one.
	type was struct {
		uid    string
		owners []fakeapi.OwnerReference
	}
	var before []was
	for _, o := range store.Objects() {
		if im.answers(o) {
			before = append(before, was{o.Metadata.UID, o.Metadata.OwnerReferences})
		}
	}
	ref, err := requestRef(store, target)
	if err != nil {
		return nil, err
	}
	opts := &fakeapi.DeleteOptions{}
	if policy != "" {
		p := fakeapi.DeletionPropagation(policy)
		opts.PropagationPolicy = &p
	}
	clear(im.deleters)
	if _, err := im.World.Do(engine.Delete{Ref: ref, Options: opts}); err != nil {
		return nil, err
	}
	n, err := im.settle()
	if err != nil {
		return nil, fmt.Errorf("after the delete, the controllers did not settle: %w", err)
	}
	w := &WhatIf{Before: im.Before, Steps: n}
	existed := make(map[string]bool, len(before))
	for _, o := range before {
		existed[o.uid] = true
	}
	// Deleted: in the order storage removed them.
	gone := map[string]bool{}
	for _, rm := range store.Removals() {
		if existed[rm.UID] && !gone[rm.UID] && store.ByUID(rm.UID) == nil {
			gone[rm.UID] = true
			name := ObjectName(rm.Ref.Kind, rm.Ref.Namespace, rm.Ref.Name)
			w.Deleted = append(w.Deleted, Deleted{Object: name, By: im.deleters[name]})
		}
	}
	for _, o := range before {
		now := store.ByUID(o.uid)
		switch {
		case now == nil:
		case now.Metadata.DeletionTimestamp != nil:
			w.Stuck = append(w.Stuck, im.hold(now))
		default:
			var removed []string
			for _, r := range o.owners {
				if !slices.ContainsFunc(now.Metadata.OwnerReferences, func(n fakeapi.OwnerReference) bool { return n.UID == r.UID }) {
					removed = append(removed, ownerName(store, now, r))
				}
			}
			if len(removed) > 0 {
				w.Orphaned = append(w.Orphaned, Orphaned{Object: objectName(now), Removed: removed})
			} else {
				w.Kept = append(w.Kept, objectName(now))
			}
		}
	}
	for _, o := range store.ObjectsInCreationOrder() {
		if !existed[o.Metadata.UID] && im.answers(o) {
			w.Created = append(w.Created, Deleted{Object: objectName(o), By: creator(o)})
		}
	}
	return w, nil
}

// ownerName names the owner a reference points to.
func ownerName(store *fakeapi.Store, o *fakeapi.Object, r fakeapi.OwnerReference) string {
	ns := o.Metadata.Namespace
	if info, ok := store.Registry().Lookup(r.APIVersion, r.Kind); ok && !info.Namespaced() {
		ns = ""
	}
	return ObjectName(r.Kind, ns, r.Name)
}

// creator names the controller of an object created while settling.
func creator(o *fakeapi.Object) string {
	for _, r := range o.Metadata.OwnerReferences {
		if r.IsController() {
			return strings.ToLower(r.Kind) + " controller (for " + ObjectName(r.Kind, o.Metadata.Namespace, r.Name) + ")"
		}
	}
	return "a controller"
}

// hold says what keeps a terminating object in storage.
func (im *Imported) hold(o *fakeapi.Object) Stuck {
	st := Stuck{Object: objectName(o)}
	store := im.World.Store()
	fins := o.Metadata.Finalizers
	switch {
	case slices.Contains(fins, "foregroundDeletion"):
		st.HeldBy = "foregroundDeletion"
		var blocking []string
		for _, d := range store.Objects() {
			for _, r := range d.Metadata.OwnerReferences {
				if r.UID == o.Metadata.UID && r.Blocks() {
					blocking = append(blocking, objectName(d))
				}
			}
		}
		if len(blocking) > 0 {
			st.HeldBy = blocking[0]
			st.Reason = fmt.Sprintf("the garbage collector removes the foregroundDeletion finalizer only once no dependent with blockOwnerDeletion is left; %s still there", isAre(blocking))
		} else {
			st.Reason = "the garbage collector removes the foregroundDeletion finalizer once its blocking dependents are gone, and none is left: it will on its next pass"
		}
		if others := slices.DeleteFunc(slices.Clone(fins), func(f string) bool { return f == "foregroundDeletion" }); len(others) > 0 && len(blocking) == 0 {
			st.HeldBy = others[0]
			st.Reason = finalizerReason(o, others[0])
		}
	case slices.Contains(fins, "orphan"):
		st.HeldBy = "orphan"
		st.Reason = "the garbage collector removes the orphan finalizer once it has removed the references of the dependents"
	case len(fins) > 0:
		st.HeldBy = fins[0]
		st.Reason = finalizerReason(o, fins[0])
	case o.Kind == "Namespace":
		st.HeldBy = "kubernetes"
		st.Reason = namespaceReason(store, o)
	case o.Kind == "Pod":
		st.HeldBy = "kubelet"
		st.Reason = "a scheduled Pod is removed once its node's kubelet confirms that its containers stopped; no kubelet runs in this world"
	default:
		st.HeldBy = "unknown"
		st.Reason = "it is terminating with no finalizer; nothing gcplay models holds it"
	}
	return st
}

func isAre(objs []string) string {
	if len(objs) == 1 {
		return objs[0] + " is"
	}
	if len(objs) > 5 {
		return strings.Join(objs[:5], ", ") + fmt.Sprintf(" and %d more are", len(objs)-5)
	}
	return strings.Join(objs, ", ") + " are"
}

// finalizerReason says who removes a finalizer no gcplay controller owns.
func finalizerReason(o *fakeapi.Object, f string) string {
	if f == "kubernetes" && o.Kind == "Namespace" {
		return "the namespace controller removes it once the namespace is empty"
	}
	return fmt.Sprintf("only the controller that added the finalizer %s removes it; no controller in this world does, so it stays until that controller runs, or you remove it: kubectl patch %s %s%s --type=merge -p '{\"metadata\":{\"finalizers\":null}}'",
		f, strings.ToLower(o.Kind), o.Metadata.Name, nsFlag(o.Metadata.Namespace))
}

func nsFlag(ns string) string {
	if ns == "" {
		return ""
	}
	return " -n " + ns
}

func namespaceReason(store *fakeapi.Store, ns *fakeapi.Object) string {
	var left []string
	for _, o := range store.Objects() {
		if o.Metadata.Namespace == ns.Metadata.Name && o.Kind != "Event" {
			left = append(left, objectName(o))
		}
	}
	if len(left) == 0 {
		return "the namespace controller removes the kubernetes finalizer once the namespace is empty, and it is"
	}
	return fmt.Sprintf("the namespace controller removes the kubernetes finalizer once the namespace is empty; %s still in it", isAre(left))
}

// Why explains why target, already terminating in the dump, is not gone
// once the controllers have settled the world. Gone is true when it is no
// longer stored.
func (im *Imported) Why(target Ref) (answer []string, err error) {
	store := im.World.Store()
	ref, err := requestRef(store, target)
	if err != nil {
		return nil, err
	}
	o := store.Lookup(ref)
	if o == nil {
		if by := im.deleters[ObjectName(ref.Kind, ref.Namespace, ref.Name)]; by != "" {
			return []string{fmt.Sprintf("%s is gone: once the controllers resumed, %s deleted it and nothing held it", ObjectName(ref.Kind, ref.Namespace, ref.Name), Actor(by))}, nil
		}
		return nil, fakeapi.NewNotFound(strings.ToLower(ref.Kind), ref.Name)
	}
	name := objectName(o)
	if o.Metadata.DeletionTimestamp == nil {
		return []string{fmt.Sprintf("%s is not being deleted: it has no deletionTimestamp. gcplay what-if ... delete %s shows what a delete would do", name, strings.ToLower(o.Kind)+"/"+o.Metadata.Name)}, nil
	}
	seen := map[string]bool{}
	var walk func(o *fakeapi.Object, depth int)
	walk = func(o *fakeapi.Object, depth int) {
		indent := strings.Repeat("  ", depth)
		if seen[o.Metadata.UID] {
			answer = append(answer, indent+objectName(o)+": see above (a cycle)")
			return
		}
		seen[o.Metadata.UID] = true
		h := im.hold(o)
		since := ""
		if t := o.Metadata.DeletionTimestamp; t != nil {
			since = " since " + t.UTC().Format("2006-01-02T15:04:05Z")
		}
		fins := "finalizers [" + strings.Join(o.Metadata.Finalizers, ", ") + "]"
		if o.Kind == "Namespace" && len(o.Metadata.Finalizers) == 0 {
			fins = "spec.finalizers [kubernetes]"
		}
		answer = append(answer, fmt.Sprintf("%s%s is terminating%s, %s: held by %s: %s", indent, h.Object, since, fins, h.HeldBy, h.Reason))
		if depth >= 3 {
			return
		}
		var next []*fakeapi.Object
		switch {
		case o.Kind == "Namespace" && len(o.Metadata.Finalizers) == 0:
			for _, d := range store.Objects() {
				if d.Metadata.Namespace == o.Metadata.Name && d.Metadata.DeletionTimestamp != nil && d.Kind != "Event" {
					next = append(next, d)
				}
			}
		case slices.Contains(o.Metadata.Finalizers, "foregroundDeletion"):
			for _, d := range store.Objects() {
				for _, r := range d.Metadata.OwnerReferences {
					if r.UID == o.Metadata.UID && r.Blocks() && d.Metadata.DeletionTimestamp != nil {
						next = append(next, d)
					}
				}
			}
		}
		for i, d := range next {
			if i == 5 {
				answer = append(answer, fmt.Sprintf("%s  ... and %d more", indent, len(next)-5))
				break
			}
			walk(d, depth+1)
		}
	}
	walk(o, 0)
	return answer, nil
}

// Actor names the client of a request for a person: "you (the delete
// asked)", "the garbage collector", "the replicaset controller".
func Actor(client string) string {
	switch {
	case client == "user":
		return "you (the delete asked)"
	case client == engine.ControllerGC:
		return "the garbage collector"
	case client == "kubelet":
		return "the kubelet"
	case strings.HasSuffix(client, "-controller"):
		return "the " + strings.TrimSuffix(client, "-controller") + " controller"
	case client == "":
		return "nobody gcplay saw"
	}
	return client
}
