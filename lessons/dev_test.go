package lessons

import (
	"github.com/gcplay/gcplay/scenario"
	"os"
	"strings"
	"testing"
)

// TestDevShow prints the grade of every solution and wrong answer of the
// lesson named by GCPLAY_LESSON (a development aid).
func TestDevShow(t *testing.T) {
	name := os.Getenv("GCPLAY_LESSON")
	if name == "" {
		t.Skip("set GCPLAY_LESSON")
	}
	c := Builtin()
	l, err := c.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	g := c.Grader("en")
	show := func(label string, steps []scenario.Step) {
		r, err := l.Try(steps)
		if err != nil {
			t.Logf("%s: run error: %v", label, err)
			return
		}
		gr := g.Grade(l, r.World, r.Records)
		t.Logf("=== %s: passed=%v settled=%v", label, gr.Passed, gr.Settled)
		for _, c := range gr.Checks {
			t.Logf("  %v %s %s want=%q got=%q", c.Passed, c.Key, c.Subject, c.Want, c.Got)
		}
		for _, p := range gr.Problems() {
			t.Logf("  WHY: %s", strings.ReplaceAll(p, "\n", " "))
		}
		if os.Getenv("GCPLAY_TRACE") != "" {
			for _, rec := range r.Records {
				t.Logf("    %s", rec.String())
			}
		}
	}
	show("solution", l.Solution)
	for _, w := range l.Wrong {
		show("wrong "+w.ID, w.Steps)
	}
}

// TestDevPredict prints the actual outcomes of every prediction (a
// development aid: GCPLAY_PREDICT=1).
func TestDevPredict(t *testing.T) {
	if os.Getenv("GCPLAY_PREDICT") == "" {
		t.Skip("set GCPLAY_PREDICT")
	}
	c := Builtin()
	g := c.Grader("en")
	for _, l := range c.Lessons {
		if l.Predict == nil {
			t.Logf("%s: NO PREDICTION", l.ID)
			continue
		}
		r, err := l.RunPrediction()
		if err != nil {
			t.Errorf("%s: %v", l.ID, err)
			continue
		}
		res := g.Score(l, Prediction{}, r.World, r.Records)
		t.Logf("== %s", l.ID)
		for _, o := range res.Objects {
			t.Logf("   %s: %s — %s", o.Ref, o.Actual, o.Why)
		}
		if res.Order != nil {
			t.Logf("   order: %v", res.Order.Actual)
		}
	}
}

// TestDevHandIn prints the hand-in of GCPLAY_HANDIN's solution.
func TestDevHandIn(t *testing.T) {
	name := os.Getenv("GCPLAY_HANDIN")
	if name == "" {
		t.Skip("set GCPLAY_HANDIN")
	}
	l, _ := Builtin().Find(name)
	h := replay(t, l, l.Solution)
	b, err := l.HandIn(h.Actions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b)
}
