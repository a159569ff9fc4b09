package lessons

import (
	"fmt"
	"slices"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/scenario"
)

// Run is a world a lesson's steps left, with every engine record on the
// way (the set-up's included), for grading.
type Run struct {
	World   *engine.World
	Records []engine.Record
	// Result is the scenario run behind it.
	Result *scenario.Result
}

// Start runs the lesson's starting world (its objects and set-up steps).
// It fails only if the lesson itself is broken.
func (l *Lesson) Start() (*Run, error) { return l.Try(nil) }

// Try runs steps after the lesson's set-up, from a fresh world, with the
// scenario interpreter that `gcplay run` uses. An action that fails (an
// API error the steps did not expect) is an error that names the step.
func (l *Lesson) Try(steps []scenario.Step) (*Run, error) {
	return l.try(steps, false)
}

// try is Try, optionally checking the collector's graph invariant (R35)
// after every step, as the tests do.
func (l *Lesson) try(steps []scenario.Step, invariants bool) (*Run, error) {
	sc := *l.World
	sc.Steps = append(slices.Clone(l.World.Steps), steps...)
	return runScenario(&sc, invariants)
}

// runScenario runs sc with records, and fails when any step failed.
func runScenario(sc *scenario.Scenario, invariants bool) (*Run, error) {
	res := scenario.Run(sc, scenario.RunOptions{Records: true, CheckInvariants: invariants})
	if res.InternalError != "" {
		return nil, fmt.Errorf("%s: gcplay broke while running it: %s", sc.File, res.InternalError)
	}
	r := &Run{World: res.World, Result: res}
	for _, s := range res.Steps {
		r.Records = append(r.Records, s.Records...)
	}
	if err := res.Err(); err != nil {
		return r, err
	}
	return r, nil
}

// Apply performs one scenario step on d (a world, or the playground's
// timeline), as the scenario interpreter would: the playground replays a
// lesson's solution with it, one step at a time. Expect steps check
// nothing here; they are skipped.
func Apply(d engine.Doer, st *scenario.Step) ([]engine.Record, error) {
	recs, err := scenario.Apply(d, st)
	if st.ExpectsError() {
		if err == nil {
			return recs, fmt.Errorf("expected the request to fail with %s, but it succeeded", st.ExpectedError())
		}
		if st.ErrorExpected(err) {
			return recs, nil
		}
	}
	return recs, err
}

// Settled reports whether w has nothing left to do: no work ready, none
// due later, or only retries at the maximum backoff. It does not change w.
func Settled(w *engine.World) bool {
	c := w.Clone()
	res, err := engine.Settle(c, 1)
	if err != nil {
		return false
	}
	return res.Steps == 0 && !advanced(res.Records)
}

func advanced(recs []engine.Record) bool {
	for _, r := range recs {
		if r.Actor == "clock" {
			return true
		}
	}
	return false
}

// settleStep is a `settle: {}` step.
func settleStep() scenario.Step {
	return scenario.Step{Action: scenario.ActionSettle, MaxSteps: scenario.DefaultMaxSteps}
}
