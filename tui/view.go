package tui

import (
	"github.com/gcplay/gcplay/internal/i18n"

	"charm.land/bubbles/v2/key"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/internal/locale"
)

// View draws the playground. It reads only the cached snapshot and the rows
// in view, so its cost does not grow with the size of the world. A panic
// while drawing (a gcplay bug) is shown instead of the frame.
func (m *Model) View() (v tea.View) {
	defer func() {
		if p := recover(); p != nil {
			v = tea.NewView(fmt.Sprintf("gcplay could not draw this screen (internal error, please report it): %v\nat %s\n\n%s undoes the last step, %s quits.", p, panicSite(), kn(m.keys.Undo), kn(m.keys.Quit)))
			v.AltScreen = true
		}
	}()
	v = tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "gcplay"
	if m.mode == modeCommand {
		l := m.layout()
		if !l.tooSmall {
			x := locale.Width(cmdPrompt) + locale.Width(string(m.cmd.buf[:m.cmd.cur]))
			v.Cursor = tea.NewCursor(min(x, l.w-1), l.cmdY)
		}
	}
	return v
}

const cmdPrompt = ": "

// render returns the whole screen as text.
func (m *Model) render() string {
	l := m.layout()
	if l.tooSmall {
		return tooSmall(l.w, l.h, kn(m.keys.Quit))
	}
	top := []string{m.statusBar.statusLine(m, l.w)}
	world := m.world().view(m, l.world)
	var right []string
	if l.collector.h > 0 {
		right = append(right, m.collector().view(m, l.collector)...)
	}
	if l.inspector.h > 0 {
		right = append(right, m.inspector().view(m, l.inspector)...)
	}
	bottom := m.timeline().view(m, l.timeline)
	msg := m.statusBar.msgLines(m, l.w)
	for i := 0; i < l.msgH; i++ {
		s := ""
		if i < len(msg) {
			s = msg[i]
		}
		bottom = append(bottom, s)
	}
	bottom = append(bottom, m.commandBar.view(m, l.w), m.statusBar.helpLine(m, l.w))
	switch m.mode {
	case modeDelete, modeHelp, modeExplain, modeResume:
		screen := make([]string, 0, l.h)
		screen = append(screen, top...)
		screen = append(screen, joinColumns(world, right)...)
		screen = append(screen, bottom...)
		m.drawOverlay(screen, l)
		return strings.Join(screen, "\n")
	}
	return joinFrame(top, world, right, bottom)
}

// joinFrame writes the screen's lines into one string, the panes beside
// each other in the middle (as joinColumns would), in one buffer of the
// frame's size: a frame is drawn on every key, and its lines are not
// copied again on the way.
func joinFrame(top, left, right, bottom []string) string {
	mid := max(len(left), len(right))
	size := len(top) + mid + len(bottom) // the newlines, one too many
	for _, ls := range [][]string{top, left, right, bottom} {
		for _, s := range ls {
			size += len(s)
		}
	}
	var b strings.Builder
	b.Grow(size)
	row := 0
	for _, s := range top {
		if row++; row > 1 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	for i := 0; i < mid; i++ {
		if row++; row > 1 {
			b.WriteByte('\n')
		}
		if i < len(left) {
			b.WriteString(left[i])
		}
		if i < len(right) {
			b.WriteString(right[i])
		}
	}
	for _, s := range bottom {
		if row++; row > 1 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	return b.String()
}

// statusLine: step number, virtual time, what the next step will do, and
// the state of autoplay, breakpoints and branches.
func (sb *statusBar) statusLine(m *Model, width int) string {
	sn := m.snap
	t := &m.th
	var l line
	l.add(&t.statusKey, " gcplay ")
	step := m.tr.T("status-step", "n", fmt.Sprint(sn.pos))
	if sn.pos < sn.len {
		step = m.tr.T("status-step-rewound", "n", fmt.Sprint(sn.pos), "of", fmt.Sprint(sn.len))
	}
	l.add(&t.dim, "│ ").add(&t.bold, step).add(&t.dim, " │ ").add(&t.bold, engine.FormatElapsed(sn.elapsed)).add(&t.dim, m.tr.T("status-next")).add(&t.status, m.tr.Engine(sn.describe))
	var right line
	if m.running != nil {
		right.add(&t.warn, fmt.Sprintf(" running %d ", m.running.steps))
	} else if m.playing {
		right.add(&t.warn, " ▶ "+speedShort(m.speed)+" ")
	}
	if sn.branched >= 0 {
		right.add(&t.warn, fmt.Sprintf(" branch@%d ", sn.branched))
	}
	if m.s.breakOrphan {
		right.add(&t.err, " ●orphan ")
	}
	if n := len(m.s.watch); n > 0 {
		right.add(&t.err, fmt.Sprintf(" ●watch %d ", n))
	}
	rw := lineWidth(right.segs)
	return l.render(width-rw, nil) + right.render(rw, nil)
}

func speedShort(i int) string {
	d := speeds[i]
	if d >= 1e9 {
		return fmt.Sprintf("%ds/step", int(d/1e9))
	}
	return fmt.Sprintf("%d/s", int(1e9/d))
}

// World pane.

func (wt *worldTree) view(m *Model, r rect) []string {
	t := &m.th
	tr := m.snap.tree
	inner := r.w - 3
	h := r.h - 2
	body := make([]string, 0, h)
	w := m.s.world()
	k := m.kept(paneWorld)
	for i := wt.worldTop; i < len(tr.rows) && len(body) < h; i++ {
		body = append(body, wt.row(m, k, w, i, inner))
	}
	if len(tr.rows) == 0 {
		var ln line
		ln.add(&t.dim, m.tr.T("world-empty", "key", kn(m.keys.Create)))
		body = append(body, ln.render(inner, nil))
	}
	title := m.tr.N("world-title", tr.objects)
	if len(tr.rows) > h {
		title += m.tr.T("world-rows", "from", fmt.Sprint(wt.worldTop+1), "to", fmt.Sprint(min(wt.worldTop+h, len(tr.rows))), "all", fmt.Sprint(len(tr.rows)))
	}
	return boxKept(t, k, title, m.focus == paneWorld, body, r.w, r.h)
}

// row draws row i of the world tree in width cells, or returns it as
// drawn last frame (k) when nothing it is drawn from changed.
func (wt *worldTree) row(m *Model, k *keptPane, w *engine.World, i, width int) string {
	var over *ink
	if i == wt.sel {
		over = &m.th.sel
	}
	if k == nil {
		return wt.rowLine(m, w, i).render(width, over)
	}
	sn := m.snap
	r := &sn.tree.rows[i]
	key := treeRowKey{tree: sn.tree, i: i, obj: sn.obj(r), sel: i == wt.sel, changed: sn.changed[r.uid],
		absent: sn.absentID[r.uid], gcRuns: sn.gcRuns, width: width}
	_, key.watched = m.s.watch[r.uid]
	n := sn.node(w, r.uid)
	key.inGraph, key.virtual = n.inGraph, n.virtual
	at := i - wt.worldTop
	for len(k.tree) <= at {
		k.tree = append(k.tree, keptTreeRow{})
	}
	was := &k.tree[at]
	if was.out == "" || was.key != key {
		*was = keptTreeRow{key: key, out: wt.rowLine(m, w, i).render(width, over)}
	}
	return was.out
}

// kept returns what pane p keeps from the frame before (nil: nothing).
func (m *Model) kept(p pane) *keptPane {
	c := m.statusBar.cache
	if c == nil {
		return nil
	}
	switch p {
	case paneWorld:
		return &c.world
	case paneCollector:
		return &c.collector
	case paneInspector:
		return &c.inspector
	case paneTimeline:
		return &c.timeline
	}
	return nil
}

// rowLine draws row i of the world tree: tree lines, the object, its
// edge to the parent (controller, blockOwnerDeletion), its owners, its
// state and finalizers; or a missing owner with what the collector holds
// for it.
func (wt *worldTree) rowLine(m *Model, w *engine.World, i int) *line {
	t := &m.th
	sn := m.snap
	r := &sn.tree.rows[i]
	var l line
	mark := " "
	if i == wt.sel {
		mark = "▸"
	}
	if sn.changed[r.uid] {
		mark += "•"
	} else {
		mark += " "
	}
	l.add(&t.changed, mark)
	l.add(&t.dim, sn.tree.prefix(i, 12))
	if r.obj == nil {
		n := sn.node(w, r.uid)
		switch {
		case n.virtual:
			l.add(&t.virtual, "◌ "+r.missingRef+" ")
			l.add(&t.virtual, m.tr.T("tree-virtual"))
		case n.inGraph:
			l.add(&t.dangling, "◌ "+r.missingRef+" ")
			l.add(&t.dangling, m.tr.T("tree-in-graph"))
		default:
			l.add(&t.dangling, "✗ "+r.missingRef+" ")
			l.add(&t.dangling, m.tr.T("tree-dangling"))
		}
		if sn.absentID[r.uid] {
			l.add(&t.dim, " · absentOwnerCache")
		}
		return &l
	}
	o := sn.obj(r)
	nameSt := &t.text
	if sn.changed[r.uid] {
		nameSt = &t.changed
	} else if r.parent < 0 {
		nameSt = &t.bold
	}
	l.add(nameSt, o.String())
	if e := r.edge; e != nil && (e.IsController() || e.Blocks()) {
		var f []string
		if e.IsController() {
			f = append(f, "ctrl")
		}
		if e.Blocks() {
			f = append(f, "block")
		}
		l.add(&t.edge, " ["+strings.Join(f, ",")+"]")
	}
	if n := len(o.Metadata.OwnerReferences); n > 1 {
		l.add(&t.cycle, m.tr.T("tree-owners", "n", fmt.Sprint(n)))
		if r.elsewhere && len(sn.tree.deps[r.uid]) > 0 {
			l.add(&t.dim, m.tr.T("tree-dependents-under-first"))
		}
	}
	if r.cycle {
		l.add(&t.cycle, " ↻cycle")
	}
	if o.Metadata.DeletionTimestamp != nil {
		l.add(&t.terminating, " terminating")
	}
	if len(o.Metadata.Finalizers) > 0 {
		l.add(&t.finalizer, " {"+strings.Join(o.Metadata.Finalizers, ",")+"}")
	}
	if n := sn.node(w, r.uid); !n.inGraph && sn.gcRuns {
		l.add(&t.dim, " (not in graph yet)")
	}
	if _, ok := m.s.watch[r.uid]; ok {
		l.add(&t.err, " ●")
	}
	return &l
}

// Collector pane.

func (c *collectorState) view(m *Model, r rect) []string {
	b, _ := c.lines(m, r)
	return b
}

// lines draws the collector pane from its scroll offset (kept in
// range here without changing it: the keys clamp it) and returns how many
// lines it has in all.
func (c *collectorState) lines(m *Model, r rect) ([]string, int) {
	t := &m.th
	sn := m.snap
	inner := r.w - 3
	h := r.h - 2
	var lines []*line
	add := func() *line { l := &line{}; lines = append(lines, l); return l }
	// The collector's own queues are always shown; another controller's
	// queue is shown while it has items, and the idle ones share one line,
	// so the absent-owner cache and the selected node stay in view however
	// many controllers run.
	var shown, idle []int
	for qi, q := range sn.queues {
		if q.total > 0 || isCollectorQueue(q.name) {
			shown = append(shown, qi)
		} else {
			idle = append(idle, qi)
		}
	}
	// Each list (queue or cache) gets a share of the pane's free lines;
	// items past it are counted.
	needs := make([]int, 0, len(shown)+1)
	for _, qi := range shown {
		needs = append(needs, sn.queues[qi].total)
	}
	needs = append(needs, len(sn.absent))
	idleLines := min(len(idle), 2)
	per := share(needs, h-len(needs)-idleLines-3) // 3: the selected node's lines
	if m.focus == paneCollector {
		for i := range per {
			per[i] = max(per[i], 50)
		}
	}
	for si, qi := range shown {
		q := sn.queues[qi]
		l := add()
		// A queue's number is the key that steps it (1-9); queues past
		// the ninth have none (: step QUEUE steps them), and while a
		// command is typed the digits are text.
		label := q.name
		if n := queueKey(qi); n != "" && m.mode == modeNormal {
			label = n + " " + q.name
		}
		l.add(&t.queue, label)
		waiting := q.total - q.ready
		switch {
		case q.total == 0:
			l.add(&t.dim, " "+m.tr.T("collector-empty"))
		case waiting > 0:
			l.add(&t.dim, m.tr.T("collector-ready-waiting", "ready", fmt.Sprint(q.ready), "waiting", fmt.Sprint(waiting)))
		default:
			l.add(&t.dim, fmt.Sprintf(" %d", q.total))
		}
		for i, it := range q.items {
			if i == per[si] {
				break
			}
			il := add()
			st := &t.text
			if it.UID == m.selUID {
				st = &t.bold
			}
			if sn.changed[it.UID] {
				st = &t.changed
			}
			if it.Waiting {
				il.add(&t.due, "   ◷ ").add(st, it.Item).add(&t.due, m.tr.T("collector-due", "at", engine.FormatElapsed(it.Due), "in", (it.Due-sn.elapsed).String()))
			} else {
				il.add(&t.dim, "   ").add(st, it.Item)
			}
			if it.Failures > 0 {
				il.add(&t.warn, m.tr.T("collector-retry", "n", fmt.Sprint(it.Failures)))
			}
			if i == per[si]-1 && q.total > per[si] {
				il.add(&t.dim, m.tr.T("collector-more", "n", fmt.Sprint(q.total-per[si])))
			}
		}
	}
	if len(idle) > 0 {
		lines = append(lines, m.idleLines(sn, idle, inner, idleLines)...)
	}
	l := add()
	l.add(&t.queue, "absentOwnerCache")
	if len(sn.absent) == 0 {
		l.add(&t.dim, " "+m.tr.T("collector-empty"))
	} else {
		l.add(&t.dim, fmt.Sprintf(" %d", len(sn.absent)))
		last := per[len(per)-1]
		for i, a := range sn.absent {
			if i == last {
				break
			}
			al := add()
			al.add(&t.dim, "   ").add(&t.text, a)
			if i == last-1 && len(sn.absent) > last {
				al.add(&t.dim, m.tr.T("collector-more", "n", fmt.Sprint(len(sn.absent)-last)))
			}
		}
	}
	if sel := m.selected(); sel != nil {
		n := sn.node(m.s.world(), sel.uid)
		add().add(&t.queue, "uidToNode[").add(&t.bold, m.rowName(sel)).add(&t.queue, "]")
		var text string
		st := &t.dim
		if !n.inGraph {
			text = m.tr.T("collector-no-node")
		} else {
			flags := n.flags
			if len(flags) == 0 {
				flags = append(flags, m.tr.T("collector-no-flags"))
			}
			text = strings.Join(flags, " ")
			st = &t.changed
		}
		for _, s := range wrap(text, inner-3) {
			add().add(nil, "   ").add(st, s)
		}
		if n.inGraph {
			add().add(nil, "   ").add(&t.dim, m.tr.N("collector-owners", n.owners)+" · "+m.tr.N("collector-dependents", n.dependents))
		}
	}
	top := max(min(c.colTop, len(lines)-h), 0)
	body := make([]string, 0, h)
	k := m.kept(paneCollector)
	for i := top; i < len(lines) && len(body) < h; i++ {
		body = append(body, k.render(len(body), lines[i], inner, nil))
	}
	title := m.tr.T("collector-title")
	if m.layout().narrow {
		title = m.tr.T("collector-title-short")
		if m.mode == modeNormal { // the key works only there
			title = m.tr.T("collector-title-narrow", "key", kn(m.keys.NextPane))
		}
	}
	return boxKept(t, k, title, m.focus == paneCollector, body, r.w, r.h), len(lines)
}

// idleLines is the collector's lines naming its idle queues (the
// snapshot's queues idle), laid out by idleRows in width cells and
// maxRows lines. The lines of the frame before are kept while the same
// queues are idle: most steps leave them so.
func (m *Model) idleLines(sn *snapshot, idle []int, width, maxRows int) []*line {
	label := m.tr.T("collector-idle")
	var k *keptIdle
	if c := m.statusBar.cache; c != nil {
		k = &c.collector.idle
		if k.lines != nil && k.label == label && k.width == width && k.maxRows == maxRows &&
			slices.EqualFunc(k.names, idle, func(name string, qi int) bool { return name == sn.queues[qi].name }) {
			return k.lines
		}
	}
	t := &m.th
	names := make([]string, len(idle))
	for i, qi := range idle {
		names[i] = sn.queues[qi].name
	}
	var out []*line
	for i, row := range idleRows(label, names, width, maxRows) {
		il := &line{}
		if i == 0 {
			il.add(&t.queue, label)
		} else {
			il.add(nil, strings.Repeat(" ", ansi.StringWidth(label)))
		}
		il.add(&t.dim, row)
		out = append(out, il)
	}
	if k != nil {
		*k = keptIdle{label: label, names: names, width: width, maxRows: maxRows, lines: out}
	}
	return out
}

// share divides free lines among lists that need needs[i] lines: each gets
// what it needs when it can, the longest ones split what is left, and each
// non-empty list gets at least one line.
func share(needs []int, free int) []int {
	out := make([]int, len(needs))
	left := len(needs)
	order := make([]int, len(needs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return needs[a] - needs[b] })
	for _, i := range order {
		fair := max(free, 0) / left
		out[i] = min(needs[i], max(fair, 1))
		free -= out[i]
		left--
	}
	return out
}

// Inspector pane.

func (ip *inspectorState) view(m *Model, r rect) []string {
	b, _ := ip.lines(m, r)
	return b
}

// lines draws the inspector as the collector pane draws itself.
func (ip *inspectorState) lines(m *Model, r rect) ([]string, int) {
	t := &m.th
	sn := m.snap
	inner := r.w - 3
	h := r.h - 2
	var lines []*line
	add := func() *line { l := &line{}; lines = append(lines, l); return l }
	sel := m.selected()
	title := m.tr.T("inspector-title")
	if m.layout().narrow && m.mode == modeNormal {
		title = m.tr.T("inspector-title-narrow", "key", kn(m.keys.NextPane))
	}
	if sel != nil && !m.layout().narrow {
		title += " · " + m.rowName(sel)
	}
	if sel != nil {
		if o := sn.obj(sel); o != nil {
			for i, why := range sn.namespaceWhy(o) {
				st := &t.text
				if i == 0 {
					st = &t.terminating
				}
				if strings.HasPrefix(strings.TrimSpace(why), "next:") {
					st = &t.changed
				}
				indent := strings.Repeat(" ", len(why)-len(strings.TrimLeft(why, " "))+2)
				for j, part := range wrap(strings.TrimLeft(why, " "), max(inner-len(indent), 10)) {
					if j == 0 {
						add().add(st, indent[:len(indent)-2]+part)
					} else {
						add().add(st, indent+part)
					}
				}
			}
			lines = append(lines, m.ownerChain(o, inner)...)
			lines = append(lines, m.manifestLines(sn.manifestOf(o))...)
		} else {
			add().add(&t.dangling, m.tr.T("inspector-absent"))
			for _, w := range wrap(m.tr.T("inspector-absent-why"), inner-1) {
				add().add(&t.dim, w)
			}
		}
		hist := sn.historyOf(m.s.h, sel.uid)
		add().add(&t.queue, m.tr.N("inspector-history", len(hist)))
		for _, i := range hist {
			st := &t.text
			if i >= sn.pos {
				st = &t.future
			}
			if i == sn.pos-1 {
				st = &t.changed
			}
			rec := m.s.h.Record(i)
			add().add(st, m.stepText(i+1, &rec))
		}
	} else {
		add().add(&t.dim, m.tr.T("inspector-nothing"))
	}

	top := max(min(ip.inspTop, len(lines)-h), 0)
	body := make([]string, 0, h)
	k := m.kept(paneInspector)
	for i := top; i < len(lines) && len(body) < h; i++ {
		body = append(body, k.render(len(body), lines[i], inner, nil))
	}
	return boxKept(t, k, title, m.focus == paneInspector, body, r.w, r.h), len(lines)
}

// manifestLines is the inspector's lines of a manifest (manifestOf's
// lines), each in the style its field is drawn in. The lines of the
// manifest shown last frame are kept: a key that leaves the object shown
// as it was (most steps, every move in another pane) hands the same
// manifest, by its lines' identity, and gets the same lines.
func (m *Model) manifestLines(y []string) []*line {
	var k *keptManifest
	if c := m.statusBar.cache; c != nil {
		k = &c.inspector.manifest
		if len(k.of) == len(y) && (len(y) == 0 || &k.of[0] == &y[0]) {
			return k.lines
		}
	}
	t := &m.th
	out := make([]*line, len(y))
	ls := make([]line, len(y))
	for i, s := range y {
		st := &t.text
		trim := strings.TrimLeft(s, " -")
		switch {
		case strings.HasPrefix(trim, "deletionTimestamp:"):
			st = &t.terminating
		case strings.HasPrefix(trim, "finalizers:"):
			st = &t.finalizer
		case strings.HasPrefix(trim, "ownerReferences:"):
			st = &t.edge
		}
		ls[i].segs = []seg{{s: s, st: st}}
		if s == "" {
			ls[i].segs = nil // as line.add leaves an empty run out
		}
		out[i] = &ls[i]
	}
	if k != nil {
		k.of, k.lines = y, out
	}
	return out
}

// stepText is stepLine for step p (record rec), the text the timeline
// kept for that step when the record is the one it was drawn from.
func (m *Model) stepText(p int, rec *engine.Record) string {
	c := m.statusBar.cache
	if c == nil || m.tr.Lang() != "en" {
		return m.stepLine(p, rec)
	}
	fields := stepFieldsOf(rec)
	if was, ok := c.steps[p]; ok && was.rec == fields {
		return was.text
	}
	return m.stepLine(p, rec)
}

// Timeline pane: row 0 is the start, row i the record of step i.

func (tl *timelineState) view(m *Model, r rect) []string {
	t := &m.th
	sn := m.snap
	inner := r.w - 3
	h := r.h - 2
	body := make([]string, 0, h)
	for p := tl.tlTop; p <= sn.len && len(body) < h; p++ {
		var l line
		cursor := "  "
		switch {
		case p == sn.pos:
			cursor = "▶ "
		case m.focus == paneTimeline && p == tl.tlCur:
			cursor = "▸ "
		}
		var over *ink
		if p == sn.pos {
			over = &t.current
		}
		if p == 0 {
			l.add(&t.bold, cursor)
			l.add(&t.dim, m.tr.T("timeline-start", "name", m.s.origin.Name))
			body = append(body, l.render(inner, over))
			continue
		}
		rec := m.s.h.Record(p - 1)
		var st *ink = &t.text
		switch {
		case p > sn.pos:
			st = &t.future
		case rec.Err != "":
			st = &t.err
		case rec.Actor == "user":
			st = &t.bold
		}
		body = append(body, m.stepRow(p, &rec, stepHow{cursor: cursor, st: st, over: over, width: inner}))
	}
	title := m.tr.T("timeline-title", "n", fmt.Sprint(sn.pos), "of", fmt.Sprint(sn.len))
	if sn.pos < sn.len {
		title += m.tr.T("timeline-rewound")
	} else if sn.branched >= 0 {
		title += m.tr.T("timeline-branched", "n", fmt.Sprint(sn.branched))
	}
	if m.mode == modeNormal { // the key works only there
		title += m.tr.T("timeline-explains", "key", kn(m.keys.Explain))
	}
	return boxKept(t, m.kept(paneTimeline), title, m.focus == paneTimeline, body, r.w, r.h)
}

// stepRow draws the timeline's row of step p (record rec) as how says,
// or returns it as drawn last time, when neither the record's text nor
// how it is drawn changed. A record's text in English is made only of the
// fields stepFields holds; in other languages also of its reason's
// sentences (engine.Reason.Texts), which the row keeps a copy of.
func (m *Model) stepRow(p int, rec *engine.Record, how stepHow) string {
	c := m.statusBar.cache
	if c == nil {
		var l line
		l.add(&m.th.bold, how.cursor).add(how.st, m.stepLine(p, rec))
		return l.render(how.width, how.over)
	}
	if c.steps == nil {
		c.steps = map[int]stepRow{}
	}
	was, ok := c.steps[p]
	fields := stepFieldsOf(rec)
	en := m.tr.Lang() == "en"
	if ok && was.rec == fields && (en || sameTexts(was.texts, rec.Reason.Texts)) {
		if was.how == how {
			return was.out
		}
	} else {
		was = stepRow{rec: fields, text: m.stepLine(p, rec)}
		if !en {
			was.texts = cloneTexts(rec.Reason.Texts)
		}
	}
	var l line
	l.add(&m.th.bold, how.cursor)
	l.add(how.st, was.text)
	was.how, was.out = how, l.render(how.width, how.over)
	if len(c.steps) > 4*maxYAMLKept {
		clear(c.steps) // the rows shown are a few dozen; a long timeline scrolled through leaves more
	}
	c.steps[p] = was
	return was.out
}

// sameTexts reports whether a and b are the same sentences with the same
// values.
func sameTexts(a, b []engine.Text) bool {
	return slices.EqualFunc(a, b, func(x, y engine.Text) bool {
		return x.Form == y.Form && slices.Equal(x.Args, y.Args)
	})
}

// cloneTexts copies ts and their values: a record's may share storage
// that is written again.
func cloneTexts(ts []engine.Text) []engine.Text {
	out := make([]engine.Text, len(ts))
	for i, t := range ts {
		out[i] = engine.Text{Form: t.Form, Args: slices.Clone(t.Args)}
	}
	return out
}

// stepLine is a record's trace line numbered by its step in the timeline
// (the record's own #Seq counts from the world's start, before loading).
// stepLine is stepLine in the playground's language: the reason's
// sentence in its words, with its values.
func (m *Model) stepLine(step int, rec *engine.Record) string {
	s := stepLine(step, rec)
	if w := m.reasonText(rec.Reason); w != rec.Reason.Message {
		s = strings.Replace(s, " — "+rec.Reason.Message, " — "+w, 1)
	}
	return s
}

// reasonText is a reason's sentence in the playground's language.
func (m *Model) reasonText(r engine.Reason) string {
	if m.tr.Lang() == "en" {
		return r.Message
	}
	return r.In(m.tr.Say)
}

func stepLine(step int, rec *engine.Record) string {
	return fmt.Sprintf("%3d ", step) + strings.TrimPrefix(rec.String(), fmt.Sprintf("#%d ", rec.Seq))
}

// Bottom lines.

// msgLines is the message area: the last message, or while typing a
// command, the completions and the usage of the command being typed.
func (sb *statusBar) msgLines(m *Model, width int) []string {
	key := msgKey{width: width, mode: m.mode, kind: sb.msgKind, msg: sb.msg, compl: len(m.compl.cands), complIdx: m.compl.idx}
	if m.mode == modeCommand {
		key.cmd = string(m.cmd.buf)
	}
	c := &sb.cache.msg
	if c.lines != nil && c.key == key {
		return c.lines
	}
	lines := sb.buildMsgLines(m, width)
	if lines == nil {
		lines = []string{}
	}
	c.key, c.lines = key, lines
	return lines
}

// msgKey is what the message area depends on.
type msgKey struct {
	width           int
	mode            mode
	kind            msgKind
	msg, cmd        string
	compl, complIdx int
}

func (sb *statusBar) buildMsgLines(m *Model, width int) []string {
	t := &m.th
	var text string
	st := &t.info
	switch {
	case m.mode == modeCommand:
		text = m.commandHint()
		st = &t.dim
	case sb.msg != "":
		text = sb.msg
		switch sb.msgKind {
		case msgErr:
			st = &t.err
		case msgWarn:
			st = &t.warn
		case msgOK:
			st = &t.ok
		}
	}
	if text == "" {
		return nil
	}
	ws := wrap(text, width-1)
	if len(ws) > 3 {
		ws = ws[:3]
		ws[2], _ = fit(ws[2]+" …", width-1)
	}
	out := make([]string, len(ws))
	for i, s := range ws {
		var l line
		l.add(st, " "+s)
		out[i] = l.render(width, nil)
	}
	return out
}

func (c *commandBar) view(m *Model, width int) string {
	t := &m.th
	var l line
	if m.mode == modeCommand {
		l.add(&t.cmdPrompt, cmdPrompt).add(&t.cmdText, string(c.cmd.buf))
		return l.render(width, nil)
	}
	l.add(&t.dim, cmdPrompt+m.tr.T("command-hint", "key", kn(m.keys.Command)))
	return l.render(width, nil)
}

// helpLineKeys is the keys the help line names on a terminal width
// wide: in normal mode the short help, in the command bar and the
// overlays every key that works there.
func (m *Model) helpLineKeys(width int) []key.Binding {
	if m.mode != modeNormal {
		return joinSameDesc(m.viewKeys())
	}
	return m.shortHelp(width >= wideWidth)
}

// helpLine is the keys of the view shown, in one line.
// joinSameDesc joins two keys next to each other that do the same ("q
// quit", "ctrl+c quit") into one entry ("q ctrl+c quit").
func joinSameDesc(bs []key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if n := len(out); n > 0 && b.Enabled() && out[n-1].Enabled() && out[n-1].Help().Desc == b.Help().Desc {
			out[n-1] = withHelp(merged(out[n-1], b), out[n-1].Help().Key+" "+b.Help().Key, b.Help().Desc)
			continue
		}
		out = append(out, b)
	}
	return out
}

func (sb *statusBar) helpLine(m *Model, width int) string {
	c := &sb.cache.help
	// The help and explain views list their scrolling keys only when
	// their text is longer than the window: not kept from frame to frame.
	cached := m.mode != modeHelp && m.mode != modeExplain
	if cached && c.width == width && c.mode == m.mode && c.focus == m.focus && c.line != "" {
		return c.line
	}
	h := m.help // a copy: drawing does not change the model
	h.SetWidth(width - 1)
	s := h.ShortHelpView(m.trKeys(m.helpLineKeys(width)))
	c.width, c.mode, c.focus = width, m.mode, m.focus
	c.line = padStyled(" "+s, width)
	return c.line
}

// Overlays.

// overlayText is what an overlay shows: a title, a body that scrolls, and
// a footer (its keys) that stays. keep, when keep[1] > keep[0], is a range
// of body lines to keep in view (the picker's selected choice).
type overlayText struct {
	title        string
	body, footer []string
	keep         [2]int
}

// overlayBox is an overlay's size on screen for the layout.
func overlayBox(l layout) (w, maxH int) { return min(l.w-4, 100), l.h - 2 }

// overlayContent returns the open overlay's text for an inner width.
func (m *Model) overlayContent(width int) overlayText {
	return m.overlayContentWith(width, bindingsOf(m.overlayActions(m.overlayScrolls())))
}

// overlayContentWith is overlayContent with keys in the footer of the
// help and explain views.
func (m *Model) overlayContentWith(width int, keys []key.Binding) overlayText {
	switch m.mode {
	case modeDelete:
		return m.picker.lines(m, width)
	case modeHelp:
		return m.overlays.helpLines(m, width, keys)
	case modeExplain:
		return m.overlays.explainLines(m, width, keys)
	case modeResume:
		return m.resumeLines(width)
	}
	return overlayText{}
}

// overlayRoom is how many body lines of the open overlay fit, and how
// many it has.
func (m *Model) overlayRoom() (room, n int) {
	l := m.layout()
	w, maxH := overlayBox(l)
	c := m.overlayContent(w - 3)
	return maxH - 2 - len(c.footer), len(c.body)
}

// scrollOverlay moves the open overlay's first line by d, within its
// text.
func (m *Model) scrollOverlay(d int) {
	room, n := m.overlayRoom()
	m.overlayTop = max(min(m.overlayTop+d, n-room), 0)
}

// drawOverlay draws the open overlay, centred.
func (m *Model) drawOverlay(screen []string, l layout) {
	w, maxH := overlayBox(l)
	c := m.overlayContent(w - 3)
	room := maxH - 2 - len(c.footer)
	top := m.overlayTop
	if c.keep[1] > c.keep[0] {
		top = keepInView(c.keep, room, len(c.body))
	}
	lines := append(scrollWindow(&m.th, m.tr, c.body, room, top, w-3, c.keep[1] <= c.keep[0]), c.footer...)
	body := make([]string, len(lines))
	for i, s := range lines {
		body[i] = padStyled(s, w-3)
	}
	b := box(&m.th, c.title, true, body, w, len(lines)+2)
	clearBehind(screen, 1, len(screen)-2) // the status and help lines stay
	overlay(screen, b, (l.w-w)/2, max((l.h-len(b))/2, 0))
}

// keepInView returns the first line to show so that lines keep[0] to
// keep[1]-1 of n are in a window of room lines (with a line of margin for
// the scroll marks when it can).
func keepInView(keep [2]int, room, n int) int {
	if n <= room {
		return 0
	}
	top := 0
	if keep[1]+1 > room {
		top = keep[1] + 1 - room
	}
	top = min(top, max(keep[0]-1, 0))
	return max(min(top, n-room), 0)
}

// scrollWindow returns room lines of body from top. Lines above or below
// the window are never lost without a mark: the window's first or last
// line then says how many more there are.
// With scrolls unset the keys that move the window are not the scroll
// keys (a picker's cursor moves it), so the mark names none.
func scrollWindow(t *theme, tr *i18n.Catalog, body []string, room, top, width int, scrolls bool) []string {
	if room <= 0 {
		return nil
	}
	if len(body) <= room {
		return body
	}
	top = max(min(top, len(body)-room), 0)
	out := append([]string(nil), body[top:top+room]...)
	if top > 0 {
		out[0] = t.dim.Render(padText(tr.T("more-above", "n", fmt.Sprint(top+1)), width))
	}
	if below := len(body) - top - room; below > 0 {
		mark := tr.T("more-below-chosen", "n", fmt.Sprint(below+1))
		if scrolls {
			mark = tr.T("more-below", "n", fmt.Sprint(below+1), "key", kn(overlayKeys.Scroll))
		}
		out[room-1] = t.dim.Render(padText(mark, width))
	}
	return out
}

// padText fits plain text to width cells.
func padText(s string, width int) string {
	s, w := fit(s, width)
	return s + strings.Repeat(" ", max(width-w, 0))
}

func (p *deletePicker) lines(m *Model, width int) overlayText {
	t := &m.th
	var out []string
	for _, s := range wrap(p.header, width-1) {
		out = append(out, t.dim.Render(s))
	}
	out = append(out, "")
	var keep [2]int
	for i, c := range p.choices {
		if i == p.sel {
			keep[0] = len(out)
		}
		label := fmt.Sprintf("%d %-10s ", i+1, c.label)
		ind := "  "
		if i == p.sel {
			ind = "▸ "
		}
		ws := wrap(c.what, width-len(label)-3)
		for j, s := range ws {
			var l line
			if j == 0 {
				l.add(&t.bold, ind)
				st := &t.queue
				l.add(st, label)
			} else {
				l.add(nil, strings.Repeat(" ", len(label)+2))
			}
			l.add(&t.text, s)
			var over *ink
			if i == p.sel {
				over = &t.sel
			}
			out = append(out, l.render(width, over))
		}
		if i == p.sel {
			keep[1] = len(out)
		}
	}
	var foot []string
	for _, s := range wrap(m.keyHints(pickerKeys.bindings()...), width-1) {
		foot = append(foot, t.dim.Render(s))
	}
	return overlayText{title: m.tr.T("picker-title", "name", p.name), body: out, footer: foot, keep: keep}
}

func (o *overlays) helpLines(m *Model, width int, keys []key.Binding) overlayText {
	t := &m.th
	var out []string
	// The key groups, two to a row when they fit.
	groups := m.fullHelp()
	names := slices.Clone(helpGroups)
	if m.extraHelp.name != "" { // a lesson's keys come first: they matter most there
		groups = append([][]key.Binding{m.extraHelp.keys}, groups...)
		names = append([]string{m.extraHelp.name}, names...)
	}
	for i := range groups {
		groups[i] = m.trKeys(groups[i])
		names[i] = m.tr.UI(names[i])
	}
	cols := 1
	colW := width
	if width >= 72 {
		cols, colW = 2, width/2
	}
	keyW := 0
	for _, g := range groups {
		for _, b := range g {
			keyW = max(keyW, locale.Width(b.Help().Key))
		}
	}
	for gi := 0; gi < len(groups); gi += cols {
		var blocks [][]string
		for c := 0; c < cols && gi+c < len(groups); c++ {
			block := []string{padStyled(t.queue.Render(names[gi+c]), colW)}
			for _, b := range groups[gi+c] {
				if turnedOff(b) {
					continue
				}
				var l line
				h := b.Help()
				l.add(&t.helpKey, h.Key+strings.Repeat(" ", keyW-locale.Width(h.Key)+1)).add(&t.helpDesc, h.Desc)
				// A column's last cell stays blank: the gap between columns.
				block = append(block, l.render(colW-1, nil)+" ")
			}
			blocks = append(blocks, block)
		}
		// Every column as long as the longest: a shorter first column
		// would let the second's last keys slide into its place.
		rows := 0
		for _, b := range blocks {
			rows = max(rows, len(b))
		}
		for i := range blocks {
			for len(blocks[i]) < rows {
				blocks[i] = append(blocks[i], strings.Repeat(" ", colW))
			}
		}
		out = append(out, joinColumns(blocks...)...)
		out = append(out, "")
	}
	for _, s := range wrap(m.tr.T("help-commands", "command", kn(m.keys.Command), "complete", kn(commandKeys.Complete), "history", kn(commandKeys.History)), width-1) {
		out = append(out, t.queue.Render(s))
	}
	for _, c := range commands {
		// A long usage wraps, its later lines indented, rather than
		// being cut.
		for i, s := range wrap(m.usageWords(c), width-5) {
			if i > 0 {
				s = "    " + s
			}
			out = append(out, t.helpKey.Render(s))
		}
	}
	out = append(out, "", t.queue.Render(m.tr.T("help-tree")))
	for _, k := range []string{"help-tree-edge", "help-tree-owners", "help-tree-virtual", "help-tree-dangling", "help-tree-marks"} {
		// {finalizers} is the mark itself, not a placeholder
		out = append(out, t.text.Render(m.tr.T(k, "finalizers", "{finalizers}")))
	}
	return overlayText{title: m.tr.T("help-title"), body: out, footer: footerLines(t, m.keyHints(keys...), width)}
}

// explainDetailLine is a line of a record's Detail in the playground's
// language: its label (upstream, call, enqueue, note, error) from the
// catalog, a note in the language's words; other lines as they are.
func (m *Model) explainDetailLine(s string) string {
	if v, ok := strings.CutPrefix(s, "  note: "); ok {
		return m.tr.T("explain-note", "note", m.tr.Note(v))
	}
	if v, ok := strings.CutPrefix(s, "  upstream: "); ok {
		return m.tr.T("explain-upstream", "funcs", v)
	}
	if v, ok := strings.CutPrefix(s, "  call: "); ok {
		return m.tr.T("explain-call", "call", v)
	}
	if v, ok := strings.CutPrefix(s, "  enqueue: "); ok {
		if i := strings.LastIndex(v, " after "); i >= 0 {
			return m.tr.T("explain-enqueue-after", "item", v[:i], "after", v[i+len(" after "):])
		}
		return m.tr.T("explain-enqueue", "item", v)
	}
	if v, ok := strings.CutPrefix(s, "  error: "); ok {
		return m.tr.T("explain-error", "error", v)
	}
	return s
}

func (o *overlays) explainLines(m *Model, width int, keys []key.Binding) overlayText {
	t := &m.th
	foot := footerLines(t, m.keyHints(keys...), width)
	if o.explainIdx >= m.s.h.Len() {
		return overlayText{title: m.tr.T("explain-title"), body: []string{m.tr.T("explain-none")}, footer: foot}
	}
	rec := m.s.h.Record(o.explainIdx)
	var out []string
	detail := strings.TrimRight(rec.Detail(), "\n")
	if w := m.reasonText(rec.Reason); w != rec.Reason.Message {
		detail = strings.Replace(detail, " — "+rec.Reason.Message, " — "+w, 1)
	}
	detail = m.tr.T("explain-step", "n", fmt.Sprint(o.explainIdx+1)) + strings.TrimPrefix(detail, fmt.Sprintf("#%d ", rec.Seq))
	if w := m.tr.Reason(rec.Reason.Code); w != "" {
		detail = m.tr.T("explain-meaning", "code", rec.Reason.Code, "words", w) + "\n" + detail
	}
	for _, s := range strings.Split(detail, "\n") {
		s = m.explainDetailLine(s)
		// Chinese wraps between characters and drops leading spaces: a
		// detail line keeps its indent, on each of its lines.
		indent := ""
		if hasWide(s) {
			rest := strings.TrimLeft(s, " ")
			indent, s = s[:len(s)-len(rest)], rest
		}
		for _, w := range wrap(s, width-1-len(indent)) {
			out = append(out, t.text.Render(indent+w))
		}
	}
	for _, id := range ruleIDs(rec.Reason.Rule) {
		text, translated, ok := ruleTextIn(m.opts.Lang, id)
		// The rule's own words follow: no file to look up (a page has none).
		out = append(out, "", t.queue.Render(m.tr.T("explain-rule", "id", id)))
		if !ok {
			out = append(out, t.dim.Render(m.tr.T("explain-rule-missing")))
			continue
		}
		if !translated {
			out = append(out, t.dim.Render(m.tr.T("explain-rule-pending")))
		}
		for _, s := range strings.Split(text, "\n") {
			for _, w := range wrap(s, width-1) {
				out = append(out, t.text.Render(w))
			}
		}
	}
	if rec.Reason.Rule == "" && rec.Reason.Func == "" {
		out = append(out, "", t.dim.Render(m.tr.T("explain-no-rule")))
	}
	return overlayText{title: m.tr.T("explain-title-step", "n", fmt.Sprint(o.explainIdx+1)), body: out, footer: foot}
}

// footerLines is an overlay's key line, wrapped to width.
func footerLines(t *theme, keys string, width int) []string {
	var out []string
	for _, s := range wrap(keys, width-1) {
		out = append(out, t.dim.Render(s))
	}
	return out
}

// isCollectorQueue reports whether queue is one of the garbage collector's
// own, which the collector pane always shows.
func isCollectorQueue(queue string) bool {
	switch queue {
	case engine.QueueGraphChanges, engine.QueueAttemptToDelete, engine.QueueAttemptToOrphan:
		return true
	}
	return false
}

// idleRows lays out the names of the idle queues after label, in at most
// maxRows rows of width cells; names that do not fit are counted ("+N").
func idleRows(label string, names []string, width, maxRows int) []string {
	room := width - ansi.StringWidth(label) - 1 // a cell before the border
	var rows []string
	row := ""
	for i, n := range names {
		if ansi.StringWidth(row)+1+ansi.StringWidth(n) <= room {
			row += " " + n
			continue
		}
		if len(rows) < maxRows-1 {
			rows = append(rows, row)
			row = " " + n
			continue
		}
		// The last row: end it with how many are left out.
		left := len(names) - i
		for ansi.StringWidth(row)+ansi.StringWidth(fmt.Sprintf(" +%d", left)) > room && strings.Count(row, " ") > 1 {
			row = row[:strings.LastIndex(row, " ")]
			left++
		}
		return append(rows, fmt.Sprintf("%s +%d", row, left))
	}
	return append(rows, row)
}
