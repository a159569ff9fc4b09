package tui

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// action is a key a component answers and what it does. A component's
// actions are its key map and its key handler at once: dispatch runs
// them, and help lists them, so a key help names always works and a key
// that works is always named.
type action struct {
	b  key.Binding
	do func(m *Model, msg tea.KeyPressMsg) tea.Cmd
	// short is the action's place in the one-line help under the command
	// bar (shortHelp); the zero value leaves it out.
	short shortEntry
}

// shortEntry is an action's place in the one-line help: at orders the
// entries (from 1), wide leaves it out below wideWidth, and name and desc,
// when set, name it there more briefly. Actions with the same place are
// one entry, answering the keys of each ("←→ time": back and forward).
type shortEntry struct {
	at         int
	wide       bool
	name, desc string
}

// shortHelp is the one-line help under the command bar in normal mode:
// the actions that have a place there (shortEntry) among those of the
// components that answer keys now (normalComponents), so it names only
// keys that work. wide is for a terminal at least wideWidth wide.
func (m *Model) shortHelp(wide bool) []key.Binding {
	type entry struct {
		at int
		b  key.Binding
	}
	var es []entry
	for _, acts := range m.normalComponents() {
		for _, a := range acts {
			s := a.short
			if s.at == 0 || s.wide && !wide {
				continue
			}
			b := a.b
			if s.name != "" {
				b = withHelp(b, s.name, s.desc)
			}
			if i := slices.IndexFunc(es, func(e entry) bool { return e.at == s.at }); i >= 0 {
				es[i].b = merged(es[i].b, b)
				continue
			}
			es = append(es, entry{s.at, b})
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].at < es[j].at })
	out := make([]key.Binding, len(es))
	for i, e := range es {
		out[i] = e.b
	}
	return out
}

// dispatch runs the first of acts whose binding matches msg; ok is false
// when none does.
func dispatch(m *Model, acts []action, msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	for _, a := range acts {
		if key.Matches(msg, a.b) {
			return a.do(m, msg), true
		}
	}
	return nil, false
}

// do0 makes an action's handler of a method that returns nothing.
func do0(f func(m *Model)) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, _ tea.KeyPressMsg) tea.Cmd { f(m); return nil }
}

// withDesc is b with another description (the same key, named for what it
// does in one pane).
func withDesc(b key.Binding, desc string) key.Binding { return withHelp(b, b.Help().Key, desc) }

// withHelp is b named otherwise in help: the same keys.
func withHelp(b key.Binding, name, desc string) key.Binding {
	out := key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(name, desc))
	out.SetEnabled(b.Enabled())
	return out
}

// The playground's components in normal mode, in the order a key is
// offered to them: the keys that work in every pane, the focused pane's
// own (moving its cursor, enter), then the collector's, the timeline's
// and the world tree's commands, which act from any pane (on the
// selection, at the timeline's position).
func (m *Model) normalComponents() [][]action {
	c := m.statusBar.cache
	if c == nil || m.focus < 0 || m.focus >= numPanes {
		return [][]action{m.globalActions(), m.paneActions(), collectorActions, timelineActions, worldActions}
	}
	t := &c.normal[m.focus]
	if *t == nil {
		*t = [][]action{m.globalActions(), m.paneActions(), collectorActions, timelineActions, worldActions}
	}
	return *t
}

// normalKey is a key in normal mode.
func (m *Model) normalKey(msg tea.KeyPressMsg) tea.Cmd {
	for _, acts := range m.normalComponents() {
		if cmd, ok := dispatch(m, acts, msg); ok {
			return cmd
		}
	}
	m.unboundKey(msg)
	return nil
}

// globalActions are the keys that work whatever pane has the focus.
func (m *Model) globalActions() []action {
	k := m.keys
	return []action{
		{b: k.Quit, do: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.quit() }, short: shortEntry{at: 11}},
		m.forceQuitAction(),
		{b: k.Esc, do: do0(func(m *Model) {
			if m.running != nil || m.playing {
				m.stop("stopped")
				return
			}
			m.msg = ""
		})},
		{b: k.Help, do: do0(func(m *Model) { m.mode, m.overlayTop = modeHelp, 0 }), short: shortEntry{at: 10}},
		{b: k.Command, do: do0(func(m *Model) { m.openCommand("") }), short: shortEntry{at: 8}},
		{b: k.NextPane, do: do0(func(m *Model) { m.setFocus((m.focus + 1) % numPanes) }),
			short: shortEntry{at: 9, name: "tab", desc: "panes"}},
		{b: k.PrevPane, do: do0(func(m *Model) { m.setFocus((m.focus + numPanes - 1) % numPanes) })},
	}
}

// component is a pane of the playground: its keys with what they do (its
// update: dispatch runs them, help lists them) and its view, which draws
// its state and the shared state (the world's snapshot, the theme) and
// changes nothing. The Model is these components and the state they share.
type component interface {
	actions(m *Model) []action
	view(m *Model, r rect) []string
}

var (
	_ component = (*worldTree)(nil)
	_ component = (*collectorState)(nil)
	_ component = (*inspectorState)(nil)
	_ component = (*timelineState)(nil)
)

// pane returns pane p's component.
func (m *Model) pane(p pane) component {
	switch p {
	case paneWorld:
		return m.world()
	case paneCollector:
		return m.collector()
	case paneInspector:
		return m.inspector()
	}
	return m.timeline()
}

// paneActions are the focused pane's keys: they move its cursor (the
// world tree's selection, the timeline's cursor) or scroll it (the
// collector, the inspector); enter acts on the cursor where there is one.
func (m *Model) paneActions() []action { return m.pane(m.focus).actions(m) }

func (m *Model) world() *worldTree          { return &m.worldTree }
func (m *Model) collector() *collectorState { return &m.collectorState }
func (m *Model) inspector() *inspectorState { return &m.inspectorState }
func (m *Model) timeline() *timelineState   { return &m.timelineState }

// moveActions are the keys that move a pane's cursor or scroll it, up
// and down named as what they do there.
func moveActions(k keyMap, upDown string) []action {
	mv := func(d func(m *Model) int) func(*Model, tea.KeyPressMsg) tea.Cmd {
		return do0(func(m *Model) { m.move(d(m)) })
	}
	page := func(m *Model) int { return max(m.paneInner(m.focus)-1, 1) }
	return []action{
		{b: withDesc(k.Up, upDown), do: mv(func(*Model) int { return -1 })},
		{b: k.Down, do: mv(func(*Model) int { return 1 })},
		{b: k.PageUp, do: mv(func(m *Model) int { return -page(m) })},
		{b: k.PageDown, do: mv(page)},
		{b: k.Top, do: mv(func(*Model) int { return -1 << 30 })},
		{b: k.Bottom, do: mv(func(*Model) int { return 1 << 30 })},
	}
}

// actions of the world tree: select, and enter shows the selected object
// in the inspector.
func (w *worldTree) actions(m *Model) []action {
	return append(moveActions(m.keys, "select"),
		action{b: withDesc(m.keys.Enter, "inspect selected"), do: do0(func(m *Model) { m.setFocus(paneInspector) })})
}

// actions of the collector pane: scroll.
func (c *collectorState) actions(m *Model) []action { return moveActions(m.keys, "scroll") }

// actions of the inspector: scroll.
func (i *inspectorState) actions(m *Model) []action { return moveActions(m.keys, "scroll") }

// actions of the timeline: move the cursor, and enter goes there.
func (t *timelineState) actions(m *Model) []action {
	return append(moveActions(m.keys, "move the cursor"),
		action{b: m.keys.Enter, do: do0(func(m *Model) {
			m.stop("")
			m.timelineTo(m.tlCur)
		})})
}

// collectorActions step the collector and the controllers (the
// collector's component; they work from any pane).
var collectorActions = func() []action {
	k := newKeyMap()
	return []action{
		{b: k.Step, short: shortEntry{at: 1}, do: do0(func(m *Model) {
			m.stop("")
			m.doStep("")
		})},
		{b: k.StepQueue, do: stepQueue},
		{b: k.Advance, do: do0(func(m *Model) {
			m.stop("")
			m.doAdvance(-1)
		})},
		{b: k.Run, short: shortEntry{at: 2}, do: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.running != nil {
				m.stop("stopped")
				return nil
			}
			return m.startRun()
		}},
		{b: k.Play, short: shortEntry{at: 3, wide: true}, do: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.playing {
				m.stop("paused")
				return nil
			}
			return m.play()
		}},
		{b: k.Faster, do: do0(func(m *Model) {
			m.speed = min(m.speed+1, len(speeds)-1)
			m.setMsg(msgInfo, m.tr.T("msg-speed", "speed", speedText(m.speed)))
		})},
		{b: k.Slower, do: do0(func(m *Model) {
			m.speed = max(m.speed-1, 0)
			m.setMsg(msgInfo, m.tr.T("msg-speed", "speed", speedText(m.speed)))
		})},
		{b: k.BreakOrphan, do: do0((*Model).toggleBreakOrphan)},
	}
}()

// stepQueue steps the queue a digit names.
func stepQueue(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	m.stop("")
	names := m.s.world().QueueNames()
	n := int(msg.String()[0] - '1')
	if queueKey(n) == "" || n >= len(names) {
		m.setErr(errors.New(m.tr.T("err-no-queue", "n", fmt.Sprint(n+1), "queues", numberedQueues(names))))
		return nil
	}
	m.doStep(names[n])
	return nil
}

// timelineActions move the world along the timeline and explain its
// records (the timeline's component; they work from any pane).
var timelineActions = func() []action {
	k := newKeyMap()
	return []action{
		{b: k.BackFull, short: shortEntry{at: 4, name: "←→", desc: "time"}, do: do0(func(m *Model) {
			m.stop("")
			m.timelineTo(m.s.h.Pos() - 1)
		})},
		{b: k.Forward, short: shortEntry{at: 4}, do: do0(func(m *Model) {
			m.stop("")
			m.timelineTo(m.s.h.Pos() + 1)
		})},
		{b: k.Undo, short: shortEntry{at: 5}, do: do0(func(m *Model) {
			m.stop("")
			m.doUndo()
		})},
		{b: k.Explain, do: do0((*Model).openExplain)},
	}
}()

// worldActions act on the object selected in the world tree (the world
// tree's component; they work from any pane).
var worldActions = func() []action {
	k := newKeyMap()
	return []action{
		{b: k.Delete, short: shortEntry{at: 6}, do: do0(func(m *Model) {
			m.stop("")
			m.openPicker()
		})},
		{b: k.CreateDep, do: do0((*Model).createDependent), short: shortEntry{at: 7, wide: true}},
		{b: k.Create, do: do0(func(m *Model) { m.openCommand("create ") })},
		{b: k.Finalizer, do: do0((*Model).editFinalizer)},
		{b: k.BreakWatch, do: do0((*Model).toggleWatch)},
	}
}()

// merged is b named in help as it is, answering also the keys of more
// (↑↓ jk: up and down).
func merged(b key.Binding, more ...key.Binding) key.Binding {
	keys := b.Keys()
	for _, o := range more {
		keys = append(keys, o.Keys()...)
	}
	out := key.NewBinding(key.WithKeys(keys...), key.WithHelp(b.Help().Key, b.Help().Desc))
	out.SetEnabled(b.Enabled())
	return out
}

// fullHelp is the help view's key groups (helpGroups names them) for the
// pane with the focus: the same bindings the components answer, up and
// down named for that pane, and enter only where it acts.
func (m *Model) fullHelp() [][]key.Binding {
	k := m.keys
	pane := m.paneActions()
	moving := []key.Binding{merged(pane[0].b, pane[1].b), merged(pane[2].b, pane[3].b), merged(pane[4].b, pane[5].b)}
	for _, a := range pane[6:] {
		moving = append(moving, a.b)
	}
	return [][]key.Binding{
		{k.Step, k.StepQueue, k.Advance, k.Run, k.Play, merged(k.Faster, k.Slower)},
		{k.BackFull, k.Forward, k.Undo, k.Explain, k.BreakOrphan, k.BreakWatch},
		{k.Delete, k.CreateDep, k.Create, k.Finalizer, k.Command},
		append(moving, k.NextPane, k.PrevPane, k.Esc, k.Help, withHelp(merged(k.Quit, k.ForceQuit), "q ctrl+c", k.Quit.Help().Desc)),
	}
}

// modeActions is the keys of the open overlay or the command bar; nil in
// normal mode (normalComponents has those).
func (m *Model) modeActions() []action {
	var acts []action
	switch m.mode {
	case modeCommand:
		acts = commandActions
	case modeDelete:
		acts = pickerActions
	case modeHelp, modeExplain:
		acts = m.overlayActions(m.overlayScrolls())
	case modeResume:
		acts = append(resumeActions, action{b: m.keys.Quit, do: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.quit() }})
	default:
		return nil
	}
	return append(slices.Clip(acts), m.forceQuitAction())
}

// forceQuitAction is Ctrl+C, which quits from every view at once (a
// lesson's q asks first; in the command bar and the overlays q is a key
// of theirs). The page turns it off with q (Options.NoQuitKey).
func (m *Model) forceQuitAction() action {
	return action{b: m.keys.ForceQuit, do: func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.quit() }}
}

// modeKey is a key while the command bar or an overlay is open.
func (m *Model) modeKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := dispatch(m, m.modeActions(), msg); ok {
		return cmd
	}
	if m.mode == modeCommand && m.cmd.edit(msg) { // typing goes to the line
		m.compl = completion{}
	}
	return nil
}

// bindingsOf is the bindings of acts, in their order.
func bindingsOf(acts []action) []key.Binding {
	out := make([]key.Binding, 0, len(acts))
	for _, a := range acts {
		out = append(out, a.b)
	}
	return out
}

// backwardKey reports whether a key that moves up or down (a scroll, a
// page, a choice, previous/next) goes back.
func backwardKey(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "up", "k", "pgup", "left", "h":
		return true
	}
	return false
}

// overlayActions is the help and explain views' keys: the scrolling keys
// only when the text is longer than its window.
func (m *Model) overlayActions(scrolls bool) []action {
	k := overlayKeys
	var acts []action
	if m.mode == modeExplain {
		acts = append(acts, action{b: k.PrevNext, do: do1(func(m *Model, msg tea.KeyPressMsg) {
			if backwardKey(msg) && m.explainIdx > 0 {
				m.explainIdx--
				m.overlayTop = 0
			} else if !backwardKey(msg) && m.explainIdx < m.s.h.Len()-1 {
				m.explainIdx++
				m.overlayTop = 0
			}
		})})
	}
	if scrolls {
		by := func(n int) func(*Model, tea.KeyPressMsg) tea.Cmd {
			return do1(func(m *Model, msg tea.KeyPressMsg) {
				if backwardKey(msg) {
					m.scrollOverlay(-n)
				} else {
					m.scrollOverlay(n)
				}
			})
		}
		acts = append(acts, action{b: k.Scroll, do: by(1)}, action{b: k.Page, do: by(10)})
	}
	return append(acts, action{b: k.Close, do: do0(func(m *Model) { m.mode = modeNormal })})
}

// do1 makes an action's handler of a method that reads the key and
// returns nothing.
func do1(f func(m *Model, msg tea.KeyPressMsg)) func(*Model, tea.KeyPressMsg) tea.Cmd {
	return func(m *Model, msg tea.KeyPressMsg) tea.Cmd { f(m, msg); return nil }
}

// pickerActions is the delete picker's keys.
var pickerActions = func() []action {
	k := pickerKeys
	return []action{
		{b: k.Delete, do: do0((*Model).choosePolicy)},
		{b: k.Number, do: do1(func(m *Model, msg tea.KeyPressMsg) {
			if i := int(msg.String()[0] - '1'); i < len(m.picker.choices) {
				m.picker.sel = i
				m.choosePolicy()
			}
		})},
		{b: k.Letter, do: do1(func(m *Model, msg tea.KeyPressMsg) {
			m.picker.sel = slices.Index(pickerKeys.Letter.Keys(), msg.String())
			m.choosePolicy()
		})},
		{b: k.Choose, do: do1(func(m *Model, msg tea.KeyPressMsg) {
			n := len(m.picker.choices)
			if s := msg.String(); s == "up" || s == "k" {
				m.picker.sel = (m.picker.sel + n - 1) % n
			} else {
				m.picker.sel = (m.picker.sel + 1) % n
			}
		})},
		{b: k.Cancel, do: do0(func(m *Model) {
			m.mode = modeNormal
			m.setMsg(msgInfo, m.tr.T("msg-delete-cancelled"))
		})},
	}
}()

// commandActions is the command bar's keys; typing goes to the line.
var commandActions = func() []action {
	k := commandKeys
	edit := do1(func(m *Model, msg tea.KeyPressMsg) {
		m.cmd.edit(msg)
		m.compl = completion{}
	})
	return []action{
		{b: k.Run, do: func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			line := strings.TrimSpace(m.cmd.String())
			m.mode = modeNormal
			m.compl = completion{}
			if line == "" {
				return nil
			}
			if len(m.cmdHist) == 0 || m.cmdHist[len(m.cmdHist)-1] != line {
				m.cmdHist = append(m.cmdHist, line)
			}
			return m.execute(line)
		}},
		{b: k.Complete, do: do0((*Model).complete)},
		{b: k.History, do: do1(func(m *Model, msg tea.KeyPressMsg) {
			if msg.String() == "up" {
				m.historyUp()
			} else {
				m.historyDown()
			}
			m.compl = completion{}
		})},
		{b: k.Clear, do: edit},
		{b: k.Cancel, do: do0(func(m *Model) {
			m.mode = modeNormal
			m.compl = completion{}
		})},
		{b: k.Edit, do: edit},
	}
}()

// resumeActions is the offer to resume a kept session's keys (and quit).
var resumeActions = []action{
	{b: resumeKeys.Resume, do: do0((*Model).resume)},
	{b: resumeKeys.Fresh, do: do0((*Model).startFresh)},
}
