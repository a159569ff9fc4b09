package lessons

import (
	"strings"
	"testing"
)

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
			}
		})
	}
}
