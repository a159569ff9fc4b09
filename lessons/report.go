package lessons

import (
	"fmt"
	"io"
	"strings"

	"github.com/gcplay/gcplay/scenario"
)

// Report writes, for a lesson's author, what each of the lesson's runs
// does: the grade of its solution and of every wrong answer, check by
// check with the wanted and the live state, the grader's explanation of
// each miss, and the outcome of every object of its prediction. With
// trace, each run's steps follow, one engine record a line. Lint says
// whether a lesson is right; Report shows why.
func Report(w io.Writer, g *Grader, l *Lesson, trace bool) {
	if l.Number > 0 {
		fmt.Fprintf(w, "=== lesson %d: %s (%s)\n", l.Number, l.ID, l.File)
	} else {
		fmt.Fprintf(w, "=== lesson %s (%s)\n", l.ID, l.File)
	}
	run := func(label string, steps []scenario.Step) {
		r, err := l.Try(steps)
		if err != nil {
			fmt.Fprintf(w, "  %s: does not run: %v\n", label, err)
			return
		}
		gr := g.Grade(l, r.World, r.Records)
		verdict := "misses the goal"
		if gr.Passed {
			verdict = "meets the goal"
		}
		settled := "settled"
		if !gr.Settled {
			settled = "not settled"
		}
		fmt.Fprintf(w, "  %s: %s (%d steps, world %s)\n", label, verdict, len(r.Records), settled)
		for _, c := range gr.Checks {
			mark := "ok  "
			if !c.Passed {
				mark = "MISS"
			}
			subject := c.Key
			if c.Subject != "" {
				subject += " " + c.Subject
			}
			fmt.Fprintf(w, "    %s line %d: %s: want %s, got %s\n", mark, c.Line, subject, c.Want, c.Got)
		}
		for _, p := range gr.Problems() {
			fmt.Fprintf(w, "    why: %s\n", strings.ReplaceAll(p, "\n", " "))
		}
		if trace {
			for _, rec := range r.Records {
				fmt.Fprintf(w, "      %s\n", rec.String())
			}
		}
	}
	run("solution", l.Solution)
	for _, wr := range l.Wrong {
		run("wrong answer "+wr.ID, wr.Steps)
	}
	if l.Predict == nil {
		fmt.Fprintf(w, "  prediction: none\n")
		return
	}
	r, err := l.RunPrediction()
	if err != nil {
		fmt.Fprintf(w, "  prediction: does not run: %v\n", err)
		return
	}
	res := g.Score(l, Prediction{}, r.World, r.Records)
	fmt.Fprintf(w, "  prediction: what happens to each object\n")
	for _, o := range res.Objects {
		fmt.Fprintf(w, "    %s: %s: %s\n", o.Ref, o.Actual, o.Why)
	}
	if res.Order != nil {
		fmt.Fprintf(w, "    order of deletion: %s\n", strings.Join(res.Order.Actual, ", "))
	}
}
