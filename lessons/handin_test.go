package lessons

import (
	"strings"
	"testing"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/scenario"
)

// replay applies steps one at a time to a timeline on the lesson's
// starting world, as the playground does when it replays a solution, and
// returns the timeline.
func replay(t *testing.T, l *Lesson, steps []scenario.Step) *engine.History {
	t.Helper()
	start, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	h := engine.NewHistory(start.World)
	for i := range steps {
		if _, err := Apply(h, &steps[i]); err != nil {
			t.Fatalf("step %d (%s): %v", i, steps[i].Describe(), err)
		}
	}
	return h
}

// TestHandIn: the timeline of each lesson's solution, written as a
// hand-in, is a scenario that `gcplay lessons check` passes, and that
// leaves the same objects as the timeline. Each wrong answer's hand-in
// fails. Apply and the scenario interpreter agree.
func TestHandIn(t *testing.T) {
	c := Builtin()
	g := c.Grader(DefaultLocale)
	for _, l := range c.Lessons {
		t.Run(l.ID, func(t *testing.T) {
			h := replay(t, l, l.Solution)
			data, err := l.HandIn(h.Actions())
			if err != nil {
				t.Fatal(err)
			}
			res, err := g.Check(l, "handin.yaml", data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !res.Passed() {
				t.Fatalf("the solution's hand-in does not pass: %s %v %v\n%s", res.NotTheLesson, res.RunError, res.Grade.Problems(), data)
			}
			run, err := l.Try(l.Solution)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := scenario.Save(run.World, "x")
			got, _ := scenario.Save(h.World(), "x")
			if string(want) != string(got) {
				t.Errorf("Apply and the scenario interpreter disagree:\n%s\n---\n%s", got, want)
			}
			for _, w := range l.Wrong {
				h := replay(t, l, w.Steps)
				data, err := l.HandIn(h.Actions())
				if err != nil {
					t.Fatal(err)
				}
				res, err := g.Check(l, "handin.yaml", data)
				if err != nil {
					t.Fatal(err)
				}
				if res.Passed() {
					t.Errorf("wrong answer %s's hand-in passes", w.ID)
				}
			}
		})
	}
}

// TestCheckRefusesAnotherWorld: a hand-in must start from the lesson's
// world; a file that simply builds the goal's end state does not pass.
func TestCheckRefusesAnotherWorld(t *testing.T) {
	c := Builtin()
	l, _ := c.Find("owners-and-dependents")
	cheat := []byte("name: owners-and-dependents\ncontrollers: [garbagecollector]\nobjects:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: shared-settings}}\n")
	res, err := c.Grader(DefaultLocale).Check(l, "cheat.yaml", cheat)
	if err != nil {
		t.Fatal(err)
	}
	if res.Passed() || !strings.Contains(res.NotTheLesson, "objects") {
		t.Errorf("a file that is not the lesson's world passes: %+v", res)
	}
}
