package webtest

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/gcplay/gcplay/internal/website"
)

// TestShimMatchesPinnedVersion fails when go.mod moves a module the
// browser build shims or edits (Bubble Tea, x/ansi, colorprofile,
// xo/terminfo) to a version build.sh's changes were not written for
// (build.sh refuses to build then too; this says so in every test run,
// with no browser).
func TestShimMatchesPinnedVersion(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	pinned, err := os.ReadFile("../build/wasm-shim/PINNED")
	if err != nil {
		t.Fatal(err)
	}
	version := func(text []byte, path string) string {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(path) + ` (v\S+)`).FindSubmatch(text)
		if m == nil {
			return ""
		}
		return string(m[1])
	}
	for _, path := range []string{"charm.land/bubbletea/v2", "github.com/charmbracelet/x/ansi", "github.com/charmbracelet/colorprofile", "github.com/xo/terminfo"} {
		have, want := version(mod, path), version(pinned, path)
		if have == "" || want == "" {
			t.Fatalf("cannot read %s's version: go.mod has %q, build/wasm-shim/PINNED has %q", path, have, want)
		}
		if have != want {
			t.Errorf("go.mod pins %s %s, but the browser build's shim or edit for it (build/wasm-shim/build.sh) was written for %s: "+
				"check it against %s (for Bubble Tea: whether it compiles for GOOS=js on its own), then change build/wasm-shim/PINNED", path, have, want, have)
		}
	}
}

// TestBrowserBuildLeavesOut checks that the page's module does not link
// what build.sh's edits leave out of the libraries: the kitty image
// encoder's image/png and compress/zlib, colorprofile's os/exec, and
// terminfo's loader (os/user). It reads the go.work build.sh wrote for the
// site the other tests use.
func TestBrowserBuildLeavesOut(t *testing.T) {
	site(t)
	work, err := filepath.Abs("../build/wasm/go.work")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(work); err != nil {
		t.Fatalf("%v: build the page with make web first", err)
	}
	list := func(args ...string) []string {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "GOWORK="+work, "GOOS=js", "GOARCH=wasm", "GOFLAGS=-buildvcs=false")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
		}
		return strings.Fields(strings.Trim(string(out), "[]\n"))
	}
	deps := list("-deps", "./wasm")
	if !slices.Contains(deps, "github.com/charmbracelet/x/ansi/kitty") || !slices.Contains(deps, "github.com/charmbracelet/colorprofile") {
		t.Fatalf("the page no longer links kitty or colorprofile: this test checks nothing, drop the edits from build.sh\n%s", deps)
	}
	// regexp: gcplay's expressions are matched by internal/lazyre, yaml's
	// two by build.sh's edit (build/wasm-shim/yaml/floats.go).
	for _, p := range []string{"image/png", "compress/zlib", "os/user", "regexp", "regexp/syntax"} {
		if slices.Contains(deps, p) {
			t.Errorf("the browser build links %s", p)
		}
	}
	// Bubble Tea's ExecProcess also imports os/exec, but the page never
	// calls it and the linker drops it; colorprofile's probe is what kept it.
	if imports := list("-f", "{{.Imports}}", "github.com/charmbracelet/colorprofile"); slices.Contains(imports, "os/exec") {
		t.Errorf("the browser build's colorprofile imports os/exec: %s", imports)
	}
}

// TestWebBench measures the page for docs/BENCHMARKS.md (make web-bench),
// served as gcplay web serves it (internal/website: brotli copies):
// what a first visit fetches, the time from navigation to the first
// frame in a fresh browser (cold cache, no service worker) over a link
// throttled by Chromium's network emulation to 20 Mbit/s and 40 ms, over
// a link of that rate and latency made by the test's server (paced: the
// emulation gives one download about half its rate, link_test.go), and
// over loopback (to xterm's drawing of it, and to the next animation
// frame, by which the browser has painted it), with main.wasm's last byte
// and the rate its body came at on both slow links, and the rate it comes
// at over the emulation when a bare page fetches it alone; and
// key-to-render for s and ← on the starter world, on the English page or
// (-weblang=zh) the Chinese one.
func TestWebBench(t *testing.T) {
	if !*webbench {
		t.Skip("measures the page; run it with -webbench (make web-bench)")
	}
	dir := site(t)
	wasm, err := website.WasmName(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := serveThrough(t, dir, func(h http.Handler) http.Handler { return withBare(h, wasm) })
	slow := serveThrough(t, dir, func(h http.Handler) http.Handler {
		return paced(h, linkBytesPerSecond, linkLatencyMs*time.Millisecond)
	})
	loadBefore := loadavg()

	// Cold loads, each in a fresh browser.
	type load struct{ compiled, first, shown, wasmEnd, wasmRate float64 }
	emulate := func(p *page) {
		// Chromium's network emulation, in the tab before it navigates.
		if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(p.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: linkLatencyMs, DownloadThroughput: linkBytesPerSecond, UploadThroughput: linkBytesPerSecond}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	// body reads the Resource Timing of the first response whose path ends
	// in name: its last byte (ms after navigation) and the rate its body
	// came at as sent (MB/s, from its first byte to its last).
	body := func(p *page, name string) (end, rate float64) {
		type timing struct{ Start, End, Size float64 }
		e := eval[timing](p, fmt.Sprintf(`(() => {
			const e = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname.endsWith(%q));
			return e ? { Start: e.responseStart, End: e.responseEnd, Size: e.encodedBodySize } : { Start: 0, End: 0, Size: 0 };
		})()`, "/"+name))
		if e.End <= e.Start {
			return e.End, 0
		}
		return e.End, e.Size / (e.End - e.Start) / 1000
	}
	cold := func(throttle bool, url string) load {
		p := newPage(t, 1280, 800)
		defer p.close() // an open page's renderer ticks on and would slow the next load
		if throttle {
			emulate(p)
		}
		p.load(url)
		p.waitJS(`window.__t.firstFrameShown !== undefined`, 10*time.Second)
		l := load{compiled: eval[float64](p, `window.__t.wasmLoaded`), first: eval[float64](p, `window.__t.firstFrame`), shown: eval[float64](p, `window.__t.firstFrameShown`)}
		l.wasmEnd, l.wasmRate = body(p, wasm)
		p.checkExceptions()
		return l
	}
	// The control: main.wasm fetched alone by a bare page over the
	// emulation, as sent to the page.
	lone := func(url string) load {
		p := newPage(t, 1280, 800)
		defer p.close()
		emulate(p)
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url))
		p.waitJS(`window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
		var l load
		l.wasmEnd, l.wasmRate = body(p, wasm)
		return l
	}
	var throttled, pacedLoads, loopback, alone []load
	var sent []string
	if *webCold {
		// In turns, so that the machine's load falls on all of them alike.
		for i := 0; i < 5; i++ {
			throttled = append(throttled, cold(true, srv.URL))
			pacedLoads = append(pacedLoads, cold(false, slow.URL))
			alone = append(alone, lone(srv.URL+"bench-bare.html"))
		}
	}
	for i := 0; i < 7 && *webCold; i++ {
		loopback = append(loopback, cold(false, srv.URL))
	}
	// What a first visit fetched, as sent (Resource Timing's encoded
	// sizes), from one more loopback load.
	if *webCold {
		p := newPage(t, 1280, 800)
		p.load(srv.URL)
		type entry struct {
			Name             string
			Encoded, Decoded int64
		}
		entries := eval[[]entry](p, `[{ Name: location.pathname, Encoded: performance.getEntriesByType('navigation')[0].encodedBodySize, Decoded: performance.getEntriesByType('navigation')[0].decodedBodySize }]
			.concat(performance.getEntriesByType('resource').map((e) => ({ Name: new URL(e.name).pathname, Encoded: e.encodedBodySize, Decoded: e.decodedBodySize })))`)
		var enc, dec int64
		for _, e := range entries {
			name := strings.TrimPrefix(e.Name, "/")
			if name == "" {
				name = "index.html"
			}
			sent = append(sent, fmt.Sprintf("| %s | %d | %d |", name, e.Decoded, e.Encoded))
			enc += e.Encoded
			dec += e.Decoded
		}
		sent = append(sent, fmt.Sprintf("| **total** | %d | %d |", dec, enc))
		p.close()
	}

	// Key → render: from the keydown reaching the browser (its event's time
	// stamp) to the frame that shows its effect, two ways: drawn, when
	// xterm.js has put the frame into the page (its onRender, with the
	// expected text in the buffer), and on screen, when the browser
	// presented the frame that followed the key's handling (the Event
	// Timing API's duration for the keydown: the key's handler calls Go,
	// which writes the frame, and xterm draws it in the next animation
	// frame; the browser rounds it to 8 ms and reports only keys of 16 ms
	// or more, so a key without an entry counts as 16).
	//
	// Go's part of a key: the time spent in the page's two calls into Go for
	// it, goTermInput (the key decoded, the model updated, its view taken)
	// and goFlush (the renderer's frame, written to xterm.js, which parses it
	// at once); wrapped here, so any site's page is measured the same way.
	var step, back, stepShown, backShown, stepGo, backGo, idleGC []float64
	for r := 0; r < *webKeyRounds; r++ {
		p, words := langPage(t, *webLang, 1280, 800)
		p.load(srv.URL)
		p.do(chromedp.Evaluate[chromedp.Void](`window.__shown = new Map();
		new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'keydown') window.__shown.set(e.startTime, e.duration); })
			.observe({ type: 'event', durationThreshold: 16 })`))
		p.do(chromedp.Evaluate[chromedp.Void](`for (const n of ['goTermInput', 'goFlush']) {
			const f = window[n];
			window[n] = function (...a) {
				const s = performance.now();
				try { return f.apply(this, a); } finally { window.__inGo += performance.now() - s; }
			};
		}`))
		measure := func(key, expect string) (drawn, shown, inGo float64) {
			p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__expect = %q; window.__hitAt = null; window.__t.keyAt = undefined; window.__inGo = 0`, expect)))
			p.press(key)
			p.waitJS(`window.__hitAt != null`, 5*time.Second)
			drawn = eval[float64](p, `window.__hitAt - window.__t.keyAt`)
			inGo = eval[float64](p, `window.__inGo`)
			// Event Timing entries come once the frame is presented.
			shown = 16
			for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if d := eval[float64](p, `([...window.__shown].find(([at]) => Math.abs(at - window.__t.keyAt) < 1) || [0, 0])[1]`); d > 0 {
					shown = d
					break
				}
			}
			return drawn, shown, inGo
		}
		p.command("delete deploy/web --cascade=foreground")
		p.waitText("Deployment/web terminating")
		time.Sleep(200 * time.Millisecond)
		p.do(chromedp.Evaluate[chromedp.Void](`window.__t.idleGC = []`)) // the page's collections while idle, from here on
		first := p.stepNumber(words)
		const n = 10
		for i := 1; i <= n; i++ {
			d, s, g := measure("s", fmt.Sprintf(words.step, first+i))
			step, stepShown, stepGo = append(step, d), append(stepShown, s), append(stepGo, g)
		}
		time.Sleep(200 * time.Millisecond)
		for i := 1; i <= n; i++ {
			d, s, g := measure("ArrowLeft", fmt.Sprintf(words.rewound, first+n-i, first+n))
			back, backShown, backGo = append(back, d), append(backShown, s), append(backGo, g)
		}
		idleGC = append(idleGC, eval[[]float64](p, `window.__t.idleGC || []`)...)
		p.checkExceptions()
		p.close()
	}
	idleRow := "none"
	if len(idleGC) > 0 {
		idleRow = fmt.Sprintf("%d, median %.1f ms, max %.1f ms", len(idleGC), median(idleGC), slices.Max(idleGC))
	}

	col := func(l []load, f func(load) float64) []float64 {
		var v []float64
		for _, x := range l {
			v = append(v, f(x))
		}
		return v
	}
	// statRow is a cold loads' row: median, min and max with prec
	// decimals.
	statRow := func(prec int, name string, v []float64) string {
		if len(v) == 0 {
			return fmt.Sprintf("| %s | not measured (-webcold=false) | | | 0 |\n", name)
		}
		return fmt.Sprintf("| %s | %.*f | %.*f | %.*f | %d |\n", name, prec, median(v), prec, slices.Min(v), prec, slices.Max(v), len(v))
	}
	row := func(name string, v []float64) string { return statRow(0, name, v) }     // ms
	rateRow := func(name string, v []float64) string { return statRow(2, name, v) } // MB/s
	keyRow := func(name string, v []float64) string {
		return fmt.Sprintf("| %s | %.1f | %.1f | %.1f | %d |\n", name, median(v), percentile(v, 0.9), slices.Max(v), len(v))
	}
	compiled := func(l load) float64 { return l.compiled }
	firstFrame := func(l load) float64 { return l.first }
	firstShown := func(l load) float64 { return l.shown }
	wasmEnd := func(l load) float64 { return l.wasmEnd }
	wasmRate := func(l load) float64 { return l.wasmRate }
	out := fmt.Sprintf("main.wasm (%s): %d bytes, brotli %d (served by gcplay web; goal ≤ 1,600,000), gzip %d\n\n"+
		"What a first visit fetched (Resource Timing):\n\n| file | bytes | as sent |\n|---|---:|---:|\n%s\n\n"+
		"| navigation → … (ms, cold, fresh browser) | median | min | max | loads |\n|---|---:|---:|---:|---:|\n%s%s%s%s%s%s\n"+
		"| key → render (ms) | median | p90 | max | keys |\n|---|---:|---:|---:|---:|\n%s%s\n"+
		"collections while the page was idle during the keys (window.__t.idleGC): %s\n\n"+
		"the keys on the page in %s (-weblang)\n\n"+
		"load average (1, 5, 15 min) before: %s; after: %s\n",
		wasm, sizeOf(dir, wasm), sizeOf(dir, wasm+".br"), sizeOf(dir, wasm+".gz"), strings.Join(sent, "\n"),
		row("main.wasm's last byte, 20 Mbit/s 40 ms", col(throttled, wasmEnd))+
			rateRow("main.wasm's body as sent, MB/s, 20 Mbit/s 40 ms (the link's rate: 2.5)", col(throttled, wasmRate))+
			rateRow("main.wasm fetched alone by a bare page, its body as sent, MB/s, 20 Mbit/s 40 ms", col(alone, wasmRate))+
			row("main.wasm compiled, 20 Mbit/s 40 ms", col(throttled, compiled)),
		row("first frame, 20 Mbit/s 40 ms (goal ≤ 1000)", col(throttled, firstFrame))+
			row("first frame on screen (by the next animation frame), 20 Mbit/s 40 ms", col(throttled, firstShown)),
		row("main.wasm's last byte, paced link of 20 Mbit/s 40 ms", col(pacedLoads, wasmEnd))+
			rateRow("main.wasm's body as sent, MB/s, paced link", col(pacedLoads, wasmRate))+
			row("main.wasm compiled, paced link", col(pacedLoads, compiled)),
		row("first frame, paced link of 20 Mbit/s 40 ms", col(pacedLoads, firstFrame))+
			row("first frame on screen (by the next animation frame), paced link", col(pacedLoads, firstShown)),
		row("main.wasm compiled, loopback", col(loopback, compiled)),
		row("first frame, loopback (goal ≤ 600)", col(loopback, firstFrame))+
			row("first frame on screen (by the next animation frame), loopback", col(loopback, firstShown)),
		keyRow("s, a step of a Foreground delete, drawn (goal median ≤ 16)", step)+
			keyRow("s, on screen (presented; 8 ms steps)", stepShown)+
			keyRow("s, in Go (goTermInput + goFlush, xterm's parse within)", stepGo),
		keyRow("←, a step back, drawn (goal median ≤ 16)", back)+
			keyRow("←, on screen (presented; 8 ms steps)", backShown)+
			keyRow("←, in Go (goTermInput + goFlush, xterm's parse within)", backGo),
		idleRow, map[string]string{"en": "English", "zh": "Chinese"}[*webLang], loadBefore, loadavg())
	fmt.Print(out)
}

func median(v []float64) float64 { return percentile(v, 0.5) }

// sizeOf is the size of a file of the site, or 0.
func sizeOf(dir, name string) int64 {
	st, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		return 0
	}
	return st.Size()
}

// loadavg returns the first three fields of /proc/loadavg, or "unknown".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

func percentile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}
