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
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Lines remembers the lines of the frame last drawn into a buffer, or
// written to the terminal.
type Lines struct {
	prev []string // nil: unknown, the next frame is drawn whole
	cur  []string // reused for the split of the next frame
	// behind: the frame in prev was written to the terminal by Write, not
	// drawn into the cell buffer, which holds an older frame.
	behind bool
	narrow map[rune]bool // Write: whether a rune is one column in every width model
	// Written counts the frames Write took (for the page's tests).
	Written int
}

// Draw draws content into buf, which must hold the frame last given to
// Draw or Drawn, by redrawing the lines that changed. It reports false,
// having changed nothing, when it cannot (see the package comment); the
// caller then draws the whole frame and calls Drawn.
func (l *Lines) Draw(buf uv.ScreenBuffer, content string) bool {
	h := buf.Height()
	if l.prev == nil || l.behind || len(l.prev) != h || !independent(content) {
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
	l.behind = false
	l.prev = splitInto(l.prev[:0], content)
	if len(l.prev) != height || !independent(content) {
		l.prev = nil
	}
}

// Forget makes the next frame be drawn whole (the buffer was resized or
// cleared, or holds something else).
func (l *Lines) Forget() { l.prev, l.behind = nil, false }

// Write appends to dst the bytes that bring a terminal w columns wide and h
// lines high, showing the frame last given to Draw, Drawn or Write, to
// content, without the cell buffer: each changed line's own text from the
// start it shares with the line before (as Draw parses it), at its place
// (CUP), then an erase of the rest of the line (EL) when the line is
// narrower than the screen; the cursor is then put home. A frame so written
// is what the terminal shows after Bubble Tea's renderer writes the cells
// Draw would draw, when the terminal measures every character as the
// renderer does; Write therefore takes only frames whose lines hold
// printable ASCII and characters one column wide by every width model
// (box drawing, arrows: the renderer's diff too trusts its column for
// those, where it repaints a line holding any other from its start), and
// no sequence but SGR (a CSI ending in m), the unchanged lines too (a
// frame with a Chinese word goes through the cells, as every frame like it
// does, not by turns with frames written, each turn a whole repaint). It reports false, having written and remembered nothing, for any
// other frame, and for any frame Draw would refuse.
//
// After a Write the cell buffer and the renderer's model of the screen
// are behind what the terminal shows: Draw refuses until Drawn (the caller
// draws the next frame whole, with the screen erased and repainted).
func (l *Lines) Write(dst []byte, content string, w, h int, m uv.WidthMethod) ([]byte, bool) {
	if l.prev == nil || len(l.prev) != h || !independent(content) {
		return dst, false
	}
	cur := splitInto(l.cur[:0], content)
	l.cur = cur
	if len(cur) != h {
		return dst, false
	}
	for y, line := range cur {
		changed := line != l.prev[y]
		if changed && !closed(line) {
			return dst, false
		}
		if width, ok := l.plainWidth(line, m); !ok || changed && width > w {
			return dst, false
		}
	}
	start := len(dst)
	for y, line := range cur {
		old := l.prev[y]
		if line == old {
			continue
		}
		width, _ := l.plainWidth(line, m)
		from := unchanged(old, line)
		x := 0
		if from > 0 {
			x, _ = l.plainWidth(line[:from], m)
		}
		dst = append(dst, "\x1b["...)
		dst = strconv.AppendInt(dst, int64(y+1), 10)
		if x > 0 {
			dst = append(dst, ';')
			dst = strconv.AppendInt(dst, int64(x+1), 10)
		}
		dst = append(dst, 'H')
		dst = append(dst, line[from:]...)
		if width < w {
			dst = append(dst, ansi.EraseLineRight...)
		}
	}
	if len(dst) > start {
		dst = append(dst, ansi.CursorHomePosition...)
	}
	l.prev, l.cur = cur, l.prev
	l.behind = true
	l.Written++
	return dst, true
}

// plainWidth returns a line's width in columns, and false when it holds
// anything but printable ASCII, characters one column wide by every width
// model, and SGR sequences.
func (l *Lines) plainWidth(line string, m uv.WidthMethod) (int, bool) {
	n := 0
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b:
			// A CSI sequence (independent checked there are no others):
			// parameters and intermediates, then its final byte.
			j := i + 2
			for j < len(line) && line[j] >= 0x20 && line[j] < 0x40 {
				j++
			}
			if j >= len(line) || line[j] != 'm' {
				return 0, false
			}
			i = j + 1
		case c < 0x80:
			return 0, false // a control character
		default:
			r, size := utf8.DecodeRuneInString(line[i:])
			if !l.isNarrow(r, m) {
				return 0, false
			}
			n++
			i += size
		}
	}
	return n, true
}

// isNarrow reports whether r is a character of its own (nothing that
// joins the one before it or the one after it) that every width model
// measures one column wide.
func (l *Lines) isNarrow(r rune, m uv.WidthMethod) bool {
	if v, ok := l.narrow[r]; ok {
		return v
	}
	v := r != utf8.RuneError && !unicode.In(r, unicode.M, unicode.C, unicode.Zl, unicode.Zp) &&
		!(r >= 0x1f1e6 && r <= 0x1f1ff) && // regional indicators pair into flags
		m.StringWidth(string(r)) == 1 && ansi.StringWidth(string(r)) == 1 && ansi.WcWidth.StringWidth(string(r)) == 1
	if l.narrow == nil {
		l.narrow = map[rune]bool{}
	}
	l.narrow[r] = v
	return v
}

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
