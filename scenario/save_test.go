package scenario

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestManifestNodeRoundTrip: an object rendered as Save renders it parses
// back to the same object, whatever its strings look like to YAML.
func TestManifestNodeRoundTrip(t *testing.T) {
	o := &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{
		Name: "c", Namespace: "other", UID: "uid-1", ResourceVersion: "9",
		Labels:          map[string]string{"app": "web", "yes": "no", "n": "1"},
		Finalizers:      []string{"example.com/a", "foregroundDeletion"},
		OwnerReferences: []fakeapi.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-1", Controller: fakeapi.Bool(true)}},
	}, Fields: fakeapi.FieldsOf(map[string]any{
		"data": map[string]any{"t": "true", "n": "40", "null": "null", "e": "1e3", "h": "0x1F", "d": "2026-01-01",
			"tilde": "~", "empty": "", "colon": "a: b", "hash": "# no", "multi": "line 1\nline 2\n", "star": "*x"},
		"spec": map[string]any{"replicas": float64(3), "ratio": 0.25, "on": true, "none": nil, "list": []any{"a", float64(1), false}},
	})}
	n, err := manifestNode(o)
	if err != nil {
		t.Fatal(err)
	}
	doc := mapNode()
	addField(doc, "name", strNode("round-trip"))
	addField(doc, "objects", seqNode(n))
	var buf bytes.Buffer
	if err := yaml.NewEncoder(&buf).Encode(doc); err != nil {
		t.Fatal(err)
	}
	s, err := Parse("saved.yaml", buf.Bytes())
	if err != nil {
		t.Fatalf("Parse of saved file: %v\n%s", err, buf.String())
	}
	want := o.DeepCopy()
	want.Metadata.ResourceVersion = "" // left to the apiserver
	got, _ := json.Marshal(s.Objects[0].Object)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("round trip changed the object:\n got %s\nwant %s\nfile:\n%s", got, exp, buf.String())
	}
	if !strings.Contains(buf.String(), "ownerReferences:\n") || !strings.Contains(buf.String(), "- {apiVersion: apps/v1, kind: ReplicaSet") {
		t.Errorf("ownerReferences are not in flow style:\n%s", buf.String())
	}
}

func TestTerminationSteps(t *testing.T) {
	reg := fakeapi.NewRegistry()
	tests := []struct {
		fins  []string
		grace int64
		want  string
	}{
		{[]string{"example.com/x"}, 0, "- delete: Secret/s\n  propagationPolicy: Background\n"},
		{[]string{"example.com/x", "foregroundDeletion"}, 0, "- delete: Secret/s\n  propagationPolicy: Foreground\n"},
		{[]string{"orphan", "example.com/x"}, 0, "- delete: Secret/s\n  propagationPolicy: Orphan\n- patch: Secret/s\n  merge: {metadata: {finalizers: [orphan, example.com/x]}}\n"},
		{nil, 30, "- delete: Secret/s\n  propagationPolicy: Background\n  gracePeriodSeconds: 30\n"},
	}
	for _, tc := range tests {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Secret", Metadata: fakeapi.ObjectMeta{Name: "s", Namespace: "default", UID: "s-1", Finalizers: tc.fins}}
		if tc.grace > 0 {
			o.Metadata.DeletionGracePeriodSeconds = fakeapi.Int64(tc.grace)
		}
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(seqNode(terminationSteps(reg, o)...)); err != nil {
			t.Fatal(err)
		}
		if buf.String() != tc.want {
			t.Errorf("finalizers %v: got\n%s\nwant\n%s", tc.fins, buf.String(), tc.want)
		}
	}
}
