package tui

import (
	"os"
	"strings"
	"testing"
)

// TestOpenClusterDump: the playground opens what kubectl get -o yaml
// prints; the objects are restored as they are (a terminating one stays
// terminating, UIDs kept), the note says which kinds were taken as custom
// kinds before anything else, and export kubectl writes a script for a
// real cluster.
func TestOpenClusterDump(t *testing.T) {
	dump, err := os.ReadFile("../examples/dumps/stuck.yaml")
	if err != nil {
		t.Fatal(err)
	}
	files := NewMemFiles(map[string][]byte{"stuck.yaml": dump})
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Files: files, File: "stuck.yaml", StepThrough: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.msg, "Certificate (cert-manager.io/v1) is not built into gcplay: taken as a custom Namespaced kind") ||
		strings.Index(m.msg, "custom Namespaced kind") > strings.Index(m.msg, "objects restored") {
		t.Errorf("message %q: the custom kind should be said first", m.msg)
	}
	api := lookup(m, "deploy", "api")
	if api == nil || api.Metadata.DeletionTimestamp == nil || api.Metadata.UID != "5a0c3d1e-2b4f-4c6a-8d9e-0f1a2b3c4d5e" {
		t.Fatalf("Deployment/api should be restored terminating with its UID: %+v", api)
	}
	runLine(t, m, "export kubectl stuck.sh")
	script, err := files.ReadFile("stuck.sh")
	if err != nil || !strings.HasPrefix(string(script), "#!/usr/bin/env bash") || !strings.Contains(string(script), "kind: Certificate") && !strings.Contains(string(script), `"kind": "Certificate"`) {
		t.Errorf("export kubectl: %v\n%.400s", err, script)
	}
}
