//go:build !js

package scenario

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

// TestDumpParallelLarge: a dump large enough to be read in parallel as
// ParseDump reads it reads as in order, and, given two cores, has its
// entries decoded by the workers.
func TestDumpParallelLarge(t *testing.T) {
	var buf bytes.Buffer
	o := dumpgen.Options{ReplicaSets: 3, Pods: 600}
	if err := dumpgen.Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if len(data) < parallelMin {
		t.Fatalf("the dump has %d bytes, fewer than parallelMin", len(data))
	}
	want, _, wantErr := parseDump("dump.yaml", data, true, -1)
	got, st, gotErr := parseDump("dump.yaml", data, true, 0)
	if diff := dumpReadDiff(got, want, gotErr, wantErr); diff != "" {
		t.Fatal(diff)
	}
	if wantErr != nil {
		t.Fatal(wantErr)
	}
	if st.direct != o.Objects() {
		t.Errorf("%d entries decoded directly, want %d", st.direct, o.Objects())
	}
	if runtime.GOMAXPROCS(0) >= 2 && st.parallel != o.Objects() {
		t.Errorf("%d entries decoded in parallel, want %d", st.parallel, o.Objects())
	}
	// Cut once more, every entry where it must be, in a List with a
	// second document after it.
	two := append(append(append([]byte(nil), data...), "---\n"...), data...)
	if _, _, err := parseDump("dump.yaml", two, true, 0); err == nil || !strings.Contains(err.Error(), "is also at line") {
		t.Errorf("two copies of one dump: %v, want objects named twice", err)
	}
	// A character the fast readers do not read, in the last entry: the
	// text is cut into chunks before plainText (on another core) finds
	// it, and yaml.v3 reads it and reports it, as it does on one core.
	bad := bytes.Clone(data)
	i := bytes.LastIndex(bad, []byte("restartPolicy: Always"))
	bad[i+len("restartPolicy: A")] = 0x01
	_, _, wantErr = parseDump("dump.yaml", bad, true, -1)
	if wantErr == nil || !strings.Contains(wantErr.Error(), "control character") {
		t.Fatalf("a control character: %v", wantErr)
	}
	if _, _, err := parseDump("dump.yaml", bad, true, 0); fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("a control character, in parallel: %v, want %v", err, wantErr)
	}
	rel := &TextRelease{Release: func(int) {}, Reload: func() error { return nil }}
	if _, err := ParseFileReleasing("dump.yaml", bad, rel); fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("a control character, given back as read: %v, want %v", err, wantErr)
	}
}
