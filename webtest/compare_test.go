package webtest

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

var (
	webcompare = flag.String("webcompare", "", "run TestWebCompare on these built sites, separated by commas (A,B,...)")
	webloads   = flag.Int("webloads", 11, "cold loads of each site in TestWebCompare")
	webrevisit = flag.Bool("webrevisit", false, "TestWebCompare also times a second visit after each first one is used")
)

// TestWebCompare times cold loads of two or more built sites taken in
// turns (A, B, A, B, ...), each in a fresh browser, and prints the median
// of each start-up mark per site. Taking them in turns makes a change
// comparable on a busy or noisy machine, where two bench runs are not:
//
//	go test -count=1 -run '^TestWebCompare$' -v ./webtest -webcompare=/tmp/before,/tmp/after -webloads=15
//
// With -webrevisit, each first visit is then used (useUntilKept) until
// the browser has kept its compiled code, and the second visit (the
// service worker's) is timed too.
func TestWebCompare(t *testing.T) {
	if *webcompare == "" {
		t.Skip("compares built sites; run it with -webcompare=DIR,DIR")
	}
	dirs, srvs := serveSites(t, *webcompare)
	marks := startMarks
	got := make([]map[string][]float64, len(dirs))
	again := make([]map[string][]float64, len(dirs))
	deserialized := make([]int, len(dirs))
	for i := range got {
		got[i] = map[string][]float64{}
		again[i] = map[string][]float64{}
	}
	for n := 0; n < *webloads; n++ {
		for i, s := range srvs {
			p := newPage(t, 1280, 800)
			var tr *tracer
			if *webrevisit {
				tr = traceEvents(t, p)
			}
			p.load(s.URL)
			for _, m := range marks {
				got[i][m] = append(got[i][m], eval[float64](p, `window.__t.`+m+` ?? -1`))
			}
			if *webrevisit {
				// Traced from the first frame on (the code is kept
				// later).
				tr.start()
				useUntilKept(t, p, tr)
				p.do(chromedp.Navigate("about:blank"))
				tr.start()
				p.load(s.URL)
				if tr.end()["wasm.Deserialize"] {
					deserialized[i]++
				}
				for _, m := range marks {
					again[i][m] = append(again[i][m], eval[float64](p, `window.__t.`+m+` ?? -1`))
				}
			}
			p.checkExceptions()
			p.close()
		}
	}
	fmt.Print(compareTable("first visit", dirs, marks, got))
	if *webrevisit {
		fmt.Print(compareTable("second visit", dirs, marks, again))
		fmt.Printf("second visits that started from compiled code (wasm.Deserialize):")
		for i := range dirs {
			fmt.Printf(" %d of %d;", deserialized[i], *webloads)
		}
		fmt.Println()
	}
	fmt.Printf("load average after: %s\n", loadavg())
}

// startMarks are the page's marks of its start (window.__t), in order.
var startMarks = []string{"wasmLoaded", "goMain", "goModel", "goReady", "firstWrite", "firstFrame"}

// serveSites serves each of a comma-separated list of built sites.
func serveSites(t *testing.T, list string) ([]string, []*server) {
	t.Helper()
	dirs := strings.Split(list, ",")
	srvs := make([]*server, len(dirs))
	for i, d := range dirs {
		srvs[i] = serve(t, d)
	}
	return dirs, srvs
}

// compareTable is TestWebCompare's table of one visit's marks, a column
// for each site.
func compareTable(visit string, dirs, marks []string, got []map[string][]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| %s: navigation → … (ms, median of %d) |", visit, len(got[0][marks[0]]))
	for _, d := range dirs {
		fmt.Fprintf(&b, " %s |", d)
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(dirs)) + "\n")
	for _, m := range marks {
		fmt.Fprintf(&b, "| %s |", m)
		for i := range dirs {
			v := got[i][m]
			fmt.Fprintf(&b, " %.0f (%.0f-%.0f) |", median(v), slices.Min(v), slices.Max(v))
		}
		b.WriteString("\n")
	}
	// The phases, each the median of its own per-load durations: less
	// noisy than differences of medians.
	for k := 1; k < len(marks); k++ {
		fmt.Fprintf(&b, "| %s → %s |", marks[k-1], marks[k])
		for i := range dirs {
			var d []float64
			for n := range got[i][marks[k]] {
				d = append(d, got[i][marks[k]][n]-got[i][marks[k-1]][n])
			}
			fmt.Fprintf(&b, " %.0f |", median(d))
		}
		b.WriteString("\n")
	}
	return b.String()
}
