package scenario

import (
	"strings"
	"testing"
)

// TestExportPodStatusPatch: a patch of a Pod's status is sent to its
// status subresource too, since kube-apiserver keeps the stored status on
// a write of the Pod itself; a patch without status, or of another kind,
// is sent once.
func TestExportPodStatusPatch(t *testing.T) {
	const file = `name: status-patch
objects:
  - {apiVersion: v1, kind: Pod, metadata: {name: web}, spec: {nodeName: node-1, containers: [{name: c, image: nginx}]}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: cm}}
steps:
  - patch: Pod/web
    merge: {metadata: {labels: {a: b}}, status: {conditions: [{type: example.com/lb, status: "True"}]}}
  - patch: Pod/web
    merge: {metadata: {labels: {c: d}}}
  - patch: ConfigMap/cm
    merge: {data: {k: v}}
`
	s, err := Parse("status-patch.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	out, err := ExportKubectl(s)
	if err != nil {
		t.Fatal(err)
	}
	var patches []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "k patch ") {
			patches = append(patches, line)
		}
	}
	want := []string{
		`k patch pods web -n default --type=merge -p '{"metadata":{"labels":{"a":"b"}},"status":{"conditions":[{"status":"True","type":"example.com/lb"}]}}'`,
		`k patch pods web -n default --subresource=status --type=merge -p '{"status":{"conditions":[{"status":"True","type":"example.com/lb"}]}}'`,
		`k patch pods web -n default --type=merge -p '{"metadata":{"labels":{"c":"d"}}}'`,
		`k patch configmaps cm -n default --type=merge -p '{"data":{"k":"v"}}'`,
	}
	if strings.Join(patches, "\n") != strings.Join(want, "\n") {
		t.Errorf("patch commands:\n%s\nwant:\n%s", strings.Join(patches, "\n"), strings.Join(want, "\n"))
	}
}
