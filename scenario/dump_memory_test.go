package scenario

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"weak"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

// TestParsedDumpKeepsNoText: no string or value of a parsed dump points
// into the dump's text, so the text can be freed as soon as it is read,
// before the world is built from the objects (gcplay run and what-if
// collect right after the read, counting on it).
func TestParsedDumpKeepsNoText(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", asJSON), func(t *testing.T) {
			var buf bytes.Buffer
			if err := dumpgen.Write(&buf, dumpgen.Options{ReplicaSets: 3, Pods: 20, JSON: asJSON}); err != nil {
				t.Fatal(err)
			}
			data := bytes.Clone(buf.Bytes())
			buf = bytes.Buffer{}
			text := weak.Make(&data[0])
			s, err := ParseFile("dump.yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Restore) != 1+3*(1+20) {
				t.Fatalf("%d objects read, want %d", len(s.Restore), 1+3*21)
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
