package engine

import (
	"fmt"
	"time"
)

// SettleResult summarises a Settle or AdvanceBy run.
type SettleResult struct {
	Steps int
	// Backoff is true when settle stopped because the only work left is
	// retries at the maximum backoff.
	Backoff bool
	Records []Record
}

// NotSettledError says a run took its maximum number of steps and work
// was still ready: Next describes it.
type NotSettledError struct {
	Steps int
	Next  string
}

func (e *NotSettledError) Error() string {
	return fmt.Sprintf("still not settled after %d steps (next: %s)", e.Steps, e.Next)
}

// Doer applies actions to a world: a *World itself, or a *History that
// records them.
type Doer interface {
	Do(a Action) (Record, error)
	World() *World
}

// World returns w itself, so a *World is a Doer.
func (w *World) World() *World { return w }

// Settle runs steps (advancing the clock over delays) until nothing is
// pending, or only max-backoff retries remain; needing more than maxSteps
// steps is an error.
func Settle(d Doer, maxSteps int) (SettleResult, error) {
	return run(d, maxSteps, -1, true)
}

// SettleQuietly is Settle without keeping the records in the result (a
// History still keeps them): for large worlds where the caller only needs
// the outcome.
func SettleQuietly(d Doer, maxSteps int) (SettleResult, error) {
	return run(d, maxSteps, -1, false)
}

// AdvanceBy moves the clock forward by by, running on the way every piece
// of work that is ready or becomes due, in time order.
func AdvanceBy(d Doer, by time.Duration, maxSteps int) (SettleResult, error) {
	if by < 0 {
		return SettleResult{}, fmt.Errorf("cannot move the clock backwards (%s)", by)
	}
	return run(d, maxSteps, d.World().Elapsed()+by, true)
}

// AdvanceQuietly is AdvanceBy without keeping the records in the result
// (a History still keeps them): for long runs where the caller only needs
// the outcome.
func AdvanceQuietly(d Doer, by time.Duration, maxSteps int) (SettleResult, error) {
	if by < 0 {
		return SettleResult{}, fmt.Errorf("cannot move the clock backwards (%s)", by)
	}
	return run(d, maxSteps, d.World().Elapsed()+by, false)
}

// run steps until idle; until is the clock target (-1: as far as needed).
func run(d Doer, maxSteps int, until time.Duration, keep bool) (SettleResult, error) {
	var res SettleResult
	if w, ok := d.(*World); ok && !keep && !w.env.discard {
		// A world without a history gives its records to no one but
		// this loop, which drops them: their lists are not stored.
		w.env.discard, w.env.wordless = true, !w.cfg.CheckInvariants
		defer func() { w.env.discard, w.env.wordless = false, false }()
	}
	add := func(r *Record) {
		if keep {
			res.Records = append(res.Records, *r)
		}
	}
	for {
		w := d.World()
		if !w.Idle() {
			if res.Steps >= maxSteps {
				return res, &NotSettledError{Steps: maxSteps, Next: w.Describe()}
			}
			rec, err := d.Do(Step{})
			add(&rec)
			res.Steps++
			if err != nil {
				return res, err
			}
			continue
		}
		// Settle crosses only the controllers' own delays; an advance
		// also crosses the waits for time passing in the cluster.
		due, ok := w.NextDue()
		if until >= 0 {
			due, ok = w.NextWake()
		}
		if until < 0 {
			if !ok {
				return res, nil
			}
			if w.onlyMaxBackoffLeft() {
				res.Backoff = true
				return res, nil
			}
		} else if !ok || due > until {
			if until > w.Elapsed() {
				rec, err := d.Do(Advance{D: until - w.Elapsed()})
				add(&rec)
				if err != nil {
					return res, err
				}
			}
			return res, nil
		}
		rec, err := d.Do(Advance{D: due - w.Elapsed()})
		add(&rec)
		if err != nil {
			return res, err
		}
	}
}
