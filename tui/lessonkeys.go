package tui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/lessons"
)

// lessonAction is a key the lesson pane or one of the lesson's overlays
// answers and what it does (action is the playground's).
type lessonAction struct {
	b  key.Binding
	do func(m *LessonModel, msg tea.KeyPressMsg) tea.Cmd
}

// backward reports whether a scrolling or choosing key goes up.
func backward(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "up", "k", "pgup":
		return true
	}
	return false
}

// lessonDo makes a lesson action's handler of a function that returns
// nothing.
func lessonDo(f func(m *LessonModel, msg tea.KeyPressMsg)) func(*LessonModel, tea.KeyPressMsg) tea.Cmd {
	return func(m *LessonModel, msg tea.KeyPressMsg) tea.Cmd { f(m, msg); return nil }
}

// overlayActions is the open overlay's keys, in the order help lists them:
// its key handler and its help line are both drawn from them. Ctrl+C
// quits from each, as from every view of the playground.
func (m *LessonModel) overlayActions() []lessonAction {
	c := m.overlay()
	if c == nil {
		return nil
	}
	return append(slices.Clip(c.actions(m)), lessonAction{b: m.pg.keys.ForceQuit, do: func(m *LessonModel, _ tea.KeyPressMsg) tea.Cmd { return m.pg.quit() }})
}

// markPrediction marks the chosen object's outcome and moves to the next.
func (m *LessonModel) markPrediction(o lessons.Outcome) {
	p := m.pred
	objs := m.l.Predict.Refs()
	ref := objs[p.sel]
	if old := p.marks[ref]; old == lessons.Deleted && o != lessons.Deleted {
		p.order = remove(p.order, ref)
	}
	if o == lessons.Deleted && p.marks[ref] != lessons.Deleted {
		p.order = append(p.order, ref)
	}
	p.marks[ref] = o
	if p.sel < len(objs)-1 {
		p.sel++
	}
}

// overlayKey is a key while an overlay is open: the overlay's actions,
// and in the lesson list a word on a key that is none.
func (m *LessonModel) overlayKey(msg tea.KeyPressMsg) tea.Cmd {
	for _, a := range m.overlayActions() {
		if key.Matches(msg, a.b) {
			return a.do(m, msg)
		}
	}
	if m.over == overPicker {
		m.pane.setNote(false, m.unboundInOverlay(msg))
	}
	return nil
}

// overlayBindings is the open overlay's keys, as help lists them.
func (m *LessonModel) overlayBindings() []key.Binding {
	acts := m.overlayActions()
	out := make([]key.Binding, 0, len(acts))
	for _, a := range acts {
		out = append(out, a.b)
	}
	return out
}
