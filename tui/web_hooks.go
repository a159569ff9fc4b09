package tui

// This file is the browser build's window into the playground (package
// wasm and package share use it; the terminal build does not). The page
// keeps the world in the URL fragment (share links) and in localStorage
// across reloads, so it needs to read the world's origin and timeline, to
// put a restored one back, to know when something changed, and to run a
// command line on behalf of the page's buttons (save, open). Everything
// here goes through the same session methods as the keys and commands do.

import (
	"maps"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/scenario"
)

// StarterScenario returns the built-in starter scenario: the name the
// playground gives it (the origin's File) and its source.
func StarterScenario() (name string, data []byte) { return starterScenario() }

// Timeline returns the scenario the world started from, the world that
// scenario left, and the timeline since (all of it, also past the current
// position when the user went back). Callers must not change them.
func (m *Model) Timeline() (origin *scenario.Scenario, start *engine.World, h *engine.History) {
	return m.s.origin, m.s.start, m.s.h
}

// Version changes whenever the world or its timeline changes: an action,
// a step, a move along the timeline, a load or a reset.
func (m *Model) Version() int { return m.s.version }

// Restore replaces the world and its timeline, as load does, with start
// (the world origin left) and h (a timeline built on a clone of start),
// and shows msg on the message line. Breakpoints are cleared.
func (m *Model) Restore(origin *scenario.Scenario, start *engine.World, h *engine.History, msg string) {
	m.stop("")
	m.mode = modeNormal
	m.s.replace(origin, start)
	m.s.h = h
	m.s.version++
	m.selUID, m.sel, m.worldTop, m.colTop, m.inspTop = "", 0, 0, 0, 0
	m.refresh()
	m.selectFirst("Deployment", "ReplicaSet")
	m.setMsg(msgOK, msg)
}

// Breakpoints returns the playground's breakpoints: whether autoplay and
// run stop when attemptToOrphan gets an item, and the watched objects
// (UID to the name shown), a copy.
func (m *Model) Breakpoints() (orphan bool, watch map[string]string) {
	return m.s.breakOrphan, maps.Clone(m.s.watch)
}

// SetBreakpoints replaces the playground's breakpoints (after Restore,
// which clears them).
func (m *Model) SetBreakpoints(orphan bool, watch map[string]string) {
	m.s.breakOrphan = orphan
	m.s.watch = maps.Clone(watch)
	if m.s.watch == nil {
		m.s.watch = map[string]string{}
	}
}

// Execute runs a command line as if it had been typed after ":", and
// returns its command (a run in progress, or quit).
func (m *Model) Execute(line string) tea.Cmd { return m.execute(line) }

// Notify shows text on the message line, as an error when isErr is set.
func (m *Model) Notify(text string, isErr bool) {
	if isErr {
		m.setMsg(msgErr, text)
		return
	}
	m.setMsg(msgInfo, text)
}

// Playground returns the playground the lesson runs on (a new one each
// time a lesson is opened), for the browser build's hooks above.
func (m *LessonModel) Playground() *Model { return m.pg }
