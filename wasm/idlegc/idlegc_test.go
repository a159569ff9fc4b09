package idlegc

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestWorth(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		heapAlloc, nextGC uint64
		gcPercent         int
		want              bool
	}{
		// The page's starter world at GOGC 400: about 2 MB live, the
		// runtime's minimum goal of 16 MB, taken for 3.2 MB live.
		{3 * mb, 16 * mb, 400, false},       // just collected
		{5 * mb, 16 * mb, 400, false},       // grown by less than MinGrowth
		{6 * mb, 16 * mb, 400, false},       // by more, but by less than the live heap
		{7 * mb, 16 * mb, 400, true},        // by both
		{15 * mb, 16 * mb, 400, true},       // about to start a collection of its own
		{150 * mb, 500 * mb, 400, false},    // a 100 MB world, 50 MB allocated since
		{200 * mb, 500 * mb, 400, true},     // and 100 MB
		{150 * mb, 200 * mb, 100, false},    // at GOGC 100, 50 MB of 100
		{200 * mb, 200 * mb, 100, true},     // at its goal
		{20 * mb, ^uint64(0), -1, false},    // the collector off
		{^uint64(0), ^uint64(0), 400, true}, // no overflow
	} {
		if got := Worth(c.heapAlloc, c.nextGC, c.gcPercent); got != c.want {
			t.Errorf("Worth(%d, %d, %d) = %v, want %v", c.heapAlloc, c.nextGC, c.gcPercent, got, c.want)
		}
	}
}

// TestHeap reads the runtime's real figures: garbage brings the heap half
// way to its goal, and a collection takes it away.
func TestHeap(t *testing.T) {
	// No collection of its own while the garbage is made.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	if heapAlloc, nextGC := Heap(); heapAlloc == 0 || nextGC == 0 {
		t.Fatalf("Heap() = %d, %d", heapAlloc, nextGC)
	}
	debug.SetGCPercent(400)
	runtime.GC()
	if heapAlloc, nextGC := Heap(); Worth(heapAlloc, nextGC, 400) {
		t.Fatalf("right after a collection Worth(Heap()) = true (%d allocated, goal %d)", heapAlloc, nextGC)
	}
	debug.SetGCPercent(-1)
	var keep [][]byte
	for range 64 {
		keep = append(keep, make([]byte, 256<<10)) // 16 MB, then dropped
	}
	runtime.KeepAlive(keep)
	keep = nil
	debug.SetGCPercent(400) // the goal as after the last collection, at the page's GOGC
	if heapAlloc, nextGC := Heap(); !Worth(heapAlloc, nextGC, 400) {
		t.Fatalf("after 16 MB of garbage Worth(Heap()) = false (%d allocated, goal %d)", heapAlloc, nextGC)
	}
	runtime.GC()
	if heapAlloc, nextGC := Heap(); Worth(heapAlloc, nextGC, 400) {
		t.Fatalf("after collecting the garbage Worth(Heap()) = true (%d allocated, goal %d)", heapAlloc, nextGC)
	}
}

// fake returns a Collector over a heap the test sets, whose collections
// are sent on the returned channel.
func fake(delay time.Duration, heapAlloc, nextGC *uint64) (*Collector, chan struct{}) {
	collected := make(chan struct{}, 10)
	c := New(delay, 400, nil)
	c.heap = func() (uint64, uint64) { return *heapAlloc, *nextGC }
	c.collect = func() { *heapAlloc = *nextGC / 5; collected <- struct{}{} }
	return c, collected
}

func TestCollectsOnceQuietAndGrown(t *testing.T) {
	heapAlloc, nextGC := uint64(15<<20), uint64(16<<20)
	c, collected := fake(time.Millisecond, &heapAlloc, &nextGC)
	defer c.Stop()
	c.Poke()
	select {
	case <-collected:
	case <-time.After(10 * time.Second):
		t.Fatal("no collection after the pokes stopped, 15 MB of a 16 MB goal")
	}
	// The heap is now clean: another quiet moment collects nothing.
	c.Poke()
	select {
	case <-collected:
		t.Fatal("a second collection with nothing allocated since the first")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestNothingAfterStop(t *testing.T) {
	heapAlloc, nextGC := uint64(15<<20), uint64(16<<20)
	c, collected := fake(time.Hour, &heapAlloc, &nextGC)
	c.Poke()
	c.Stop()
	c.idle() // as a timer that fired just as Stop ran
	c.Poke() // and a key after the program ended
	select {
	case <-collected:
		t.Fatal("a collection after Stop")
	default:
	}
	if c.timer.Stop() {
		t.Fatal("the timer still ran after Stop")
	}
}

func TestDoneTold(t *testing.T) {
	heapAlloc, nextGC := uint64(15<<20), uint64(16<<20)
	told := make(chan time.Duration, 1)
	c := New(time.Millisecond, 400, func(d time.Duration) { told <- d })
	c.heap = func() (uint64, uint64) { return heapAlloc, nextGC }
	c.collect = func() {}
	defer c.Stop()
	c.Poke()
	select {
	case d := <-told:
		if d < 0 {
			t.Fatalf("done told %v", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("done was not told of the collection")
	}
}
