// Package idlegc runs the garbage collector while the page is quiet, so
// that a key rarely lands in a collection.
//
// In WebAssembly Go has one thread and no background collector. A cycle
// starts when an allocation crosses the heap's trigger, which is in the
// middle of some key's update or frame: that key then marks (assists)
// with the write barrier on, and the rest of the marking and all the
// sweeping run before Go hands the event loop back to the browser, inside
// that key's handler and the next one's, which are drawn tens of ms late.
// A Collector that is told of every key and frame (Poke) instead collects
// once nothing has happened for a moment and the heap has grown enough
// since the last collection to be worth it; the typing that follows
// starts from a clean heap, so its allocations rarely reach the trigger.
// The figures are in docs/BENCHMARKS.md ("Issue 19, ninth session").
package idlegc

import (
	"runtime"
	"sync"
	"time"
)

// MinGrowth is the least the heap must have grown since the last
// collection for an idle collection: below it there is too little garbage
// to be worth marking for.
const MinGrowth = 2 << 20

// Worth reports whether a heap of heapAlloc bytes (live objects and dead
// ones not yet swept, runtime.MemStats.HeapAlloc) whose goal is nextGC
// bytes (MemStats.NextGC, where the runtime would end a collection of its
// own) at the collector's pace gcPercent (GOGC) is worth collecting now:
// when it has grown since the last collection by MinGrowth and by the live
// heap itself. The live heap is taken from the goal (the goal is the live
// heap plus gcPercent of it; for a heap under the runtime's minimum goal
// that overstates it a little). Marking costs in proportion to the live
// heap, so the idle collections' work per allocated byte stays no more
// than the collector's at Go's default GOGC of 100, whatever the world's
// size. With the collector off (gcPercent < 0) it is never worth it.
func Worth(heapAlloc, nextGC uint64, gcPercent int) bool {
	if gcPercent < 0 {
		return false
	}
	live := nextGC / uint64(100+gcPercent) * 100
	return heapAlloc >= live && heapAlloc-live >= max(MinGrowth, live)
}

// Heap returns runtime.MemStats' HeapAlloc and NextGC.
func Heap() (heapAlloc, nextGC uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.NextGC
}

// Collector collects the garbage once it has not been poked for its
// delay, when Worth says the heap has grown enough.
type Collector struct {
	delay     time.Duration
	gcPercent int
	// heap and collect are Heap and runtime.GC, replaced in tests.
	heap    func() (heapAlloc, nextGC uint64)
	collect func()
	// done, when set, is told how long each collection took.
	done func(time.Duration)

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// New returns a Collector that waits delay after the last Poke, for a
// program that runs the collector at gcPercent (GOGC); done, when not
// nil, is called after each of its collections with the time it took. It
// does nothing until first poked.
func New(delay time.Duration, gcPercent int, done func(time.Duration)) *Collector {
	return &Collector{delay: delay, gcPercent: gcPercent, heap: Heap, collect: runtime.GC, done: done}
}

// Poke says that something happened (a key, a frame): the collector
// waits for its delay from now.
func (c *Collector) Poke() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(c.delay, c.idle)
		return
	}
	c.timer.Reset(c.delay)
}

// Stop ends the collector: no collection starts after it returns.
func (c *Collector) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.timer != nil {
		c.timer.Stop()
	}
}

func (c *Collector) idle() {
	c.mu.Lock()
	stopped := c.stopped
	c.mu.Unlock()
	if stopped {
		return
	}
	if heapAlloc, nextGC := c.heap(); !Worth(heapAlloc, nextGC, c.gcPercent) {
		return
	}
	start := time.Now()
	c.collect()
	if c.done != nil {
		c.done(time.Since(start))
	}
}
