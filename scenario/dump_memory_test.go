package scenario

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
	"weak"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

// TestParsedDumpKeepsNoText: no string or value of a parsed dump points
// into the dump's text, so the text can be freed as soon as it is read,
// before the world is built from the objects. gcplay run and what-if
// collect right after the read, counting on it, and give a large dump's
// text back to the system (cmd/gcplay's readDumpText), where a string left
// pointing into it would be a fault, not a leak. Every form kubectl
// prints is read: plain YAML and JSON, multi-line strings (block scalars,
// folded quoted messages), CRLF line ends, an entry read by yaml.v3 (a
// tab), custom kinds and the notes they bring (the shipped example
// dumps); at once and in parallel chunks.
func TestParsedDumpKeepsNoText(t *testing.T) {
	gen := func(o dumpgen.Options) []byte {
		var buf bytes.Buffer
		if err := dumpgen.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	texts := map[string][]byte{
		"gen.yaml":         gen(dumpgen.Options{ReplicaSets: 3, Pods: 20}),
		"gen.json":         gen(dumpgen.Options{ReplicaSets: 3, Pods: 20, JSON: true}),
		"gen-kubectl.yaml": gen(dumpgen.Options{ReplicaSets: 3, Pods: 20, Kubectl: true}),
		"gen-kubectl.json": gen(dumpgen.Options{ReplicaSets: 3, Pods: 20, Kubectl: true, JSON: true}),
	}
	texts["gen-crlf.yaml"] = bytes.ReplaceAll(texts["gen-kubectl.yaml"], []byte("\n"), []byte("\r\n"))
	// A tab after a value sends its entry to yaml.v3.
	texts["gen-tab.yaml"] = bytes.Replace(texts["gen-kubectl.yaml"], []byte("  kind: Pod\n"), []byte("  kind: Pod\t\n"), 5)
	examples, err := filepath.Glob("../examples/dumps/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no example dumps: %v", err)
	}
	for _, f := range examples {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = data
	}
	for _, name := range slices.Sorted(maps.Keys(texts)) {
		for _, chunk := range []int{0, 4096} { // 0 as ParseFile reads, 4096 in parallel
			t.Run(fmt.Sprintf("%s,chunk=%d", name, chunk), func(t *testing.T) {
				data := bytes.Clone(texts[name])
				text := weak.Make(&data[0])
				s, st, err := parseDump(name, data, true, chunk)
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasPrefix(name, "gen") {
					if len(s.Restore) != 1+3*(1+20) {
						t.Fatalf("%d objects read, want %d", len(s.Restore), 1+3*21)
					}
					if chunk > 0 && st.parallel == 0 && !strings.HasSuffix(name, ".json") { // JSON is read on one core
						t.Fatalf("no entry decoded in parallel")
					}
				}
				data = nil
				runtime.GC()
				runtime.GC()
				if text.Value() != nil {
					t.Errorf("the dump's text is still reachable from the parsed scenario")
				}
				runtime.KeepAlive(s)
			})
		}
	}
}

// TestKeepsTextIsSeen checks the check above: a parsed scenario that does
// hold a string of the text is seen to.
func TestKeepsTextIsSeen(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 4096)
	text := weak.Make(&data[0])
	held := data[:10]
	data = nil
	runtime.GC()
	runtime.GC()
	if text.Value() == nil {
		t.Fatal("a slice of the text is held, yet the text was freed")
	}
	runtime.KeepAlive(held)
}

// TestDumpSharesStringValues: the string values of a dump's objects that
// repeat at the same place (every Pod's phase) are handed on in one
// interface value, not one allocation each; values that differ (the Pods'
// IPs) stay their own.
func TestDumpSharesStringValues(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", asJSON), func(t *testing.T) {
			testDumpSharesStringValues(t, asJSON)
		})
	}
}

func testDumpSharesStringValues(t *testing.T, asJSON bool) {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{ReplicaSets: 2, Pods: 100, JSON: asJSON}); err != nil {
		t.Fatal(err)
	}
	s, err := ParseFile("dump.yaml", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var phases, ips []any
	for _, m := range s.Restore {
		if m.Object.Kind != "Pod" {
			continue
		}
		status, _ := m.Object.Fields.Get("status").(map[string]any)
		phases = append(phases, status["phase"])
		ips = append(ips, status["podIP"])
	}
	if len(phases) != 200 {
		t.Fatalf("%d Pods read, want 200", len(phases))
	}
	seen := map[string]bool{}
	boxes := 1
	for i := range phases {
		if phases[i] != "Running" {
			t.Fatalf("Pod %d: phase %v", i, phases[i])
		}
		if i > 0 && !sameData(phases[i], phases[i-1]) {
			boxes++
		}
		ip, _ := ips[i].(string)
		if ip == "" || seen[ip] {
			t.Fatalf("Pod %d: podIP %v, empty or seen before", i, ips[i])
		}
		seen[ip] = true
		if i > 0 && sameData(ips[i], ips[i-1]) {
			t.Errorf("Pods %d and %d share one podIP value", i-1, i)
		}
	}
	// A Pod whose spec is read from its lines (the first of each node
	// and ReplicaSet) has its phase at another place of its entry than
	// one whose spec is taken as read before: a few values, not one.
	if boxes > len(phases)/10 {
		t.Errorf("the %d Pods' phases are %d values, want at most %d", len(phases), boxes, len(phases)/10)
	}
}

// sameData reports whether two interface values point to one value.
func sameData(a, b any) bool {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&a))[1] == (*[2]unsafe.Pointer)(unsafe.Pointer(&b))[1]
}
