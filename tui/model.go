package tui

import (
	"github.com/gcplay/gcplay/internal/i18n"

	_ "embed"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Options configure a playground.
type Options struct {
	// Theme is one of Themes; "" means auto.
	Theme string
	// NoColor draws without colours (the NO_COLOR convention): the caller
	// reads the environment, the model does not.
	NoColor bool
	// Files gives save, load and export their file access; nil means none.
	Files Files
	// File, when set, is a scenario file (read through Files) to open
	// instead of the starter world.
	File string
	// Parsed, when set, is File already parsed (scenario.ParseFile): the
	// caller read it to check it, and a cluster dump of 100,000 objects
	// is then neither read nor parsed twice.
	Parsed *scenario.Scenario
	// Width and Height are the initial size, until the terminal reports its
	// own (tests and the browser build set them).
	Width, Height int
	// Lang is the language of the playground's own words (i18n.Langs);
	// "" is English. The caller picks it (--lang, the locale variables,
	// the browser's language): the model does not read the environment.
	Lang string
	// StepThrough makes opening and loading a scenario file put its steps
	// in the timeline (its objects are the start), so they can be rewound
	// and stepped through. Without it the file runs to its end and the
	// timeline starts there, which is what share links expect of an origin.
	StepThrough bool
	// Resume, when set, is a session kept from the last time: the
	// playground opens offering to resume it.
	Resume *Resume
	// NoQuitKey is for the browser page, where q and Ctrl+C do not quit
	// (the page says why when they are pressed, and the quit command still
	// quits): no hint or help line names them.
	NoQuitKey bool
}

//go:embed starter/replicaset.yaml
var starterReplicaSet []byte

//go:embed starter/deployment.yaml
var starterDeployment []byte

// starterScenario returns the built-in starter world: a real Deployment
// once gcplay runs a Deployment controller, a hand-made ReplicaSet and Pods
// before that.
func starterScenario() (name string, data []byte) {
	if slices.Contains(engine.AllControllers(), engine.ControllerDeployment) {
		return "starter (built in)", starterDeployment
	}
	return "starter (built in)", starterReplicaSet
}

type mode int

const (
	modeNormal mode = iota
	modeCommand
	modeDelete
	modeHelp
	modeExplain
	modeResume
)

type pane int

const (
	paneWorld pane = iota
	paneCollector
	paneInspector
	paneTimeline
	numPanes
)

func (p pane) String() string {
	return [...]string{"World", "Collector", "Inspector", "Timeline"}[p]
}

// speeds are the autoplay intervals, slowest first.
var speeds = []time.Duration{2 * time.Second, time.Second, 500 * time.Millisecond, 250 * time.Millisecond,
	100 * time.Millisecond, 50 * time.Millisecond, 20 * time.Millisecond}

// runChunk is how many steps a run takes between two frames, in a world
// of up to runChunk*runChunkObjects objects.
const runChunk = 500

// runChunkObjects: a larger world takes a frame every objects/runChunkObjects
// steps. A frame lists every queue's items and, once objects come or go,
// sorts them all into the tree: work for each object, which in a large
// cluster dump costs more than a step does, so that frequent frames take
// most of a run's time (docs/BENCHMARKS.md, "History").
const runChunkObjects = 5

// runChunkFor is how many steps a run takes between two frames in a world
// of n objects.
func runChunkFor(n int) int { return max(runChunk, n/runChunkObjects) }

type msgKind int

const (
	msgInfo msgKind = iota
	msgOK
	msgWarn
	msgErr
)

// tickMsg drives autoplay; gen tells stale ticks from the current ones.
type tickMsg struct{ gen int }

// runMsg continues a run (settle) in progress.
type runMsg struct{ gen int }

// Model is the playground: a Bubble Tea model over a session (a world and
// its timeline). It does no I/O of its own: files go through Options.Files.
// It is a composition: the state its components share (the session and
// its snapshot, the display, the mode and focus, the message line) and the
// components themselves (components.go), each with its own state, its keys
// (actions.go) and its view.
type Model struct {
	shared
	display

	mode  mode
	focus pane
	// right is the pane shown on the right in a narrow terminal.
	right pane

	// The components (components.go): their state, their keys.
	worldTree
	collectorState
	inspectorState
	timelineState
	commandBar
	overlays
	autoplay
	picker deletePicker
	statusBar
}

// shared is what every component reads: the session (the world and its
// timeline), its snapshot for drawing, the options and the words.
type shared struct {
	opts  Options
	files Files
	// tr is the playground's words in opts.Lang.
	tr   *i18n.Catalog
	s    *session
	snap *snapshot
	// extraHelp is a column of keys the help view adds (a lesson's).
	extraHelp helpGroup
	// resumed is set once the learner resumed a kept session; declined
	// once they chose to start fresh.
	resumed, declined bool
}

// display is the terminal the playground draws on: its size, its theme,
// the key map and the help renderer.
type display struct {
	width, height int
	themeName     string
	dark          bool
	th            theme
	keys          keyMap
	help          help.Model
}

// statusBarCache is what the status bar's views remember from one frame
// to the next: the lines that change rarely.
type statusBarCache struct {
	msg struct {
		key   msgKey
		lines []string
	}
	help struct {
		width int
		mode  mode
		focus pane
		line  string
	}
	// steps are the timeline pane's rows as last drawn, by step: most
	// of them are drawn the same on the next key (a step adds one row
	// and moves the ▶ by one).
	steps map[int]stepRow
	// The panes' lines and rows as last drawn (see keptPane).
	world, collector, inspector, timeline keptPane
	// normal is the keys' tables in normal mode by the focused pane
	// (normalComponents), made once: they hold only the key map, which
	// is set when the model is made.
	normal [numPanes][][]action
}

// stepRow is a timeline row as drawn, with what it was drawn from.
type stepRow struct {
	rec stepFields // the record's fields its text is made of
	// texts are the reason's sentences the text is made of too, in a
	// language other than English (nil in English).
	texts []engine.Text
	text  string // the record's line (stepLine), from rec and texts
	how   stepHow
	out   string // the row as drawn
}

// stepFields are the fields of a record that stepLine writes.
type stepFields struct {
	seq                 int
	at                  time.Duration
	actor, item         string
	code, message, rule string
}

func stepFieldsOf(r *engine.Record) stepFields {
	return stepFields{seq: r.Seq, at: r.At, actor: r.Actor, item: r.Item,
		code: r.Reason.Code, message: r.Reason.Message, rule: r.Reason.Rule}
}

// stepHow is how a timeline row is drawn apart from its text.
type stepHow struct {
	cursor   string
	st, over *ink
	width    int
}

// New returns a playground on the starter world, or on Options.File.
func New(opts Options) (*Model, error) {
	if opts.Theme == "" {
		opts.Theme = ThemeAuto
	}
	if err := validTheme(opts.Theme); err != nil {
		return nil, err
	}
	name, data := starterScenario()
	setup := true
	var parsed *scenario.Scenario
	switch {
	case opts.File != "" && opts.Parsed != nil:
		name, data, setup, parsed = opts.File, nil, !opts.StepThrough, opts.Parsed
	case opts.File != "":
		if opts.Files == nil {
			return nil, errorf("cannot open %s: this build of gcplay has no file access", opts.File)
		}
		b, err := opts.Files.ReadFile(opts.File)
		if err != nil {
			return nil, err
		}
		name, data, setup = opts.File, b, !opts.StepThrough
	default:
		// The starter is a scenario, never a cluster dump
		// (TestStarterIsAScenario): it skips ParseFile's look at whether
		// it is one, which reads the first lines with yaml.v3. Written in
		// the block style that scenario's fast reader takes (its
		// TestFastYAMLMatchesV3 requires it), the page's start then runs
		// none of yaml.v3's parser, code the browser would compile first.
		var err error
		if parsed, err = scenario.Parse(name, data); err != nil {
			return nil, err
		}
	}
	s, note, warn, err := openSession(name, data, parsed, setup)
	if err != nil {
		return nil, err
	}
	m := newModel(opts, s)
	if opts.Resume != nil {
		m.mode = modeResume
	}
	if opts.File == "" {
		m.selectFirst("Deployment", "ReplicaSet")
		k := m.keys
		m.setMsg(msgInfo, m.tr.T("msg-opened-starter", "select", kn(k.Up), "delete", kn(k.Delete), "step", kn(k.Step), "help", kn(k.Help)))
	} else {
		m.setMsg(msgInfo, m.tr.T("msg-opened", "file", name, "name", s.origin.Name, "note", note, "help", kn(m.keys.Help)))
		if warn {
			m.msgKind = msgWarn
		}
	}
	m.refresh() // the message's lines change the panes' heights
	return m, nil
}

// newModel returns a playground on a session.
func newModel(opts Options, s *session) *Model {
	files := opts.Files
	if files == nil {
		files = noFiles{}
	}
	m := &Model{
		shared:  shared{opts: opts, files: files, s: s, tr: i18n.For(opts.Lang)},
		display: display{width: opts.Width, height: opts.Height, themeName: opts.Theme, dark: true, keys: newKeyMap(), help: newHelp()},
		right:   paneCollector, autoplay: autoplay{speed: 2},
	}
	m.keys.Quit.SetEnabled(!opts.NoQuitKey)
	m.keys.ForceQuit.SetEnabled(!opts.NoQuitKey)
	m.applyTheme()
	m.refresh()
	return m
}

func newHelp() help.Model {
	h := help.New()
	h.ShortSeparator = "  "
	return h
}

// selectFirst selects the first object of the first kind listed that the
// world has.
func (m *Model) selectFirst(kinds ...string) {
	for _, k := range kinds {
		for i, r := range m.snap.tree.rows {
			if r.obj != nil && r.obj.Kind == k {
				m.sel, m.selUID = i, r.uid
				m.ensureVisible()
				return
			}
		}
	}
}

func (m *Model) applyTheme() {
	name := m.themeName
	dark := m.dark
	switch name {
	case ThemeDark:
		dark = true
	case ThemeLight:
		dark = false
	}
	if name == ThemeAuto {
		name = ThemeDark
		if !dark {
			name = ThemeLight
		}
	}
	m.th = newTheme(name, dark, m.opts.NoColor)
	m.help.Styles = m.th.helpStyles()
	m.statusBar.cache = &statusBarCache{}
}

// Init asks the terminal for its background colour, when the theme
// depends on it (auto and high-contrast have a dark and a light form).
// Dark and light need no answer: not asking saves a round trip to the
// terminal and redrawing every pane in the same theme when it comes.
func (m *Model) Init() tea.Cmd {
	if m.themeName == ThemeDark || m.themeName == ThemeLight {
		return nil
	}
	return tea.RequestBackgroundColor
}

// refresh rebuilds the snapshot if the world changed, and keeps the
// selection on the same object.
func (m *Model) refresh() {
	if m.snap == nil || m.snap.version != m.s.version || m.snap.queueShown < m.queueShown() {
		m.snap = newSnapshot(m.s, m.snap, m.queueShown())
		m.tlCur = m.snap.pos
		m.inspTop = 0
	}
	rows := m.snap.tree.rows
	if m.sel < 0 || m.sel >= len(rows) || rows[m.sel].uid != m.selUID {
		if i, ok := m.snap.tree.first[m.selUID]; ok {
			m.sel = i
		}
		m.sel = max(min(m.sel, len(rows)-1), 0)
		m.selUID = ""
		if len(rows) > 0 {
			m.selUID = rows[m.sel].uid
		}
	}
	m.ensureVisible()
}

// queueShown is how many items of a queue the collector pane can show:
// no more than its height, or 50 while it has the focus.
func (m *Model) queueShown() int { return max(m.height, 50) }

// setMsg puts s on the message line, said as k.
func (sb *statusBar) setMsg(k msgKind, s string) { sb.msgKind, sb.msg = k, s }

func (m *Model) setErr(err error) {
	var nr *notReady
	if errors.As(err, &nr) {
		m.setMsg(msgErr, m.tr.T("error", "text", nr.text(kn(m.keys.Step), kn(m.keys.StepQueue), kn(m.keys.Advance))))
		return
	}
	if !fakeapi.IsStatus(err) {
		m.setMsg(msgErr, m.tr.T("error", "text", m.errWords(err)))
		return
	}
	m.setMsg(msgErr, errText(err))
}

// errText words an error for the message line: API refusals as kubectl
// words them, with their reason ("Error from server: ..." for one the
// apiserver gives no reason, such as a 500 made of a plain error).
func errText(err error) string {
	if s, ok := fakeapi.FromServer(err); ok {
		return s
	}
	return "Error: " + err.Error()
}

// Update handles one message. A panic inside it (a gcplay bug) is caught
// and reported on screen; the program keeps running.
func (m *Model) Update(msg tea.Msg) (_ tea.Model, cmd tea.Cmd) {
	defer func() {
		if p := recover(); p != nil {
			m.playing, m.running, m.mode = false, nil, modeNormal
			m.snap = nil
			m.setMsg(msgErr, fmt.Sprintf("internal error, please report it: %v (at %s); %s undoes the last step if the world looks wrong", p, panicSite(), kn(m.keys.Undo)))
			func() {
				defer func() { _ = recover() }()
				m.refresh()
			}()
			cmd = nil
		}
	}()
	cmd = m.update(msg)
	// The views draw from the snapshot and the scroll offsets as they
	// are: bring them up to date here, once, so View changes nothing.
	m.refresh()
	return m, cmd
}

// update handles one message for Update.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.applyTheme()
	case tickMsg:
		if msg.gen == m.gen && m.playing {
			return m.autoStep()
		}
	case runMsg:
		if msg.gen == m.gen && m.running != nil {
			return m.runMore()
		}
	case tea.PasteMsg:
		if m.mode == modeCommand {
			m.cmd.insert(strings.ReplaceAll(msg.Content, "\n", " "))
			m.compl = completion{}
		}
	case tea.MouseClickMsg:
		m.click(msg.Mouse())
	case tea.MouseWheelMsg:
		m.wheel(msg.Mouse())
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return nil
}

// panicSite names the function that panicked, from the stack.
func panicSite() string {
	lines := strings.Split(string(debug.Stack()), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") && i+2 < len(lines) {
			return strings.TrimSpace(lines[i+2])
		}
	}
	return "unknown"
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.mode != modeNormal {
		return m.modeKey(msg)
	}
	return m.normalKey(msg)
}

// unboundKey says why a key did nothing, rather than ignoring it: a
// lesson's key outside a lesson, or a key nothing binds here.
func (m *Model) unboundKey(msg tea.KeyPressMsg) {
	if msg.Text == "" || msg.Mod&^tea.ModShift != 0 {
		return // shift, ctrl+x and the like: not a typed key
	}
	if m.extraHelp.name == "" {
		for _, b := range lessonKeys.bindings() {
			if key.Matches(msg, b) {
				m.setMsg(msgInfo, m.tr.T("msg-lesson-key", "key", kn(b), "desc", m.tr.UI(b.Help().Desc), "help", kn(m.keys.Help)))
				return
			}
		}
	}
	m.setMsg(msgInfo, m.tr.T("msg-not-a-key", "key", msg.String(), "help", kn(m.keys.Help)))
}

func numberedQueues(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n
		if k := queueKey(i); k != "" {
			parts[i] = k + " " + n
		}
	}
	return strings.Join(parts, ", ")
}

func speedText(i int) string {
	d := speeds[i]
	if d >= time.Second {
		return fmt.Sprintf("1 step every %s", d)
	}
	return fmt.Sprintf("%d steps a second", int(time.Second/d))
}

func (m *Model) setFocus(p pane) {
	m.focus = p
	if p == paneCollector || p == paneInspector {
		m.right = p
	}
}

// selected returns the selected row, or nil when the world is empty.
func (m *Model) selected() *row {
	if m.snap == nil || m.sel >= len(m.snap.tree.rows) {
		return nil
	}
	return &m.snap.tree.rows[m.sel]
}

// selectedObj returns the selected object in storage, or an error that
// says why there is none.
func (m *Model) selectedObj() (*fakeapi.Object, error) {
	r := m.selected()
	switch {
	case r == nil:
		return nil, errorf("nothing is selected: the world is empty (create something with %s)", kn(m.keys.Create))
	case m.snap.obj(r) == nil:
		return nil, errorf("%s is not in storage (only a reference to it is): there is nothing to act on", r.missingRef)
	}
	return m.snap.obj(r), nil
}

// move moves the cursor of the focused pane by d lines.
func (m *Model) move(d int) {
	switch m.focus {
	case paneWorld:
		n := len(m.snap.tree.rows)
		if n == 0 {
			return
		}
		m.sel = max(min(m.sel+d, n-1), 0)
		m.selUID = m.snap.tree.rows[m.sel].uid
		m.inspTop = 0
	case paneTimeline:
		m.tlCur = max(min(m.tlCur+d, m.snap.len), 0)
	case paneCollector:
		m.colTop = m.scrolled(paneCollector, m.colTop, d)
	case paneInspector:
		m.inspTop = m.scrolled(paneInspector, m.inspTop, d)
	}
	m.ensureVisible()
}

// ensureVisible scrolls the world tree and the timeline so their cursors
// are in view.
func (m *Model) ensureVisible() {
	if m.snap == nil {
		return
	}
	h := m.paneInner(paneWorld)
	if h > 0 {
		if m.sel < m.worldTop {
			m.worldTop = m.sel
		}
		if m.sel >= m.worldTop+h {
			m.worldTop = m.sel - h + 1
		}
		m.worldTop = max(min(m.worldTop, len(m.snap.tree.rows)-h), 0)
	}
	th := m.paneInner(paneTimeline)
	if th > 0 {
		if m.tlCur < m.tlTop {
			m.tlTop = m.tlCur - (th-1)/2 // some context above
		}
		if m.tlCur >= m.tlTop+th {
			m.tlTop = m.tlCur - th + 1
		}
		m.tlTop = max(min(m.tlTop, m.snap.len+1-th), 0)
	}
}

// afterChange refreshes the views after the world changed and reports a
// branch when the change cut the timeline.
func (m *Model) afterChange(r result) {
	m.refresh()
	if r.branchedFrom >= 0 && r.dropped > 0 {
		m.setMsg(msgWarn, m.tr.N("msg-branch", r.dropped, "at", fmt.Sprint(r.branchedFrom), "of", fmt.Sprint(r.branchedFrom+r.dropped), "msg", m.msg))
	}
}

func (m *Model) doStep(queue string) {
	r, err := m.s.step(queue)
	if err != nil && len(r.recs) == 0 {
		m.setErr(err)
		return
	}
	m.reportRecords(r, err)
}

// reportRecords puts the last record of an operation on the message line.
func (m *Model) reportRecords(r result, err error) {
	switch {
	case err != nil:
		m.setErr(err)
	case r.hit != "":
		m.setMsg(msgWarn, r.hit)
	case r.replayed:
		m.setMsg(msgInfo, m.tr.T("msg-replayed-step", "step", m.stepLine(m.s.h.Pos(), &r.recs[len(r.recs)-1])))
	case len(r.recs) > 0:
		m.setMsg(msgInfo, m.stepLine(m.s.h.Pos(), &r.recs[len(r.recs)-1]))
	}
	m.afterChange(r)
}

func (m *Model) doAdvance(d time.Duration) {
	r, err := m.s.advance(d)
	if err != nil && len(r.recs) == 0 {
		m.setErr(err)
		return
	}
	steps := 0
	for _, rec := range r.recs {
		if rec.Actor != "clock" {
			steps++
		}
	}
	if err == nil && r.hit == "" {
		m.setMsg(msgInfo, m.tr.N("msg-clock", steps, "at", engine.FormatElapsed(m.s.world().Elapsed())))
		m.afterChange(r)
		return
	}
	m.reportRecords(r, err)
}

func (m *Model) doUndo() {
	before := m.s.h.Pos()
	if err := m.s.undo(); err != nil {
		m.setErr(err)
		return
	}
	m.refresh()
	skipped := before - m.s.h.Pos() - 1
	note := ""
	if skipped > 0 {
		note = m.tr.N("msg-undone-skipped", skipped)
	}
	m.setMsg(msgInfo, m.tr.T("msg-undone", "n", fmt.Sprint(m.s.h.Pos()), "of", fmt.Sprint(m.s.h.Len()), "note", note))
}

// timelineTo moves the world to position p of the timeline.
func (m *Model) timelineTo(p int) {
	if p < 0 {
		m.setErr(errors.New(m.tr.T("err-at-start")))
		return
	}
	if p > m.s.h.Len() {
		m.setErr(errors.New(m.tr.T("err-at-end", "step", kn(m.keys.Step), "run", kn(m.keys.Run))))
		return
	}
	if err := m.s.gotoPos(p); err != nil {
		m.setErr(err)
		return
	}
	m.refresh()
	switch {
	case p == m.s.h.Len():
		m.setMsg(msgInfo, m.tr.T("msg-at-end", "n", fmt.Sprint(p)))
	case p == 0:
		m.setMsg(msgInfo, m.tr.T("msg-at-start", "of", fmt.Sprint(m.s.h.Len())))
	default:
		m.setMsg(msgInfo, m.tr.T("msg-rewound", "n", fmt.Sprint(p), "of", fmt.Sprint(m.s.h.Len())))
	}
}

// Autoplay and run.

func (m *Model) play() tea.Cmd {
	m.playing = true
	m.gen++
	m.setMsg(msgInfo, m.tr.T("msg-autoplay", "speed", speedText(m.speed), "play", kn(m.keys.Play), "faster", kn(m.keys.Faster)))
	return m.tick()
}

func (m *Model) tick() tea.Cmd {
	gen := m.gen
	return tea.Tick(speeds[m.speed], func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

// autoStep is one autoplay tick: a step if work is ready, else the clock
// moves to the next due work, else autoplay ends.
func (m *Model) autoStep() tea.Cmd {
	var r result
	var err error
	switch {
	case m.s.nextIsController():
		r, err = m.s.replay()
	case m.s.next() != nil:
		m.stop("")
		m.setMsg(msgInfo, m.pausedBeforeUser())
		return nil
	case m.s.ready(""):
		r, err = m.s.step("")
	default:
		if _, ok := m.s.world().NextDue(); !ok {
			m.stop("")
			m.setMsg(msgOK, m.tr.T("msg-settled-autoplay"))
			return nil
		}
		r, err = m.s.advance(-1)
	}
	m.reportRecords(r, err)
	if err != nil || r.hit != "" {
		m.playing = false
		return nil
	}
	return m.tick()
}

// pausedBeforeUser says why autoplay or a run stopped in the past: the
// timeline's next action is the user's.
func (m *Model) pausedBeforeUser() string {
	return m.tr.T("msg-paused-before-user", "n", fmt.Sprint(m.s.h.Pos()), "action", fmt.Sprint(m.s.next()))
}

func (m *Model) startRun() tea.Cmd {
	// In the past, run first replays the recorded controller steps.
	if m.s.h.Pos() < m.s.h.Len() {
		n := 0
		for m.s.nextIsController() {
			r, err := m.s.replay()
			n++
			if err != nil || r.hit != "" {
				m.reportRecords(r, err)
				return nil
			}
		}
		if m.s.next() != nil {
			m.refresh()
			m.setMsg(msgInfo, m.tr.N("msg-replayed", n)+m.pausedBeforeUser())
			return nil
		}
	}
	m.playing = false
	m.running = m.s.startSettle()
	m.gen++
	return m.runMore()
}

func (m *Model) runMore() tea.Cmd {
	run := m.running
	over, err := m.s.settleChunk(run, runChunkFor(m.s.world().Store().Len()))
	m.refresh()
	if !over {
		m.setMsg(msgInfo, m.tr.T("msg-running", "n", fmt.Sprint(run.steps), "key", kn(m.keys.Esc)))
		gen := m.gen
		return func() tea.Msg { return runMsg{gen: gen} }
	}
	m.running = nil
	r := run.r
	switch {
	case err != nil:
		m.setErr(err)
	case r.hit != "":
		m.setMsg(msgWarn, m.tr.N("msg-hit", run.steps, "hit", r.hit))
	case r.backoff:
		m.setMsg(msgWarn, m.tr.N("msg-stopped-backoff", run.steps))
	case r.unsettled != "":
		m.setMsg(msgWarn, m.tr.T("msg-paused", "n", fmt.Sprint(run.steps), "next", r.unsettled, "key", kn(m.keys.Run)))
	default:
		msg := m.tr.N("msg-settled", run.steps, "at", engine.FormatElapsed(m.s.world().Elapsed()))
		if due, ok := m.s.world().NextTimer(); ok {
			msg += m.tr.T("msg-clock-waits", "at", engine.FormatElapsed(due))
		}
		m.setMsg(msgOK, msg)
	}
	m.afterChange(r)
	return nil
}

// stop ends autoplay and any run in progress.
func (m *Model) stop(why string) {
	if m.running != nil {
		switch why {
		case "stopped":
			m.sayMsg(msgInfo, "run stopped after %d steps", m.running.steps)
		case "paused":
			m.sayMsg(msgInfo, "run paused after %d steps", m.running.steps)
		}
		m.running = nil
	} else if m.playing {
		switch why {
		case "stopped":
			m.sayMsg(msgInfo, "autoplay stopped")
		case "paused":
			m.sayMsg(msgInfo, "autoplay paused")
		}
	}
	m.playing = false
	m.gen++
}

// Breakpoints.

func (m *Model) toggleBreakOrphan() {
	m.s.breakOrphan = !m.s.breakOrphan
	if m.s.breakOrphan {
		m.setMsg(msgInfo, m.tr.T("msg-break-orphan", "key", kn(m.keys.BreakOrphan)))
	} else {
		m.setMsg(msgInfo, m.tr.T("msg-break-cleared", "name", "attemptToOrphan"))
	}
}

func (m *Model) toggleWatch() {
	r := m.selected()
	if r == nil {
		m.setErr(errors.New(m.tr.T("err-nothing-to-watch")))
		return
	}
	name := m.rowName(r)
	if _, ok := m.s.watch[r.uid]; ok {
		delete(m.s.watch, r.uid)
		m.setMsg(msgInfo, m.tr.T("msg-break-cleared", "name", name))
		return
	}
	m.s.watch[r.uid] = name
	m.setMsg(msgInfo, m.tr.T("msg-break-watch", "name", name, "key", kn(m.keys.BreakWatch)))
}

func (m *Model) rowName(r *row) string {
	if r.obj != nil {
		return r.obj.String()
	}
	return r.missingRef
}

// Acting on the selection.

func (m *Model) openPicker() {
	obj, err := m.selectedObj()
	if err != nil {
		m.setErr(err)
		return
	}
	t := m.snap.tree
	deps := t.deps[obj.Metadata.UID]
	store := m.s.world().Store()
	m.picker.ref = fakeapi.RefOf(obj)
	m.picker.name = obj.String()
	m.picker.choices = deleteChoices(m.tr, obj, t, store.ByUID, m.snap.reg)
	m.picker.sel = 0
	blocking := 0
	for _, d := range deps {
		if d.ref.Blocks() {
			blocking++
		}
	}
	fin := m.tr.T("picker-no-finalizers")
	if len(obj.Metadata.Finalizers) > 0 {
		fin = strings.Join(obj.Metadata.Finalizers, ", ")
	}
	below := ""
	if n := t.descendants(obj.Metadata.UID) - len(deps); n > 0 {
		below = m.tr.T("picker-below", "n", fmt.Sprint(n))
	}
	m.picker.header = m.tr.N("picker-header", len(deps), "blocking", fmt.Sprint(blocking), "below", below, "finalizers", fin)
	m.mode = modeDelete
}

func (m *Model) choosePolicy() {
	m.mode = modeNormal
	c := m.picker.choices[m.picker.sel]
	var opts *fakeapi.DeleteOptions
	if c.policy != "" {
		p := c.policy
		opts = &fakeapi.DeleteOptions{PropagationPolicy: &p}
	}
	m.doDelete(m.picker.ref, opts)
}

func (m *Model) doDelete(ref fakeapi.Ref, opts *fakeapi.DeleteOptions) {
	if opts == nil {
		opts = &fakeapi.DeleteOptions{}
	}
	r, err := m.s.act(engine.Delete{Ref: ref, Options: opts})
	if err != nil && len(r.recs) == 0 {
		m.setErr(err)
		return
	}
	m.reportAct(r, err, m.tr.T("next-after-delete", "step", kn(m.keys.Step), "run", kn(m.keys.Run)))
}

// reportAct reports a user request: its record's reason, and what to do next.
func (m *Model) reportAct(r result, err error, next string) {
	if err != nil {
		m.setErr(err)
		m.afterChange(r)
		return
	}
	rec := r.recs[len(r.recs)-1]
	text := m.reasonText(rec.Reason)
	if text == "" {
		text = rec.String()
	}
	if next != "" {
		// "Next:" rather than a capital: next starts with a key, and a
		// key's case matters.
		text = strings.TrimSuffix(text, ".") + m.tr.T("next-after", "next", next)
	}
	m.setMsg(msgOK, text)
	m.afterChange(r)
}

// createDependent opens the command bar with a create of a pod owned by
// the selected object.
func (m *Model) createDependent() {
	obj, err := m.selectedObj()
	if err != nil {
		m.setErr(err)
		return
	}
	name := obj.Metadata.Name + "-dep"
	store := m.s.world().Store()
	for i := 2; store.Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: nsOr(obj.Metadata.Namespace), Name: name}) != nil; i++ {
		name = fmt.Sprintf("%s-dep%d", obj.Metadata.Name, i)
	}
	ns := ""
	if fakeapi.ShowNamespace(obj.Metadata.Namespace) {
		ns = " -n " + obj.Metadata.Namespace
	}
	m.openCommand(fmt.Sprintf("create pod %s --owner %s --block%s", name, shortRef(m.snap.reg, obj), ns))
	m.setMsg(msgInfo, m.tr.T("msg-edit-dependent"))
}

func nsOr(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// editFinalizer opens the command bar to remove the selected object's
// first non-GC finalizer, or to add one.
func (m *Model) editFinalizer() {
	obj, err := m.selectedObj()
	if err != nil {
		m.setErr(err)
		return
	}
	ref := shortRef(m.snap.reg, obj)
	for _, f := range obj.Metadata.Finalizers {
		m.openCommand(fmt.Sprintf("finalizer remove %s %s", ref, f))
		return
	}
	m.openCommand(fmt.Sprintf("finalizer add %s example.com/hold", ref))
}

// Overlays.

func (m *Model) openExplain() {
	idx := m.snap.pos - 1
	if m.focus == paneTimeline {
		idx = m.tlCur - 1
	}
	if idx < 0 {
		m.setErr(errors.New(m.tr.T("err-nothing-to-explain")))
		return
	}
	m.explainIdx = idx
	m.mode, m.overlayTop = modeExplain, 0
}

// Mouse.

func (m *Model) click(ms tea.Mouse) {
	if m.mode != modeNormal || ms.Button != tea.MouseLeft {
		return
	}
	l := m.layout()
	p, row, ok := l.hit(ms.X, ms.Y)
	if !ok {
		return
	}
	m.setFocus(p)
	switch p {
	case paneWorld:
		i := m.worldTop + row
		if i >= 0 && i < len(m.snap.tree.rows) {
			m.sel = i
			m.selUID = m.snap.tree.rows[i].uid
			m.inspTop = 0
		}
	case paneTimeline:
		pos := m.tlTop + row
		if pos >= 0 && pos <= m.snap.len {
			m.stop("")
			m.timelineTo(pos)
		}
	}
}

func (m *Model) wheel(ms tea.Mouse) {
	l := m.layout()
	p, _, ok := l.hit(ms.X, ms.Y)
	if !ok {
		return
	}
	d := 3
	if ms.Button == tea.MouseWheelUp {
		d = -3
	} else if ms.Button != tea.MouseWheelDown {
		return
	}
	old := m.focus
	m.focus = p
	m.move(d)
	m.focus = old
}

// quit ends the program.
func (m *Model) quit() tea.Cmd { return tea.Quit }

// scrolled returns a pane's scroll offset moved by d lines, kept within
// its text (View draws from the offset and never changes it). The pane
// with the focus is the one on screen.
func (m *Model) scrolled(p pane, top, d int) int {
	l := m.layout()
	r, view := l.collector, m.collector().lines
	if p == paneInspector {
		r, view = l.inspector, m.inspector().lines
	}
	if r.h == 0 {
		return max(top+d, 0)
	}
	_, n := view(m, r)
	return max(min(top+d, n-(r.h-2)), 0)
}
