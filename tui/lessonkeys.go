package tui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/lessons"
)

// lessonAction is a key one of the lesson's overlays answers and what it
// does (action is the playground's).
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

// lessonActions is the keys the lesson adds to the playground (lessonKeys),
// and q, which asks before it drops a world with steps taken. Help lists
// them in the column "In a lesson" (lessonHelp), q with the playground's.
func (m *LessonModel) lessonActions() []lessonAction {
	lk := lessonKeys
	return []lessonAction{
		{b: lk.Hint, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.nextHint() })},
		{b: lk.Predict, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.openPredict() })},
		{b: lk.Solution, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
			m.show(overSolution)
			if !m.prog.Of(m.l.ID).SolutionSeen {
				m.prog.Lesson(m.l.ID).SolutionSeen = true
				m.save()
			}
		})},
		{b: lk.Text, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.show(overText) })},
		{b: lk.Restart, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
			m.restart()
			m.pg.setMsg(msgInfo, m.say("tui-restarted"))
		})},
		{b: lk.Lessons, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.showPicker() })},
		{b: lk.Next, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
			next := m.lo.Course.Next(m.l)
			if next == nil {
				m.pg.setMsg(msgInfo, m.say("tui-last-lesson"))
				return
			}
			m.switchTo(next)
		})},
		{b: lk.HandIn, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.writeHandIn() })},
		{b: m.pg.keys.Quit, do: func(m *LessonModel, _ tea.KeyPressMsg) tea.Cmd {
			// The lesson's progress is saved as it is made, but its world
			// is not: with steps taken, q asks first.
			if m.pg.Built() && !m.quitAsked {
				m.quitAsked = true
				m.pg.setMsg(msgWarn, m.say("tui-quit-ask", "n", fmt.Sprint(m.pg.s.h.Len())))
				return nil
			}
			return m.pg.quit()
		}},
	}
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
		m.setNote(false, m.unboundInOverlay(msg))
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
