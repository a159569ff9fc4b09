package fakeapi

import "testing"

// The DaemonSet strategy's template generation: 1 on create, one more
// when an update or patch changes spec.template, unchanged otherwise, and
// never what the client writes on update.
func TestDaemonSetTemplateGeneration(t *testing.T) {
	w := newWorld(t)
	ds := &Object{APIVersion: "apps/v1", Kind: "DaemonSet", Metadata: ObjectMeta{Name: "agent", Namespace: "default"},
		Fields: FieldsOf(map[string]any{"spec": map[string]any{
			"selector": map[string]any{"matchLabels": map[string]any{"app": "agent"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "agent"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "v1"}}}}}})}
	ref := Ref{APIVersion: "apps/v1", Kind: "DaemonSet", Namespace: "default", Name: "agent"}
	gen := func() string {
		t.Helper()
		o, err := w.s.Get("test", ref)
		if err != nil {
			t.Fatal(err)
		}
		return o.Metadata.Annotations[DaemonSetTemplateGenerationAnnotation]
	}
	if _, err := w.s.Create("test", ds); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		patch, want string
	}{
		{``, "1"},
		{`{"spec":{"minReadySeconds":5}}`, "1"},
		{`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"v2"}]}}}}`, "2"},
		{`{"metadata":{"annotations":{"deprecated.daemonset.template.generation":"9"}}}`, "2"},
		{`{"metadata":{"annotations":null}}`, "2"},
		{`{"spec":{"template":{"metadata":{"labels":{"tier":"node"}}}}}`, "3"},
	}
	for _, st := range steps {
		if st.patch != "" {
			if _, err := w.s.Patch("test", ref, MergePatch, []byte(st.patch)); err != nil {
				t.Fatalf("%s: %v", st.patch, err)
			}
		}
		if got := gen(); got != st.want {
			t.Errorf("after %q: generation %q, want %q", st.patch, got, st.want)
		}
	}
}

// A StatefulSet's persistentVolumeClaimRetentionPolicy is validated as
// ValidatePersistentVolumeClaimRetentionPolicy does, on create, update
// (and so patch) and restore: whenDeleted and whenScaled are Retain,
// Delete, or empty (defaulted to Retain); anything else is 422 with the
// apiserver's wording, the value shown as JSON.
func TestStatefulSetRetentionPolicyValidated(t *testing.T) {
	set := func(name string, policy map[string]any) *Object {
		spec := validStatefulSetSpec()
		if policy != nil {
			spec["persistentVolumeClaimRetentionPolicy"] = policy
		}
		return &Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: ObjectMeta{Name: name, Namespace: "default"},
			Fields: FieldsOf(map[string]any{"spec": spec})}
	}
	w := newWorld(t)
	for _, ok := range []map[string]any{nil, {}, {"whenDeleted": "Delete", "whenScaled": "Retain"}, {"whenScaled": ""}} {
		if _, err := w.s.Create("test", set("ok", ok)); err != nil {
			t.Errorf("create with policy %v: %v", ok, err)
		}
		_, _ = w.s.Delete("test", Ref{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "default", Name: "ok"}, &DeleteOptions{GracePeriodSeconds: Int64(0)})
	}
	want := `StatefulSet.apps "web" is invalid: [spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Foo": supported values: "Retain", "Delete", ` +
		`spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "\u003cx\u003e": supported values: "Retain", "Delete"]`
	_, err := w.s.Create("test", set("web", map[string]any{"whenDeleted": "Foo", "whenScaled": "<x>"}))
	if err == nil || err.Error() != want || !IsInvalid(err) {
		t.Errorf("create: %v\nwant 422 %s", err, want)
	}
	if err := w.s.Restore(set("web", map[string]any{"whenDeleted": "Foo", "whenScaled": "<x>"})); err == nil || err.Error() != want {
		t.Errorf("restore: %v\nwant %s", err, want)
	}
	if _, err := w.s.Create("test", set("web", nil)); err != nil {
		t.Fatal(err)
	}
	ref := Ref{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "default", Name: "web"}
	_, err = w.s.Patch("test", ref, MergePatch, []byte(`{"spec":{"persistentVolumeClaimRetentionPolicy":{"whenScaled":"delete"}}}`))
	want = `StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "delete": supported values: "Retain", "Delete"`
	if err == nil || err.Error() != want {
		t.Errorf("patch: %v\nwant %s", err, want)
	}
}

// An update that changes a StatefulSet's status is validated as
// ValidateStatefulSetStatus does; one that leaves the status alone is not.
func TestStatefulSetStatusValidated(t *testing.T) {
	w := newWorld(t)
	set := &Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: ObjectMeta{Name: "web", Namespace: "default"},
		Fields: FieldsOf(map[string]any{"spec": validStatefulSetSpec(), "status": map[string]any{"replicas": -1}})}
	if _, err := w.s.Create("test", set); err != nil {
		t.Fatal(err)
	}
	ref := Ref{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "default", Name: "web"}
	if _, err := w.s.Patch("test", ref, MergePatch, []byte(`{"spec":{"replicas":2}}`)); err != nil {
		t.Errorf("a spec patch of a set whose status is unchanged: %v", err)
	}
	for patch, want := range map[string]string{
		`{"status":{"replicas":1,"currentReplicas":-1}}`: `StatefulSet.apps "web" is invalid: status.currentReplicas: Invalid value: -1: must be greater than or equal to 0`,
		`{"status":{"replicas":1,"readyReplicas":2,"availableReplicas":2}}`: `StatefulSet.apps "web" is invalid: [status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas, ` +
			`status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas]`,
		`{"status":{"replicas":2,"readyReplicas":1,"availableReplicas":2}}`: `StatefulSet.apps "web" is invalid: status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas`,
	} {
		if _, err := w.s.Patch("test", ref, MergePatch, []byte(patch)); err == nil || err.Error() != want {
			t.Errorf("%s: %v\nwant %s", patch, err, want)
		}
	}
	if _, err := w.s.Patch("test", ref, MergePatch, []byte(`{"status":{"replicas":2,"readyReplicas":1,"availableReplicas":1}}`)); err != nil {
		t.Errorf("a valid status: %v", err)
	}
}

// validStatefulSetSpec is the least spec the apiserver accepts: a selector
// that selects the template's labels.
func validStatefulSetSpec() map[string]any {
	return map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
		"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}}}
}
