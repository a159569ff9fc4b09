package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/internal/locale"
	"github.com/gcplay/gcplay/lessons"
	"github.com/gcplay/gcplay/scenario"
)

// LessonOptions open the playground on the course.
type LessonOptions struct {
	Course *lessons.Course
	// Lesson is the lesson to open; nil opens the lesson picker.
	Lesson *lessons.Lesson
	// Progress keeps the learner's progress; nil keeps none.
	Progress lessons.Store
	// Locale is the language of the lessons' words.
	Locale string
	// Now is the clock for progress times; nil means time.Now.
	Now func() time.Time
}

// LessonModel is the playground with a lesson beside it: the lesson pane
// (the goal as a target next to the live state, with the differences
// marked, hints, keys), and overlays for the lesson's text, the picker,
// the prediction, the solution and the result. It wraps a playground
// Model: every key it does not use goes to the playground, which draws in
// the space the lesson pane leaves.
type LessonModel struct {
	opts   Options
	lo     LessonOptions
	pg     *Model
	l      *lessons.Lesson
	text   *lessons.Text
	grader *lessons.Grader
	prog   *lessons.Progress

	// startRecs are the engine records of the lesson's set-up.
	startRecs []engine.Record

	width, height int

	// lessonOverlays is the lesson's overlays (lessonoverlays.go), each
	// a component with its own state, and the one open.
	lessonOverlays

	// pane is the lesson pane (lessonpane.go), a component with its own
	// state: the hints shown, the lesson's note, q's question.
	pane lessonPane

	// grade is the goal's grade at gradedAt (the session version and
	// timeline position it was computed for).
	grade    *lessons.Grade
	gradedAt [2]int
	done     bool

	pred *prediction
}

type lessonOverlay int

const (
	overNone lessonOverlay = iota
	overText
	overPicker
	overSolution
	overPredict
	overResult
	overDone
)

// prediction is the learner's prediction in progress.
type prediction struct {
	sel     int
	marks   map[string]lessons.Outcome
	order   []string
	running bool
	result  *lessons.PredictResult
}

// lessonHelp is the lesson keys' column in the playground's help view.
var lessonHelp = helpGroup{name: "In a lesson", keys: lessonKeys.bindings()}

// NewLesson returns the playground opened on a lesson, or on the lesson
// picker when lo.Lesson is nil.
func NewLesson(opts Options, lo LessonOptions) (*LessonModel, error) {
	if lo.Course == nil {
		return nil, errorf("no course to open")
	}
	if lo.Locale == "" {
		lo.Locale = lessons.DefaultLocale
	}
	if lo.Now == nil {
		lo.Now = time.Now
	}
	if opts.Files == nil {
		opts.Files = noFiles{}
	}
	if opts.Lang == "" {
		// the playground speaks the lesson's language
		opts.Lang = lo.Locale
	}
	m := &LessonModel{opts: opts, lo: lo, width: opts.Width, height: opts.Height, prog: lessons.NewProgress()}
	// The grader names records as the timeline does: by position.
	m.grader = lo.Course.Grader(lo.Locale).WithRecordNames(m.recordName)
	if lo.Progress != nil {
		p, err := lo.Progress.Load()
		if p != nil {
			m.prog = p
		}
		if err != nil {
			m.pane.setNote(true, err.Error())
		}
	}
	l := lo.Lesson
	if l == nil {
		l = m.firstUndone()
	}
	if err := m.open(l); err != nil {
		return nil, err
	}
	if lo.Lesson == nil {
		m.showPicker()
	}
	return m, nil
}

// firstUndone is the first lesson not done yet, or the first.
func (m *LessonModel) firstUndone() *lessons.Lesson {
	for _, l := range m.lo.Course.Lessons {
		if !m.prog.Of(l.ID).Done {
			return l
		}
	}
	return m.lo.Course.Lessons[0]
}

// say words a phrase. Phrases name keys as {key-NAME} (key-hint,
// key-step, ...): the words come from the key maps, so a sentence always
// names the key that works.
func (m *LessonModel) say(key string, pairs ...string) string {
	return m.lo.Course.Say(m.lo.Locale, key, append(pairs, phraseKeys(true)...)...)
}

// sayFooter words an overlay's footer, which names the scrolling keys
// only when the overlay's text scrolls (p.scrolls): in the {keys-...}
// groups, and as {scroll} (" · ↑↓ scroll", or nothing) in a phrase that
// names its keys one by one.
func (m *LessonModel) sayFooter(p *lessonPage, key string) string {
	scroll := ""
	if p.scrolls {
		scroll = " · " + m.say("tui-scroll-hint")
	}
	return m.lo.Course.Say(m.lo.Locale, key, append([]string{"scroll", scroll}, phraseKeys(p.scrolls)...)...)
}

// phraseKeys are the {key-NAME} placeholders of the phrases, from the
// key maps; the {keys-...} groups of an overlay's keys name the scrolling
// keys only when scrolls is set.
func phraseKeys(scrolls bool) []string {
	pk, lk, ok := newKeyMap(), lessonKeys, lessonOverlayKeys
	var scroll []key.Binding
	if scrolls {
		scroll = []key.Binding{ok.Scroll}
	}
	// group is keyHints of the bindings and the scrolling keys, in order.
	group := func(bs ...[]key.Binding) string { return keyHints(slices.Concat(bs...)...) }
	one := func(bs ...key.Binding) []key.Binding { return bs }
	return []string{
		"key-hint", kn(lk.Hint), "key-predict", kn(lk.Predict), "key-solution", kn(lk.Solution),
		"key-text", kn(lk.Text), "key-restart", kn(lk.Restart), "key-lessons", kn(lk.Lessons),
		"key-next", kn(lk.Next), "key-handin", kn(lk.HandIn),
		"key-step", kn(pk.Step), "key-run", kn(pk.Run), "key-back", kn(pk.BackFull), "key-finalizer", kn(pk.Finalizer),
		"key-select", kn(pk.Up), "key-delete", kn(pk.Delete), "key-help", kn(pk.Help),
		"key-choose", kn(ok.Choose), "key-scroll", kn(ok.Scroll), "key-enter", kn(ok.Open), "key-esc", kn(ok.Close),
		"key-quit", kn(ok.Quit), "key-first", kn(ok.Top), "key-last", kn(ok.Bottom),
		"key-survives", kn(ok.Survives), "key-orphaned", kn(ok.Orphaned), "key-deleted", kn(ok.Deleted), "key-terminating", kn(ok.Terminating),
		"keys-text", keyHints(ok.Start, bind(kn(lk.Predict), "predict first")), "keys-close", keyHints(ok.Close),
		"keys-picker", keyHints(ok.Choose, ok.Top, ok.Bottom, ok.Open, ok.Back, ok.Quit),
		"keys-solution", group(one(ok.Replay), scroll, one(ok.Close)),
		"keys-predict", keyHints(ok.Choose, ok.Survives, ok.Orphaned, ok.Deleted, ok.Terminating, ok.RunPrediction, ok.Close),
		"keys-result", group(scroll, one(ok.Close, bind(kn(lk.Restart), "restart the lesson"))),
		"keys-done", group(one(ok.NextLesson, bind(kn(lk.Lessons), "lessons")), scroll, one(ok.Close)),
		"keys-done-last", group(one(bind(kn(lk.Lessons), "lessons")), scroll, one(ok.Close)),
		"keys-lesson", keyHints(lk.Hint, lk.Predict, lk.Solution, lk.Text, lk.Restart, lk.Lessons, lk.Next, lk.HandIn),
	}
}

// open starts lesson l on a fresh playground.
func (m *LessonModel) open(l *lessons.Lesson) error {
	run, err := l.Start()
	if err != nil {
		return errorf("lesson %s does not start: %v", l.ID, err)
	}
	pg := newModel(m.opts, newSession(l.World, run.World))
	m.pg, m.l, m.text, m.startRecs = pg, l, l.T(m.lo.Locale), run.Records
	m.pg.extraHelp = lessonHelp
	m.pane.hints = m.prog.Of(l.ID).Hints
	m.grade, m.gradedAt, m.done, m.pred, m.solution.replayed = nil, [2]int{-1, -1}, false, nil, -1
	m.show(overText)
	m.pane.setNote(false, "")
	m.resize()
	pg.selectFirst("Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "ReplicationController", "ConfigMap")
	pg.setMsg(msgInfo, m.say("tui-opened", "n", fmt.Sprint(l.Number), "title", m.text.Title))
	pg.refresh()
	m.regrade()
	return nil
}

// Init asks the terminal for its background colour, as the playground does.
func (m *LessonModel) Init() tea.Cmd { return m.pg.Init() }

// layout of the lesson pane: on the right when the terminal is wide,
// else a band at the top.
type lessonLayout struct {
	side     bool
	pane     rect
	pgW, pgH int
	// pgY is the playground's first row on the screen.
	pgY int
}

func (m *LessonModel) layout() lessonLayout {
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		w, h = 80, 24
	}
	if w >= 120 {
		pw := min(max(w*36/100, 40), 60)
		return lessonLayout{side: true, pane: rect{w - pw, 0, pw, h}, pgW: w - pw, pgH: h}
	}
	bh := min(max(h-minHeight-2, 5), 9)
	return lessonLayout{pane: rect{0, 0, w, bh}, pgW: w, pgH: h - bh, pgY: bh}
}

// resize gives the playground the space the lesson pane leaves.
func (m *LessonModel) resize() {
	ll := m.layout()
	m.pg.width, m.pg.height = ll.pgW, ll.pgH
	m.pg.ensureVisible()
}

// Update handles one message: the lesson's keys and overlays, and
// everything else through the playground.
func (m *LessonModel) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			m.over = overNone
			m.pane.setNote(true, fmt.Sprintf("internal error in the lesson, please report it: %v (at %s)", p, panicSite()))
			cmd = nil
		}
	}()
	cmd = m.update(msg)
	// The playground draws from its snapshot and scroll offsets as they
	// are: bring them up to date here, so View changes nothing.
	m.pg.refresh()
	return m, cmd
}

// update handles one message for Update.
func (m *LessonModel) update(msg tea.Msg) (cmd tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return nil
	case tea.KeyPressMsg:
		if m.over != overNone {
			return m.overlayKey(msg)
		}
		if m.pg.mode == modeNormal {
			if cmd, ok := m.pane.handle(m, msg); ok {
				return cmd
			}
		}
	case tea.MouseClickMsg:
		if m.over != overNone {
			return nil
		}
		ll := m.layout()
		mm := msg.Mouse()
		if ll.pane.contains(mm.X, mm.Y) {
			return nil
		}
		mm.Y -= ll.pgY
		_, cmd = m.pg.Update(tea.MouseClickMsg(mm))
		m.after()
		return cmd
	case tea.MouseWheelMsg:
		ll := m.layout()
		mm := msg.Mouse()
		if m.over != overNone {
			if mm.Button == tea.MouseWheelUp {
				m.scrollOverlay(-3)
			} else {
				m.scrollOverlay(3)
			}
			return nil
		}
		mm.Y -= ll.pgY
		_, cmd = m.pg.Update(tea.MouseWheelMsg(mm))
		m.after()
		return cmd
	}
	_, cmd = m.pg.Update(msg)
	m.after()
	return cmd
}

// after checks the goal and the prediction once the world may have
// changed.
func (m *LessonModel) after() {
	if m.pg.snap == nil {
		m.pg.refresh()
	}
	m.regrade()
	if m.pred != nil && m.pred.running && m.pg.running == nil && lessons.Settled(m.pg.s.world()) {
		m.scorePrediction()
		return
	}
	if m.grade != nil && m.grade.Passed && !m.done && m.pg.running == nil && (m.pred == nil || !m.pred.running) {
		m.done = true
		m.prog.MarkDone(m.l.ID, m.lo.Now())
		m.save()
		m.show(overDone)
	}
}

// recordName names the record with sequence number seq by its place in
// the timeline.
func (m *LessonModel) recordName(seq int) string {
	if m.pg != nil {
		h := m.pg.s.h
		for i := range h.Len() {
			if h.Record(i).Seq == seq {
				return m.say("tui-step-ref", "n", fmt.Sprint(i+1))
			}
		}
	}
	return m.say("tui-setup-ref")
}

// records returns the records from the lesson's start to the current
// position of the timeline.
func (m *LessonModel) records() []engine.Record {
	h := m.pg.s.h
	recs := append([]engine.Record{}, m.startRecs...)
	return h.AppendRecords(recs, 0, h.Pos())
}

// regrade grades the world at the current position, when it changed.
func (m *LessonModel) regrade() {
	at := [2]int{m.pg.s.version, m.pg.s.h.Pos()}
	if m.grade != nil && at == m.gradedAt {
		return
	}
	m.grade = m.grader.Grade(m.l, m.pg.s.world(), m.records())
	m.gradedAt = at
}

// save writes the progress, saying so when it cannot.
func (m *LessonModel) save() {
	if m.lo.Progress == nil {
		return
	}
	if err := m.lo.Progress.Save(m.prog); err != nil {
		m.pane.setNote(true, m.say("tui-save-failed", "error", err.Error()))
	}
}

func (m *LessonModel) switchTo(l *lessons.Lesson) {
	if err := m.open(l); err != nil {
		m.pane.setNote(true, err.Error())
	}
}

// restart puts the lesson back at its start, with an empty timeline.
func (m *LessonModel) restart() {
	m.pg.stop("")
	m.pg.s.reset()
	m.pg.refresh()
	m.pred, m.solution.replayed = nil, -1
	m.regrade()
}

func (m *LessonModel) writeHandIn() {
	h := m.pg.s.h
	data, err := m.l.HandIn(h.Actions()[:h.Pos()])
	if err != nil {
		m.pg.setErr(err)
		return
	}
	file := m.l.ID + ".handin.yaml"
	if err := m.pg.files.WriteFile(file, data); err != nil {
		m.pg.setErr(err)
		return
	}
	m.pg.setMsg(msgOK, m.say("tui-handin", "file", file, "id", m.l.ID))
}

// Predictions.

func (m *LessonModel) openPredict() {
	if m.l.Predict == nil {
		m.pg.setMsg(msgInfo, m.say("tui-no-predict"))
		return
	}
	if m.pred == nil || m.pred.result != nil || m.pred.running {
		m.pred = &prediction{marks: map[string]lessons.Outcome{}}
	}
	m.show(overPredict)
}

func remove(s []string, x string) []string {
	out := s[:0:0]
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

// runPrediction resets the world and makes the prediction's request; the
// learner then steps through to see who was right.
func (m *LessonModel) runPrediction() {
	m.over = overNone
	reset := m.pg.s.h.Len() > 0
	marks, order := m.predMarks(), m.predOrder()
	m.restart()
	m.pred = &prediction{marks: marks, order: order, running: true}
	steps := m.l.Predict.Steps
	for len(steps) > 0 && steps[len(steps)-1].Action == scenario.ActionSettle {
		steps = steps[:len(steps)-1]
	}
	d := &stopDoer{s: m.pg.s}
	var last []engine.Record
	for i := range steps {
		recs, err := lessons.Apply(d, &steps[i])
		last = recs
		if err != nil {
			m.pg.setErr(err)
			break
		}
	}
	m.pg.refresh()
	what := m.say("tui-predict-nothing")
	if len(last) > 0 {
		what = last[len(last)-1].Item
	}
	msg := m.say("tui-predict-started", "what", what)
	if reset {
		msg = m.say("tui-predict-reset") + " " + msg
	}
	m.pg.setMsg(msgOK, msg)
	m.regrade()
	m.after()
}

// predMarks and predOrder keep the marks of the prediction being made.
func (m *LessonModel) predMarks() map[string]lessons.Outcome {
	if m.pred == nil {
		return map[string]lessons.Outcome{}
	}
	return m.pred.marks
}

func (m *LessonModel) predOrder() []string {
	if m.pred == nil {
		return nil
	}
	return m.pred.order
}

func (m *LessonModel) scorePrediction() {
	p := m.pred
	p.running = false
	p.result = m.grader.Score(m.l, lessons.Prediction{Outcomes: p.marks, Order: p.order}, m.pg.s.world(), m.records())
	m.prog.Lesson(m.l.ID).Prediction = p.result.Score()
	m.save()
	m.show(overResult)
}

// Overlays.

// unboundInOverlay says why a key did nothing in the lesson picker.
func (m *LessonModel) unboundInOverlay(msg tea.KeyPressMsg) string {
	if msg.Text == "" {
		return ""
	}
	return fmt.Sprintf("%s is not a key in the lesson list: %s", msg.String(), m.say("tui-picker-footer"))
}

// replayNext replays the solution's next step on the lesson's world: the
// first replay starts the lesson over.
func (m *LessonModel) replayNext() {
	m.over = overNone
	so := &m.solution
	if so.replayed < 0 || so.replayed >= len(m.l.Solution) {
		m.restart()
		so.replayed = 0
	}
	st := &m.l.Solution[so.replayed]
	_, err := lessons.Apply(&stopDoer{s: m.pg.s}, st)
	m.pg.refresh()
	so.replayed++
	if err != nil {
		m.pg.setErr(err)
	} else {
		m.pg.setMsg(msgOK, m.say("tui-replayed", "n", fmt.Sprint(so.replayed), "of", fmt.Sprint(len(m.l.Solution)), "step", st.Describe()))
	}
	m.after()
}

// View draws the playground and the lesson pane, and an overlay when one
// is open.
func (m *LessonModel) View() (v tea.View) {
	defer func() {
		if p := recover(); p != nil {
			v = tea.NewView(fmt.Sprintf("gcplay could not draw the lesson (internal error, please report it): %v\nat %s\n\nPress q to quit.", p, panicSite()))
			v.AltScreen = true
		}
	}()
	ll := m.layout()
	pv := m.pg.View()
	pgLines := strings.Split(pv.Content, "\n")
	for len(pgLines) < ll.pgH {
		pgLines = append(pgLines, "")
	}
	for i, s := range pgLines {
		pgLines[i] = padStyled(s, ll.pgW)
	}
	pane := m.pane.view(m, ll)
	if m.pg.mode != modeNormal && m.pg.mode != modeCommand {
		// The playground's overlay is modal: the lesson pane's keys do not
		// work while it is open.
		clearBehind(pane, 0, len(pane)-1)
	}
	var screen []string
	if ll.side {
		screen = joinColumns(pgLines[:ll.pgH], pane)
	} else {
		screen = append(pane, pgLines[:ll.pgH]...)
	}
	if m.over != overNone {
		m.drawLessonOverlay(screen, ll)
		// The help line names the overlay's keys, not the playground's
		// below it, which do not work while it is open.
		w, _ := m.screenSize()
		h := m.pg.help // a copy: drawing does not change the model
		h.SetWidth(w - 1)
		screen[len(screen)-1] = padStyled(" "+h.ShortHelpView(m.pg.trKeys(m.helpLineKeys())), w)
	}
	v = tea.NewView(strings.Join(screen, "\n"))
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "gcplay · " + m.text.Title
	if pv.Cursor != nil && m.over == overNone {
		c := *pv.Cursor
		c.Y += ll.pgY
		v.Cursor = &c
	}
	return v
}

func oneLine(s string) string {
	// Lines are joined as locale.Reflow joins them: no space between two
	// Chinese characters, or after full-width punctuation.
	joined := ""
	for _, l := range strings.Split(s, "\n") {
		joined = locale.JoinLines(joined, strings.TrimSpace(l))
	}
	return strings.Join(strings.Fields(joined), " ")
}

// reflow joins the lines of each paragraph of s (paragraphs are separated
// by blank lines; lines starting with "- " stay lines), so the text can be
// wrapped to any width. Chinese lines join without a space.
func reflow(s string) string { return locale.Reflow(s) }

func firstLine(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// drawLessonOverlay draws the open overlay over screen.
func (m *LessonModel) drawLessonOverlay(screen []string, ll lessonLayout) {
	t := &m.pg.th
	W, H := m.screenSize()
	w, room, title, lines, foot, keep := m.overlayFrame(W, H)
	top := *m.overlay().scrollTop()
	if keep[1] > keep[0] {
		top = keepInView(keep, room, len(lines))
	}
	body := make([]string, 0, room+len(foot))
	for _, s := range scrollWindow(t, m.pg.tr, lines, room, top, w-3, keep[1] <= keep[0]) {
		body = append(body, padStyled(s, w-3))
	}
	for _, f := range foot {
		body = append(body, padStyled(f, w-3))
	}
	b := box(t, title, true, body, w, len(body)+2)
	clearBehind(screen, 0, len(screen)-2) // the help line stays
	overlay(screen, b, (W-w)/2, max((H-len(b))/2, 0))
}

// screenSize is the lesson screen's size.
func (m *LessonModel) screenSize() (int, int) {
	if m.width == 0 || m.height == 0 {
		return 80, 24
	}
	return m.width, m.height
}

// overlayFrame lays out the open overlay for a W×H screen: its width, the
// rows its body has, its title, body and footer lines, and the body lines
// to keep in view. Its footer names the scrolling keys only when its text
// is longer than its window.
func (m *LessonModel) overlayFrame(W, H int) (w, room int, title string, lines, foot []string, keep [2]int) {
	if !m.overlayScrolls() {
		return m.overlayFrameWith(W, H, false)
	}
	return m.overlayFrameWith(W, H, true)
}

// overlayScrolls reports whether the open overlay's text is longer than
// its window (with the footer naming the scrolling keys): its scrolling
// keys work only then. A text that fits with them named fits without.
func (m *LessonModel) overlayScrolls() bool {
	W, H := m.screenSize()
	_, room, _, lines, _, _ := m.overlayFrameWith(W, H, true)
	return len(lines) > room
}

// overlayFrameWith is overlayFrame, its footer naming the scrolling keys
// or not.
func (m *LessonModel) overlayFrameWith(W, H int, scrolls bool) (w, room int, title string, lines, foot []string, keep [2]int) {
	t := &m.pg.th
	w = min(W-4, 96)
	title, lines, footer, keep := m.overlayContent(w-4, scrolls)
	for _, f := range footer {
		if f == "" {
			foot = append(foot, "")
			continue
		}
		for _, fl := range wrap(f, w-4) {
			foot = append(foot, t.dim.Render(fl))
		}
	}
	room = H - 4 - len(foot)
	return w, room, title, lines, foot, keep
}

// scrollOverlay moves the open overlay's first line by d, within its text.
func (m *LessonModel) scrollOverlay(d int) {
	W, H := m.screenSize()
	_, room, _, lines, _, _ := m.overlayFrame(W, H)
	if c := m.overlay(); c != nil {
		top := c.scrollTop()
		*top = max(min(*top+d, len(lines)-room), 0)
	}
}

// overlayContent returns the open overlay's title, lines and footer, and
// the lines to keep in view (the picker's cursor). Each overlay draws
// itself (lessonOverlayComponent.draw).
func (m *LessonModel) overlayContent(width int, scrolls bool) (string, []string, []string, [2]int) {
	c := m.overlay()
	if c == nil {
		return "", nil, nil, [2]int{}
	}
	p := &lessonPage{t: &m.pg.th, width: width, scrolls: scrolls}
	title, footer := c.draw(m, p)
	return title, p.out, footer, p.keep
}

// lessonPage is an overlay's lines as they are written.
type lessonPage struct {
	t     *theme
	width int
	// scrolls is set when the footer names the scrolling keys.
	scrolls bool
	out     []string
	// keep is the lines to keep in view.
	keep [2]int
}

// para adds a paragraph, wrapped.
func (p *lessonPage) para(st *ink, s string) {
	for _, l := range wrap(reflow(s), p.width) {
		p.out = append(p.out, st.Render(l))
	}
}

// heading adds a heading, after a blank line.
func (p *lessonPage) heading(s string) {
	if len(p.out) > 0 {
		p.out = append(p.out, "")
	}
	p.out = append(p.out, p.t.bold.Render(s))
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}
