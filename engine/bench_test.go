package engine

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

func mustDo(tb testing.TB, d Doer, a Action) {
	tb.Helper()
	if _, err := d.Do(a); err != nil {
		tb.Fatalf("%s: %v", a, err)
	}
}

func mustSettle(tb testing.TB, d Doer) SettleResult {
	tb.Helper()
	res, err := SettleQuietly(d, 10_000_000)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

func ownerRef(o *fakeapi.Object, block bool) fakeapi.OwnerReference {
	r := fakeapi.OwnerReference{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Metadata.Name, UID: o.Metadata.UID, Controller: fakeapi.Bool(true)}
	if block {
		r.BlockOwnerDeletion = fakeapi.Bool(true)
	}
	return r
}

// buildTree creates 1 Deployment owning rsCount ReplicaSets owning podsPer
// Pods each, with only the collector running, and lets the graph build.
func buildTree(tb testing.TB, rsCount, podsPer int, block bool) *World {
	tb.Helper()
	w, err := NewWorld(Config{Controllers: []string{ControllerGC}})
	if err != nil {
		tb.Fatal(err)
	}
	dep := &fakeapi.Object{APIVersion: "apps/v1", Kind: "Deployment", Metadata: fakeapi.ObjectMeta{Name: "web", Namespace: "default"}}
	mustDo(tb, w, Create{Object: dep})
	dep = w.Store().Lookup(fakeapi.RefOf(dep))
	for i := range rsCount {
		rs := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Metadata: fakeapi.ObjectMeta{
			Name: fmt.Sprintf("web-%d", i), Namespace: "default", OwnerReferences: []fakeapi.OwnerReference{ownerRef(dep, block)}}}
		mustDo(tb, w, Create{Object: rs})
		rs = w.Store().Lookup(fakeapi.RefOf(rs))
		for j := range podsPer {
			p := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
				Name: fmt.Sprintf("web-%d-%d", i, j), Namespace: "default", OwnerReferences: []fakeapi.OwnerReference{ownerRef(rs, block)}}}
			mustDo(tb, w, Create{Object: p})
		}
	}
	mustSettle(tb, w)
	return w
}

func benchCascade(b *testing.B, rsCount, podsPer int, policy fakeapi.DeletionPropagation) {
	objects := 1 + rsCount + rsCount*podsPer
	var steps int
	var gcs uint32
	var ms runtime.MemStats
	for b.Loop() {
		b.StopTimer()
		w := buildTree(b, rsCount, podsPer, policy == fakeapi.DeletePropagationForeground)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		gcs -= ms.NumGC
		b.StartTimer()
		mustDo(b, w, Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"},
			Options: &fakeapi.DeleteOptions{PropagationPolicy: &policy}})
		res := mustSettle(b, w)
		steps = res.Steps
		b.StopTimer()
		runtime.ReadMemStats(&ms)
		gcs += ms.NumGC
		if n := len(w.Store().Objects()); n != 4 { // the four namespaces
			b.Fatalf("%d objects left after the cascade", n)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(objects), "objects")
	b.ReportMetric(float64(steps), "steps")
	// The Go GC's cycles during the timed part: where they fall explains
	// much of the spread between runs.
	b.ReportMetric(float64(gcs)/float64(b.N), "gc-cycles/op")
}

// BenchmarkBackgroundCascade100k deletes 1 Deployment-like owner of 100
// ReplicaSet-like owners of 1,000 Pods each with Background, to settled.
func BenchmarkBackgroundCascade100k(b *testing.B) {
	benchCascade(b, 100, 1000, fakeapi.DeletePropagationBackground)
}

// BenchmarkForegroundCascade10k is the same shape with 10,000 Pods,
// deleted with Foreground and blocking references.
func BenchmarkForegroundCascade10k(b *testing.B) {
	benchCascade(b, 10, 1000, fakeapi.DeletePropagationForeground)
}

// BenchmarkWorldHeapPerObject measures the live heap a settled world holds
// per object (store plus collector graph).
func BenchmarkWorldHeapPerObject(b *testing.B) {
	var perObject float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w := buildTree(b, 100, 1000, false)
		runtime.GC()
		runtime.ReadMemStats(&after)
		perObject = float64(after.HeapAlloc-before.HeapAlloc) / float64(len(w.Store().Objects()))
		runtime.KeepAlive(w)
	}
	b.ReportMetric(perObject, "heapB/object")
}

// BenchmarkHistoryJumpBack jumps from the end of a 50,000-step timeline
// back to step 10, and forward to the end again.
func BenchmarkHistoryJumpBack(b *testing.B) {
	w, err := NewWorld(Config{Controllers: []string{ControllerGC}})
	if err != nil {
		b.Fatal(err)
	}
	h := NewHistory(w)
	// Repeated create/delete cycles of a small tree until 50,000 records.
	for i := 0; h.Len() < 50_000; i++ {
		owner := &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{Name: fmt.Sprintf("o-%d", i), Namespace: "default"}}
		if _, err := h.Do(Create{Object: owner}); err != nil {
			b.Fatal(err)
		}
		owner = h.World().Store().Lookup(fakeapi.RefOf(owner))
		for j := range 20 {
			d := &fakeapi.Object{APIVersion: "v1", Kind: "Secret", Metadata: fakeapi.ObjectMeta{Name: fmt.Sprintf("d-%d-%d", i, j), Namespace: "default",
				OwnerReferences: []fakeapi.OwnerReference{ownerRef(owner, false)}}}
			if _, err := h.Do(Create{Object: d}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := Settle(h, 1_000_000); err != nil {
			b.Fatal(err)
		}
		if _, err := h.Do(Delete{Ref: fakeapi.RefOf(owner)}); err != nil {
			b.Fatal(err)
		}
		if _, err := Settle(h, 1_000_000); err != nil {
			b.Fatal(err)
		}
	}
	end := h.Len()
	b.ResetTimer()
	for b.Loop() {
		if err := h.Goto(10); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := h.Goto(end); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(end), "records")
}

// BenchmarkHistoryScaleUp5k keeps the timeline of scaling a Deployment
// from 0 to 5,000 replicas (about 60,000 steps, a world of 10,000 objects
// with the Pods' Events), as the TUI does, and reports the memory the
// history holds once settled, its checkpoints, and what stepping back
// costs: the mean and the slowest of 300 steps back from the end.
func BenchmarkHistoryScaleUp5k(b *testing.B) {
	var heapMB, back, worst float64
	var checkpoints, steps int
	for b.Loop() {
		b.StopTimer()
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w, err := NewWorld(Config{})
		if err != nil {
			b.Fatal(err)
		}
		h := NewHistory(w)
		mustDo(b, h, Create{Object: manifest(b, deploymentYAML("web", 0, ""))})
		mustSettle(b, h)
		b.StartTimer()
		mustDo(b, h, Patch{Ref: deployRef("web"), Merge: []byte(`{"spec":{"replicas":5000}}`)})
		mustSettle(b, h)
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		heapMB = float64(after.HeapAlloc-before.HeapAlloc) / 1e6
		checkpoints, steps = len(h.checkpoints)+len(h.near), h.Len()
		var total, slowest time.Duration
		for i := 1; i <= 300; i++ {
			start := time.Now()
			if err := h.Goto(h.Len() - i); err != nil {
				b.Fatal(err)
			}
			d := time.Since(start)
			total += d
			slowest = max(slowest, d)
		}
		back, worst = float64(total.Microseconds())/300/1000, float64(slowest.Microseconds())/1000
		runtime.KeepAlive(h)
		b.StartTimer()
	}
	b.ReportMetric(heapMB, "history-MB")
	b.ReportMetric(float64(checkpoints), "checkpoints")
	b.ReportMetric(float64(steps), "steps")
	b.ReportMetric(back, "back-ms-mean")
	b.ReportMetric(worst, "back-ms-max")
}
