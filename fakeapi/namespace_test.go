package fakeapi

import (
	"slices"
	"testing"
	"time"
)

func nsRef(name string) Ref { return Ref{APIVersion: "v1", Kind: "Namespace", Name: name} }

func TestNamespace_CreateSetsPhaseFinalizerAndLabel(t *testing.T) {
	w := newWorld(t)
	for i, name := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		o := w.stored(nsRef(name))
		if o == nil || o.Metadata.UID != []string{"uid-0001", "uid-0002", "uid-0003", "uid-0004"}[i] {
			t.Fatalf("namespace %s = %s", name, describe(o))
		}
		if NamespacePhase(o) != "Active" || !slices.Equal(NamespaceFinalizers(o), []string{"kubernetes"}) ||
			o.Metadata.Labels["kubernetes.io/metadata.name"] != name {
			t.Errorf("built-in namespace %s = %s", name, describe(o))
		}
	}
	// A client's status is replaced; its own spec finalizers are kept, and
	// kubernetes is appended.
	in := obj("v1", "Namespace", "", "team",
		"spec", map[string]any{"finalizers": []any{"example.com/audit"}},
		"status", map[string]any{"phase": "Terminating"})
	out := w.create(in)
	if NamespacePhase(out) != "Active" || !slices.Equal(NamespaceFinalizers(out), []string{"example.com/audit", "kubernetes"}) ||
		out.Metadata.Labels["kubernetes.io/metadata.name"] != "team" || out.Metadata.Generation != 0 {
		t.Errorf("created namespace = %s %v", describe(out), out.Fields)
	}
	_, err := w.s.Create("test", obj("v1", "Namespace", "", "bad", "spec", map[string]any{"finalizers": []any{"mine"}}))
	wantStatus(t, err, ReasonInvalid, 422,
		`Namespace "bad" is invalid: spec.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified`)
}

func TestNamespace_UpdateAndPatchKeepSpecFinalizersAndStatus(t *testing.T) {
	w := newWorld(t)
	w.create(obj("v1", "Namespace", "", "team"))
	out := w.mergePatch(nsRef("team"), `{"spec":{"finalizers":null},"status":{"phase":"Terminating"},"metadata":{"labels":{"a":"b"}}}`)
	if !slices.Equal(NamespaceFinalizers(out), []string{"kubernetes"}) || NamespacePhase(out) != "Active" || out.Metadata.Labels["a"] != "b" {
		t.Errorf("patched namespace = %s %v", describe(out), out.Fields)
	}
}

func TestNamespace_DeleteMarksTerminatingAndKeepsContent(t *testing.T) {
	w := newWorld(t)
	w.create(obj("v1", "Namespace", "", "team"))
	w.create(obj("v1", "ConfigMap", "team", "x"))
	w.clock.Advance(10 * time.Second)
	n := len(w.events)
	res := w.delete(nsRef("team"), nil)
	if res.Removed || res.Code != 200 {
		t.Errorf("first delete = %+v", res)
	}
	ns := w.stored(nsRef("team"))
	if ns.Metadata.DeletionTimestamp == nil || !ns.Metadata.DeletionTimestamp.Equal(Epoch.Add(10*time.Second)) ||
		ns.Metadata.DeletionGracePeriodSeconds != nil || NamespacePhase(ns) != "Terminating" ||
		!slices.Equal(NamespaceFinalizers(ns), []string{"kubernetes"}) || ns.Metadata.Finalizers != nil {
		t.Errorf("terminating namespace = %s %v", describe(ns), ns.Fields)
	}
	wantEvents(t, w.since(n), "MODIFIED Namespace/team")
	if w.stored(Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "x"}) == nil {
		t.Error("the namespace's content went with the DELETE: only the namespace controller removes it")
	}
	_, err := w.s.Create("test", obj("v1", "ConfigMap", "team", "y"))
	wantStatus(t, err, ReasonForbidden, 403, `configmaps "y" is forbidden: unable to create new content in namespace team because it is being terminated`)
	// Updates in a terminating namespace are allowed.
	w.mergePatch(Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "x"}, `{"data":{"k":"v"}}`)

	// A DELETE while spec.finalizers remain changes nothing.
	n = len(w.events)
	again := w.delete(nsRef("team"), policy(DeletePropagationForeground))
	if again.Removed || again.Object.Metadata.Finalizers != nil {
		t.Errorf("second delete = %+v", again)
	}
	wantEvents(t, w.since(n))
}

func TestNamespace_DeleteGCFinalizersFollowOptionsOnly(t *testing.T) {
	for _, tt := range []struct {
		opts *DeleteOptions
		have []string
		want []string
	}{
		{nil, nil, nil},
		{policy(DeletePropagationForeground), nil, []string{"foregroundDeletion"}},
		{policy(DeletePropagationOrphan), []string{"example.com/x"}, []string{"example.com/x", "orphan"}},
		{policy(DeletePropagationBackground), []string{"orphan"}, nil},
		{&DeleteOptions{OrphanDependents: Bool(false)}, nil, []string{"foregroundDeletion"}},
		{nil, []string{"orphan"}, []string{"orphan"}},
	} {
		w := newWorld(t)
		w.create(withFinalizers(obj("v1", "Namespace", "", "team"), tt.have...))
		res := w.delete(nsRef("team"), tt.opts)
		if got := res.Object.Metadata.Finalizers; !slices.Equal(got, tt.want) {
			t.Errorf("delete %s over %q: finalizers %q, want %q", describeDeleteOptions(&w.s.text, tt.opts), tt.have, got, tt.want)
		}
	}
}

func TestNamespace_ImmortalAndPreconditions(t *testing.T) {
	w := newWorld(t)
	for _, name := range []string{"default", "kube-system", "kube-public"} {
		_, err := w.s.Delete("test", nsRef(name), nil)
		wantStatus(t, err, ReasonForbidden, 403, `namespaces "`+name+`" is forbidden: this namespace may not be deleted`)
	}
	if res := w.delete(nsRef("kube-node-lease"), nil); res.Removed || NamespacePhase(res.Object) != "Terminating" {
		t.Errorf("kube-node-lease is not immortal upstream: %s", describe(res.Object))
	}
	// The preconditions come first (as a v1.34.4 apiserver answered).
	_, err := w.s.Delete("test", nsRef("default"), &DeleteOptions{Preconditions: &Preconditions{UID: str("nope")}})
	wantStatus(t, err, ReasonConflict, 409,
		`Operation cannot be fulfilled on namespaces "default": Precondition failed: UID in precondition: nope, UID in object meta: uid-0001`)
	w.create(obj("v1", "Namespace", "", "team"))
	_, err = w.s.Delete("test", nsRef("team"), &DeleteOptions{Preconditions: &Preconditions{UID: str("nope")}})
	wantStatus(t, err, ReasonConflict, 409,
		`Operation cannot be fulfilled on namespaces "team": Precondition failed: UID in precondition: nope, UID in object meta: uid-0005`)
	_, err = w.s.Delete("test", nsRef("team"), &DeleteOptions{Preconditions: &Preconditions{ResourceVersion: str("1")}})
	wantStatus(t, err, ReasonConflict, 409,
		`Operation cannot be fulfilled on namespaces "team": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 6`)
}

func TestNamespace_FinalizeRemovesWhenBothListsAreEmpty(t *testing.T) {
	w := newWorld(t)
	w.create(withFinalizers(obj("v1", "Namespace", "", "team"), "example.com/hold"))
	w.delete(nsRef("team"), nil)

	// Status goes through /status only; spec is kept there.
	ns := w.stored(nsRef("team")).DeepCopy()
	ns.Fields.Set("status", map[string]any{"phase": "Terminating", "conditions": []any{map[string]any{"type": "NamespaceContentRemaining", "status": "False"}}})
	ns.Fields.Set("spec", map[string]any{})
	st, err := w.s.UpdateStatus("namespace-controller", ns)
	if err != nil || !slices.Equal(NamespaceFinalizers(st), []string{"kubernetes"}) {
		t.Fatalf("status update = %v, %v", st, err)
	}
	// The phase must agree with the deletionTimestamp
	// (ValidateNamespaceStatusUpdate); an empty one is Active.
	for _, phase := range []string{"Active", ""} {
		bad := st.DeepCopy()
		bad.Fields.Set("status", map[string]any{"phase": phase})
		_, err = w.s.UpdateStatus("test", bad)
		wantStatus(t, err, ReasonInvalid, 422, `Namespace "team" is invalid: status.Phase: Invalid value: "Active": may only be 'Terminating' if `+"`deletionTimestamp`"+` is not empty`)
	}
	live := w.create(obj("v1", "Namespace", "", "live"))
	live.Fields.Set("status", map[string]any{"phase": "Terminating"})
	_, err = w.s.UpdateStatus("test", live)
	wantStatus(t, err, ReasonInvalid, 422, `Namespace "live" is invalid: status.Phase: Invalid value: "Terminating": may only be 'Active' if `+"`deletionTimestamp`"+` is empty`)
	// A stale resourceVersion conflicts, as the controller's first
	// finalize after a status update does.
	fin := ns.DeepCopy()
	fin.Fields.Set("spec", map[string]any{"finalizers": []any{}})
	_, err = w.s.Finalize("namespace-controller", fin)
	wantStatus(t, err, ReasonConflict, 409, `Operation cannot be fulfilled on namespaces "team": `+optimisticLockMessage)
	fin.Metadata.ResourceVersion = st.Metadata.ResourceVersion
	out, err := w.s.Finalize("namespace-controller", fin)
	if err != nil {
		t.Fatal(err)
	}
	// The metadata finalizer still holds it; status was kept by /finalize.
	if len(NamespaceFinalizers(out)) != 0 || w.stored(nsRef("team")) == nil || NamespacePhase(out) != "Terminating" {
		t.Fatalf("finalized namespace = %s %v", describe(out), out.Fields)
	}
	n := len(w.events)
	w.mergePatch(nsRef("team"), `{"metadata":{"finalizers":null}}`)
	wantEvents(t, w.since(n), "DELETED Namespace/team")

	// The other way round: metadata finalizers gone first, then finalize.
	w.create(obj("v1", "Namespace", "", "b"))
	w.delete(nsRef("b"), nil)
	b := w.stored(nsRef("b")).DeepCopy()
	b.Fields.Set("spec", map[string]any{"finalizers": []any{}})
	n = len(w.events)
	if _, err := w.s.Finalize("namespace-controller", b); err != nil {
		t.Fatal(err)
	}
	wantEvents(t, w.since(n), "DELETED Namespace/b")

	// Finalize validates the names.
	w.create(obj("v1", "Namespace", "", "c"))
	c := w.stored(nsRef("c")).DeepCopy()
	c.Fields.Set("spec", map[string]any{"finalizers": []any{"kubernetes", "mine", "yours"}})
	_, err = w.s.Finalize("test", c)
	wantStatus(t, err, ReasonInvalid, 422, `Namespace "c" is invalid: [spec.finalizers[1]: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified, `+
		`spec.finalizers[2]: Invalid value: "yours": name is neither a standard finalizer name nor is it fully qualified]`)
	// ... after the resourceVersion: a stale one is a conflict first.
	c.Metadata.ResourceVersion = "1"
	_, err = w.s.Finalize("test", c)
	wantStatus(t, err, ReasonConflict, 409, `Operation cannot be fulfilled on namespaces "c": `+optimisticLockMessage)
}

func TestNamespace_ObjectsOutliveAFinalizedNamespace(t *testing.T) {
	// Finalizing by hand does not delete the content: etcd keeps it, and
	// a namespace of the same name finds it again.
	w := newWorld(t)
	w.create(obj("v1", "Namespace", "", "team"))
	w.create(obj("v1", "ConfigMap", "team", "x"))
	w.delete(nsRef("team"), nil)
	ns := w.stored(nsRef("team")).DeepCopy()
	ns.Fields.Set("spec", map[string]any{"finalizers": []any{}})
	if _, err := w.s.Finalize("test", ns); err != nil {
		t.Fatal(err)
	}
	if w.stored(nsRef("team")) != nil || w.stored(Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "x"}) == nil {
		t.Error("want the namespace gone and its ConfigMap left behind")
	}
	// What is left cannot be updated or patched: the NamespaceLifecycle
	// admission plugin needs the namespace, and checks it after the
	// object is found and before the resourceVersion is compared. Reads
	// and deletes go on (as a v1.34.4 apiserver answered).
	x := w.stored(Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "x"}).DeepCopy()
	x.Metadata.ResourceVersion = "1"
	_, err := w.s.Update("test", x)
	wantStatus(t, err, ReasonNotFound, 404, `namespaces "team" not found`)
	_, err = w.s.Patch("test", Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "x"}, MergePatch, []byte(`{"metadata":{"labels":{"a":"b"}}}`))
	wantStatus(t, err, ReasonNotFound, 404, `namespaces "team" not found`)
	_, err = w.s.Patch("test", Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "nothere"}, MergePatch, []byte(`{}`))
	wantStatus(t, err, ReasonNotFound, 404, `configmaps "nothere" not found`)
	if res := w.delete(Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team", Name: "x"}, nil); !res.Removed {
		t.Error("the delete of an object in a gone namespace did not remove it")
	}
}

func TestDeleteCollection_DeletesEachItemAsItsOwnDelete(t *testing.T) {
	w := newWorld(t)
	w.create(obj("v1", "Namespace", "", "team"))
	w.create(obj("v1", "ConfigMap", "team", "a"))
	w.create(withFinalizers(obj("v1", "ConfigMap", "team", "b"), "example.com/hold"))
	w.create(obj("v1", "ConfigMap", "default", "c"))
	p := obj("v1", "Pod", "team", "p", "spec", map[string]any{"nodeName": "node-1"})
	w.create(p)
	var reqs []Request
	w.s.OnRequest(func(r Request) { reqs = append(reqs, r) })
	n := len(w.events)
	if err := w.s.DeleteCollection("namespace-controller", "v1", "ConfigMap", "team", policy(DeletePropagationBackground)); err != nil {
		t.Fatal(err)
	}
	if err := w.s.DeleteCollection("namespace-controller", "v1", "Pod", "team", policy(DeletePropagationBackground)); err != nil {
		t.Fatal(err)
	}
	wantEvents(t, w.since(n), "DELETED ConfigMap/team/a", "MODIFIED ConfigMap/team/b", "MODIFIED Pod/team/p")
	if len(reqs) != 2 || reqs[0].Verb != "deletecollection" || reqs[0].Detail != "propagationPolicy=Background" {
		t.Errorf("requests = %+v", reqs)
	}
	if pod := w.stored(Ref{APIVersion: "v1", Kind: "Pod", Namespace: "team", Name: "p"}); pod == nil || *pod.Metadata.DeletionGracePeriodSeconds != 30 {
		t.Errorf("a scheduled pod is deleted gracefully: %s", describe(pod))
	}
	// A fault on deletecollection fails the request and changes nothing.
	w.s.Inject(Fault{Verb: "deletecollection", Kind: "ConfigMap", Reason: ReasonInternalError})
	err := w.s.DeleteCollection("test", "v1", "ConfigMap", "default", nil)
	wantStatus(t, err, ReasonInternalError, 500, "...")
	if w.stored(cmRef("c")) == nil {
		t.Error("a failed deletecollection deleted something")
	}
}

// TestNamespace_EmptyPhaseIsActive: SetDefaults_NamespaceStatus makes an
// empty phase Active wherever a Namespace is decoded: a create (whose
// strategy sets Active anyway), a /status update's body, and a restored
// object (as a read from etcd decodes it).
func TestNamespace_EmptyPhaseIsActive(t *testing.T) {
	w := newWorld(t)
	created := obj("v1", "Namespace", "", "live", "status", map[string]any{"phase": ""})
	live := w.create(created)
	if p := NamespacePhase(live); p != NamespaceActive {
		t.Errorf("created: phase %q", p)
	}
	live.Fields.Set("status", map[string]any{"conditions": []any{}})
	out, err := w.s.UpdateStatus("test", live)
	if err != nil {
		t.Fatal(err)
	}
	if p := NamespacePhase(w.stored(nsRef("live"))); p != NamespaceActive || NamespacePhase(out) != NamespaceActive {
		t.Errorf("status update without a phase: stored %q, answered %q", p, NamespacePhase(out))
	}
	restored := obj("v1", "Namespace", "", "old")
	if err := w.s.Restore(restored); err != nil {
		t.Fatal(err)
	}
	if p := NamespacePhase(w.stored(nsRef("old"))); p != NamespaceActive {
		t.Errorf("restored without a status: phase %q", p)
	}
}
