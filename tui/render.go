package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/internal/locale"
)

// seg is a run of plain text with one style.
type seg struct {
	s  string
	st *ink
}

// line is one line of a pane, built from styled runs of plain text, so it
// can be cut to a width before any escape code is written, and drawn
// plain with one style when selected.
type line struct{ segs []seg }

func (l *line) add(st *ink, s string) *line {
	if s != "" {
		if l.segs == nil {
			// Most lines have a few runs: one slice for them, not one
			// per doubling.
			l.segs = make([]seg, 0, 6)
		}
		l.segs = append(l.segs, seg{s: s, st: st})
	}
	return l
}

func (l *line) plain() string {
	var b strings.Builder
	for _, s := range l.segs {
		b.WriteString(s.s)
	}
	return b.String()
}

// render draws the line in exactly width cells: cut with "…" when too
// long, padded with spaces when short. With over set, the whole line
// (padding included) is drawn in that style instead of the runs' own.
func (l *line) render(width int, over *ink) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	if over != nil {
		p := l.plain()
		p, used = fit(p, width)
		b.Grow(len(over.pre) + len(p) + width - used + len(over.post))
		b.WriteString(over.pre)
		b.WriteString(p)
		writeSpaces(&b, width-used)
		b.WriteString(over.post)
		return b.String()
	}
	// The line's bytes are written once, into one buffer of their size
	// (the most a line can take: its runs, their styles, the padding).
	n := width + len("…")
	for _, sg := range l.segs {
		n += len(sg.s)
		if sg.st != nil {
			n += len(sg.st.pre) + len(sg.st.post)
		}
	}
	b.Grow(n)
	cut := lineWidth(l.segs) > width
	limit := width
	if cut {
		limit = width - 1 // room for "…"
	}
	for _, sg := range l.segs {
		text := sg.s
		w := locale.Width(text)
		if used+w > limit {
			text = locale.Truncate(text, limit-used)
			w = locale.Width(text)
		}
		if sg.st != nil {
			sg.st.writeTo(&b, text)
		} else {
			b.WriteString(text)
		}
		used += w
		if used >= limit {
			break
		}
	}
	if cut {
		b.WriteString("…")
		used++
	}
	writeSpaces(&b, width-used)
	return b.String()
}

// spaces is a run of blanks that padding is cut from.
var spaces = strings.Repeat(" ", 256)

// writeSpaces writes n blanks (none when n <= 0) without building them
// first.
func writeSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}

func lineWidth(segs []seg) int {
	n := 0
	for _, s := range segs {
		n += locale.Width(s.s)
	}
	return n
}

// fit cuts plain text to width cells (with "…" when cut) and returns it with
// its width.
func fit(s string, width int) (string, int) {
	w := locale.Width(s)
	if w <= width {
		return s, w
	}
	if width <= 1 {
		return locale.Truncate(s, width), width
	}
	s = locale.Truncate(s, width-1) + "…"
	return s, locale.Width(s)
}

// padStyled pads or cuts an already styled string to width cells.
func padStyled(s string, width int) string {
	w := locale.Width(s)
	switch {
	case w == width:
		return s
	case w < width:
		return s + strings.Repeat(" ", width-w)
	}
	// A wide (CJK) character that would cross the edge is dropped whole:
	// pad the cell it leaves.
	s = ansi.Truncate(s, width, "…")
	if w := locale.Width(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// box draws a pane: a rounded border with the title in the top edge, and
// body (already exactly width-3 cells wide each: a space of margin on the
// left) inside, padded to height.
func box(t *theme, title string, focused bool, body []string, width, height int) []string {
	if width < 4 || height < 2 {
		return nil
	}
	bs, ts := &t.border, &t.title
	if focused {
		bs, ts = &t.borderFocus, &t.titleFocus
	}
	inner := width - 2
	out := make([]string, 0, height)
	tt, tw := fit(" "+title+" ", max(inner-2, 0))
	top := bs.Render("╭─") + ts.Render(tt) + bs.Render(strings.Repeat("─", max(inner-1-tw, 0))+"╮")
	out = append(out, top)
	blank := strings.Repeat(" ", inner)
	side := bs.Render("│")
	for i := 0; i < height-2; i++ {
		if i < len(body) {
			out = append(out, side+" "+body[i]+side) // one string, not two
		} else {
			out = append(out, side+blank+side)
		}
	}
	out = append(out, bs.Render("╰"+strings.Repeat("─", inner)+"╯"))
	return out
}

// joinColumns puts blocks of lines side by side; each block's lines must
// already have the block's width.
func joinColumns(blocks ...[]string) []string {
	n := 0
	for _, b := range blocks {
		n = max(n, len(b))
	}
	out := make([]string, n)
	for i := range out {
		var sb strings.Builder
		size := 0
		for _, b := range blocks {
			if i < len(b) {
				size += len(b[i])
			}
		}
		sb.Grow(size)
		for _, b := range blocks {
			if i < len(b) {
				sb.WriteString(b[i])
			}
		}
		out[i] = sb.String()
	}
	return out
}

// clearBehind blanks the lines of screen from first to last (inclusive)
// before a modal overlay is drawn: the panes' keys and hints below it do
// not work while it is open, so they are not shown.
func clearBehind(screen []string, first, last int) {
	for i := max(first, 0); i <= last && i < len(screen); i++ {
		screen[i] = strings.Repeat(" ", locale.Width(screen[i]))
	}
}

// overlay draws the lines of top over base, with top's first line at row y
// and column x. The rest of the rows it covers is blanked: a fragment of
// the screen below beside the overlay's border (a cut word, half a pane's
// edge) would read as part of it.
func overlay(base []string, top []string, x, y int) {
	for i, l := range top {
		r := y + i
		if r < 0 || r >= len(base) {
			continue
		}
		w := locale.Width(l)
		right := max(locale.Width(base[r])-x-w, 0)
		base[r] = strings.Repeat(" ", x) + "\x1b[m" + l + "\x1b[m" + strings.Repeat(" ", right)
	}
}

// wrap breaks plain text into lines of at most width cells, at spaces
// where it can.
func wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if hasWide(para) {
			// Chinese breaks between characters, not at spaces
			out = append(out, locale.Wrap(para, width)...)
			continue
		}
		w := ansi.Wrap(para, width, " ")
		out = append(out, strings.Split(w, "\n")...)
	}
	return out
}

// hasWide reports whether s has a CJK character.
func hasWide(s string) bool {
	for _, r := range s {
		if r >= 0x1100 && locale.Wide(r) {
			return true
		}
	}
	return false
}
