package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

// bigDump writes a dump of at least offHeapMin bytes (6,007 objects).
func bigDump(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	if err := dumpgen.Write(&b, dumpgen.Options{ReplicaSets: 6, Pods: 1000}); err != nil {
		t.Fatal(err)
	}
	if b.Len() < offHeapMin {
		t.Fatalf("the dump is %d bytes, under offHeapMin", b.Len())
	}
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDumpTextOffHeap: a large dump's text is read whole, and not onto
// Go's heap, where the collector would count it.
func TestDumpTextOffHeap(t *testing.T) {
	path := bigDump(t)
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	text, err := readDumpText(path)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer text.free()
	if !bytes.Equal(text.data, want) {
		t.Fatalf("read %d bytes, not the file's %d", len(text.data), len(want))
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(len(want))/4 {
		t.Errorf("reading a %d-byte dump allocated %d bytes on the heap", len(want), grew)
	}

	// A small file, and one that is not there, are read as before.
	small := filepath.Join(t.TempDir(), "small.yaml")
	if err := os.WriteFile(small, []byte("kind: List\nitems: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if text, err := readDumpText(small); err != nil || string(text.data) != "kind: List\nitems: []\n" {
		t.Errorf("small file: %q, %v", text.data, err)
	}
	if _, err := readDumpText(filepath.Join(t.TempDir(), "none.yaml")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
}

// TestBigDumpRuns: run, what-if and export read a large dump whose text is
// given back as soon as it is parsed, and go on with the world: nothing
// they use afterwards points into the text.
func TestBigDumpRuns(t *testing.T) {
	path := bigDump(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-f", path, "--delete", "deploy/web"}, "--- PASS " + path + " (6007 objects restored"},
		{[]string{"what-if", "-f", path, "delete", "deploy/web"}, "6007"},
		{[]string{"export", "kubectl", path}, "web-5d8c7f05-003e7"},
	} {
		t.Run(c.args[0], func(t *testing.T) {
			cmd := NewCmdRoot()
			var out bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetErr(&out)
			cmd.SetArgs(c.args)
			if err := cmd.Execute(); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("the output has no %q:\n%.2000s", c.want, out.String())
			}
		})
	}
}

// TestRunTextHoldsNoSecondWorld: run's text output prints the steps, so
// the result of a dump's run gathers no final objects: once the world is
// let go, what the result holds is a small part of it (a copy of every
// object, which the JSON output prints, held the world twice at the
// run's end).
func TestRunTextHoldsNoSecondWorld(t *testing.T) {
	path := bigDump(t)
	live := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := live()
	o := &RunOptions{Dump: path, Output: "text", Namespace: "default", Cascade: "background"}
	r := o.runFile(path)
	if r.Status != "pass" {
		t.Fatalf("%s: %+v", r.Status, r.Errors)
	}
	withWorld := live()
	r.Result.World = nil
	without := live()
	world := int64(withWorld) - int64(without)
	held := int64(without) - int64(before)
	t.Logf("the world %d bytes live, the result beside it %d", world, held)
	if world < 1<<20 {
		t.Fatalf("the world holds %d bytes live: the measure does not see it", world)
	}
	if held > world/10 {
		t.Errorf("without its world, the result of a text run holds %d bytes live (the world %d)", held, world)
	}
	if len(r.Result.Objects) != 0 {
		t.Errorf("the text run's result gathered %d objects", len(r.Result.Objects))
	}
	runtime.KeepAlive(r)
}
