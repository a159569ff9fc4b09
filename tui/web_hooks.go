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
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/lessons"
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
func (m *Model) Execute(line string) tea.Cmd {
	cmd := m.execute(line)
	m.refresh()
	return cmd
}

// Notify shows text on the message line, as an error when isErr is set.
func (m *Model) Notify(text string, isErr bool) {
	if isErr {
		m.setMsg(msgErr, text)
	} else {
		m.setMsg(msgInfo, text)
	}
	m.refresh() // the message's lines change the panes' heights
}

// Playground returns the playground the lesson runs on (a new one each
// time a lesson is opened), for the browser build's hooks above.
func (m *LessonModel) Playground() *Model { return m.pg }

// WouldQuit reports whether the key k (as tea.KeyPressMsg.String gives
// it) quits the playground in its present state. The page asks before
// passing a key on: there Ctrl+C means copy and a lone q is too easy to
// press for what it does (the tab stays open on a stopped program).
func (m *Model) WouldQuit(k string) bool {
	return k == "ctrl+c" || (m.mode == modeNormal && slices.Contains(m.keys.Quit.Keys(), k))
}

// WouldQuit reports whether the key k quits the lesson in its present
// state (see Model.WouldQuit).
func (m *LessonModel) WouldQuit(k string) bool {
	switch {
	case k == "ctrl+c":
		return true
	case m.over == overNone:
		return m.pg.mode == modeNormal && slices.Contains(m.pg.keys.Quit.Keys(), k)
	case m.over == overPicker:
		return slices.Contains(lessonOverlayKeys.Quit.Keys(), k)
	}
	return false
}

// Lesson returns the lesson shown.
func (m *LessonModel) Lesson() *lessons.Lesson { return m.l }

// PickerOpen reports whether the lesson picker shows.
func (m *LessonModel) PickerOpen() bool { return m.over == overPicker }

// OpenPicker shows the lesson picker on the lesson shown (the L key).
func (m *LessonModel) OpenPicker() {
	m.showPicker()
}

// NextLesson opens the course's next lesson (the N key).
func (m *LessonModel) NextLesson() {
	next := m.lo.Course.Next(m.l)
	if next == nil {
		m.pg.setMsg(msgInfo, m.say("tui-last-lesson"))
	} else {
		m.switchTo(next)
	}
	m.pg.refresh()
}

// Restart puts the lesson back at its start (the R key).
func (m *LessonModel) Restart() {
	m.restart()
	m.pg.setMsg(msgInfo, m.say("tui-restarted"))
	m.pg.refresh()
}

// Idle reports whether the playground takes keys as commands (no command
// line, picker or overlay open).
func (m *Model) Idle() bool { return m.mode == modeNormal }

// AddCourseHelp adds the course's key to the help view, for a playground
// that can open the lessons (the page: L opens the lesson picker).
func (m *Model) AddCourseHelp() {
	m.extraHelp = helpGroup{name: "The course", keys: []key.Binding{
		key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "the lessons")),
	}}
}
