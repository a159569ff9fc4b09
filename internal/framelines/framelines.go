// Package framelines draws a frame into Bubble Tea's cell buffer a line at
// a time, redrawing only the lines that differ from the frame drawn before.
//
// Bubble Tea's renderer clears its cell buffer and parses the whole frame
// into it on every frame, then compares every cell with the screen: in the
// browser (WebAssembly, where Go runs about ten times slower than natively)
// that is most of a key's time, though a key changes a few of the frame's
// lines. The browser build's renderer (build/wasm-shim) asks Lines to draw
// the frame instead: a line whose text is the same as last frame's holds
// the same cells, so it is left as it is, and only the changed lines' cells
// are parsed, touched and compared (and of a changed line, only what
// follows the start it shares with the line before, from a style reset on). The buffer then holds exactly what a
// full draw would have put there, so the bytes the renderer writes show the
// same screen.
//
// A line can be drawn on its own only when nothing carries over from the
// line above it in the parse: every styled line must end by resetting its
// style (lipgloss ends each styled line so), and the frame must hold no
// sequence but CSI ones (no hyperlink or other string sequence that stays
// open across lines) and no carriage return. Otherwise, and when the frame's
// size is not the buffer's, Draw reports false and the caller draws the
// whole frame as before.
package framelines

import (
	"strings"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
)

// Lines remembers the lines of the frame last drawn into a buffer.
type Lines struct {
	prev []string // nil: unknown, the next frame is drawn whole
	cur  []string // reused for the split of the next frame
}

// Draw draws content into buf, which must hold the frame last given to
// Draw or Drawn, by redrawing the lines that changed. It reports false,
// having changed nothing, when it cannot (see the package comment); the
// caller then draws the whole frame and calls Drawn.
func (l *Lines) Draw(buf uv.ScreenBuffer, content string) bool {
	h := buf.Height()
	if l.prev == nil || len(l.prev) != h || !independent(content) {
		return false
	}
	cur := splitInto(l.cur[:0], content)
	if len(cur) != h {
		l.cur = cur
		return false
	}
	for _, line := range cur {
		if !closed(line) {
			l.cur = cur
			return false
		}
	}
	w := buf.Width()
	for y, line := range cur {
		if old := l.prev[y]; line != old {
			from := unchanged(old, line)
			x := 0
			if from > 0 {
				x = buf.WidthMethod().StringWidth(line[:from])
			}
			if x < w {
				uv.NewStyledString(line[from:]).Draw(buf, uv.Rect(x, y, w-x, 1))
			}
		}
	}
	l.prev, l.cur = cur, l.prev
	return true
}

// Drawn records that content was drawn whole into a buffer height lines
// high: the next Draw compares with it.
func (l *Lines) Drawn(content string, height int) {
	l.prev = splitInto(l.prev[:0], content)
	if len(l.prev) != height || !independent(content) {
		l.prev = nil
	}
}

// Forget makes the next frame be drawn whole (the buffer was resized or
// cleared, or holds something else).
func (l *Lines) Forget() { l.prev = nil }

// unchanged returns how much of line, which differs from old, need not be
// parsed again: the two lines' common start up to its last style reset,
// after which the parse of line begins with no style, as the whole line's
// parse would reach it; the cells of that start are old's. It is 0 when
// the start holds no reset, or when what follows the reset could join the
// cell before it (a combining mark would fold into it): the part parsed
// must begin with an escape sequence, printable ASCII or a box-drawing or
// block character (the panes' borders), none of which joins a cell.
func unchanged(old, line string) int {
	n := min(len(old), len(line))
	p := 0
	for p < n && old[p] == line[p] {
		p++
	}
	const reset = "\x1b[m"
	q := strings.LastIndex(line[:p], reset)
	if q < 0 {
		return 0
	}
	q += len(reset)
	if q == len(line) {
		return q
	}
	switch c := line[q]; {
	case c == 0x1b, c >= 0x20 && c < 0x7f:
		return q
	}
	if r, _ := utf8.DecodeRuneInString(line[q:]); r >= 0x2500 && r <= 0x259f {
		return q
	}
	return 0
}

// splitInto splits s at its newlines into dst.
func splitInto(dst []string, s string) []string {
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(dst, s)
		}
		dst = append(dst, s[:i])
		s = s[i+1:]
	}
}

// independent reports whether the frame holds no carriage return and no
// escape sequence other than CSI ones, which end where they are written.
func independent(s string) bool {
	if strings.IndexByte(s, '\r') >= 0 {
		return false
	}
	for {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			return true
		}
		if i+1 >= len(s) || s[i+1] != '[' {
			return false
		}
		s = s[i+2:]
	}
}

// closed reports whether a line leaves the style as it found it: it has no
// escape sequence, or its last one is the reset of every attribute.
func closed(line string) bool {
	i := strings.LastIndexByte(line, 0x1b)
	if i < 0 {
		return true
	}
	tail := line[i:]
	return strings.HasPrefix(tail, "\x1b[m") || strings.HasPrefix(tail, "\x1b[0m")
}
