package scenario

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

// TestReleasingReadsNothingGivenBack: a dump read with its text given
// back as it goes (ParseFileReleasing) reads what the whole text reads,
// objects, lines, paths, notes and errors, though every byte given back
// is overwritten at once (with zeros, as the system's pages given back
// read), on one core and in parallel chunks; text that leaves the fast
// readers' subset only near its end is read again (Reload) for yaml.v3.
func TestReleasingReadsNothingGivenBack(t *testing.T) {
	gen := func(o dumpgen.Options) []byte {
		var buf bytes.Buffer
		if err := dumpgen.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	plain := gen(dumpgen.Options{ReplicaSets: 3, Pods: 200})
	kubectl := gen(dumpgen.Options{ReplicaSets: 3, Pods: 200, Kubectl: true})
	last := func(text []byte, old, new string) []byte {
		i := bytes.LastIndex(text, []byte(old))
		if i < 0 {
			t.Fatalf("no %q in the text", old)
		}
		return append(append(bytes.Clone(text[:i]), new...), text[i+len(old):]...)
	}
	texts := []struct {
		name   string
		text   []byte
		reload bool // read again for yaml.v3
	}{
		{"plain", plain, false},
		{"kubectl", kubectl, false},
		// A tab sends entries to yaml.v3 one at a time.
		{"tabs", bytes.ReplaceAll(kubectl, []byte("  kind: Pod\n"), []byte("  kind: Pod\t\n")), false},
		// An anchor in the last entry: the whole text to yaml.v3.
		{"anchor", last(plain, "qosClass: BestEffort", "qosClass: &q BestEffort"), true},
		// A problem in the last entry, reported with its line.
		{"error", last(plain, "restartPolicy: Always", "restartPolicy: [Always]"), false},
		{"error-meta", last(plain, "generateName: ", "generateName: [x]\n    labels2: "), false},
	}
	for _, tc := range texts {
		for _, chunk := range []int{-1, 4096} {
			t.Run(fmt.Sprintf("%s,chunk=%d", tc.name, chunk), func(t *testing.T) {
				want, _, wantErr := parseDump(tc.name, bytes.Clone(tc.text), true, chunk)
				data := bytes.Clone(tc.text)
				given, reloads := 0, 0
				rel := &TextRelease{
					Release: func(n int) {
						if n < given || n > len(data) {
							t.Errorf("given back up to %d after %d, of %d bytes", n, given, len(data))
							return
						}
						clear(data[:n])
						given = n
					},
					Reload: func() error {
						reloads++
						copy(data, tc.text)
						return nil
					},
				}
				got, _, err := parseDumpReleasing(tc.name, data, true, chunk, rel, 8192, plainTextAside(data))
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Fatalf("error %v, want %v", err, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("the scenario read differs from the whole text's")
				}
				// (In parallel, a worker's cache may hold text back for
				// as long as the worker waits for a core.)
				if chunk < 0 && given < len(data)/2 && !tc.reload {
					t.Errorf("%d bytes of %d given back", given, len(data))
				}
				if (reloads > 0) != tc.reload {
					t.Errorf("read again %d times", reloads)
				}
			})
		}
	}
}
