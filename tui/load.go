package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/scenario"
)

// opened is a scenario file opened in the playground.
type opened struct {
	sc *scenario.Scenario
	// start is the world with the file's objects created (by the scenario
	// runner, as gcplay run creates them).
	start *engine.World
	// setup is true for the starter world, whose steps are part of the
	// start rather than of the timeline.
	setup bool
}

// openScenario parses a scenario file and creates its objects. With setup,
// its steps run too and become part of the starting world (the built-in
// starter world settles that way); otherwise they are left for
// applySteps, so they land in the timeline where the learner can rewind
// and step through them.
// A sc already parsed from data is taken as it is.
func openScenario(name string, data []byte, sc *scenario.Scenario, setup bool) (*opened, error) {
	if sc == nil {
		var err error
		sc, err = scenario.ParseFile(name, data) // a scenario, or a cluster dump
		if err != nil {
			return nil, err
		}
	}
	run := *sc
	if !setup {
		run.Steps = nil
	}
	res := scenario.Run(&run, scenario.RunOptions{WorldOnly: true})
	if res.InternalError != "" {
		return nil, errorf("%s: gcplay broke while creating its objects: %s", name, res.InternalError)
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	if res.World == nil {
		return nil, errorf("%s: the run left no world", name)
	}
	return &opened{sc: sc, start: res.World, setup: setup}, nil
}

// openSession opens a scenario file as a session. With setup the whole
// file runs and the timeline starts where it ends; without, its objects
// make the starting world and its steps the timeline, which is left at its
// end. note says what was loaded; warn is set when a step failed and the
// timeline stops before it.
func openSession(name string, data []byte, sc *scenario.Scenario, setup bool) (s *session, note string, warn bool, err error) {
	o, err := openScenario(name, data, sc, setup)
	if err != nil {
		return nil, "", false, err
	}
	s = newSession(o.sc, o.start)
	if len(o.sc.Restore) > 0 {
		// A cluster dump: its objects are restored and the controllers
		// have their relist queued, as after a restart.
		// What the import made up comes first: a short message line
		// must not cut it.
		note = strings.Join(append(slices.Clone(o.sc.Notes), fmt.Sprintf("%d objects restored from the dump; the controllers start as after a restart: s steps them, r runs them", len(o.sc.Restore))), "; ")
		return s, note, false, nil
	}
	if setup {
		return s, "the timeline starts where the file ends", false, nil
	}
	checks, err := s.applySteps(o.sc)
	n := s.h.Len()
	note = fmt.Sprintf("its objects are the start, its steps the timeline (%d %s): goto 0 or ← to step through them", n, plural(n, "step", "steps"))
	if n == 0 {
		note = "its objects are the start; it has no steps"
	}
	if checks > 0 {
		note += fmt.Sprintf("; its %d expect %s not checked here (gcplay run checks them)", checks, plural(checks, "step is", "steps are"))
	}
	if err != nil {
		return s, err.Error() + "; " + note, true, nil
	}
	return s, note, false, nil
}

// applySteps applies a scenario's steps to the timeline, as the scenario
// runner would. expect steps are not checked here (gcplay run checks
// them); a step that fails without expectError stops the loading there.
func (s *session) applySteps(sc *scenario.Scenario) (checks int, err error) {
	d := &stopDoer{s: s}
	for i := range sc.Steps {
		st := &sc.Steps[i]
		fail := func(err error) error {
			if err == nil || st.ExpectsError() {
				return nil
			}
			return fmt.Errorf("%s:%d: step %d (%s) failed, so the timeline stops there: %w", sc.File, st.Line, st.Index, st.Describe(), err)
		}
		if st.Action == scenario.ActionExpect {
			checks++
			continue
		}
		if _, err := scenario.Apply(d, st); fail(err) != nil {
			return checks, fail(err)
		}
	}
	return checks, nil
}
