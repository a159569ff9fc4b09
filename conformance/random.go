package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gcplay/gcplay/internal/randworld"
)

// randomOptions tune -random.
type randomOptions struct {
	n, first uint64
	// runs is how many times a world that disagrees is run in all, to
	// tell a world whose real outcome varies from a disagreement.
	runs int
	// budget is the most real-cluster runs minimising one disagreement
	// may take.
	budget int
	// out is where disagreements and undecided worlds are written.
	out string
}

// randomResult is what became of one generated world.
type randomResult struct {
	seed    uint64
	verdict string // agree, disagree, undecided, error
	runs    []*FileReport
	// minimal is the smallest world found that still disagrees, with its
	// report.
	minimal     []byte
	minimalRep  *FileReport
	size, msize int
}

// runRandom generates worlds first..first+n-1 (internal/randworld), runs
// each on gcplay and on a fresh real cluster, and reports every
// disagreement with both outcomes side by side and a minimised world.
// A world that disagrees is run again; when its real outcome changes
// from run to run it is undecided: kept apart, not counted as a failure.
func runRandom(ctx context.Context, stdout io.Writer, ro randomOptions, opts options, log io.Writer, known []*knownEntry) int {
	fmt.Fprintf(stdout, "random worlds: seeds %d to %d; a world that disagrees is run %d times in all; disagreements and undecided worlds are written under %s\n",
		ro.first, ro.first+ro.n-1, ro.runs, ro.out)
	total := time.Now()
	var results []*randomResult
	for seed := ro.first; seed < ro.first+ro.n && ctx.Err() == nil; seed++ {
		r := &randomResult{seed: seed}
		results = append(results, r)
		w, data, err := randworld.Generate(seed)
		if err != nil {
			// gcplay itself failed on the world: a bug of gcplay, no
			// cluster needed to see it.
			r.verdict = "error"
			fmt.Fprintf(stdout, "\n=== random-%d\n--- ERROR random-%d: gcplay: %v\n", seed, seed, err)
			continue
		}
		r.size = w.Size()
		rep := runJob(ctx, job{Name: w.Name, Data: data}, opts, log, known)
		r.runs = append(r.runs, rep)
		if rep.Verdict == VerdictError && ctx.Err() == nil {
			rep = runJob(ctx, job{Name: w.Name, Data: data}, opts, log, known) // a cluster that failed to start
			r.runs = append(r.runs, rep)
		}
		switch rep.Verdict {
		case VerdictAgree, VerdictKnown, VerdictNotObservable:
			r.verdict = "agree"
			fmt.Fprintf(stdout, "--- AGREE %s (%d checks) in %v\n", w.Name, rep.Counts[Agree], (rep.Start + rep.Run + rep.Stop).Round(100*time.Millisecond))
			continue
		case VerdictError:
			r.verdict = "error"
			printReport(stdout, rep, false)
			continue
		}
		for len(r.runs) < ro.runs && ctx.Err() == nil {
			r.runs = append(r.runs, runJob(ctx, job{Name: w.Name, Data: data}, opts, log, known))
		}
		if varies(r.runs) {
			r.verdict = "undecided"
			fmt.Fprintf(stdout, "\n~~~ UNDECIDED %s: the real outcome changed between %d runs (kept under %s/undecided):\n", w.Name, len(r.runs), ro.out)
			for i, run := range r.runs {
				fmt.Fprintf(stdout, "run %d:", i+1)
				printReport(stdout, run, false)
			}
			writeWorld(stdout, filepath.Join(ro.out, "undecided", w.Name+".yaml"), data, r.runs)
			continue
		}
		r.verdict = "disagree"
		fmt.Fprintf(stdout, "\n!!! DISAGREE %s, the same way on %d runs: expected is gcplay's outcome, real the cluster's:", w.Name, len(r.runs))
		printReport(stdout, rep, false)
		writeWorld(stdout, filepath.Join(ro.out, "disagree", w.Name+".yaml"), data, r.runs[:1])
		r.minimal, r.minimalRep, r.msize = minimise(ctx, w, ro.budget, opts, log, known)
		if r.minimalRep != nil {
			fmt.Fprintf(stdout, "\n!!! %s minimised (size %d to %d), still disagreeing:\n%s", w.Name, r.size, r.msize, r.minimal)
			printReport(stdout, r.minimalRep, false)
			writeWorld(stdout, filepath.Join(ro.out, "disagree", w.Name+"-min.yaml"), r.minimal, []*FileReport{r.minimalRep})
		}
	}
	return summarizeRandom(stdout, results, time.Since(total))
}

// signature is a run's real outcome: every check with what the cluster
// showed.
func signature(r *FileReport) string {
	var b strings.Builder
	for _, s := range r.Steps {
		fmt.Fprintf(&b, "%s %t\n", s.Label, s.Failed)
		for _, c := range s.Checks {
			fmt.Fprintf(&b, "  %d %s %s %s %s\n", c.Line, c.Key, c.Subject, c.Status, c.Real)
		}
	}
	return b.String()
}

// varies reports whether the runs' real outcomes differ: one agreed, or
// two disagreed differently.
func varies(runs []*FileReport) bool {
	for _, r := range runs[1:] {
		if !failedVerdict(r.Verdict) || signature(r) != signature(runs[0]) {
			return true
		}
	}
	return !failedVerdict(runs[0].Verdict)
}

// minimise takes simplifications of w (randworld's Smaller) while the
// result, with its expectations made again by gcplay, still disagrees on
// a real cluster, within budget runs.
func minimise(ctx context.Context, w *randworld.World, budget int, opts options, log io.Writer, known []*knownEntry) ([]byte, *FileReport, int) {
	var best []byte
	var bestRep *FileReport
	size := w.Size()
	used := 0
	for progress := true; progress && used < budget && ctx.Err() == nil; {
		progress = false
		for _, c := range w.Smaller() {
			if used >= budget || ctx.Err() != nil {
				break
			}
			data, err := randworld.File(c)
			if err != nil {
				continue // gcplay refuses the smaller world (an action fails now)
			}
			used++
			rep := runJob(ctx, job{Name: c.Name + "-min", Data: data}, opts, log, known)
			if rep.Verdict == VerdictDisagree {
				w, best, bestRep, size, progress = c, data, rep, c.Size(), true
				break
			}
		}
	}
	return best, bestRep, size
}

// writeWorld keeps a world's file, with the real outcomes as comments.
func writeWorld(stdout io.Writer, path string, data []byte, runs []*FileReport) {
	var b strings.Builder
	for i, r := range runs {
		fmt.Fprintf(&b, "# real run %d: %s\n", i+1, r.Verdict)
		for _, s := range r.Steps {
			for _, c := range s.Checks {
				if c.Status == Disagree {
					fmt.Fprintf(&b, "#   line %d %s %s: gcplay %s; real %s\n", c.Line, c.Key, c.Subject, c.Expected, c.Real)
				}
			}
		}
	}
	b.Write(data)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
		err = os.WriteFile(path, []byte(b.String()), 0o644)
		if err == nil {
			return
		}
	}
	fmt.Fprintf(stdout, "note: could not write %s\n", path)
}

func summarizeRandom(w io.Writer, results []*randomResult, total time.Duration) int {
	k8s, _ := versions()
	fmt.Fprintf(w, "\n===== random worlds: summary, Kubernetes %s =====\n", k8s)
	count := map[string][]uint64{}
	clusterRuns := 0
	for _, r := range results {
		count[r.verdict] = append(count[r.verdict], r.seed)
		clusterRuns += len(r.runs)
	}
	verdicts := []string{"agree", "disagree", "undecided", "error"}
	for _, v := range verdicts[1:] {
		if len(count[v]) > 0 {
			seeds := count[v]
			sort.Slice(seeds, func(i, j int) bool { return seeds[i] < seeds[j] })
			var s []string
			for _, x := range seeds {
				s = append(s, fmt.Sprint(x))
			}
			fmt.Fprintf(w, "%-10s seeds %s\n", v, strings.Join(s, " "))
		}
	}
	fmt.Fprintf(w, "time: %v for %d worlds (%d cluster runs)\n", total.Round(time.Second), len(results), clusterRuns)
	fmt.Fprintf(w, "conformance-random: %d worlds, %d agree, %d disagree, %d undecided, %d error\n",
		len(results), len(count["agree"]), len(count["disagree"]), len(count["undecided"]), len(count["error"]))
	if len(count["disagree"])+len(count["error"]) > 0 {
		return 1
	}
	return 0
}
