package lessons

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// missingPhrase matches the placeholder say() writes for a phrase key the
// phrases file lacks: "[owner-deleted]".
var missingPhrase = regexp.MustCompile(`\[[a-z]+(-[a-z]+)+\]`)

// TestCourse makes every lesson a test: its solution reaches the goal
// (with the graph invariant checked after every step), and each of its
// wrong answers misses it, with the grader saying what the lesson says it
// says.
func TestCourse(t *testing.T) {
	c := Builtin()
	if len(c.Lessons) < 15 {
		t.Errorf("the course has %d lessons; the issue asks for at least 15", len(c.Lessons))
	}
	g := c.Grader(DefaultLocale)
	for _, l := range c.Lessons {
		t.Run(l.ID, func(t *testing.T) {
			r, err := l.try(l.Solution, true)
			if err != nil {
				t.Fatalf("the solution does not run: %v", err)
			}
			if gr := g.Grade(l, r.World, r.Records); !gr.Passed {
				t.Errorf("the solution misses the goal:\n%s", strings.Join(gr.Problems(), "\n"))
			}
			if len(l.Wrong) == 0 {
				t.Errorf("no wrong answer: every lesson needs at least one")
			}
			for _, w := range l.Wrong {
				r, err := l.try(w.Steps, true)
				if err != nil {
					t.Errorf("wrong answer %s does not run: %v", w.ID, err)
					continue
				}
				gr := g.Grade(l, r.World, r.Records)
				if gr.Passed {
					t.Errorf("wrong answer %s reaches the goal", w.ID)
					continue
				}
				words := strings.Join(gr.Problems(), "\n")
				for _, want := range w.Explains {
					if !strings.Contains(words, want) {
						t.Errorf("wrong answer %s: the grader's words lack %q; they are:\n%s", w.ID, want, words)
					}
				}
				if m := missingPhrase.FindString(words); m != "" {
					t.Errorf("wrong answer %s: the grader used a phrase the phrases file lacks: %s", w.ID, m)
				}
			}
		})
	}
}

// TestLint runs the linter over every built-in lesson: it must find
// nothing.
func TestLint(t *testing.T) {
	c := Builtin()
	g := c.Grader(DefaultLocale)
	for _, l := range c.Lessons {
		for _, p := range Lint(g, l) {
			t.Errorf("%s", p)
		}
	}
}

// TestPredictions runs every lesson's experiment and scores a prediction
// that is right by construction: each outcome explained, without a
// missing phrase, and the score full.
func TestPredictions(t *testing.T) {
	c := Builtin()
	g := c.Grader(DefaultLocale)
	for _, l := range c.Lessons {
		if l.Predict == nil {
			t.Errorf("%s: no prediction", l.ID)
			continue
		}
		r, err := l.RunPrediction()
		if err != nil {
			t.Errorf("%s: %v", l.ID, err)
			continue
		}
		first := g.Score(l, Prediction{}, r.World, r.Records)
		right := Prediction{Outcomes: map[string]Outcome{}}
		for _, o := range first.Objects {
			right.Outcomes[o.Ref] = o.Actual
			if o.Why == "" || missingPhrase.MatchString(o.Why) {
				t.Errorf("%s: %s: no explanation, or a missing phrase: %q", l.ID, o.Ref, o.Why)
			}
		}
		if first.Order != nil {
			right.Order = first.Order.Actual
		}
		if res := g.Score(l, right, r.World, r.Records); res.Right != res.Total {
			t.Errorf("%s: a right prediction scores %s", l.ID, res.Score())
		}
	}
}

// TestBuiltinIDs: the ids read from the course files' names are the
// course's lessons, in order.
func TestBuiltinIDs(t *testing.T) {
	var want []string
	for _, l := range Builtin().Lessons {
		want = append(want, l.ID)
	}
	if got := BuiltinIDs(); !slices.Equal(got, want) {
		t.Errorf("BuiltinIDs() = %v\nthe course's lessons: %v", got, want)
	}
}
