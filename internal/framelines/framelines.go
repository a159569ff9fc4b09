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

	"github.com/gcplay/gcplay/internal/locale"
)

// Lines remembers the lines of the frame last drawn into a buffer, or
// written to the terminal.
type Lines struct {
	prev []string // nil: unknown, the next frame is drawn whole
	cur  []string // reused for the split of the next frame
	// behind: the frame in prev was written to the terminal by Write, not
	// drawn into the cell buffer, which holds an older frame.
	behind bool
	widths map[rune]int8 // Write: a rune's columns by every width model, 0 when they differ (see cellWidth)
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

// Erased records that the terminal shows an erased screen height lines
// high and that the cell buffer holds nothing drawn: the next Write writes
// every line of its frame that is not empty (a program's first frame, on
// the alternate screen just entered), and Draw refuses until Drawn.
func (l *Lines) Erased(height int) {
	l.prev, l.behind = make([]string, height), true
}

// Forget makes the next frame be drawn whole (the buffer was resized or
// cleared, or holds something else).
func (l *Lines) Forget() { l.prev, l.behind = nil, false }

// Write appends to dst the bytes that bring a terminal w columns wide and h
// lines high, showing the frame last given to Draw, Drawn or Write (or the
// erased screen Erased says it shows), to content, without the cell buffer: each changed line's own text from the
// start it shares with the line before (as Draw parses it), at its place
// (CUP), then an erase of the rest of the line (EL) when the line is
// narrower than the screen; the cursor is then put home. A frame so written
// is what the terminal shows after Bubble Tea's renderer writes the cells
// Draw would draw, when the terminal measures every character as the
// renderer does; Write therefore takes only frames whose lines hold
// printable ASCII, characters one column wide by every width model (box
// drawing, arrows), characters two columns wide by every width model and
// by xterm.js's (CJK ideographs, CJK punctuation, fullwidth forms: see
// wide), and no sequence but SGR (a CSI ending in m), the unchanged lines
// too (a frame with an emoji goes through the cells, as every frame like
// it does, not by turns with frames written, each turn a whole repaint).
// Cursor places count columns: a wide character takes two. It reports
// false, having written and remembered nothing, for any other frame, and
// for any frame Draw would refuse.
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
// anything but printable ASCII, characters whose columns every width model
// agrees on (see cellWidth), and SGR sequences.
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
			cw := l.cellWidth(r, m)
			if cw == 0 {
				return 0, false
			}
			n += cw
			i += size
		}
	}
	return n, true
}

// cellWidth returns the columns r takes when every width model agrees on
// them and r is a character of its own (nothing that joins the one before
// it or the one after it): 1 for a character one column wide by the
// renderer's width method and both of x/ansi's (xterm.js measures every
// character it does not count wide or zero-width as one column), 2 for a
// wide one (a CJK ideograph, CJK punctuation, a fullwidth form) that all
// three measure two and xterm.js does too; else 0 (an East Asian Ambiguous
// character the models measure differently, an emoji, a combining mark, a
// variation selector, a control or format character).
func (l *Lines) cellWidth(r rune, m uv.WidthMethod) int {
	if v, ok := l.widths[r]; ok {
		return int(v)
	}
	s := string(r)
	w := m.StringWidth(s)
	v := 0
	if r != utf8.RuneError && !unicode.In(r, unicode.M, unicode.C, unicode.Zl, unicode.Zp) &&
		!(r >= 0x1f1e6 && r <= 0x1f1ff) && // regional indicators pair into flags
		(w == 1 && !xtermNotOne(r) || w == 2 && wide(r)) &&
		ansi.StringWidth(s) == w && ansi.WcWidth.StringWidth(s) == w &&
		// Nor does it join a letter beside it, by grapheme clusters (a
		// prepended concatenation mark, as U+0D4E, takes the next one in).
		m.StringWidth("x"+s+"x") == w+2 && ansi.StringWidth("x"+s+"x") == w+2 {
		v = w
	}
	if l.widths == nil {
		l.widths = map[rune]int8{}
	}
	l.widths[r] = int8(v)
	return v
}

// xtermNotOne reports whether xterm.js (see wide) measures r, a letter or
// symbol, otherwise than one column: its wide ranges, and the letters its
// table counts zero-width (U+06DE, and the Hangul vowels and final
// consonants U+1160-U+11FF, which join the consonant before them). Of
// these, x/ansi's models measure one column U+06DE, U+1160-U+11FF and
// U+3248-U+324F (circled numbers, East Asian Ambiguous).
func xtermNotOne(r rune) bool {
	switch {
	case r == 0x06de, r >= 0x1100 && r <= 0x11ff, r == 0x2329, r == 0x232a,
		r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3, r >= 0xf900 && r <= 0xfaff,
		r >= 0xfe10 && r <= 0xfe19, r >= 0xfe30 && r <= 0xfe6f, r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x20000 && r <= 0x2fffd, r >= 0x30000 && r <= 0x3fffd:
		return true
	}
	return false
}

// wide reports whether r is a character that xterm.js (6.0.0, the page's,
// with no Unicode addon: its Unicode 6 table,
// src/common/input/UnicodeV6.ts) measures two columns wide and that does
// not join its neighbours: the ranges of locale.TwoCells (CJK ideographs,
// CJK punctuation and fullwidth forms), by which the page's text is
// measured too. Its table counts U+2E80-U+A4CF wide but for U+303F and
// the combining marks U+302A-U+302F and U+3099-U+309A, and U+F900-U+FAFF,
// U+FF00-U+FF60, U+FFE0-U+FFE6, U+20000-U+2FFFD and U+30000-U+3FFFD
// (checked code point by code point against that table with x/ansi's two
// width methods: every character cellWidth measures two there is two in
// xterm.js, and every one it measures one is one). Left out of TwoCells:
// the two emoji among the CJK symbols (U+3030 and U+303D, which a
// variation selector draws as emoji), U+303F (one column in xterm.js),
// kana, Hangul (whose jamo join), radicals, and the enclosed and
// compatibility CJK blocks (U+3200-U+33FF, emoji among them).
func wide(r rune) bool { return locale.TwoCells(r) }

// unchanged returns how much of line, which differs from old, need not be
// parsed again: the two lines' common start up to its last style reset,
// after which the parse of line begins with no style, as the whole line's
// parse would reach it; the cells of that start are old's. It is 0 when
// the start holds no reset, or when what follows the reset could join the
// cell before it (a combining mark would fold into it): the part parsed
// must begin with an escape sequence, printable ASCII, a box-drawing or
// block character (the panes' borders) or a wide character (see wide: a
// Chinese word), none of which joins a cell.
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
	if r, _ := utf8.DecodeRuneInString(line[q:]); r >= 0x2500 && r <= 0x259f || wide(r) {
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
