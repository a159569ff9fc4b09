package fakeapi

import (
	"encoding/json"
	"os"
	"testing"
)

// The apps/v1 workloads' spec validation answers as v1.34.4 does. Each
// case of testdata/apps-validation/cases.json is a create (spec) or an
// update (old, then spec) of an object named x, and want is the error
// v1.34.4's registry strategy returned for it (PrepareForCreate and
// Validate, or PrepareForUpdate and ValidateUpdate, on the object decoded
// and defaulted by legacyscheme: recorded by running upstream's code),
// "" for none. Every template is a valid Pod template, since gcplay does
// not model ValidatePodTemplateSpec.
func TestAppsSpecValidationAsUpstream(t *testing.T) {
	b, err := os.ReadFile("testdata/apps-validation/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name, Kind, Want string
		Old, Spec        map[string]any
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			w := newWorld(t)
			obj := func(spec map[string]any) *Object {
				return &Object{APIVersion: "apps/v1", Kind: c.Kind, Metadata: ObjectMeta{Name: "x", Namespace: "default"},
					Fields: FieldsOf(map[string]any{"spec": spec})}
			}
			var err error
			if c.Old == nil {
				_, err = w.s.Create("test", obj(c.Spec))
			} else {
				if _, err := w.s.Create("test", obj(c.Old)); err != nil {
					t.Fatalf("create the old object: %v", err)
				}
				_, err = w.s.Update("test", obj(c.Spec))
			}
			got := ""
			if err != nil {
				got = err.Error()
				if !IsInvalid(err) {
					t.Errorf("%v is not a 422", err)
				}
			}
			if got != c.Want {
				t.Errorf("got  %s\nwant %s", got, c.Want)
			}
		})
	}
}

// A spec the apiserver would refuse can still be restored from a dump
// (only its retention policy is checked), and its status can still be
// written, as upstream's /status can.
func TestAppsInvalidSpecRestoredAndStatusWritten(t *testing.T) {
	w := newWorld(t)
	set := &Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: ObjectMeta{Name: "x", Namespace: "default", UID: "u1", ResourceVersion: "5"},
		Fields: FieldsOf(map[string]any{"spec": map[string]any{"selector": map[string]any{}}})}
	if err := w.s.Restore(set); err != nil {
		t.Fatalf("restore: %v", err)
	}
	ref := Ref{APIVersion: "apps/v1", Kind: "StatefulSet", Namespace: "default", Name: "x"}
	if _, err := w.s.Patch("test", ref, MergePatch, []byte(`{"status":{"replicas":0,"observedGeneration":1}}`)); err != nil {
		t.Errorf("status write: %v", err)
	}
	want := `StatefulSet.apps "x" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset`
	if _, err := w.s.Patch("test", ref, MergePatch, []byte(`{"spec":{"replicas":2}}`)); err == nil || err.Error() != want {
		t.Errorf("spec write: %v\nwant %s", err, want)
	}
}
