package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

func dump(b testing.TB, rs, pods int) []byte {
	return dumpOf(b, dumpgen.Options{ReplicaSets: rs, Pods: pods})
}

func dumpOf(b testing.TB, o dumpgen.Options) []byte {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, o); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// startedDump is the world of a generated dump, restored and settled.
func startedDump(b testing.TB, o dumpgen.Options) *Imported {
	b.Helper()
	s, err := ParseFile("gen.yaml", dumpOf(b, o))
	if err != nil {
		b.Fatal(err)
	}
	im, err := Start(s)
	if err != nil {
		b.Fatal(err)
	}
	return im
}

// BenchmarkParseDump reads kubectl-shaped dumps of 1k and 10k objects
// (100k: -bench ParseDump/100k, it takes seconds).
func BenchmarkParseDump(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 100}, {10, 1000}, {100, 1000}} {
		data := dump(b, size.rs, size.pods)
		b.Run(fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000), func(b *testing.B) { benchParse(b, data) })
	}
}

// benchParse times ParseDump reading data.
func benchParse(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseDump("dump.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseDumpKubectl reads the 10k and 100k dumps with the
// multi-line strings of a real cluster's (dumpgen's Kubectl: a
// last-applied-configuration block, folded condition messages on the
// Deployment and every tenth Pod).
func BenchmarkParseDumpKubectl(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 1000}, {100, 1000}} {
		data := dumpOf(b, dumpgen.Options{ReplicaSets: size.rs, Pods: size.pods, Kubectl: true})
		b.Run(fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000), func(b *testing.B) { benchParse(b, data) })
	}
}

// BenchmarkPlainText is the look at every character of the 100k dump
// that ParseDump makes before its fast readers (plainText).
func BenchmarkPlainText(b *testing.B) {
	data := dumpOf(b, dumpgen.Options{ReplicaSets: 100, Pods: 1000, Kubectl: true})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !plainText(data) {
			b.Fatal("not plain")
		}
	}
}

// BenchmarkParseDumpJSON reads the 10k dump as `kubectl get -o json`
// prints it.
func BenchmarkParseDumpJSON(b *testing.B) {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{ReplicaSets: 10, Pods: 1000, JSON: true}); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseDump("dump.json", data); err != nil {
			b.Fatal(err)
		}
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
// Deployment with Background, settle, and gather the result. The
// -kubectl forms read the dumps with a real cluster's multi-line
// strings (dumpgen's Kubectl, as BenchmarkParseDumpKubectl).
func BenchmarkRunDump(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 100}, {10, 1000}, {100, 1000}} {
		for _, kubectl := range []bool{false, true} {
			data := dumpOf(b, dumpgen.Options{ReplicaSets: size.rs, Pods: size.pods, Kubectl: kubectl})
			name := fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000)
			if kubectl {
				name += "-kubectl"
			}
			b.Run(name, func(b *testing.B) { benchRunDump(b, data, 1+size.rs*(1+size.pods)) })
		}
	}
}

// benchRunDump times BenchmarkRunDump's run of data, whose delete
// removes want objects.
func benchRunDump(b *testing.B, data []byte, want int) {
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
		if !res.Passed || len(res.DeletionOrder) != want {
			b.Fatalf("passed %v, %d removed: %v", res.Passed, len(res.DeletionOrder), res.Err())
		}
	}
}

// BenchmarkRestoreDump is the part of BenchmarkRunDump after the read:
// the world built from a parsed dump (storage restored, every controller
// started with its relist), then the Background delete of the root
// settled. The parse is outside the timer. world-live-B is the live heap
// the settled world holds, before the delete; read-live-B the live heap
// of the objects as the parse left them, before the world is built.
func BenchmarkRestoreDump(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 1000}, {100, 1000}} {
		data := dump(b, size.rs, size.pods)
		b.Run(fmt.Sprintf("%dk", (1+size.rs*(1+size.pods))/1000), func(b *testing.B) {
			b.ReportAllocs()
			var world, del time.Duration
			var live, read uint64
			var ms runtime.MemStats
			for b.Loop() {
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before := ms.HeapAlloc
				restore := dumpObjects(b, data)
				runtime.GC()
				runtime.ReadMemStats(&ms)
				read += ms.HeapAlloc - before
				b.StartTimer()
				start := time.Now()
				w := settledWorld(b, restore)
				world += time.Since(start)
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&ms)
				live += ms.HeapAlloc - before
				b.StartTimer()
				start = time.Now()
				ref := fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}
				bg := fakeapi.DeletePropagationBackground
				if _, err := w.Do(engine.Delete{Ref: ref, Options: &fakeapi.DeleteOptions{PropagationPolicy: &bg}}); err != nil {
					b.Fatal(err)
				}
				if _, err := engine.SettleQuietly(w, 10_000_000); err != nil {
					b.Fatal(err)
				}
				del += time.Since(start)
				if want := 4; w.Store().Len() != want {
					b.Fatalf("%d objects left, want %d (the system namespaces)", w.Store().Len(), want)
				}
			}
			b.ReportMetric(float64(world.Nanoseconds())/float64(b.N), "world-ns/op")
			b.ReportMetric(float64(del.Nanoseconds())/float64(b.N), "delete-ns/op")
			// The live heap of the settled world (before the delete),
			// without the dump's bytes, which the benchmark holds.
			b.ReportMetric(float64(live)/float64(b.N), "world-live-B")
			// Of which the objects as read, before the world is built.
			b.ReportMetric(float64(read)/float64(b.N), "read-live-B")
		})
	}
}

// BenchmarkDeleteLiveHeap follows the live heap through the Background
// delete of a dump's Deployment, without the dump's bytes: after the
// world is settled, and after about every 1/40 of the delete's steps (a collection each time, so the times
// it reports are not the delete's), giving the largest. The process's
// peak RSS is about twice the live heap Go's collector finds in the
// settled world and the delete, so these are the figures a cut in
// memory has to move; they are counted, not timed, and do not depend on
// the machine's load.
//
//	settled-live-B  the live heap of the settled world, before the delete
//	delete-peak-live-B  the largest live heap seen during the delete
//	peak-at-step  after how many steps of the delete it was seen
func BenchmarkDeleteLiveHeap(b *testing.B) {
	for _, size := range []struct{ rs, pods int }{{10, 1000}, {100, 1000}} {
		data := dump(b, size.rs, size.pods)
		objects := 1 + size.rs*(1+size.pods)
		b.Run(fmt.Sprintf("%dk", objects/1000), func(b *testing.B) {
			var settled, peak, peakAt uint64
			var ms runtime.MemStats
			live := func() uint64 {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				return ms.HeapAlloc
			}
			for b.Loop() {
				// The dump's bytes, which the benchmark holds, are not
				// counted.
				before := live()
				restore := dumpObjects(b, data)
				w := settledWorld(b, restore)
				settled += live() - before
				ref := fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}
				bg := fakeapi.DeletePropagationBackground
				if _, err := w.Do(engine.Delete{Ref: ref, Options: &fakeapi.DeleteOptions{PropagationPolicy: &bg}}); err != nil {
					b.Fatal(err)
				}
				// The delete takes about six steps an object.
				every, max, at := 6*objects/40, uint64(0), 0
				for steps := 0; ; {
					res, err := engine.SettleQuietly(w, every)
					steps += res.Steps
					if h := live(); h > max {
						max, at = h, steps
					}
					if err == nil {
						break
					}
					var ns *engine.NotSettledError
					if !errors.As(err, &ns) {
						b.Fatal(err)
					}
				}
				if want := 4; w.Store().Len() != want {
					b.Fatalf("%d objects left, want %d (the system namespaces)", w.Store().Len(), want)
				}
				peak, peakAt = peak+max-before, peakAt+uint64(at)
			}
			b.ReportMetric(float64(settled)/float64(b.N), "settled-live-B")
			b.ReportMetric(float64(peak)/float64(b.N), "delete-peak-live-B")
			b.ReportMetric(float64(peakAt)/float64(b.N), "peak-at-step")
		})
	}
}

// dumpObjects reads a dump and keeps only its objects, as run -f does once
// the world has them: the parsed scenario around them is not held.
func dumpObjects(b *testing.B, data []byte) []*fakeapi.Object {
	b.Helper()
	s, err := ParseDump("dump.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	restore := make([]*fakeapi.Object, len(s.Restore))
	for i := range s.Restore {
		restore[i] = s.Restore[i].Object
	}
	return restore
}

// settledWorld restores a dump's objects as run -f does, without holding
// the list once the store has them, and settles the world quietly.
func settledWorld(b *testing.B, restore []*fakeapi.Object) *engine.World {
	b.Helper()
	w, err := engine.NewWorld(engine.Config{Restore: restore})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := engine.SettleQuietly(w, 10_000_000); err != nil {
		b.Fatal(err)
	}
	return w
}
