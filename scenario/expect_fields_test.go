package scenario

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseFieldPath(t *testing.T) {
	seg := func(name string) PathSegment { return PathSegment{Name: name, Index: -1} }
	for _, tt := range []struct {
		path string
		want []PathSegment
		err  string
	}{
		{path: "status.phase", want: []PathSegment{seg("status"), seg("phase")}},
		{path: `metadata.labels.app\.kubernetes\.io/name`, want: []PathSegment{seg("metadata"), seg("labels"), seg("app.kubernetes.io/name")}},
		{path: "spec.finalizers[0]", want: []PathSegment{seg("spec"), {Name: "finalizers", Index: 0}}},
		{path: "status.conditions[type=Ready].status",
			want: []PathSegment{seg("status"), {Name: "conditions", Index: -1, Key: "type", Value: "Ready"}, seg("status")}},
		{path: "spec.ports[port=80]", want: []PathSegment{seg("spec"), {Name: "ports", Index: -1, Key: "port", Value: "80"}}},
		{path: "", err: "empty field path"},
		{path: "a..b", err: "empty field name"},
		{path: "a.", err: "empty field name"},
		{path: "a[-1]", err: "neither a list index"},
		{path: "a[x]", err: "neither a list index"},
		{path: "a[=x]", err: "needs a field name"},
		{path: "a[0", err: "unclosed ["},
		{path: "[0]", err: "[ must follow a field name"},
		{path: "a[0][1]", err: "one [...] per field name"},
		{path: "a[0]b", err: "a '.' must follow ']'"},
	} {
		got, err := ParseFieldPath(tt.path)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseFieldPath(%q) error = %v, want %q", tt.path, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseFieldPath(%q) = %+v, %v; want %+v", tt.path, got, err, tt.want)
		}
	}
}

func TestFieldValuesEqual(t *testing.T) {
	zeros := []any{nil, 0.0, false, "", []any{}, map[string]any{}}
	for _, a := range zeros {
		for _, b := range zeros {
			if !FieldValuesEqual(a, b) {
				t.Errorf("%#v and %#v should match: Kubernetes leaves zero values out", a, b)
			}
		}
	}
	for _, tt := range []struct {
		want, got any
		eq        bool
	}{
		{2.0, 2.0, true},
		{"True", true, false},
		{"2", 2.0, false},
		{"Terminating", "Active", false},
		{nil, "x", false},
		{0.0, 1.0, false},
		{[]any{"a"}, []any{"a"}, true},
		{[]any{"a"}, []any{"a", "b"}, false},
		{map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "b": ""}, true},
		{map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "b": "x"}, false},
		{map[string]any{"a": 0.0}, map[string]any{}, true},
	} {
		if got := FieldValuesEqual(tt.want, tt.got); got != tt.eq {
			t.Errorf("FieldValuesEqual(%#v, %#v) = %v", tt.want, tt.got, got)
		}
	}
}

func TestExpectFields(t *testing.T) {
	res := runSource(t, `name: fields
objects:
  - apiVersion: v1
    kind: Namespace
    metadata: {name: team-a}
  - apiVersion: v1
    kind: Service
    metadata:
      name: web
      labels: {app.kubernetes.io/name: web}
    spec:
      ports: [{port: 80, name: http}, {port: 443, name: "8443"}]
      clusterIP: ""
steps:
  - delete: Namespace/team-a
  - expect:
      fields:
        Namespace/team-a:
          status.phase: Terminating
          spec.finalizers: [kubernetes]
          spec.finalizers[0]: kubernetes
          metadata.labels.kubernetes\.io/metadata\.name: team-a
          'metadata.finalizers': []
        Service/web:
          metadata.labels.app\.kubernetes\.io/name: web
          spec.ports[port=80].name: http
          spec.ports[name=8443].port: 443.0
          spec.ports[1]: {port: 443, name: "8443"}
          spec.clusterIP: null
          spec.type: ""
          spec.ports[port=81]: null
  - expect:
      fields:
        Namespace/team-a:
          status.phase: Active
          spec.finalizers[3]: x
        Service/web:
          spec.ports[port=80].port: "80"
        ConfigMap/none: {data: null}
`)
	var checks []Check
	for _, st := range res.Steps {
		checks = append(checks, st.Checks...)
	}
	var failed []string
	for _, c := range checks {
		if !c.Passed {
			failed = append(failed, c.Message())
		}
	}
	want := []string{
		`Namespace/team-a: fields.status.phase: expected "Active", found "Terminating"`,
		`Namespace/team-a: fields.spec.finalizers[3]: expected "x", found missing`,
		`Service/web: fields.spec.ports[port=80].port: expected "80", found 80`,
		`ConfigMap/none: fields.data: expected null, found absent`,
	}
	if !reflect.DeepEqual(failed, want) {
		t.Errorf("failed checks:\n%s\nwant:\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
	if len(checks) != 16 {
		t.Errorf("%d checks, want 16", len(checks))
	}
}

func TestParseErrorsExpectFields(t *testing.T) {
	got := parseErrors(t, `name: a
steps:
  - expect:
      fields:
        Namespace/x: [status]
        Pod/p:
          a[: 1
        Nope/y: {a: 1}
`)
	want := []string{
		`t.yaml:5: steps[0].expect.fields[Namespace/x]: expected a mapping of field paths to values, found a list`,
		`t.yaml:7: steps[0].expect.fields[Pod/p]: field path "a[": unclosed [`,
		`t.yaml:8: steps[0].expect.fields: unknown kind "Nope" (did you mean "Node"?): not built in and not declared under kinds`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
