package tui

import (
	"errors"
	"fmt"
	"slices"
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
func withDesc(b key.Binding, desc string) key.Binding {
	out := key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
	out.SetEnabled(b.Enabled())
	return out
}

// The playground's components in normal mode, in the order a key is
// offered to them: the keys that work in every pane, the focused pane's
// own (moving its cursor, enter), then the collector's, the timeline's
// and the world tree's commands, which act from any pane (on the
// selection, at the timeline's position).
func (m *Model) normalComponents() [][]action {
	return [][]action{m.globalActions(), m.paneActions(), collectorActions, timelineActions, worldActions}
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
		{k.Quit, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.quit() }},
		{k.Esc, do0(func(m *Model) {
			if m.running != nil || m.playing {
				m.stop("stopped")
				return
			}
			m.msg = ""
		})},
		{k.Help, do0(func(m *Model) { m.mode, m.overlayTop = modeHelp, 0 })},
		{k.Command, do0(func(m *Model) { m.openCommand("") })},
		{k.NextPane, do0(func(m *Model) { m.setFocus((m.focus + 1) % numPanes) })},
		{k.PrevPane, do0(func(m *Model) { m.setFocus((m.focus + numPanes - 1) % numPanes) })},
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
		{withDesc(k.Up, upDown), mv(func(*Model) int { return -1 })},
		{k.Down, mv(func(*Model) int { return 1 })},
		{k.PageUp, mv(func(m *Model) int { return -page(m) })},
		{k.PageDown, mv(page)},
		{k.Top, mv(func(*Model) int { return -1 << 30 })},
		{k.Bottom, mv(func(*Model) int { return 1 << 30 })},
	}
}

// actions of the world tree: select, and enter shows the selected object
// in the inspector.
func (w *worldTree) actions(m *Model) []action {
	return append(moveActions(m.keys, "select"),
		action{withDesc(m.keys.Enter, "inspect selected"), do0(func(m *Model) { m.setFocus(paneInspector) })})
}

// actions of the collector pane: scroll.
func (c *collectorState) actions(m *Model) []action { return moveActions(m.keys, "scroll") }

// actions of the inspector: scroll.
func (i *inspectorState) actions(m *Model) []action { return moveActions(m.keys, "scroll") }

// actions of the timeline: move the cursor, and enter goes there.
func (t *timelineState) actions(m *Model) []action {
	return append(moveActions(m.keys, "move the cursor"),
		action{m.keys.Enter, do0(func(m *Model) {
			m.stop("")
			m.timelineTo(m.tlCur)
		})})
}

// collectorActions step the collector and the controllers (the
// collector's component; they work from any pane).
var collectorActions = func() []action {
	k := newKeyMap()
	return []action{
		{k.Step, do0(func(m *Model) {
			m.stop("")
			m.doStep("")
		})},
		{k.StepQueue, stepQueue},
		{k.Advance, do0(func(m *Model) {
			m.stop("")
			m.doAdvance(-1)
		})},
		{k.Run, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.running != nil {
				m.stop("stopped")
				return nil
			}
			return m.startRun()
		}},
		{k.Play, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
			if m.playing {
				m.stop("paused")
				return nil
			}
			return m.play()
		}},
		{k.Faster, do0(func(m *Model) {
			m.speed = min(m.speed+1, len(speeds)-1)
			m.setMsg(msgInfo, m.tr.T("msg-speed", "speed", speedText(m.speed)))
		})},
		{k.Slower, do0(func(m *Model) {
			m.speed = max(m.speed-1, 0)
			m.setMsg(msgInfo, m.tr.T("msg-speed", "speed", speedText(m.speed)))
		})},
		{k.BreakOrphan, do0((*Model).toggleBreakOrphan)},
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
		{k.BackFull, do0(func(m *Model) {
			m.stop("")
			m.timelineTo(m.s.h.Pos() - 1)
		})},
		{k.Forward, do0(func(m *Model) {
			m.stop("")
			m.timelineTo(m.s.h.Pos() + 1)
		})},
		{k.Undo, do0(func(m *Model) {
			m.stop("")
			m.doUndo()
		})},
		{k.Explain, do0((*Model).openExplain)},
	}
}()

// worldActions act on the object selected in the world tree (the world
// tree's component; they work from any pane).
var worldActions = func() []action {
	k := newKeyMap()
	return []action{
		{k.Delete, do0(func(m *Model) {
			m.stop("")
			m.openPicker()
		})},
		{k.CreateDep, do0((*Model).createDependent)},
		{k.Create, do0(func(m *Model) { m.openCommand("create ") })},
		{k.Finalizer, do0((*Model).editFinalizer)},
		{k.BreakWatch, do0((*Model).toggleWatch)},
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
		append(moving, k.NextPane, k.PrevPane, k.Esc, k.Help, k.Quit),
	}
}

// modeActions is the keys of the open overlay or the command bar; nil in
// normal mode (normalComponents has those).
func (m *Model) modeActions() []action {
	switch m.mode {
	case modeCommand:
		return commandActions
	case modeDelete:
		return pickerActions
	case modeHelp, modeExplain:
		return m.overlayActions(m.overlayScrolls())
	case modeResume:
		return append(resumeActions, action{m.keys.Quit, func(m *Model, _ tea.KeyPressMsg) tea.Cmd { return m.quit() }})
	}
	return nil
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
		acts = append(acts, action{k.PrevNext, do1(func(m *Model, msg tea.KeyPressMsg) {
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
		acts = append(acts, action{k.Scroll, by(1)}, action{k.Page, by(10)})
	}
	return append(acts, action{k.Close, do0(func(m *Model) { m.mode = modeNormal })})
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
		{k.Delete, do0((*Model).choosePolicy)},
		{k.Number, do1(func(m *Model, msg tea.KeyPressMsg) {
			if i := int(msg.String()[0] - '1'); i < len(m.picker.choices) {
				m.picker.sel = i
				m.choosePolicy()
			}
		})},
		{k.Letter, do1(func(m *Model, msg tea.KeyPressMsg) {
			m.picker.sel = slices.Index(pickerKeys.Letter.Keys(), msg.String())
			m.choosePolicy()
		})},
		{k.Choose, do1(func(m *Model, msg tea.KeyPressMsg) {
			n := len(m.picker.choices)
			if s := msg.String(); s == "up" || s == "k" {
				m.picker.sel = (m.picker.sel + n - 1) % n
			} else {
				m.picker.sel = (m.picker.sel + 1) % n
			}
		})},
		{k.Cancel, do0(func(m *Model) {
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
		{k.Run, func(m *Model, _ tea.KeyPressMsg) tea.Cmd {
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
		{k.Complete, do0((*Model).complete)},
		{k.History, do1(func(m *Model, msg tea.KeyPressMsg) {
			if msg.String() == "up" {
				m.historyUp()
			} else {
				m.historyDown()
			}
			m.compl = completion{}
		})},
		{k.Clear, edit},
		{k.Cancel, do0(func(m *Model) {
			m.mode = modeNormal
			m.compl = completion{}
		})},
		{k.Edit, edit},
	}
}()

// resumeActions is the offer to resume a kept session's keys (and quit).
var resumeActions = []action{
	{resumeKeys.Resume, do0((*Model).resume)},
	{resumeKeys.Fresh, do0((*Model).startFresh)},
}
