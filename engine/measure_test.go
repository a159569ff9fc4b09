package engine

import (
	"flag"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestCascadeMeasure builds the 100k cascade's world and deletes its
// Deployment, for tools that measure a whole process rather than a
// benchmark loop (cachegrind counts instructions and simulated cache
// misses, deterministically, where wall time on a shared machine is not).
// Subtract a -cascade-build-only run to get the cascade alone. See
// docs/BENCHMARKS.md. It runs only with -cascade-measure=N, N ReplicaSets
// of 1,000 Pods.
var (
	measureRS        = flag.Int("cascade-measure", 0, "TestCascadeMeasure: build N ReplicaSets of 1,000 Pods and delete their Deployment")
	measureBuildOnly = flag.Bool("cascade-build-only", false, "TestCascadeMeasure: build the world but do not delete it")
)

func TestCascadeMeasure(t *testing.T) {
	if *measureRS == 0 {
		t.Skip("a measuring aid: run it with -cascade-measure=N (docs/BENCHMARKS.md)")
	}
	w := buildTree(t, *measureRS, 1000, false)
	if *measureBuildOnly {
		return
	}
	policy := fakeapi.DeletePropagationBackground
	mustDo(t, w, Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"},
		Options: &fakeapi.DeleteOptions{PropagationPolicy: &policy}})
	mustSettle(t, w)
	if n := w.Store().Len(); n != 4 {
		t.Fatalf("%d objects left after the cascade, want the 4 namespaces", n)
	}
}
