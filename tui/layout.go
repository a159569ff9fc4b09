package tui

import (
	"fmt"
	"strings"
)

// Smallest screen the playground draws on; below it, it says so.
const (
	minWidth  = 60
	minHeight = 16
	// wideWidth is where the collector and the inspector both fit on the
	// right; narrower, they share the space (tab switches).
	wideWidth = 100
)

// rect is a pane's box on screen, borders included.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// layout places the panes for a screen size. It depends only on the size,
// the number of message lines and which pane is on the right, so Update
// (for the mouse) and View agree.
type layout struct {
	w, h       int
	tooSmall   bool
	narrow     bool
	world      rect
	collector  rect // zero when hidden
	inspector  rect // zero when hidden
	timeline   rect
	msgY, msgH int
	cmdY       int
	helpY      int
}

func (m *Model) layout() layout {
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		w, h = 80, 24
	}
	l := layout{w: w, h: h}
	if w < minWidth || h < minHeight {
		l.tooSmall = true
		return l
	}
	l.msgH = min(max(len(m.statusBar.msgLines(m, w)), 1), 3)
	l.helpY = h - 1
	l.cmdY = h - 2
	l.msgY = l.cmdY - l.msgH
	tlH := min(max(h/5, 5), 12)
	mainY := 1
	mainH := l.msgY - tlH - mainY
	l.timeline = rect{0, mainY + mainH, w, tlH}
	worldW := w / 2
	if w < wideWidth {
		worldW = w * 3 / 5
	}
	l.world = rect{0, mainY, worldW, mainH}
	rightW := w - worldW
	if w >= wideWidth {
		colH := mainH * 3 / 5 // the queues need the room more than the manifest
		l.collector = rect{worldW, mainY, rightW, colH}
		l.inspector = rect{worldW, mainY + colH, rightW, mainH - colH}
	} else {
		l.narrow = true
		r := rect{worldW, mainY, rightW, mainH}
		if m.right == paneInspector {
			l.inspector = r
		} else {
			l.collector = r
		}
	}
	return l
}

// hit returns the pane at a screen cell and the content row under it (0
// is the first line inside the border).
func (l layout) hit(x, y int) (pane, int, bool) {
	for _, c := range []struct {
		p pane
		r rect
	}{{paneWorld, l.world}, {paneCollector, l.collector}, {paneInspector, l.inspector}, {paneTimeline, l.timeline}} {
		if c.r.w > 0 && c.r.contains(x, y) {
			return c.p, y - c.r.y - 1, true
		}
	}
	return 0, 0, false
}

// paneInner returns the number of content lines inside a pane's border.
func (m *Model) paneInner(p pane) int {
	l := m.layout()
	var r rect
	switch p {
	case paneWorld:
		r = l.world
	case paneCollector:
		r = l.collector
		if r.h == 0 {
			r = l.inspector
		}
	case paneInspector:
		r = l.inspector
		if r.h == 0 {
			r = l.collector
		}
	case paneTimeline:
		r = l.timeline
	}
	return max(r.h-2, 0)
}

// tooSmall is the screen of a terminal too small for the playground:
// what it needs and how to leave, wrapped to the width it has, never cut
// without a mark.
func tooSmall(w, h int, quit string) string {
	text := fmt.Sprintf("gcplay needs at least %dx%d cells; this terminal is %dx%d. Make it larger, or press %s to quit.", minWidth, minHeight, w, h, quit)
	lines := wrap(text, max(w, 1))
	if h > 0 && len(lines) > h {
		lines = lines[:h]
		last, _ := fit(lines[h-1]+" …", max(w, 1))
		lines[h-1] = last
	}
	for i, l := range lines {
		lines[i], _ = fit(l, max(w, 1))
	}
	return strings.Join(lines, "\n")
}
