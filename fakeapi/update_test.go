package fakeapi

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// deleting creates a ConfigMap with a custom finalizer and deletes it, so
// it is terminating.
func (w *world) deleting(name string, finalizers ...string) *Object {
	w.t.Helper()
	w.create(withFinalizers(configMap(name), finalizers...))
	w.delete(cmRef(name), nil)
	o, err := w.s.Get("test", cmRef(name))
	if err != nil {
		w.t.Fatal(err)
	}
	return o
}

func TestUpdate_R4_NoNewFinalizersWhileDeleting(t *testing.T) {
	w := newWorld(t)
	o := w.deleting("x", "example.com/a")
	o.Metadata.Finalizers = append(o.Metadata.Finalizers, "example.com/b", "orphan")
	n := len(w.events)
	_, err := w.s.Update("test", o)
	wantStatus(t, err, ReasonInvalid, 422,
		`ConfigMap "x" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "orphan"}`)
	if len(w.events) != n {
		t.Errorf("a refused update wrote: %q", w.since(n))
	}
}

func TestUpdate_R4_FinalizersAndOwnerReferencesMayChangeWhileDeleting(t *testing.T) {
	w := newWorld(t)
	o := w.deleting("x", "example.com/a", "example.com/b")
	o.Metadata.Finalizers = []string{"example.com/b"}
	o.Metadata.OwnerReferences = []OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "o", UID: "u"}}
	out, err := w.s.Update("test", o)
	if err != nil {
		t.Fatal(err)
	}
	wantFinalizers(t, out, "example.com/b")
	if len(out.Metadata.OwnerReferences) != 1 {
		t.Errorf("ownerReferences = %v, want the new one", out.Metadata.OwnerReferences)
	}
}

func TestUpdate_R4_ImmutableFields(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("live"))
	deleting := w.deleting("gone", "example.com/a")
	tests := []struct {
		name    string
		ref     Ref
		change  func(m *ObjectMeta)
		wantMsg string
	}{
		{"deletionTimestamp cannot be set", cmRef("live"), func(m *ObjectMeta) { m.DeletionTimestamp = &Time{Epoch} },
			`ConfigMap "live" is invalid: metadata.deletionTimestamp: Invalid value: "2026-01-01T00:00:00Z": field is immutable`},
		{"deletionGracePeriodSeconds", cmRef("gone"), func(m *ObjectMeta) { m.DeletionGracePeriodSeconds = Int64(30) },
			`ConfigMap "gone" is invalid: metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _ := w.s.Get("test", tt.ref)
			tt.change(&o.Metadata)
			_, err := w.s.Update("test", o)
			wantStatus(t, err, ReasonInvalid, 422, tt.wantMsg)
		})
	}
	// A deletionTimestamp cannot be removed or moved: the update keeps it.
	o, _ := w.s.Get("test", cmRef("gone"))
	o.Metadata.DeletionTimestamp = nil
	o.Metadata.Labels = map[string]string{"touched": "yes"}
	out, err := w.s.Update("test", o)
	if err != nil {
		t.Fatal(err)
	}
	if !timeEqual(out.Metadata.DeletionTimestamp, deleting.Metadata.DeletionTimestamp) {
		t.Errorf("deletionTimestamp = %v, want kept %v", out.Metadata.DeletionTimestamp, deleting.Metadata.DeletionTimestamp)
	}
}

func TestUpdate_R9_EmptiedFinalizersRemoveDeletingObject(t *testing.T) {
	w := newWorld(t)
	o := w.deleting("x", "example.com/a")
	stored := w.stored(cmRef("x"))
	n := len(w.events)
	o.Metadata.Finalizers = nil
	out, err := w.s.Update("test", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Metadata.Finalizers) != 0 {
		t.Errorf("response finalizers = %q, want the emptied list", out.Metadata.Finalizers)
	}
	if w.stored(cmRef("x")) != nil {
		t.Fatal("the object is still stored")
	}
	wantEvents(t, w.since(n), "DELETED ConfigMap/x")
	ev := w.events[n]
	wantFinalizers(t, ev.Object, "example.com/a") // the last stored state
	if ev.Object != stored {
		t.Errorf("DELETED carries %p, want the last stored state %p", ev.Object, stored)
	}
	deletedAt, _ := strconv.Atoi(ev.ResourceVersion)
	if last, _ := strconv.Atoi(stored.Metadata.ResourceVersion); deletedAt <= last {
		t.Errorf("DELETED at resourceVersion %q, want the deletion's own, after %s", ev.ResourceVersion, stored.Metadata.ResourceVersion)
	}
	if r := w.s.Removals(); len(r) != 1 || r[0].Ref.Name != "x" || r[0].Seq != ev.Seq {
		t.Errorf("removals = %+v, want x at seq %d", r, ev.Seq)
	}
}

func TestUpdate_R9_MergePatchNullFinalizersRemovesDeletingObject(t *testing.T) {
	w := newWorld(t)
	w.deleting("x", "example.com/a")
	n := len(w.events)
	w.mergePatch(cmRef("x"), `{"metadata":{"finalizers":null}}`)
	wantEvents(t, w.since(n), "DELETED ConfigMap/x")
}

func TestUpdate_R9_PendingGracePeriodKeepsTheObject(t *testing.T) {
	// A pod deleted with a grace period keeps waiting for its kubelet even
	// when its last finalizer goes.
	w := newWorld(t)
	w.create(withFinalizers(scheduledPod("p"), "example.com/a"))
	w.delete(podRef("p"), nil)
	n := len(w.events)
	w.mergePatch(podRef("p"), `{"metadata":{"finalizers":null}}`)
	wantEvents(t, w.since(n), "MODIFIED Pod/p")
	if p := w.stored(podRef("p")); p == nil || p.Metadata.DeletionTimestamp == nil {
		t.Errorf("pod = %s, want it terminating", describe(p))
	}
}

func TestUpdate_R10_StaleResourceVersionIsConflict(t *testing.T) {
	w := newWorld(t)
	stale := w.create(configMap("x"))
	w.mergePatch(cmRef("x"), `{"data":{"a":"1"}}`)
	stale.Fields = FieldsOf(map[string]any{"data": map[string]any{"b": "2"}})
	_, err := w.s.Update("test", stale)
	wantStatus(t, err, ReasonConflict, 409,
		`Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again`)
}

// TestUpdate_UIDIsAPrecondition: the uid a PUT sends is a storage
// precondition, checked before the resourceVersion and the validation; a
// mismatch is a 409 naming the object's etcd key (the messages of a
// v1.34.4 apiserver). A patch has no such precondition: a uid it changes
// is an immutable field (422).
func TestUpdate_UIDIsAPrecondition(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Add(KindInfo{APIVersion: "example.com/v1", Kind: "Widget", Resource: "widgets", Scope: Namespaced, Custom: true}); err != nil {
		t.Fatal(err)
	}
	w := newWorldWith(t, reg)
	for _, tt := range []struct {
		o        *Object
		resource string
		key      string
	}{
		{configMap("a"), `configmaps "a"`, "/registry/configmaps/default/a"},
		{obj("apps/v1", "Deployment", "default", "d"), `deployments.apps "d"`, "/registry/deployments/default/d"},
		{obj("v1", "Service", "default", "s"), `services "s"`, "/registry/services/specs/default/s"},
		{obj("v1", "Node", "", "n"), `nodes "n"`, "/registry/minions/n"},
		{obj("example.com/v1", "Widget", "default", "w"), `widgets.example.com "w"`, "/registry/example.com/widgets/default/w"},
	} {
		o := w.create(tt.o)
		uid := o.Metadata.UID
		o.Metadata.UID = "zzz"
		o.Metadata.ResourceVersion = "1"
		o.Metadata.Finalizers = []string{"orphan", "foregroundDeletion"}
		_, err := w.s.Update("test", o)
		wantStatus(t, err, ReasonConflict, 409, "Operation cannot be fulfilled on "+tt.resource+": StorageError: invalid object, Code: 4, Key: "+
			tt.key+", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: zzz, UID in object meta: "+uid)
	}
	_, err := w.s.Patch("test", cmRef("a"), MergePatch, []byte(`{"metadata":{"uid":"zzz"}}`))
	wantStatus(t, err, ReasonInvalid, 422, `ConfigMap "a" is invalid: metadata.uid: Invalid value: "zzz": field is immutable`)
}

func TestUpdate_R10_EmptyResourceVersion(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Add(KindInfo{APIVersion: "example.com/v1", Kind: "Widget", Scope: Namespaced, Custom: true}); err != nil {
		t.Fatal(err)
	}
	w := newWorldWith(t, reg)
	// Built-in strategies allow unconditional updates.
	cm := w.create(configMap("x"))
	cm.Metadata.ResourceVersion = ""
	cm.Metadata.Labels = map[string]string{"a": "b"}
	if _, err := w.s.Update("test", cm); err != nil {
		t.Errorf("unconditional update of a ConfigMap: %v", err)
	}
	// Custom resources do not.
	wd := w.create(obj("example.com/v1", "Widget", "default", "w"))
	wd.Metadata.ResourceVersion = ""
	_, err := w.s.Update("test", wd)
	wantStatus(t, err, ReasonInvalid, 422,
		`widgets.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`)
}

func TestUpdate_GenerationFollowsSpec(t *testing.T) {
	w := newWorld(t)
	d := w.create(obj("apps/v1", "Deployment", "default", "web", "spec", map[string]any{"replicas": 1}))
	d.Metadata.Generation = 40 // clients cannot set it
	d.Metadata.Labels = map[string]string{"a": "b"}
	d = mustUpdate(t, w.s, d)
	if d.Metadata.Generation != 1 {
		t.Errorf("generation after a label change = %d, want 1", d.Metadata.Generation)
	}
	d.Fields.Set("spec", map[string]any{"replicas": 2})
	if d = mustUpdate(t, w.s, d); d.Metadata.Generation != 2 {
		t.Errorf("generation after a spec change = %d, want 2", d.Metadata.Generation)
	}
}

func TestUpdate_NoOpWritesNothing(t *testing.T) {
	w := newWorld(t)
	o := w.create(obj("v1", "ConfigMap", "default", "x", "data", map[string]any{"n": 1}))
	n := len(w.events)
	out := mustUpdate(t, w.s, o)
	if out.Metadata.ResourceVersion != o.Metadata.ResourceVersion || len(w.events) != n {
		t.Errorf("a no-op update wrote: rv %s -> %s, events %q", o.Metadata.ResourceVersion, out.Metadata.ResourceVersion, w.since(n))
	}
	w.mergePatch(cmRef("x"), `{"data":{"n":1}}`)
	if len(w.events) != n {
		t.Errorf("a no-op patch wrote: %q", w.since(n))
	}
}

func TestUpdate_R22_OnlyDeleteCanAddGCFinalizersWhileDeleting(t *testing.T) {
	w := newWorld(t)
	w.deleting("x", "example.com/a")
	_, err := w.s.Patch("test", cmRef("x"), MergePatch, []byte(`{"metadata":{"finalizers":["example.com/a","foregroundDeletion"]}}`))
	wantStatus(t, err, ReasonInvalid, 422, "")
	if !strings.Contains(err.Error(), "no new finalizers can be added if the object is being deleted") {
		t.Errorf("error = %v", err)
	}
	w.clock.Advance(time.Minute)
	res := w.delete(cmRef("x"), policy(DeletePropagationForeground))
	wantFinalizers(t, res.Object, "example.com/a", "foregroundDeletion")
}

func mustUpdate(t *testing.T, s *Store, o *Object) *Object {
	t.Helper()
	out, err := s.Update("test", o)
	if err != nil {
		t.Fatalf("update %s: %v", o, err)
	}
	return out
}
