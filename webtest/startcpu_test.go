package webtest

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

var webcpu = flag.String("webcpu", "", "run TestWebStartCPU on these built sites, separated by commas (A,B,...)")

// stampMarks makes each mark the page sets in window.__t (index.html
// creates the object; main.js and Go set its marks) also a console
// timeStamp, which the trace records with the main thread's CPU clock.
const stampMarks = `(() => {
  let marks;
  Object.defineProperty(window, '__t', { configurable: true, get() { return marks; }, set(o) {
    marks = new Proxy(o, { set(target, k, v) {
      target[k] = v;
      if (typeof v === 'number') console.timeStamp('__t.' + String(k));
      return true;
    } });
  } });
})()`

// TestWebStartCPU traces cold loads of two or more built sites taken in
// turns, each in a fresh browser, and prints for each start-up phase the
// renderer main thread's CPU time (beside its wall time) and the
// functions V8 compiled lazily in it (each one's first call) with their
// CPU time. On a shared machine a phase's wall time moves with the load
// by more than most changes do; the main thread's CPU much less, and the
// count of functions compiled not at all:
//
//	go test -count=1 -run '^TestWebStartCPU$' -v ./webtest -webcpu=/tmp/before,/tmp/after -webloads=7
//
// Tracing slows the page: the figures compare sites, they are not the
// page's own times (TestWebCompare's).
func TestWebStartCPU(t *testing.T) {
	if *webcpu == "" {
		t.Skip("compares built sites; run it with -webcpu=DIR,DIR")
	}
	dirs, srvs := serveSites(t, *webcpu)
	marks := startMarks
	got := make([][]startPhase, len(dirs)) // per site, per load: one per phase
	for n := 0; n < *webloads; n++ {
		for i, s := range srvs {
			evs := traceStart(t, s.URL)
			ph, err := startPhases(evs, marks)
			if err != nil {
				t.Fatalf("%s, load %d: %v", dirs[i], n+1, err)
			}
			got[i] = append(got[i], ph...)
		}
	}
	fmt.Print(startCPUTable(dirs, marks, got))
	fmt.Printf("load average after: %s\n", loadavg())
}

// traceEvent is the part of a Chromium trace event the tests read.
type traceEvent struct {
	Name string  `json:"name"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`   // µs
	Tts  float64 `json:"tts"`  // the thread's CPU clock, µs
	Tdur float64 `json:"tdur"` // CPU time of a complete event, µs
	Args struct {
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"args"`
}

// traceStart loads url cold in a fresh browser, traced up to the first
// frame, and returns the trace's events.
func traceStart(t *testing.T, url string) []traceEvent {
	t.Helper()
	p := newPage(t, 1280, 800)
	defer p.close()
	tr := traceEvents(t, p)
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: stampMarks}); err != nil {
		t.Fatal(err)
	}
	tr.start("devtools.timeline", "v8.wasm")
	p.load(url)
	p.checkExceptions()
	return tr.endEvents()
}

// startPhase is one phase of one traced load (ms).
type startPhase struct {
	wall, cpu   float64
	compiled    int     // wasm.CompileLazy events: functions compiled on first call
	compiledCPU float64 // their CPU time, on any thread
}

// startPhases cuts a trace into the phases between consecutive marks
// (each mark's last time stamp, as window.__t keeps the last value).
func startPhases(evs []traceEvent, marks []string) ([]startPhase, error) {
	at := map[string]traceEvent{}
	for _, e := range evs {
		if e.Name == "TimeStamp" && strings.HasPrefix(e.Args.Data.Message, "__t.") {
			at[strings.TrimPrefix(e.Args.Data.Message, "__t.")] = e
		}
	}
	for _, m := range marks {
		e, ok := at[m]
		if !ok {
			return nil, fmt.Errorf("the trace has no time stamp for the mark %s", m)
		}
		if e.Tts == 0 || e.Tid != at[marks[0]].Tid {
			return nil, fmt.Errorf("the mark %s's time stamp has no CPU clock of the main thread", m)
		}
	}
	var ph []startPhase
	for k := 1; k < len(marks); k++ {
		a, b := at[marks[k-1]], at[marks[k]]
		p := startPhase{wall: (b.Ts - a.Ts) / 1e3, cpu: (b.Tts - a.Tts) / 1e3}
		for _, e := range evs {
			if e.Name == "wasm.CompileLazy" && e.Ts >= a.Ts && e.Ts < b.Ts {
				p.compiled++
				p.compiledCPU += e.Tdur / 1e3
			}
		}
		ph = append(ph, p)
	}
	return ph, nil
}

// startCPUTable is TestWebStartCPU's table: for each phase and site, the
// medians of its loads (and the range of the functions compiled).
func startCPUTable(dirs, marks []string, got [][]startPhase) string {
	var b strings.Builder
	phases := len(marks) - 1
	loads := len(got[0]) / phases
	fmt.Fprintf(&b, "| traced cold loads, medians of %d: wall ms / main thread's CPU ms / functions compiled lazily (range) / their CPU ms |", loads)
	for _, d := range dirs {
		fmt.Fprintf(&b, " %s |", d)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(dirs)) + "\n")
	for k := 0; k < phases; k++ {
		fmt.Fprintf(&b, "| %s → %s |", marks[k], marks[k+1])
		for i := range dirs {
			var wall, cpu, n, ncpu []float64
			for l := 0; l < loads; l++ {
				p := got[i][l*phases+k]
				wall, cpu = append(wall, p.wall), append(cpu, p.cpu)
				n, ncpu = append(n, float64(p.compiled)), append(ncpu, p.compiledCPU)
			}
			fmt.Fprintf(&b, " %.0f / %.1f / %.0f (%.0f-%.0f) / %.1f |", median(wall), median(cpu), median(n), slices.Min(n), slices.Max(n), median(ncpu))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestStartPhases(t *testing.T) {
	stamp := func(m string, ts, tts float64, tid int) traceEvent {
		e := traceEvent{Name: "TimeStamp", Tid: tid, Ts: ts, Tts: tts}
		e.Args.Data.Message = "__t." + m
		return e
	}
	compile := func(ts, tdur float64) traceEvent {
		return traceEvent{Name: "wasm.CompileLazy", Tid: 1, Ts: ts, Tdur: tdur}
	}
	marks := []string{"a", "b", "c"}
	evs := []traceEvent{
		stamp("a", 1000, 500, 1),
		compile(1500, 200),
		stamp("b", 3000, 1500, 1),
		compile(3000, 300), // at b: b's phase
		compile(3500, 100),
		stamp("c", 4000, 1800, 1),
		compile(4500, 50),         // after the last mark
		stamp("c", 6000, 2000, 1), // the mark set again: its last value counts
	}
	got, err := startPhases(evs, marks)
	if err != nil {
		t.Fatal(err)
	}
	want := []startPhase{{wall: 2, cpu: 1, compiled: 1, compiledCPU: 0.2}, {wall: 3, cpu: 0.5, compiled: 3, compiledCPU: 0.45}}
	if !slices.Equal(got, want) {
		t.Errorf("startPhases = %+v, want %+v", got, want)
	}

	if _, err := startPhases(evs[:3], marks); err == nil || !strings.Contains(err.Error(), "mark c") {
		t.Errorf("a trace without the mark c: error %v, want one naming it", err)
	}
	other := append(slices.Clone(evs), stamp("b", 3000, 1500, 2))
	if _, err := startPhases(other, marks); err == nil || !strings.Contains(err.Error(), "mark b") {
		t.Errorf("the mark b on another thread: error %v, want one naming it", err)
	}
}
