package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestWorldPacerLimit: a small world is not paced; a large one gets 2.45
// times its objects as read, or the peak the read reached if higher
// (less what the runtime does not count), or 1.4 times what is live once
// it holds more (1.6 in the playground).
func TestWorldPacerLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		read, peak, live uint64
		least, grow      float64
		want             int64
	}{
		{read: 31 * mb, live: 31 * mb, least: readFactor, grow: liveFactor, want: 0},
		{read: 31 * mb, peak: 400 * mb, live: 500 * mb, least: readFactor, grow: liveFactor, want: 0},
		{read: 100 * mb, live: 100 * mb, least: readFactor, grow: liveFactor, want: 245 * mb},
		{read: 100 * mb, peak: 276 * mb, live: 150 * mb, least: readFactor, grow: liveFactor, want: 260 * mb},
		{read: 100 * mb, peak: 376 * mb, live: 150 * mb, least: readFactor, grow: liveFactor, want: 360 * mb},
		{read: 100 * mb, peak: 250 * mb, live: 200 * mb, least: readFactor, grow: liveFactor, want: 280 * mb},
		{read: 100 * mb, peak: 250 * mb, live: 200 * mb, least: readFactor, grow: growFactor, want: 320 * mb},
	} {
		if got := (worldPacer{read: c.read, peak: c.peak, least: c.least, grow: c.grow}).limit(c.live); got != c.want {
			t.Errorf("read %d MB, peak %d MB, live %d MB: limit %d MB, want %d", c.read/mb, c.peak/mb, c.live/mb, got/mb, c.want/mb)
		}
	}
}

// TestPeakRSS: the process's peak resident memory counts a buffer it has
// touched.
func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("peakRSS is read on Linux only")
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	if got := peakRSS(); got < 64<<20 {
		t.Errorf("peak RSS %d bytes with 64 MB touched", got)
	}
	runtime.KeepAlive(b)
}

// TestWorldPacerFollowsGrowth: the pacer sets the limit from the objects
// read, and raises it after a collection that finds the heap grown, so a
// world that outgrows its dump is not held under a limit it cannot keep.
func TestWorldPacerFollowsGrowth(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	hold := make([][]byte, 0, 8)
	for range 3 {
		hold = append(hold, make([]byte, 16<<20))
	}
	runtime.GC()
	read := liveHeap()
	stop := startPacer(read, 0, readFactor, liveFactor)
	defer stop()
	if got, want := debug.SetMemoryLimit(-1), (worldPacer{read: read, least: readFactor, grow: liveFactor}).limit(read); got != want || got < 2*int64(read) {
		t.Fatalf("limit %d once read %d bytes, want %d", got, read, want)
	}
	for range 5 {
		hold = append(hold, make([]byte, 16<<20))
	}
	runtime.GC()
	live := liveHeap()
	// The pacer reads what is live after its own collection, which can
	// differ from this one by a few small objects (its own sentinel among
	// them): 64 KiB of slack, small beside the rise the five blocks above
	// make in the limit.
	want := int64(float64(live)*liveFactor) - 64<<10
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < want {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d after the heap grew to %d live, want at least %d", debug.SetMemoryLimit(-1), live, want)
		}
		time.Sleep(10 * time.Millisecond)
		runtime.GC()
	}
	runtime.KeepAlive(hold)
}

// TestDeferCollection: while a large text is read outside the heap, the
// collector waits for the heap to hold about as much; after the first
// collection its pace is the user's again. A text on the heap changes
// nothing.
func TestDeferCollection(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the user's GOGC or GOMEMLIMIT is left alone")
	}
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	text := dumpText{data: make([]byte, 80<<20), free: func() {}}
	text.deferCollection()
	if got := gcPercent(); got != 2000 {
		t.Errorf("GOGC %d while an 80 MB text is read, want 2000 (a first collection at 80 MB)", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC %d after the first collection, want 100 again", gcPercent())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	(dumpText{data: text.data}).deferCollection()
	if got := gcPercent(); got != 100 {
		t.Errorf("GOGC %d for a text on the heap, want 100", got)
	}
}

// gcPercent is the collector's GOGC, read by setting it back.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestLiveBefore: what a collection finds live, less what was allocated
// while it ran, is what was live before it.
func TestLiveBefore(t *testing.T) {
	const mb = 1 << 20
	held := make([]byte, 80*mb)
	runtime.GC()
	base := liveHeap()
	var during []byte
	got := liveBefore(func() {
		during = make([]byte, 16*mb)
		runtime.GC()
	})
	if live := liveHeap(); live < base+14*mb {
		t.Fatalf("the collection found %d MB live, %d MB before and 16 MB allocated", live/mb, base/mb)
	}
	if got+4*mb < base || got > base+4*mb {
		t.Errorf("live before the collection %d MB, want about %d", got/mb, base/mb)
	}
	// Allocated meanwhile, more than a quarter of what it finds: a
	// quarter is taken off.
	var more []byte
	got = liveBefore(func() {
		more = make([]byte, 48*mb)
		runtime.GC()
	})
	if live := liveHeap(); got < live-live/4 || got > live-live/4+mb {
		t.Errorf("%d MB live with 48 MB allocated meanwhile: live before %d MB, want three quarters", live/mb, got/mb)
	}
	runtime.KeepAlive(held)
	runtime.KeepAlive(during)
	runtime.KeepAlive(more)
	runtime.GC() // the next test starts from its own heap
}
