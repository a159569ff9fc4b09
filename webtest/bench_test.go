package webtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestShimMatchesPinnedVersion fails when go.mod moves Bubble Tea to a
// version the browser build's shim was not written for (build.sh refuses
// to build then too; this says so in every test run, with no browser).
func TestShimMatchesPinnedVersion(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	pinned, err := os.ReadFile("../build/wasm-shim/PINNED")
	if err != nil {
		t.Fatal(err)
	}
	version := func(text []byte) string {
		m := regexp.MustCompile(`(?m)^\s*charm\.land/bubbletea/v2 (v\S+)`).FindSubmatch(text)
		if m == nil {
			return ""
		}
		return string(m[1])
	}
	have, want := version(mod), version(pinned)
	if have == "" || want == "" {
		t.Fatalf("cannot read the Bubble Tea version: go.mod has %q, build/wasm-shim/PINNED has %q", have, want)
	}
	if have != want {
		t.Fatalf("go.mod pins charm.land/bubbletea/v2 %s, but the browser build's shim (build/wasm-shim/bubbletea_js.go) was written for %s: "+
			"check whether %s compiles for GOOS=js on its own (then drop the shim), or update the shim and build/wasm-shim/PINNED", have, want, have)
	}
}

// TestWebBench measures the page for docs/BENCHMARKS.md (make web-bench):
// what it downloads (raw and gzip level 9, as Go's compress/gzip makes
// it: GNU gzip -9 is about 1% smaller), the time from navigation to the
// first frame in a fresh browser, and key-to-render latency.
func TestWebBench(t *testing.T) {
	if !*webbench {
		t.Skip("measures the page; run it with -webbench (make web-bench)")
	}
	dir := site(t)
	srv := serve(t, dir)

	// The machine's load average, before and after: other work on it
	// stretches every time measured here.
	loadBefore := loadavg()

	// Cold loads, each in a fresh browser (no cache, no service worker).
	var first, wasm, goMain, model []float64
	var paths []string
	for i := 0; i < 9; i++ {
		p := newPage(t, 1280, 800)
		p.load(srv.URL)
		first = append(first, eval[float64](p, `window.__t.firstFrame`))
		wasm = append(wasm, eval[float64](p, `window.__t.wasmLoaded`))
		goMain = append(goMain, eval[float64](p, `window.__t.goMain`))
		model = append(model, eval[float64](p, `window.__t.goModel`))
		if i == 0 {
			srv.mu.Lock()
			for _, s := range srv.paths {
				if s == "/" {
					s = "/index.html"
				}
				if !slices.Contains(paths, s) {
					paths = append(paths, s)
				}
			}
			srv.mu.Unlock()
		}
		p.checkExceptions()
		p.close() // an open page's renderer ticks on and would slow the next load
	}

	var sizes strings.Builder
	var rawTotal, gzTotal, wasmGz int
	fmt.Fprintf(&sizes, "| file | bytes | gzip level 9 |\n|---|---:|---:|\n")
	for _, path := range paths {
		name := strings.TrimPrefix(path, "/")
		if name == "" {
			name = "index.html"
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue // a 404 (none expected)
		}
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		rawTotal += len(b)
		gzTotal += z.Len()
		if name == "main.wasm" {
			wasmGz = z.Len()
		}
		fmt.Fprintf(&sizes, "| %s | %d | %d |\n", name, len(b), z.Len())
	}
	fmt.Fprintf(&sizes, "| **total** | %d | %d |\n", rawTotal, gzTotal)

	// Key-to-render: from the keydown reaching the page to the frame that
	// shows its effect (xterm's onRender with the expected text on screen).
	p := newPage(t, 1280, 800)
	p.load(srv.URL)
	var echo, move []float64
	measure := func(key, expect string) float64 {
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__expect = %q; window.__hitAt = null; window.__t.keyAt = undefined`, expect)))
		p.press(key)
		p.waitJS(`window.__hitAt != null`, 5*time.Second)
		return eval[float64](p, `window.__hitAt - window.__t.keyAt`)
	}
	p.press(":")
	p.waitText(": ")
	typed := ""
	for _, r := range "create configmap benchmark-owner-abcdefgh" {
		typed += string(r)
		echo = append(echo, measure(string(r), ": "+typed))
	}
	p.press("Escape")
	time.Sleep(100 * time.Millisecond)
	for i := 0; i < 15; i++ {
		move = append(move, measure("ArrowDown", "Inspector · ReplicaSet/"))
		move = append(move, measure("ArrowUp", "Inspector · Deployment/web"))
	}
	p.checkExceptions()

	out := fmt.Sprintf("Downloaded by a first visit (%d files):\n\n%s\n"+
		"main.wasm gzip level 9: %.2f MB (target ≤ 2.0 MB)\n\n"+
		"| measure (ms) | median | min | max | runs |\n|---|---:|---:|---:|---:|\n"+
		"| navigation → main.wasm compiled | %.0f | %.0f | %.0f | %d |\n"+
		"| navigation → Go's main started (runtime and package init done) | %.0f | %.0f | %.0f | %d |\n"+
		"| navigation → playground model ready (Go started, starter world built) | %.0f | %.0f | %.0f | %d |\n"+
		"| navigation → first frame (target ≤ 1000) | %.0f | %.0f | %.0f | %d |\n"+
		"| key → render, typing in the command bar (target median ≤ 20) | %.1f | %.1f | %.1f | %d |\n"+
		"| key → render, ↑↓ moving the selection (inspector redrawn) | %.1f | %.1f | %.1f | %d |\n"+
		"\nkey → render p90: typing %.1f ms, moving %.1f ms\n"+
		"load average (1, 5, 15 min) before: %s; after: %s\n",
		len(paths), sizes.String(), float64(wasmGz)/1e6,
		median(wasm), slices.Min(wasm), slices.Max(wasm), len(wasm),
		median(goMain), slices.Min(goMain), slices.Max(goMain), len(goMain),
		median(model), slices.Min(model), slices.Max(model), len(model),
		median(first), slices.Min(first), slices.Max(first), len(first),
		median(echo), slices.Min(echo), slices.Max(echo), len(echo),
		median(move), slices.Min(move), slices.Max(move), len(move),
		percentile(echo, 0.9), percentile(move, 0.9), loadBefore, loadavg())
	fmt.Print(out)
}

func median(v []float64) float64 { return percentile(v, 0.5) }

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
