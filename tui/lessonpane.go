package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/locale"
	"github.com/gcplay/gcplay/lessons"
)

// lessonPane is the lesson pane, a component as the lesson's overlays
// are: the goal as a target beside the live state, the differences
// marked, what to do, the hints shown, the lesson's note and its keys. It
// owns its state (below), its keys (actions: the key handler and, with
// lessonHelp, help's column "In a lesson") and its view. LessonModel
// composes it (pane) and passes itself in: the lesson, its grade and the
// world the pane shows are LessonModel's.
type lessonPane struct {
	// hints is how many of the lesson's hints are shown.
	hints int
	// note is what the lesson says on its own (a progress file it cannot
	// read or write, an incomplete prediction, a key the lesson list does
	// not know); noteWarn says it as a warning. The pane shows it, and so
	// do the footers of the lesson list and the prediction.
	note     string
	noteWarn bool
	// quitAsked is set once q has asked whether to leave a lesson with
	// steps taken; a second q quits.
	quitAsked bool
}

// setNote sets the lesson's note ("" clears it).
func (p *lessonPane) setNote(warn bool, s string) { p.note, p.noteWarn = s, warn }

// actions is the keys the lesson adds to the playground (lessonKeys),
// and q, which asks before it drops a world with steps taken. Help lists
// them in the column "In a lesson" (lessonHelp), q with the playground's.
func (*lessonPane) actions(m *LessonModel) []lessonAction {
	lk := lessonKeys
	return []lessonAction{
		{b: lk.Hint, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.pane.nextHint(m) })},
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
			if m.pg.Built() && !m.pane.quitAsked {
				m.pane.quitAsked = true
				m.pg.setMsg(msgWarn, m.say("tui-quit-ask", "n", fmt.Sprint(m.pg.s.h.Len())))
				return nil
			}
			return m.pg.quit()
		}},
	}
}

// handle handles a key in the playground's normal mode; ok is false for
// keys that belong to the playground. Any key but q takes back q's
// question.
func (p *lessonPane) handle(m *LessonModel, msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	if !key.Matches(msg, m.pg.keys.Quit) {
		p.quitAsked = false
	}
	for _, a := range p.actions(m) {
		if key.Matches(msg, a.b) {
			return a.do(m, msg), true
		}
	}
	return nil, false
}

// nextHint shows the lesson's next hint, in the pane and the message
// line, and keeps the number of hints seen in the progress.
func (p *lessonPane) nextHint(m *LessonModel) {
	hs := m.text.Hints
	if len(hs) == 0 {
		m.pg.setMsg(msgInfo, m.say("tui-no-hints"))
		return
	}
	if p.hints < len(hs) {
		p.hints++
		if lp := m.prog.Lesson(m.l.ID); p.hints > lp.Hints {
			lp.Hints = p.hints
			m.save()
		}
	}
	m.pg.setMsg(msgInfo, m.say("tui-hint", "n", fmt.Sprint(p.hints), "of", fmt.Sprint(len(hs)), "hint", reflow(hs[p.hints-1])))
}

// view draws the lesson pane in ll.pane: a column on the right when
// ll.side, else a band at the top. It changes nothing.
func (p *lessonPane) view(m *LessonModel, ll lessonLayout) []string {
	t := &m.pg.th
	w := ll.pane.w
	inner := w - 3
	title := m.say("tui-pane-title", "n", fmt.Sprint(m.l.Number), "of", fmt.Sprint(len(m.lo.Course.Lessons)), "title", m.text.Title)
	var body []string
	addWrapped := func(st *ink, s string) {
		for _, l := range wrap(s, inner) {
			var ln line
			ln.add(st, l)
			body = append(body, ln.render(inner, nil))
		}
	}
	g := m.grade
	status := func() (string, *ink) {
		switch {
		case m.done || g.Passed:
			return m.say("tui-goal-reached"), &t.ok
		case g.NeedsSettled && !g.Settled && g.Held() == len(g.Checks):
			return m.say("tui-goal-wait"), &t.warn
		}
		return m.say("tui-goal-progress", "held", fmt.Sprint(g.Held()), "all", fmt.Sprint(len(g.Checks))), &t.text
	}
	st, stInk := status()
	keys := m.say("tui-keys")
	action, actionShort := "", ""
	if !m.done && !g.Passed {
		action, actionShort = p.actionHint(m)
	}
	if !ll.side {
		// A band: the goal in one line, the first difference, what to do,
		// the keys.
		footer := wrap(keys, inner)
		if len(footer) > 1 {
			footer = []string{firstLine(m.say("tui-keys-short"), inner)}
		}
		room := ll.pane.h - 2 - len(footer)
		addWrapped(&t.bold, firstLine(locale.JoinLines(m.say("tui-goal"), oneLine(m.text.Goal)), inner))
		var ln line
		ln.add(stInk, st)
		body = append(body, ln.render(inner, nil))
		if p.note != "" {
			st := &t.info
			if p.noteWarn {
				st = &t.warn
			}
			addWrapped(st, firstLine(p.note, inner))
		}
		if actionShort != "" {
			addWrapped(&t.info, firstLine(actionShort, inner))
		}
		for _, c := range g.Checks {
			if !c.Passed && len(body) < room {
				var d line
				d.add(&t.err, "✗ ").add(&t.text, checkText(c)).add(&t.dim, " · "+labelSpace(m.say("tui-now"))).add(&t.warn, c.Got)
				body = append(body, d.render(inner, nil))
			}
		}
		return box(t, title, false, fitPane(t, body, room, 1, inner, false, footer), w, ll.pane.h)
	}
	addWrapped(&t.bold, m.say("tui-goal"))
	addWrapped(&t.text, oneLine(m.text.Goal))
	body = append(body, strings.Repeat(" ", inner))
	var head line
	head.add(stInk, st)
	body = append(body, head.render(inner, nil))
	for _, c := range g.Checks {
		var ln line
		if c.Passed {
			ln.add(&t.ok, "✓ ")
		} else {
			ln.add(&t.err, "✗ ")
		}
		ln.add(&t.text, checkText(c))
		body = append(body, ln.render(inner, nil))
		if !c.Passed {
			var d line
			d.add(&t.dim, "   "+labelSpace(m.say("tui-now"))).add(&t.warn, c.Got)
			body = append(body, d.render(inner, nil))
		}
	}
	if g.NeedsSettled && !g.Settled {
		addWrapped(&t.dim, m.say("tui-not-settled"))
	}
	if action != "" {
		body = append(body, strings.Repeat(" ", inner))
		addWrapped(&t.info, action)
	}
	if m.pred != nil && m.pred.running {
		body = append(body, strings.Repeat(" ", inner))
		addWrapped(&t.info, m.say("tui-predict-running"))
	}
	if p.hints > 0 {
		body = append(body, strings.Repeat(" ", inner))
		for i := 0; i < p.hints && i < len(m.text.Hints); i++ {
			addWrapped(&t.info, fmt.Sprintf("%s %d: %s", m.say("tui-hint-label"), i+1, oneLine(m.text.Hints[i])))
		}
	}
	if p.note != "" {
		body = append(body, strings.Repeat(" ", inner))
		st := &t.info
		if p.noteWarn {
			st = &t.warn
		}
		addWrapped(st, p.note)
	}
	footer := wrap(keys, inner)
	room := ll.pane.h - 2 - len(footer) - 1
	return box(t, title, false, fitPane(t, body, room, 0, inner, true, footer), w, ll.pane.h)
}

// fitPane fits the pane's body to room lines, cutting it (keeping at least
// keep lines) or padding it with blank ones, and ends it with the footer's
// lines, dim, under a rule when rule is set.
func fitPane(t *theme, body []string, room, keep, inner int, rule bool, footer []string) []string {
	body = body[:min(len(body), max(room, keep))]
	for len(body) < room {
		body = append(body, strings.Repeat(" ", inner))
	}
	if rule {
		body = append(body, strings.Repeat("─", inner))
	}
	for _, f := range footer {
		var ln line
		ln.add(&t.dim, f)
		body = append(body, ln.render(inner, nil))
	}
	return body
}

// actionHint names the key for what the collector will never do for the
// learner: an object held by a finalizer that is not the collector's.
func (*lessonPane) actionHint(m *LessonModel) (long, short string) {
	sn := m.pg.snap
	if sn == nil {
		return "", ""
	}
	for i := range sn.tree.rows {
		o := sn.obj(&sn.tree.rows[i])
		if o == nil || o.Metadata.DeletionTimestamp == nil {
			continue
		}
		for _, f := range o.Metadata.Finalizers {
			if f != fakeapi.FinalizerOrphanDependents && f != fakeapi.FinalizerDeleteDependents {
				return m.say("tui-finalizer-hint", "object", o.String(), "finalizer", f),
					m.say("tui-finalizer-hint-short", "object", o.String(), "finalizer", f)
			}
		}
	}
	return "", ""
}

// labelSpace is a label followed by the space before its value, which
// a label ending in full-width punctuation ("当前：") already carries.
func labelSpace(label string) string {
	return strings.TrimSuffix(locale.JoinLines(label, "x"), "x")
}

// checkText is one goal check in plain words: "Secret/app-token: gone".
func checkText(c lessons.Check) string {
	switch c.Key {
	case "deletionOrder":
		return "order: " + c.Want
	case "count":
		return c.Want
	case "finalizers":
		return c.Subject + ": finalizers " + c.Want
	case "events", "noEvents":
		return c.Subject + ": " + c.Want
	case "graph":
		return "uidToNode " + c.Subject + ": " + c.Want
	}
	return c.Subject + ": " + c.Want
}
