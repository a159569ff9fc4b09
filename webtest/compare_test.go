package webtest

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
)

var (
	webcompare = flag.String("webcompare", "", "run TestWebCompare on these built sites, separated by commas (A,B,...)")
	webloads   = flag.Int("webloads", 11, "cold loads of each site in TestWebCompare")
)

// TestWebCompare times cold loads of two or more built sites taken in
// turns (A, B, A, B, ...), each in a fresh browser, and prints the median
// of each start-up mark per site. Taking them in turns makes a change
// comparable on a busy or noisy machine, where two bench runs are not:
//
//	go test -count=1 -run '^TestWebCompare$' -v ./webtest -webcompare=/tmp/before,/tmp/after -webloads=15
func TestWebCompare(t *testing.T) {
	if *webcompare == "" {
		t.Skip("compares built sites; run it with -webcompare=DIR,DIR")
	}
	dirs := strings.Split(*webcompare, ",")
	srvs := make([]*server, len(dirs))
	for i, d := range dirs {
		srvs[i] = serve(t, d)
	}
	marks := []string{"wasmLoaded", "goMain", "goModel", "goReady", "firstWrite", "firstFrame"}
	got := make([]map[string][]float64, len(dirs))
	for i := range got {
		got[i] = map[string][]float64{}
	}
	for n := 0; n < *webloads; n++ {
		for i, s := range srvs {
			p := newPage(t, 1280, 800)
			p.load(s.URL)
			for _, m := range marks {
				got[i][m] = append(got[i][m], eval[float64](p, `window.__t.`+m+` ?? -1`))
			}
			p.checkExceptions()
			p.close()
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| navigation → … (ms, median of %d) |", *webloads)
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
	fmt.Fprintf(&b, "load average after: %s\n", loadavg())
	fmt.Print(b.String())
}
