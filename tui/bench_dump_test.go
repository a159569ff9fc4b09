package tui

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// BenchmarkPlayDumpTimeline is the playground's timeline on a cluster
// dump as a learner makes it: r until settled, delete deploy/web, r until
// the cascade rests (each r up to runCap steps), then a jump to the
// middle and ten steps back. It logs the heap live after each r, and
// reports it at the end and after the steps back. The dump is
// GCPLAY_BENCH_DUMP (go run ./internal/dumpgen/gendump makes one); without
// it the benchmark is skipped.
//
//	GCPLAY_BENCH_DUMP=/tmp/d100k.yaml go test ./tui -run '^$' -bench PlayDumpTimeline -benchtime 1x -v
func BenchmarkPlayDumpTimeline(b *testing.B) {
	file, sc := benchDump(b)
	live := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / 1e6
	}
	for range b.N {
		s, _, _, err := openSession(file, nil, sc, false)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("open: %d objects, heap %.0f MB", s.world().Store().Len(), live())
		r := func(label string) bool {
			t0 := time.Now()
			steps, settled := settleBench(b, s)
			b.Logf("%s: %d steps to %d in %v, heap %.0f MB", label, steps, s.h.Pos(), time.Since(t0).Round(time.Millisecond), live())
			return settled
		}
		for !r("r") {
		}
		if _, err := s.act(engine.Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}}); err != nil {
			b.Fatal(err)
		}
		for !r("r after the delete") {
		}
		b.ReportMetric(live(), "heap-MB")
		b.ReportMetric(float64(s.h.Len()), "steps")
		heapProfile(b, "GCPLAY_BENCH_HEAP")
		t0 := time.Now()
		if err := s.gotoPos(s.h.Len() / 2); err != nil {
			b.Fatal(err)
		}
		for range 10 {
			if err := s.gotoPos(s.h.Pos() - 1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(time.Since(t0).Milliseconds()), "goto+10back-ms")
		b.ReportMetric(live(), "heap-after-back-MB")
		heapProfile(b, "GCPLAY_BENCH_HEAP_BACK")
		runtime.KeepAlive(s)
	}
}

// heapProfile writes the live heap's profile to the file the
// environment variable env names, if it names one.
func heapProfile(b *testing.B, env string) {
	file := os.Getenv(env)
	if file == "" {
		return
	}
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPlayDumpKeys is BenchmarkPlayDumpTimeline through the Model,
// at 160x50, a frame drawn after every message as the terminal program
// draws them: the keys r until settled, :delete deploy/web, r until the
// cascade rests, :goto 150000 (in the first r after the delete, where
// the world is largest), ten ←, ten → and :goto 0. It logs the time of
// each.
//
//	GCPLAY_BENCH_DUMP=/tmp/d100k.yaml go test ./tui -run '^$' -bench PlayDumpKeys -benchtime 1x -v
func BenchmarkPlayDumpKeys(b *testing.B) {
	file, sc := benchDump(b)
	for range b.N {
		m, err := New(Options{Width: 160, Height: 50, NoColor: true, Theme: ThemeDark, Files: NewMemFiles(nil), File: file, Parsed: sc})
		if err != nil {
			b.Fatal(err)
		}
		frames := 0
		do := func(msg tea.Msg) {
			_, cmd := m.Update(msg)
			m.View()
			frames++
			for cmd != nil {
				next, ok := cmd().(runMsg)
				if !ok {
					break
				}
				_, cmd = m.Update(next)
				m.View()
				frames++
			}
		}
		act := func(label string, keys ...string) {
			t0 := time.Now()
			frames = 0
			for _, k := range keys {
				if k == " " {
					k = "space"
				}
				do(keyMsg(k))
			}
			b.Logf("%s: to %d in %v, %d frames", label, m.s.h.Pos(), time.Since(t0).Round(time.Millisecond), frames)
		}
		spell := func(s string) []string {
			var ks []string
			for _, r := range s {
				ks = append(ks, string(r))
			}
			return ks
		}
		act("r", "r")
		act("r", "r")
		act(":delete deploy/web", append(append([]string{":"}, spell("delete deploy/web")...), "enter")...)
		for i := 1; ; i++ {
			pos := m.s.h.Pos()
			act(fmt.Sprintf("r ×%d", i), "r")
			if m.s.h.Pos()-pos < 100_000 {
				break
			}
		}
		act(":goto", append(append([]string{":"}, spell("goto 150000")...), "enter")...)
		for i := 1; i <= 10; i++ {
			act(fmt.Sprintf("← %d", i), "left")
		}
		for i := 1; i <= 10; i++ {
			act(fmt.Sprintf("→ %d", i), "right")
		}
		act(":goto 0", append(append([]string{":"}, spell("goto 0")...), "enter")...)
	}
}

// BenchmarkPlayDumpStepBack is the history's part of a learner's steps
// back on a dump's timeline, without frames: r until settled, delete
// deploy/web, one r (to 200,319), a jump to step 150,000, then ten steps
// back and ten forward; it reports the mean of each, the time of a clone
// of the world there, and the heap live at the end.
//
//	GCPLAY_BENCH_DUMP=/tmp/d100k.yaml go test ./tui -run '^$' -bench PlayDumpStepBack -benchtime 1x -v
func BenchmarkPlayDumpStepBack(b *testing.B) {
	file, sc := benchDump(b)
	for range b.N {
		s, _, _, err := openSession(file, nil, sc, false)
		if err != nil {
			b.Fatal(err)
		}
		r := func() bool {
			_, settled := settleBench(b, s)
			return settled
		}
		for !r() {
		}
		if _, err := s.act(engine.Delete{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}}); err != nil {
			b.Fatal(err)
		}
		r()
		if err := s.gotoPos(150_000); err != nil {
			b.Fatal(err)
		}
		b.Logf("at %d of %d: %d objects", s.h.Pos(), s.h.Len(), s.world().Store().Len())
		timed := func(label string, n int, f func() error) {
			t0 := time.Now()
			for range n {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
			per := time.Since(t0) / time.Duration(n)
			b.Logf("%s: %v each", label, per.Round(time.Microsecond))
			b.ReportMetric(float64(per.Microseconds())/1000, label+"-ms")
		}
		timed("back", 10, func() error { return s.gotoPos(s.h.Pos() - 1) })
		timed("forward", 10, func() error { return s.gotoPos(s.h.Pos() + 1) })
		timed("clone", 5, func() error { s.world().Clone(); return nil })
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-MB")
		runtime.KeepAlive(s)
	}
}

// settleBench runs s as the `r` key does, chunk by chunk, to rest or to
// the run's limit: the steps taken, and whether the world is at rest.
func settleBench(b *testing.B, s *session) (steps int, settled bool) {
	run := s.startSettle()
	for {
		over, err := s.settleChunk(run, runChunk)
		if err != nil {
			b.Fatal(err)
		}
		if over {
			return run.steps, run.r.unsettled == ""
		}
	}
}

// benchDump reads and parses the dump GCPLAY_BENCH_DUMP names, once, as
// gcplay play -f does (the text is let go), or skips the benchmark.
func benchDump(b *testing.B) (string, *scenario.Scenario) {
	file := os.Getenv("GCPLAY_BENCH_DUMP")
	if file == "" {
		b.Skip("GCPLAY_BENCH_DUMP names no dump")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := scenario.ParseFile(file, data)
	if err != nil {
		b.Fatal(err)
	}
	return file, sc
}
