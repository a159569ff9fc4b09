package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

func printReport(w io.Writer, r *FileReport, verbose bool) {
	title := ""
	if r.Title != "" {
		title = " (" + r.Title + ")"
	}
	fmt.Fprintf(w, "\n=== %s%s\n", r.Name, title)
	if r.Sim != "" {
		fmt.Fprintf(w, "  gcplay: %s\n", r.Sim)
	}
	if r.Verdict == VerdictExcluded || (r.Verdict == VerdictNotObservable && len(r.Steps) == 0) {
		fmt.Fprintf(w, "--- %s %s: %s\n", r.Verdict, r.Name, r.Error)
		return
	}
	for _, s := range r.Steps {
		mark := ""
		if s.Failed {
			mark = "  <-- went another way"
		}
		fmt.Fprintf(w, "  %s: %s: %s%s\n", s.Label, s.Summary, s.Outcome, mark)
		for _, c := range s.Checks {
			if !verbose && c.Status == Agree && c.Reason == "" {
				continue
			}
			printCheck(w, c)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if r.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", r.Error)
	}
	fmt.Fprintf(w, "--- %s %s (%s) cluster start %v, run %v, stop %v\n", r.Verdict, r.Name, countLine(r.Counts),
		r.Start.Round(100*time.Millisecond), r.Run.Round(100*time.Millisecond), r.Stop.Round(100*time.Millisecond))
}

func printCheck(w io.Writer, c CheckResult) {
	subj := c.Key
	if c.Subject != "" {
		subj += " " + c.Subject
	}
	fmt.Fprintf(w, "      %-8s line %d: %s\n", c.Status, c.Line, subj)
	if c.Status == Agree {
		if c.Reason != "" {
			fmt.Fprintf(w, "               (%s: expected %s, real %s)\n", c.Reason, c.Expected, c.Real)
		}
		return
	}
	fmt.Fprintf(w, "               expected: %s\n", c.Expected)
	fmt.Fprintf(w, "               real:     %s\n", c.Real)
	if c.Reason != "" {
		fmt.Fprintf(w, "               (%s)\n", c.Reason)
	}
}

func countLine(m map[Status]int) string {
	var parts []string
	for _, s := range []Status{Agree, Disagree, Known, Skipped} {
		if m[s] > 0 {
			name := map[Status]string{Agree: "agree", Disagree: "disagree", Known: "documented disagreement", Skipped: "not observable"}[s]
			parts = append(parts, fmt.Sprintf("%d %s", m[s], name))
		}
	}
	if len(parts) == 0 {
		return "no checks"
	}
	return strings.Join(parts, ", ")
}

// summarize prints the per-file table and the closing line and returns
// the exit status: 1 when a file disagrees or errs, or a documented
// disagreement no longer occurs (the docs would be stale).
func summarize(w io.Writer, reports []*FileReport, known []*knownEntry, total time.Duration) int {
	k8s, _ := versions()
	fmt.Fprintf(w, "\n===== summary: Kubernetes %s =====\n", k8s)
	passed, failed, skipped, flaky := 0, 0, 0, 0
	var start, runT time.Duration
	for _, r := range reports {
		start += r.Start + r.Stop
		runT += r.Run
		extra := countLine(r.Counts)
		if r.Error != "" {
			extra = r.Error
		}
		fmt.Fprintf(w, "%-15s %s: %s\n", r.Verdict, r.Name, extra)
		switch r.Verdict {
		case VerdictAgree, VerdictKnown:
			passed++
		case VerdictFlaky:
			flaky++
		case VerdictDisagree, VerdictError:
			failed++
		default:
			skipped++
		}
	}
	status := 0
	if failed > 0 {
		status = 1
	}
	ran := map[string]bool{}
	for _, r := range reports {
		ran[r.Known] = r.Verdict != VerdictExcluded && r.Verdict != VerdictError
	}
	for _, e := range known {
		if !e.used && ran[e.File] && !e.racy() {
			fmt.Fprintf(w, "STALE           %s:%d %s %s: documented as a disagreement, but it no longer disagrees: update known-disagreements.txt and docs/CONFORMANCE.md\n", e.File, e.Line, e.Key, e.Subject)
			status = 1
		}
	}
	fmt.Fprintf(w, "time: %v in all, %v starting and stopping clusters, %v running scenarios\n",
		total.Round(time.Second), start.Round(time.Second), runT.Round(time.Second))
	fmt.Fprintf(w, "(passed = agrees with real Kubernetes, * = except for documented disagreements; failed = disagrees or could not run; skipped = excluded or nothing observable)\n")
	recap(w, reports)
	line := fmt.Sprintf("conformance: %d passed, %d failed, %d skipped", passed, failed, skipped)
	if flaky > 0 {
		line += fmt.Sprintf(", %d flaky (went another way once, agreed on a fresh cluster: see the recap)", flaky)
	}
	fmt.Fprintln(w, line)
	return status
}

// failedVerdict reports whether a file's run counts as a failure.
func failedVerdict(v Verdict) bool { return v == VerdictDisagree || v == VerdictError }

// recap prints again, at the end where a CI log's tail shows it, every
// file that failed or was flaky, with the checks that went another way
// (for a flaky file, those of its failed first run).
func recap(w io.Writer, reports []*FileReport) {
	var shown []*FileReport
	for _, r := range reports {
		if failedVerdict(r.Verdict) || r.Verdict == VerdictFlaky {
			shown = append(shown, r)
		}
	}
	if len(shown) == 0 {
		return
	}
	fmt.Fprintf(w, "\n===== recap: %d file(s) that went another way =====\n", len(shown))
	for _, r := range shown {
		if r.First != nil {
			fmt.Fprintf(w, "\n%s %s: the first run:", r.Verdict, r.Name)
			printReport(w, r.First, false)
			if r.Verdict == VerdictFlaky {
				fmt.Fprintf(w, "%s %s: agreed on the run after it\n", r.Verdict, r.Name)
				continue
			}
			fmt.Fprintf(w, "%s %s: the last run:", r.Verdict, r.Name)
		}
		printReport(w, r, false)
	}
}
