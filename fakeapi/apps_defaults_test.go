package fakeapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/jsoneq"
)

// A StatefulSet's spec is stored with the defaults the apiserver writes.
// Each testdata/apps-defaults/NAME.want.json is what v1.34.4 stores for
// NAME.in.json: the spec after legacyscheme's SetObjectDefaults_StatefulSet,
// written by the apps/v1 codec (recorded by running upstream's code), with
// the claim templates' apiVersion and kind that the v1 conversion adds.
// They hold on create and again after a merge patch that writes the
// containers as the client first did, without their defaults (the
// apiserver defaults every object it decodes).
func TestStatefulSetStoredWithDefaults(t *testing.T) {
	ins, _ := filepath.Glob("testdata/apps-defaults/statefulset-*.in.json")
	if len(ins) == 0 {
		t.Fatal("no testdata")
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.json")
		t.Run(name, func(t *testing.T) {
			spec := readJSONFile(t, in)
			want := readJSONFile(t, strings.TrimSuffix(in, ".in.json")+".want.json")
			w := newWorld(t)
			out := w.create(&Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: ObjectMeta{Name: name, Namespace: "default"},
				Fields: FieldsOf(map[string]any{"spec": spec})})
			checkSpec(t, "create", out.Fields.Get("spec"), want)

			ref := RefOf(out)
			patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
				"containers": nestedValue(spec, "template", "spec", "containers")}}}})
			out, err := w.s.Patch("test", ref, MergePatch, patch)
			if err != nil {
				t.Fatal(err)
			}
			checkSpec(t, "patch", out.Fields.Get("spec"), want)
		})
	}
}

func nestedValue(v any, path ...string) any {
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	return v
}

func readJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func checkSpec(t *testing.T, what string, got any, want map[string]any) {
	t.Helper()
	if !jsoneq.Equal(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s: spec\n%s\nwant\n%s", what, g, w)
	}
}

// A DaemonSet's spec gets SetDefaults_DaemonSet's defaults; an OnDelete
// strategy gets no rollingUpdate.
func TestDaemonSetStoredWithDefaults(t *testing.T) {
	w := newWorld(t)
	ds := func(name string, spec map[string]any) *Object {
		return &Object{APIVersion: "apps/v1", Kind: "DaemonSet", Metadata: ObjectMeta{Name: name, Namespace: "default"},
			Fields: FieldsOf(map[string]any{"spec": spec})}
	}
	tmpl := func() map[string]any {
		return map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "a"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "a", "image": "a"}}}}
	}
	sel := func() map[string]any { return map[string]any{"matchLabels": map[string]any{"app": "a"}} }
	out := w.create(ds("a", map[string]any{"selector": sel(), "template": tmpl()}))
	checkSpec(t, "default strategy", out.Fields.Get("spec"), map[string]any{"selector": sel(), "template": tmpl(),
		"updateStrategy":       map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxUnavailable": 1.0, "maxSurge": 0.0}},
		"revisionHistoryLimit": 10.0})
	out = w.create(ds("b", map[string]any{"selector": sel(), "template": tmpl(), "revisionHistoryLimit": 2.0,
		"updateStrategy": map[string]any{"type": "OnDelete"}}))
	checkSpec(t, "OnDelete", out.Fields.Get("spec"), map[string]any{"selector": sel(), "template": tmpl(),
		"updateStrategy": map[string]any{"type": "OnDelete"}, "revisionHistoryLimit": 2.0})
}
