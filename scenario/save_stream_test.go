package scenario

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

// saveAsOneDocument is Save as one yaml.v3 document: every node of the
// world built, then encoded at once. Save writes the objects one at a
// time; its bytes must be these.
func saveAsOneDocument(t *testing.T, w *engine.World, name string) []byte {
	t.Helper()
	store := w.Store()
	reg := store.Registry()
	doc := mapNode()
	addField(doc, "name", strNode(name))
	addField(doc, "description", strNode(fmt.Sprintf("Saved by gcplay from a world at %s.", engine.FormatElapsed(w.Elapsed()))))
	var kinds []*yaml.Node
	for _, k := range reg.Kinds() {
		if k.Custom {
			m := mapNode()
			m.Style = yaml.FlowStyle
			addField(m, "apiVersion", strNode(k.APIVersion))
			addField(m, "kind", strNode(k.Kind))
			addField(m, "scope", strNode(string(k.Scope)))
			kinds = append(kinds, m)
		}
	}
	if len(kinds) > 0 {
		addField(doc, "kinds", seqNode(kinds...))
	}
	var ctrls []*yaml.Node
	for _, c := range w.Controllers() {
		ctrls = append(ctrls, strNode(c))
	}
	cn := seqNode(ctrls...)
	cn.Style = yaml.FlowStyle
	addField(doc, "controllers", cn)
	var objects, steps []*yaml.Node
	for _, o := range store.ObjectsInCreationOrder() {
		if o.Kind == "Namespace" && o.Metadata.Namespace == "" && slices.Contains(standardNamespaces, o.Metadata.Name) {
			continue
		}
		n, err := manifestNode(o)
		if err != nil {
			t.Fatal(err)
		}
		objects = append(objects, n)
		if o.Metadata.DeletionTimestamp != nil {
			steps = append(steps, terminationSteps(reg, o)...)
		}
	}
	if len(objects) > 0 {
		addField(doc, "objects", seqNode(objects...))
	}
	if len(steps) > 0 {
		addField(doc, "steps", seqNode(steps...))
	}
	var buf bytes.Buffer
	buf.WriteString("# A gcplay scenario (format v1), saved from a running world.\n")
	if err := encodeYAML(&buf, doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSaveWritesOneDocument: Save, writing the objects one at a time,
// gives the bytes of the world encoded as one document, for the worlds
// every example and test scenario leaves (terminating objects and their
// steps, custom kinds, empty worlds), the example dumps, and a dump as
// kubectl prints it (multi-line strings, block scalars); and the saved
// text parses and runs to the same objects.
func TestSaveWritesOneDocument(t *testing.T) {
	worlds := map[string]*engine.World{}
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range append(files, exampleScenarios(t)...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(filepath.Base(f), data)
		if err != nil {
			continue // a file of the parser's error tests
		}
		if res := Run(s, RunOptions{WorldOnly: true}); res.World != nil && res.InternalError == "" {
			worlds[f] = res.World
		}
	}
	dumps, _ := filepath.Glob("../examples/dumps/*.yaml")
	var gen bytes.Buffer
	if err := dumpgen.Write(&gen, dumpgen.Options{ReplicaSets: 3, Pods: 20, Kubectl: true}); err != nil {
		t.Fatal(err)
	}
	texts := map[string][]byte{"gen-kubectl.yaml": gen.Bytes()}
	for _, f := range dumps {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = data
	}
	for f, data := range texts {
		s, err := ParseFile(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		im, err := Start(s)
		if err != nil {
			t.Fatal(err)
		}
		worlds[f] = im.World
	}
	if len(worlds) < 30 {
		t.Fatalf("%d worlds: the globs have gone stale", len(worlds))
	}
	withSteps, withBlock := 0, 0
	for f, w := range worlds {
		got, err := Save(w, "saved")
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if want := saveAsOneDocument(t, w, "saved"); !bytes.Equal(got, want) {
			t.Errorf("%s: Save wrote\n%s\nas one document:\n%s", f, got, want)
			continue
		}
		if bytes.Contains(got, []byte("\nsteps:\n")) {
			withSteps++
		}
		if bytes.Contains(got, []byte(": |")) {
			withBlock++
		}
		s, err := Parse("saved.yaml", got)
		if err != nil {
			t.Errorf("%s: the saved world does not parse: %v", f, err)
			continue
		}
		// AsScenario reads the same text an entry at a time.
		saved, err := saveEntries(w, "saved")
		if err != nil {
			t.Fatal(err)
		}
		if byEntry, err := parseSaved("saved.yaml", saved); err != nil || !reflect.DeepEqual(byEntry, s) {
			t.Errorf("%s: read an entry at a time (%v), the saved world is\n%+v\nnot, as Parse reads it,\n%+v", f, err, byEntry, s)
		}
		if res := Run(s, RunOptions{WorldOnly: true}); res.InternalError != "" || len(res.World.Store().Objects()) != len(w.Store().Objects()) {
			t.Errorf("%s: the saved world runs to %d objects (%s), not %d", f, len(res.World.Store().Objects()), res.InternalError, len(w.Store().Objects()))
		}
	}
	if withSteps == 0 || withBlock == 0 {
		t.Errorf("of the saved worlds, %d have steps and %d block scalars: the corpus no longer covers them", withSteps, withBlock)
	}
}

// TestSaveHoldsOneObjectAtATime: saving a world of 6,000 objects holds
// the nodes and encoder events of one object at a time, not those of the
// whole document (yaml.v3's emitter keeps every event of its document,
// about 70 KB an object here): the heap the process needs grows by a few
// times the text, not by the events of all the objects at once.
func TestSaveHoldsOneObjectAtATime(t *testing.T) {
	im := startedDump(t, dumpgen.Options{ReplicaSets: 6, Pods: 1000})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	text, err := Save(im.World, "saved")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	// HeapSys, the heap's memory taken from the system, only grows: it
	// grew by the most the heap needed beside what it already had.
	grew := int64(after.HeapSys) - int64(before.HeapSys)
	t.Logf("saving %d objects: %d bytes of text, the heap grew by %d bytes (%d allocated)", im.World.Store().Len(), len(text), grew, after.TotalAlloc-before.TotalAlloc)
	if grew > 8*int64(len(text)) {
		t.Errorf("saving a %d-byte world grew the heap by %d bytes", len(text), grew)
	}
	runtime.KeepAlive(im)
}

// TestParseSavedHoldsOneEntryAtATime: AsScenario reads a saved world of
// 6,000 objects an entry at a time: the heap grows by about what the
// scenario read holds, not by the YAML tree of the whole text (Parse's,
// about 15 times the text's size here).
func TestParseSavedHoldsOneEntryAtATime(t *testing.T) {
	im := startedDump(t, dumpgen.Options{ReplicaSets: 6, Pods: 1000})
	saved, err := saveEntries(im.World, "saved")
	if err != nil {
		t.Fatal(err)
	}
	im = nil
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := parseSaved("saved.yaml", saved)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	grew := int64(after.HeapSys) - int64(before.HeapSys)
	t.Logf("reading %d saved objects: %d bytes of text, the heap grew by %d bytes", len(out.Objects), len(saved.text), grew)
	if len(out.Objects) < 6000 {
		t.Fatalf("read %d objects", len(out.Objects))
	}
	if grew > 6*int64(len(saved.text)) {
		t.Errorf("reading a %d-byte saved world grew the heap by %d bytes", len(saved.text), grew)
	}
	runtime.KeepAlive(out)
}
