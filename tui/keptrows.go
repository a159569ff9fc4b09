package tui

import (
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// keptPane is what one pane remembers of the frame before: its lines as
// drawn, with the runs each was drawn from, its bordered rows and its
// border's edges. A key changes a few lines of a pane (a step moves a
// mark, changes an item or a flag): the rest are the same runs, and
// drawing them again (cutting to the width, the styles' codes, the
// border) is what a frame spent for nothing. A nil keptPane keeps
// nothing.
//
// What it keeps is drawn with the theme's inks, which are compared by
// address: the cache is dropped with the theme (applyTheme).
type keptPane struct {
	lines []keptLine
	rows  []keptRow
	top   keptEdge
	// bottom is the bottom edge, by its width and style.
	bottom struct {
		width  int
		border *ink
		out    string
	}
	// tree is the world pane's rows by what they are drawn from.
	tree []keptTreeRow
	// manifest is the inspector's lines of the manifest shown.
	manifest keptManifest
	// idle is the collector's lines of its idle queues.
	idle keptIdle
}

// keptIdle is the lines naming the idle queues, with what they were
// laid out from.
type keptIdle struct {
	label          string
	names          []string
	width, maxRows int
	lines          []*line
}

// keptManifest is the lines made of a manifest's lines (of).
type keptManifest struct {
	of    []string
	lines []*line
}

// keptLine is a line as rendered, with the runs, width and over style it
// was rendered from.
type keptLine struct {
	segs  []seg
	width int
	over  *ink
	out   string
}

// keptRow is a pane's row inside its border.
type keptRow struct {
	body   string
	blank  bool // a row below the body, with no line
	width  int
	border *ink
	out    string
}

// keptEdge is a pane's top edge: its title in the border.
type keptEdge struct {
	title            string
	width            int
	border, titleInk *ink
	out              string
}

// render returns l rendered in width cells (over as line.render takes it)
// as line i of the pane: the line kept from the frame before when it
// has the same runs.
func (k *keptPane) render(i int, l *line, width int, over *ink) string {
	if k == nil {
		return l.render(width, over)
	}
	for len(k.lines) <= i {
		k.lines = append(k.lines, keptLine{})
	}
	was := &k.lines[i]
	if was.out != "" && was.width == width && was.over == over && sameSegs(was.segs, l.segs) {
		return was.out
	}
	*was = keptLine{segs: l.segs, width: width, over: over, out: l.render(width, over)}
	return was.out
}

// sameSegs reports whether two lines have the same runs in the same
// styles.
func sameSegs(a, b []seg) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].st != b[i].st || a[i].s != b[i].s {
			return false
		}
	}
	return true
}

// keptTreeRow is a world tree row as drawn (its body, not bordered), by
// everything rowLine and the pane read to draw it.
type keptTreeRow struct {
	key treeRowKey
	out string
}

// treeRowKey is what a world tree row is drawn from. The tree's rows,
// their tree lines and where an object's dependents are shown are fixed
// for a tree (a snapshot hands the same tree on while storage keeps its
// shape); an object's own fields come with it, as a stored object is
// never changed (the store writes a new one); the rest is the snapshot's
// and the model's state for the row's UID.
type treeRowKey struct {
	tree                  *tree
	i                     int
	obj                   *fakeapi.Object
	sel, changed, watched bool
	inGraph, virtual      bool
	absent, gcRuns        bool
	width                 int
}

// boxKept is box for a pane that keeps its rows: body lines and edges
// that are the frame before's are not joined to the border again.
func boxKept(t *theme, k *keptPane, title string, focused bool, body []string, width, height int) []string {
	if k == nil || width < 4 || height < 2 {
		return box(t, title, focused, body, width, height)
	}
	bs, ts := &t.border, &t.title
	if focused {
		bs, ts = &t.borderFocus, &t.titleFocus
	}
	inner := width - 2
	out := make([]string, 0, height)
	if e := &k.top; e.out == "" || e.title != title || e.width != width || e.border != bs || e.titleInk != ts {
		tt, tw := fit(" "+title+" ", max(inner-2, 0))
		*e = keptEdge{title: title, width: width, border: bs, titleInk: ts,
			out: bs.Render("╭─") + ts.Render(tt) + bs.Render(strings.Repeat("─", max(inner-1-tw, 0))+"╮")}
	}
	out = append(out, k.top.out)
	for len(k.rows) < height-2 {
		k.rows = append(k.rows, keptRow{})
	}
	var side, blank string
	for i := 0; i < height-2; i++ {
		body1, isBlank := "", i >= len(body)
		if !isBlank {
			body1 = body[i]
		}
		was := &k.rows[i]
		if was.out != "" && was.width == width && was.border == bs && was.blank == isBlank && was.body == body1 {
			out = append(out, was.out)
			continue
		}
		if side == "" {
			side = bs.Render("│")
		}
		var row string
		if i < len(body) {
			row = side + " " + body[i] + side
		} else {
			if blank == "" {
				blank = strings.Repeat(" ", inner)
			}
			row = side + blank + side
		}
		*was = keptRow{body: body1, blank: isBlank, width: width, border: bs, out: row}
		out = append(out, row)
	}
	if b := &k.bottom; b.out == "" || b.width != width || b.border != bs {
		b.width, b.border = width, bs
		b.out = bs.Render("╰" + strings.Repeat("─", inner) + "╯")
	}
	return append(out, k.bottom.out)
}
