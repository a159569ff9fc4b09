package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 { return heapMetric("/gc/heap/live:bytes") }

// allocatedBytes is what the process has allocated on the heap so far.
func allocatedBytes() uint64 { return heapMetric("/gc/heap/allocs:bytes") }

// heapMetric reads one of the runtime's byte counters (0 where this Go
// does not have it).
func heapMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// A large world's pacing (worldPacer.limit).
const (
	// paceMinLive is the smallest dump, by its objects' live heap, that
	// is paced: a small world's peak is the runtime's, not the heap's.
	paceMinLive = 32 << 20
	// readFactor times the objects read is the least limit, where they
	// are measured as the collection after the read finds them (the
	// playground): with what the world's start holds by then.
	readFactor = 2.45
	// releasedFactor is readFactor for gcplay run and what-if, which
	// measure the objects alone (collectAfterRelease), without the
	// scatter of the old measure; chosen by measurement against the
	// peak of the dump as kubectl prints it, whose objects read are the
	// larger part of its world (docs/BENCHMARKS.md, "Seventeenth session
	// (2026-11-27): the collector and the build").
	releasedFactor = 2.9
	// liveFactor times the heap found live at the last collection is the
	// limit once the world holds more than the dump's objects, for a run
	// (run -f, what-if -f): its world is the settled world and what its
	// delete holds.
	liveFactor = 1.4
	// growFactor is liveFactor for the playground (play -f), whose
	// timeline grows as r runs: a collection of its heap costs more, so
	// it is given more room.
	growFactor = 1.6
	// outsideGo is what the process holds outside Go's runtime (the
	// binary's pages), beside what the runtime counts against the limit.
	outsideGo = 16 << 20
)

// worldPacer sets a soft memory limit (debug.SetMemoryLimit) for a world
// built from a large dump, after each collection. Go's collector lets the
// heap grow to twice what it finds live, and the settled world and its
// delete hold more than the objects read, so unpaced the delete's heap
// rose above the read's own peak (the objects, the text and the read's
// garbage). The limit (readFactor times the objects read) keeps the
// delete near the read's peak at a few more collections; where the
// read's peak was higher (a JSON dump's text is longer), the limit is
// that peak, which costs no collections. A world that grows further (a
// run that records its trace, controllers that create many objects) gets
// liveFactor (growFactor in the playground) times what is live instead,
// so the collector never runs again and again over a heap it cannot
// shrink below the limit. The factors were chosen by measurement:
// docs/BENCHMARKS.md, "Twelfth session: the peak", then "Fifteenth
// session: the peak" and "Sixteenth session: room under the peak" as the
// world's live heap came down.
type worldPacer struct {
	// read is the heap live once the dump was read; peak is the
	// process's peak resident memory then (0 where it is not known).
	read, peak uint64
	// least is the factor of read (readFactor or releasedFactor); grow
	// is the factor of what is live (liveFactor or growFactor).
	least, grow float64
	// stop ends the pacing after the next collection (the tests').
	stop *atomic.Bool
}

// limit is the memory limit for a world whose objects read held read
// bytes, when the last collection found live bytes; 0 for none.
func (p worldPacer) limit(live uint64) int64 {
	if p.read < paceMinLive {
		return 0
	}
	limit := max(float64(p.read)*p.least, float64(live)*p.grow)
	if p.peak > outsideGo {
		limit = max(limit, float64(p.peak-outsideGo))
	}
	return int64(limit)
}

// startPacer sets the limit for a world whose dump's objects hold read
// bytes, read when the process's peak resident memory was peak, and again
// after every collection, until stop is called; least is the factor of
// read, grow the factor of what is live (liveFactor or growFactor).
func startPacer(read, peak uint64, least, grow float64) (stop func()) {
	p := worldPacer{read: read, peak: peak, least: least, grow: grow, stop: new(atomic.Bool)}
	if p.limit(read) == 0 {
		return func() {}
	}
	p.pace()
	return func() { p.stop.Store(true) }
}

// pace sets the limit for what the last collection found live, and asks
// to be called again after the next one.
func (p worldPacer) pace() {
	if p.stop.Load() {
		return
	}
	debug.SetMemoryLimit(p.limit(liveHeap()))
	afterNextCollection(p.pace)
}

// afterNextCollection calls f once the collector has run: when it finds
// a small object allocated here unreachable.
func afterNextCollection(f func()) {
	sentinel := &struct {
		_ *int
		_ [16]byte
	}{}
	runtime.AddCleanup(sentinel, func(f func()) { f() }, f)
}

// deferCollection lets the read of a text held outside Go's heap
// (readDumpText) run until the heap holds about as much as the text
// before its first collection, as it did when the text was on the heap:
// Go's collector starts at a small heap and collects each time the heap
// doubles, and with the text off the heap the read made several small
// collections before the first one worth making (docs/BENCHMARKS.md,
// "Twelfth session: the peak"). The collector's own pace (GOGC 100) is
// back after the first collection. Not when the user set GOGC or
// GOMEMLIMIT.
func (t dumpText) deferCollection() {
	if t.free == nil || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent := int(100 * float64(len(t.data)) / float64(4<<20))
	if percent <= 100 {
		return
	}
	old := debug.SetGCPercent(percent)
	afterNextCollection(func() { debug.SetGCPercent(old) })
}
