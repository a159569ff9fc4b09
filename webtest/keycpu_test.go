package webtest

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

var webkeycpu = flag.String("webkeycpu", "", "run TestWebKeyCPU on these built sites, separated by commas (A,B,...)")

// keyStamps marks a key's phases in the page with console timeStamps,
// which the trace records with the main thread's CPU clock: Go's two
// calls (goTermInput, goFlush), the renderer's renderRows (the page's
// changed-rows drawing and xterm's DOM renderer within), and xterm's
// onRender with the expected text on the screen (the bench's drawn
// mark). It counts the rows xterm's row factory builds and their
// elements (spans).
const keyStamps = `(() => {
  for (const n of ['goTermInput', 'goFlush']) {
    const f = window[n];
    window[n] = function (...a) {
      console.timeStamp('k.' + n);
      try { return f.apply(this, a); } finally { console.timeStamp('k.' + n + '.end'); }
    };
  }
  const r = term._core._renderService._renderer.value;
  const rows = r.renderRows;
  r.renderRows = function (...a) {
    console.timeStamp('k.rows');
    try { return rows.apply(this, a); } finally { console.timeStamp('k.rows.end'); }
  };
  const f = r._rowFactory, create = f.createRow;
  window.__built = { rows: 0, spans: 0 };
  f.createRow = function (...a) {
    const got = create.apply(this, a);
    window.__built.rows++;
    window.__built.spans += got.length;
    return got;
  };
  addEventListener('keydown', (e) => { window.__queued = performance.now() - e.timeStamp; }, true);
  term.onRender(() => {
    if (window.__expect !== undefined && window.__stamped !== true && window.bufferText().includes(window.__expect)) {
      window.__stamped = true;
      console.timeStamp('k.drawn');
    }
  });
})()`

// keyEvent is the part of a Chromium trace event TestWebKeyCPU reads.
type keyEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Tid  int     `json:"tid"`
	Ts   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // µs, of a complete event
	Tts  float64 `json:"tts"`  // the thread's CPU clock, µs
	Tdur float64 `json:"tdur"` // CPU time of a complete event, µs
	Args struct {
		Data struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		} `json:"data"`
	} `json:"args"`
}

// keyPhases is one key's figures (ms, or counts).
type keyPhases struct {
	handler   float64 // main thread's CPU from the keydown's dispatch to goTermInput
	goInput   float64 // CPU in goTermInput
	goFlush   float64 // CPU in goFlush (xterm's parse within)
	afterKey  float64 // CPU from goFlush's end to the keydown's dispatch's end (the page's work after Go's)
	wait      float64 // wall time from the keydown's dispatch's end to the animation frame
	waitCPU   float64 // the main thread's CPU in that wait
	toRows    float64 // CPU from the animation frame to renderRows
	rows      float64 // CPU in renderRows
	rowsLay   int     // layouts (forced) within renderRows
	rowsLayMS float64 // their CPU
	toDrawn   float64 // CPU from renderRows's end to the drawn mark
	drawn     float64 // wall time from the keydown's dispatch to the drawn mark
	paint     float64 // CPU of the style, layout, paint and commit after the animation frame's callbacks
	queued    float64 // wall time from the keydown's time stamp (the bench's start) to its dispatch
	bench     float64 // the bench's drawn figure: from the keydown's time stamp to the page's onRender
	built     int     // rows xterm's row factory built
	spans     int     // the elements of those rows
}

// keyTrace cuts one key's trace into its phases.
func keyTrace(evs []keyEvent) (keyPhases, error) {
	var k keyPhases
	stamp := map[string]keyEvent{}
	var down, raf *keyEvent
	for i, e := range evs {
		switch {
		case e.Name == "TimeStamp" && strings.HasPrefix(e.Args.Data.Message, "k."):
			if _, ok := stamp[e.Args.Data.Message]; !ok {
				stamp[e.Args.Data.Message] = e
			}
		case e.Name == "EventDispatch" && e.Args.Data.Type == "keydown" && down == nil:
			down = &evs[i]
		}
	}
	for _, m := range []string{"k.goTermInput", "k.goTermInput.end", "k.goFlush", "k.goFlush.end", "k.rows", "k.rows.end", "k.drawn"} {
		if _, ok := stamp[m]; !ok {
			return k, fmt.Errorf("no time stamp %s in the key's trace", m)
		}
	}
	if down == nil {
		return k, fmt.Errorf("no keydown in the key's trace")
	}
	main := down.Tid
	for i, e := range evs {
		if e.Name == "FireAnimationFrame" && e.Tid == main && e.Ts <= stamp["k.rows"].Ts && (raf == nil || e.Ts > raf.Ts) {
			raf = &evs[i]
		}
	}
	if raf == nil {
		return k, fmt.Errorf("no animation frame before renderRows")
	}
	ms := func(us float64) float64 { return us / 1e3 }
	s := func(m string) keyEvent { return stamp[m] }
	k.handler = ms(s("k.goTermInput").Tts - down.Tts)
	k.goInput = ms(s("k.goTermInput.end").Tts - s("k.goTermInput").Tts)
	k.goFlush = ms(s("k.goFlush.end").Tts - s("k.goFlush").Tts)
	k.afterKey = ms(down.Tts + down.Tdur - s("k.goFlush.end").Tts)
	k.wait = ms(raf.Ts - (down.Ts + down.Dur))
	k.waitCPU = ms(raf.Tts - (down.Tts + down.Tdur))
	k.toRows = ms(s("k.rows").Tts - raf.Tts)
	k.rows = ms(s("k.rows.end").Tts - s("k.rows").Tts)
	k.toDrawn = ms(s("k.drawn").Tts - s("k.rows.end").Tts)
	k.drawn = ms(s("k.drawn").Ts - down.Ts)
	for _, e := range evs {
		if e.Tid != main || e.Ph != "X" {
			continue
		}
		if e.Name == "Layout" && e.Ts >= s("k.rows").Ts && e.Ts < s("k.rows.end").Ts {
			k.rowsLay++
			k.rowsLayMS += ms(e.Tdur)
		}
		// The rendering that follows the animation frame's callbacks, in
		// the same frame.
		if e.Ts >= raf.Ts+raf.Dur && e.Ts < raf.Ts+16700 {
			switch e.Name {
			case "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize", "Commit", "UpdateLayer", "UpdateLayerTree", "IntersectionObserverController::computeIntersections":
				k.paint += ms(e.Tdur)
			}
		}
	}
	return k, nil
}

// TestWebKeyCPU traces the bench's keys (TestWebBench: a Foreground
// delete, then 10 s and 10 ←) on two or more built sites in turns, a
// fresh page each, and prints for each key's phase the medians of the
// renderer main thread's CPU, which moves with the machine's load much
// less than the wall time: the page's handler, Go's input and flush, the
// wait for the animation frame (wall time; where in the display's frame
// the key fell), the changed rows' drawing (with the layouts forced in
// it, the rows rebuilt and their elements), up to the drawn mark, and the
// browser's style, layout and paint after it:
//
//	go test -count=1 -run '^TestWebKeyCPU$' -v ./webtest -webkeycpu=/tmp/before,/tmp/after -webkeyrounds=3 -weblang=en
//
// Tracing and the stamps slow the page: the figures compare sites and
// phases, they are not the page's own times (TestWebBench's).
func TestWebKeyCPU(t *testing.T) {
	if *webkeycpu == "" {
		t.Skip("compares built sites; run it with -webkeycpu=DIR,DIR")
	}
	dirs, srvs := serveSites(t, *webkeycpu)
	got := make([]map[string][]keyPhases, len(dirs)) // per site, per key
	for i := range got {
		got[i] = map[string][]keyPhases{}
	}
	for r := 0; r < *webKeyRounds; r++ {
		for i, s := range srvs {
			for key, ks := range traceKeys(t, s.URL) {
				got[i][key] = append(got[i][key], ks...)
			}
		}
	}
	fmt.Printf("the keys on the page in %s, %d fresh pages of each site\n\n", *webLang, *webKeyRounds)
	for _, key := range []string{"s", "←"} {
		fmt.Print(keyCPUTable(key, dirs, got))
		fmt.Println()
	}
	fmt.Printf("load average after: %s\n", loadavg())
}

// traceKeys loads url in a fresh page, deletes the starter's Deployment
// in the foreground and traces 10 s and 10 ← keys, sent and waited for as
// TestWebBench does, in one trace.
func traceKeys(t *testing.T, url string) map[string][]keyPhases {
	t.Helper()
	p, words := langPage(t, *webLang, 1280, 800)
	defer p.close()
	var mu sync.Mutex
	var events []keyEvent
	var done chan struct{}
	if err := chromedp.Listen(p.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			for _, v := range ev.Value {
				b, _ := json.Marshal(v)
				var e keyEvent
				if json.Unmarshal(b, &e) == nil {
					events = append(events, e)
				}
			}
		case *tracing.EventTracingComplete:
			if done != nil {
				close(done)
				done = nil
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.load(url)
	p.do(chromedp.Evaluate[chromedp.Void](`window.__shown = new Map();
		new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'keydown') window.__shown.set(e.startTime, e.duration); })
			.observe({ type: 'event', durationThreshold: 16 })`))
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("Deployment/web terminating")
	p.do(chromedp.Evaluate[chromedp.Void](keyStamps))
	time.Sleep(200 * time.Millisecond)
	first := p.stepNumber(words)
	// The keys are sent as TestWebBench sends them, in one trace.
	if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline"}}}); err != nil {
		t.Fatal(err)
	}
	type sent struct {
		name, expect  string
		built         struct{ Rows, Spans int }
		queued, bench float64
	}
	var keys []sent
	one := func(name, key, expect string) {
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__expect = %q; window.__stamped = false; window.__hitAt = null; window.__t.keyAt = undefined; window.__built = { rows: 0, spans: 0 }`, expect)))
		p.press(key)
		p.waitJS(`window.__stamped === true && window.__hitAt != null`, 5*time.Second)
		k := sent{name: name, expect: expect}
		k.built = eval[struct{ Rows, Spans int }](p, `window.__built`)
		k.queued = eval[float64](p, `window.__queued`)
		k.bench = eval[float64](p, `window.__hitAt - window.__t.keyAt`)
		// As the bench does: wait for the key's Event Timing entry.
		for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if eval[bool](p, `[...window.__shown].some(([at]) => Math.abs(at - window.__t.keyAt) < 1)`) {
				break
			}
		}
		keys = append(keys, k)
	}
	const n = 10
	for i := 1; i <= n; i++ {
		one("s", "s", fmt.Sprintf(words.step, first+i))
	}
	time.Sleep(200 * time.Millisecond)
	for i := 1; i <= n; i++ {
		one("←", "ArrowLeft", fmt.Sprintf(words.rewound, first+n-i, first+n))
	}
	c := make(chan struct{})
	mu.Lock()
	done = c
	mu.Unlock()
	if _, err := chromedp.Call(p.ctx, tracing.End, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	<-c
	mu.Lock()
	evs := slices.Clone(events)
	mu.Unlock()
	// Each key's events: from its keydown's dispatch to the next one's.
	var downs []float64
	for _, e := range evs {
		if e.Name == "EventDispatch" && e.Args.Data.Type == "keydown" {
			downs = append(downs, e.Ts)
		}
	}
	if len(downs) != len(keys) {
		t.Fatalf("%s: %d keys sent, %d keydowns in the trace", url, len(keys), len(downs))
	}
	out := map[string][]keyPhases{}
	for i, s := range keys {
		to := downs[i] + 1e6
		if i+1 < len(downs) {
			to = downs[i+1]
		}
		var mine []keyEvent
		for _, e := range evs {
			if e.Ts >= downs[i]-1 && e.Ts < to {
				mine = append(mine, e)
			}
		}
		k, err := keyTrace(mine)
		if err != nil {
			t.Fatalf("%s, key %s (%s): %v", url, s.name, s.expect, err)
		}
		k.built, k.spans, k.queued, k.bench = s.built.Rows, s.built.Spans, s.queued, s.bench
		out[s.name] = append(out[s.name], k)
	}
	p.checkExceptions()
	return out
}

// keyCPUTable is one key's table: a row per phase, a column per site,
// each cell the median (and for counts the range) of its keys.
func keyCPUTable(key string, dirs []string, got []map[string][]keyPhases) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| `%s`, medians of %d keys |", key, len(got[0][key]))
	for _, d := range dirs {
		fmt.Fprintf(&b, " %s |", d)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(dirs)) + "\n")
	rows := []struct {
		name  string
		f     func(keyPhases) float64
		count bool
	}{
		{"keydown's time stamp to its dispatch, wall", func(k keyPhases) float64 { return k.queued }, false},
		{"handler to goTermInput, CPU", func(k keyPhases) float64 { return k.handler }, false},
		{"goTermInput, CPU", func(k keyPhases) float64 { return k.goInput }, false},
		{"goFlush (xterm's parse within), CPU", func(k keyPhases) float64 { return k.goFlush }, false},
		{"the keydown's handling after goFlush, CPU", func(k keyPhases) float64 { return k.afterKey }, false},
		{"wait for the animation frame, wall", func(k keyPhases) float64 { return k.wait }, false},
		{"main thread's CPU in that wait", func(k keyPhases) float64 { return k.waitCPU }, false},
		{"animation frame to renderRows, CPU", func(k keyPhases) float64 { return k.toRows }, false},
		{"renderRows, CPU", func(k keyPhases) float64 { return k.rows }, false},
		{"layouts forced in renderRows", func(k keyPhases) float64 { return float64(k.rowsLay) }, true},
		{"their CPU", func(k keyPhases) float64 { return k.rowsLayMS }, false},
		{"rows built", func(k keyPhases) float64 { return float64(k.built) }, true},
		{"their elements (spans)", func(k keyPhases) float64 { return float64(k.spans) }, true},
		{"renderRows to drawn (the bench's screen read), CPU", func(k keyPhases) float64 { return k.toDrawn }, false},
		{"keydown's dispatch to drawn, wall", func(k keyPhases) float64 { return k.drawn }, false},
		{"the bench's drawn (from the keydown's time stamp), wall", func(k keyPhases) float64 { return k.bench }, false},
		{"style, layout, paint after it, CPU", func(k keyPhases) float64 { return k.paint }, false},
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s |", r.name)
		for i := range dirs {
			var v []float64
			for _, k := range got[i][key] {
				v = append(v, r.f(k))
			}
			if r.count {
				fmt.Fprintf(&b, " %.0f (%.0f-%.0f) |", median(v), slices.Min(v), slices.Max(v))
			} else {
				fmt.Fprintf(&b, " %.2f |", median(v))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestKeyTrace(t *testing.T) {
	stamp := func(m string, ts, tts float64) keyEvent {
		e := keyEvent{Name: "TimeStamp", Ph: "I", Tid: 1, Ts: ts, Tts: tts}
		e.Args.Data.Message = m
		return e
	}
	complete := func(name string, tid int, ts, dur, tts, tdur float64) keyEvent {
		return keyEvent{Name: name, Ph: "X", Tid: tid, Ts: ts, Dur: dur, Tts: tts, Tdur: tdur}
	}
	down := complete("EventDispatch", 1, 1000, 3000, 500, 2500)
	down.Args.Data.Type = "keydown"
	evs := []keyEvent{
		complete("FireAnimationFrame", 1, 500, 100, 400, 100), // before the key: not its frame
		down,
		stamp("k.goTermInput", 1100, 600),
		stamp("k.goTermInput.end", 2100, 1500),
		stamp("k.goFlush", 2100, 1500),
		stamp("k.goFlush.end", 3000, 2200),
		complete("Layout", 2, 3500, 100, 100, 100), // another thread
		complete("FireAnimationFrame", 1, 10000, 2000, 4000, 1500),
		stamp("k.rows", 10100, 4100),
		complete("Layout", 1, 10200, 300, 4200, 250), // forced in renderRows
		stamp("k.rows.end", 11500, 5200),
		stamp("k.drawn", 11800, 5400),
		complete("UpdateLayoutTree", 1, 12100, 500, 5600, 400),
		complete("Layout", 1, 12600, 1000, 6000, 900),
		complete("Paint", 1, 13600, 800, 6900, 700),
		complete("Paint", 1, 40000, 800, 9000, 700), // the display's next frame
		stamp("k.drawn", 41000, 9500),               // a second drawn stamp: the first counts
	}
	got, err := keyTrace(evs)
	if err != nil {
		t.Fatal(err)
	}
	want := keyPhases{handler: 0.1, goInput: 0.9, goFlush: 0.7, afterKey: 0.8, wait: 6, waitCPU: 1, toRows: 0.1, rows: 1.1,
		rowsLay: 1, rowsLayMS: 0.25, toDrawn: 0.2, drawn: 10.8, paint: 2}
	if got != want {
		t.Errorf("keyTrace = %+v, want %+v", got, want)
	}

	for _, drop := range []string{"k.rows.end", "k.goFlush"} {
		var without []keyEvent
		for _, e := range evs {
			if e.Args.Data.Message != drop {
				without = append(without, e)
			}
		}
		if _, err := keyTrace(without); err == nil || !strings.Contains(err.Error(), drop) {
			t.Errorf("a trace without %s: error %v, want one naming it", drop, err)
		}
	}
	if _, err := keyTrace(evs[2:]); err == nil || !strings.Contains(err.Error(), "keydown") {
		t.Errorf("a trace without the keydown: error %v, want one naming it", err)
	}
}
