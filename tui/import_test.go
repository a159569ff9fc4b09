package tui

import (
	"bytes"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/internal/dumpgen"
	"github.com/gcplay/gcplay/scenario"
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

// TestOpenParsedDump: gcplay play -f parses the file to check it and
// hands the playground what it parsed, which opens on it without reading
// the file again (here there is no file to read: Files holds none), and
// a reset starts over from the same restored world.
func TestOpenParsedDump(t *testing.T) {
	dump, err := os.ReadFile("../examples/dumps/stuck.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.ParseFile("stuck.yaml", dump)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Files: NewMemFiles(nil), File: "stuck.yaml", Parsed: sc, StepThrough: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.msg, "objects restored") {
		t.Errorf("message %q: the dump's objects should be said restored", m.msg)
	}
	n := m.s.world().Store().Len()
	if api := lookup(m, "deploy", "api"); api == nil || api.Metadata.DeletionTimestamp == nil {
		t.Fatalf("Deployment/api should be restored terminating: %+v", api)
	}
	runLine(t, m, "delete deploy/api --cascade=orphan")
	m.s.reset()
	if got := m.s.world().Store().Len(); got != n {
		t.Errorf("after a reset the world holds %d objects, want the %d restored", got, n)
	}
}

// TestRunFramesLargeDump: in a dump of 20,000 objects a run shows a frame
// every objects/runChunkObjects steps, not every runChunk: a frame
// lists every queue's items, and in a large world frames every 500 steps
// were most of a run's time. The run goes on to the same end.
func TestRunFramesLargeDump(t *testing.T) {
	var dump bytes.Buffer
	if err := dumpgen.Write(&dump, dumpgen.Options{ReplicaSets: 20, Pods: 1000}); err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.ParseFile("big.yaml", dump.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Files: NewMemFiles(nil), File: "big.yaml", Parsed: sc, StepThrough: true})
	if err != nil {
		t.Fatal(err)
	}
	n := m.s.world().Store().Len()
	if n < 20_000 {
		t.Fatalf("the dump restored %d objects", n)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	if cmd == nil {
		t.Fatalf("r ran to its end in one frame: %s", m.msg)
	}
	if want := n / runChunkObjects; m.s.h.Pos() != want {
		t.Errorf("the run's first frame came after %d steps, want %d (%s)", m.s.h.Pos(), want, m.msg)
	}
	for i := 0; cmd != nil && i < 1000; i++ {
		next, ok := cmd().(runMsg)
		if !ok {
			break
		}
		_, cmd = m.Update(next)
	}
	if !strings.Contains(m.msg, "settled after") {
		t.Errorf("the run did not settle: %s", m.msg)
	}
}
