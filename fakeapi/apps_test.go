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
