package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/lessons"
)

// A lesson's overlays are components as the playground's are: each owns
// its state (its scroll offset, the picker's cursor, the solution's
// replayed steps), its keys (a table of lessonAction: the key handler and
// the help line at once) and its view. LessonModel composes them: it says
// which is open (over), offers it the keys and draws it in a box
// (drawLessonOverlay).
type lessonOverlayComponent interface {
	// actions is the overlay's own keys, in the order help lists them
	// (Ctrl+C, which quits from each, is added by overlayActions).
	actions(m *LessonModel) []lessonAction
	// draw writes the overlay's text on p and returns its title and its
	// footer; it changes nothing.
	draw(m *LessonModel, p *lessonPage) (title string, footer []string)
	// scrollTop is the overlay's first line in view.
	scrollTop() *int
}

// lessonOverlays is the lesson's overlays and the one open.
type lessonOverlays struct {
	over     lessonOverlay
	text     textOverlay
	picker   pickerOverlay
	solution solutionOverlay
	predict  predictOverlay
	result   resultOverlay
	done     doneOverlay
}

var (
	_ lessonOverlayComponent = (*textOverlay)(nil)
	_ lessonOverlayComponent = (*pickerOverlay)(nil)
	_ lessonOverlayComponent = (*solutionOverlay)(nil)
	_ lessonOverlayComponent = (*predictOverlay)(nil)
	_ lessonOverlayComponent = (*resultOverlay)(nil)
	_ lessonOverlayComponent = (*doneOverlay)(nil)
)

// overlay returns the open overlay's component, nil when none is open.
func (o *lessonOverlays) overlay() lessonOverlayComponent {
	switch o.over {
	case overText:
		return &o.text
	case overPicker:
		return &o.picker
	case overSolution:
		return &o.solution
	case overPredict:
		return &o.predict
	case overResult:
		return &o.result
	case overDone:
		return &o.done
	}
	return nil
}

// show opens overlay which at the top of its text.
func (o *lessonOverlays) show(which lessonOverlay) {
	o.over = which
	if c := o.overlay(); c != nil {
		*c.scrollTop() = 0
	}
}

// showPicker opens the lesson list on the lesson shown.
func (m *LessonModel) showPicker() {
	m.show(overPicker)
	m.picker.pick = m.l.Number - 1
}

// scrolled is an overlay's scroll offset.
type scrolled struct{ top int }

func (s *scrolled) scrollTop() *int { return &s.top }

// closeOverlay is the action that closes an overlay and goes back to the
// world: a goal reached meanwhile (by a prediction's run) counts now.
var closeOverlay = lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
	m.over = overNone
	m.after()
})

// scrollKeys is the scrolling keys of an overlay whose text is longer
// than its window, none otherwise.
func (m *LessonModel) scrollKeys() []lessonAction {
	if m.overlayScrolls() {
		return scrollActions
	}
	return nil
}

// scrollActions scroll an overlay's text.
var scrollActions = func() []lessonAction {
	ok := lessonOverlayKeys
	return []lessonAction{
		{b: ok.Scroll, do: lessonDo(func(m *LessonModel, msg tea.KeyPressMsg) {
			if backward(msg) {
				m.scrollOverlay(-1)
			} else {
				m.scrollOverlay(1)
			}
		})},
		{b: ok.Page, do: lessonDo(func(m *LessonModel, msg tea.KeyPressMsg) {
			if backward(msg) {
				m.scrollOverlay(-10)
			} else {
				m.scrollOverlay(10)
			}
		})},
	}
}()

// The lesson's text.

// textOverlay is the lesson's text: introduction, goal, what to predict,
// and once done why.
type textOverlay struct{ scrolled }

func (*textOverlay) actions(m *LessonModel) []lessonAction {
	ok, lk := lessonOverlayKeys, lessonKeys
	return slices.Concat([]lessonAction{
		{b: ok.Start, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.over = overNone })},
		{b: lk.Predict, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.openPredict() })},
	}, m.scrollKeys(), []lessonAction{{b: ok.Close, do: closeOverlay}, {b: lk.Text, do: closeOverlay}})
}

func (*textOverlay) draw(m *LessonModel, p *lessonPage) (title string, footer []string) {
	t, tx := p.t, m.text
	p.para(&t.text, tx.Intro)
	p.heading(m.say("tui-goal"))
	p.para(&t.text, tx.Goal)
	if m.l.Predict != nil {
		p.heading(m.say("tui-predict-heading"))
		p.para(&t.text, tx.Predict+" "+m.say("tui-predict-how"))
	}
	if m.done {
		p.heading(m.say("tui-why"))
		p.para(&t.text, tx.Explanation)
		if tx.Simplified != "" {
			p.heading(m.say("tui-simplified"))
			p.para(&t.dim, tx.Simplified)
		}
	}
	return m.say("tui-pane-title", "n", fmt.Sprint(m.l.Number), "of", fmt.Sprint(len(m.lo.Course.Lessons)), "title", tx.Title), []string{"", m.sayFooter(p, "tui-text-footer")}
}

// The lesson list.

// pickerOverlay is the list of lessons, with the learner's progress, and
// its cursor.
type pickerOverlay struct {
	scrolled
	pick int
}

func (*pickerOverlay) actions(m *LessonModel) []lessonAction {
	ok := lessonOverlayKeys
	n := len(m.lo.Course.Lessons)
	quit := ok.Quit
	quit.SetEnabled(m.pg.keys.Quit.Enabled()) // the page's q does not quit
	return []lessonAction{
		{b: ok.Choose, do: lessonDo(func(m *LessonModel, msg tea.KeyPressMsg) {
			if backward(msg) {
				m.picker.pick = (m.picker.pick + n - 1) % n
			} else {
				m.picker.pick = (m.picker.pick + 1) % n
			}
		})},
		{b: ok.Top, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.picker.pick = 0 })},
		{b: ok.Bottom, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.picker.pick = n - 1 })},
		{b: ok.Open, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.switchTo(m.lo.Course.Lessons[m.picker.pick]) })},
		{b: ok.Back, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.over = overNone })},
		{b: quit, do: func(m *LessonModel, _ tea.KeyPressMsg) tea.Cmd { return m.pg.quit() }},
	}
}

func (o *pickerOverlay) draw(m *LessonModel, p *lessonPage) (title string, footer []string) {
	t := p.t
	var ids []string
	for _, l := range m.lo.Course.Lessons {
		ids = append(ids, l.ID)
	}
	p.para(&t.dim, m.say("tui-picker-head", "done", fmt.Sprint(m.prog.Done(ids)), "all", fmt.Sprint(len(ids))))
	p.out = append(p.out, "")
	for i, l := range m.lo.Course.Lessons {
		mark := "  "
		if m.prog.Of(l.ID).Done {
			mark = "✓ "
		}
		var ln line
		cur := "  "
		if i == o.pick {
			cur = "▸ "
		}
		ln.add(&t.text, cur).add(&t.ok, mark).add(&t.text, fmt.Sprintf("%2d  %s", l.Number, l.T(m.lo.Locale).Title)).add(&t.dim, "  "+m.say("cli-minutes", "n", fmt.Sprint(l.Minutes)))
		var over *ink
		if i == o.pick {
			over = &t.sel
			p.keep = [2]int{len(p.out), len(p.out) + 1}
		}
		p.out = append(p.out, ln.render(p.width, over))
	}
	foot := []string{"", m.say("tui-picker-footer")}
	if m.pane.note != "" {
		foot = append(foot, m.pane.note)
	}
	return m.say("tui-picker-title"), foot
}

// The solution.

// solutionOverlay is the solution, step by step, and how many of its
// steps were replayed (-1: none yet).
type solutionOverlay struct {
	scrolled
	replayed int
}

func (*solutionOverlay) actions(m *LessonModel) []lessonAction {
	ok, lk := lessonOverlayKeys, lessonKeys
	return slices.Concat([]lessonAction{
		{b: ok.Replay, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.replayNext() })},
	}, m.scrollKeys(), []lessonAction{{b: ok.Close, do: closeOverlay}, {b: lk.Solution, do: closeOverlay}})
}

func (o *solutionOverlay) draw(m *LessonModel, p *lessonPage) (title string, footer []string) {
	t, tx := p.t, m.text
	p.para(&t.text, tx.Solution)
	p.out = append(p.out, "")
	for i, st := range m.l.Solution {
		mark := "  "
		if i < o.replayed {
			mark = "✓ "
		}
		p.out = append(p.out, t.text.Render(fmt.Sprintf("%s%d. %s", mark, i+1, st.Describe())))
	}
	p.heading(m.say("tui-why"))
	p.para(&t.text, tx.Explanation)
	return m.say("tui-solution-title"), []string{"", m.sayFooter(p, "tui-solution-footer")}
}

// The prediction.

// predictOverlay is the prediction being marked (the lesson's prediction,
// m.pred, which its run and its result read too).
type predictOverlay struct{ scrolled }

func (*predictOverlay) actions(*LessonModel) []lessonAction {
	ok := lessonOverlayKeys
	mark := func(o lessons.Outcome) func(*LessonModel, tea.KeyPressMsg) tea.Cmd {
		return lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.markPrediction(o) })
	}
	return []lessonAction{
		{b: ok.Choose, do: lessonDo(func(m *LessonModel, msg tea.KeyPressMsg) {
			// The cursor wraps, as in the lesson list and the delete picker.
			p, n := m.pred, len(m.l.Predict.Refs())
			if backward(msg) {
				p.sel = (p.sel + n - 1) % n
			} else {
				p.sel = (p.sel + 1) % n
			}
		})},
		{b: ok.Survives, do: mark(lessons.Survives)},
		{b: ok.Orphaned, do: mark(lessons.Orphaned)},
		{b: ok.Deleted, do: mark(lessons.Deleted)},
		{b: ok.Terminating, do: mark(lessons.Terminating)},
		{b: ok.RunPrediction, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
			for _, r := range m.l.Predict.Refs() {
				if m.pred.marks[r] == "" {
					m.pane.setNote(true, m.say("tui-predict-incomplete", "object", r))
					return
				}
			}
			m.pane.setNote(false, "")
			m.runPrediction()
		})},
		{b: ok.Close, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.over = overNone })},
	}
}

func (*predictOverlay) draw(m *LessonModel, p *lessonPage) (title string, footer []string) {
	t, tx := p.t, m.text
	p.para(&t.text, tx.Predict)
	p.out = append(p.out, "")
	var steps []string
	for _, st := range m.l.Predict.Steps {
		steps = append(steps, st.Describe())
	}
	p.para(&t.dim, m.say("tui-predict-action", "steps", strings.Join(steps, "; ")))
	p.out = append(p.out, "")
	pr := m.pred
	for i, ref := range m.l.Predict.Refs() {
		mk := "?"
		if pr.marks[ref] != "" {
			mk = m.outcome(pr.marks[ref])
		}
		if pr.marks[ref] == lessons.Deleted && m.l.Predict.Order {
			mk += fmt.Sprintf(" #%d", indexOf(pr.order, ref)+1)
		}
		var ln line
		cur := "  "
		if i == pr.sel {
			cur = "▸ "
		}
		ln.add(&t.text, fmt.Sprintf("%s%-40s ", cur, ref)).add(&t.bold, mk)
		var over *ink
		if i == pr.sel {
			over = &t.sel
		}
		p.out = append(p.out, ln.render(p.width, over))
	}
	foot := []string{"", m.say("tui-predict-keys")}
	if m.l.Predict.Order {
		foot = append(foot, m.say("tui-predict-order"))
	}
	if m.pane.note != "" {
		foot = append(foot, m.pane.note)
	}
	return m.say("tui-predict-title"), foot
}

// outcome names a prediction's outcome in the lesson's language.
func (m *LessonModel) outcome(o lessons.Outcome) string {
	if o == "" {
		return m.say("tui-outcome-none")
	}
	return m.say("tui-outcome-" + string(o))
}

// The prediction's result.

// resultOverlay is the prediction's result, object by object.
type resultOverlay struct{ scrolled }

func (*resultOverlay) actions(m *LessonModel) []lessonAction {
	ok, lk := lessonOverlayKeys, lessonKeys
	return slices.Concat(m.scrollKeys(), []lessonAction{{b: ok.Close, do: closeOverlay}, {b: lk.Restart, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
		m.over = overNone
		m.restart()
		m.pg.setMsg(msgInfo, m.say("tui-restarted"))
	})}})
}

func (*resultOverlay) draw(m *LessonModel, p *lessonPage) (title string, footer []string) {
	t := p.t
	r := m.pred.result
	p.para(&t.bold, m.say("tui-result-score", "score", m.say("tui-score", "right", fmt.Sprint(r.Right), "total", fmt.Sprint(r.Total))))
	for _, o := range r.Objects {
		p.out = append(p.out, "")
		mark, st := "✓", &t.ok
		if !o.Right {
			mark, st = "✗", &t.err
		}
		var ln line
		ln.add(st, mark+" ").add(&t.bold, o.Ref).add(&t.text, ": "+m.outcome(o.Actual))
		if !o.Right {
			ln.add(&t.warn, " "+m.say("tui-result-you-said", "said", m.outcome(o.Predicted)))
		}
		p.out = append(p.out, ln.render(p.width, nil))
		p.para(&t.dim, o.Why)
	}
	if r.Order != nil {
		p.out = append(p.out, "")
		mark, st := "✓", &t.ok
		if !r.Order.Right {
			mark, st = "✗", &t.err
		}
		p.out = append(p.out, st.Render(mark+" "+m.say("tui-result-order", "actual", strings.Join(r.Order.Actual, " → "))))
		if !r.Order.Right {
			p.para(&t.warn, m.say("tui-result-you-said", "said", strings.Join(r.Order.Predicted, " → ")))
		}
	}
	return m.say("tui-result-title"), []string{"", m.sayFooter(p, "tui-result-footer")}
}

// The goal reached.

// doneOverlay is the goal reached, and why.
type doneOverlay struct{ scrolled }

func (*doneOverlay) actions(m *LessonModel) []lessonAction {
	ok, lk := lessonOverlayKeys, lessonKeys
	return slices.Concat([]lessonAction{
		{b: ok.NextLesson, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) {
			if next := m.lo.Course.Next(m.l); next != nil {
				m.switchTo(next)
				return
			}
			m.over = overPicker
		})},
		{b: lk.Lessons, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.over, m.picker.pick = overPicker, m.l.Number-1 })},
		// The text, with the explanation now.
		{b: lk.Text, do: lessonDo(func(m *LessonModel, _ tea.KeyPressMsg) { m.show(overText) })},
	}, m.scrollKeys(), []lessonAction{{b: ok.Close, do: closeOverlay}})
}

func (*doneOverlay) draw(m *LessonModel, p *lessonPage) (title string, footer []string) {
	t, tx := p.t, m.text
	p.para(&t.ok, m.say("tui-done-head"))
	p.heading(m.say("tui-why"))
	p.para(&t.text, tx.Explanation)
	if tx.Simplified != "" {
		p.heading(m.say("tui-simplified"))
		p.para(&t.dim, tx.Simplified)
	}
	foot := m.sayFooter(p, "tui-done-footer")
	if m.lo.Course.Next(m.l) == nil {
		foot = m.sayFooter(p, "tui-done-footer-last")
	}
	return m.say("tui-done-title", "title", tx.Title), []string{"", foot}
}
