package scenario

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

func dump(b *testing.B, rs, pods int) []byte {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{ReplicaSets: rs, Pods: pods}); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkParseDump reads kubectl-shaped dumps of 1k and 10k objects
// (100k: -bench ParseDump/100k, it takes seconds).
func BenchmarkParseDump(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 100}, {10, 1000}, {100, 1000}} {
		data := dump(b, size.rs, size.pods)
		b.Run(fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseDump("dump.yaml", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWhatIfDelete is what `gcplay what-if -f DUMP delete
// deployment/web` does, in one process: read the dump, restore it, let
// the controllers settle it, delete the Deployment with Background and
// settle again.
func BenchmarkWhatIfDelete(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 100}, {10, 1000}, {100, 1000}} {
		data := dump(b, size.rs, size.pods)
		b.Run(fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := ParseDump("dump.yaml", data)
				if err != nil {
					b.Fatal(err)
				}
				im, err := Start(s)
				if err != nil {
					b.Fatal(err)
				}
				ref, err := ResolveRef(im.World.Store().Registry(), "deploy/web")
				if err != nil {
					b.Fatal(err)
				}
				w, err := im.Delete(ref, "Background")
				if err != nil {
					b.Fatal(err)
				}
				if want := 1 + size.rs*(1+size.pods); len(w.Deleted) != want {
					b.Fatalf("%d deleted, want %d", len(w.Deleted), want)
				}
			}
		})
	}
}

// BenchmarkRunDump is what `gcplay run -f DUMP --delete deployment/web`
// does, in one process: read the dump, restore it, settle, delete the
// Deployment with Background, settle, and gather the result.
func BenchmarkRunDump(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 100}, {10, 1000}, {100, 1000}} {
		data := dump(b, size.rs, size.pods)
		b.Run(fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := ParseDump("dump.yaml", data)
				if err != nil {
					b.Fatal(err)
				}
				ref, err := ResolveRef(fakeapi.NewRegistry(), "deploy/web")
				if err != nil {
					b.Fatal(err)
				}
				s.AddCommandSteps(&ref, "Background")
				res := Run(s, RunOptions{})
				if !res.Passed || len(res.DeletionOrder) != 1+size.rs*(1+size.pods) {
					b.Fatalf("passed %v, %d removed: %v", res.Passed, len(res.DeletionOrder), res.Err())
				}
			}
		})
	}
}
