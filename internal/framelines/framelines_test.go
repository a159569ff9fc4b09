package framelines

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// whole draws content as Bubble Tea's renderer does: the buffer cleared,
// the whole frame parsed into it.
func whole(w, h int, content string) uv.ScreenBuffer {
	b := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(content).Draw(b, b.Bounds())
	return b
}

// TestDrawByLines: a frame after another is drawn by its changed lines into
// the cells a whole parse gives, or refused when a line's parse depends on
// the line above it (a style or a hyperlink left open, a carriage
// return) or the frame is not the buffer's height.
func TestDrawByLines(t *testing.T) {
	const first = "\x1b[1mab\x1b[m\nc世d\n\x1b[31mef\x1b[m  \n世\x1b[m│ab\na\x1b[mbc"
	for _, tc := range []struct {
		name, next string
		byLines    bool
	}{
		{"a changed line", "\x1b[1mab\x1b[m\nc界\x1b[32md\x1b[m\n\x1b[31mef\x1b[m  \n世\x1b[m│ab\na\x1b[mbc", true},
		{"every line changed", "x\ny\nz\nw\nv", true},
		{"the same frame", first, true},
		{"a change after a wide character and a reset", "\x1b[1mab\x1b[m\nc世d\n\x1b[31mef\x1b[m  \n世\x1b[m│a\x1b[1mc\x1b[m\na\x1b[mbc", true},
		{"a combining mark after a reset", "\x1b[1mab\x1b[m\nc世d\n\x1b[31mef\x1b[m  \n世\x1b[m│ab\na\x1b[m\u0301c", true},
		{"a style left open above a changed line", "\x1b[1mab\nc世e\n\x1b[31mef\x1b[m\nx\ny", false},
		{"a hyperlink", "\x1b]8;;http://x\x1b\\ab\x1b]8;;\x1b\\\ncd\nef\ngh\nij", false},
		{"a carriage return", "ab\r\ncd\nef\ngh\nij", false},
		{"more lines than the buffer", "ab\ncd\nef\ngh\nij\nkl", false},
		{"fewer lines than the buffer", "ab\ncd", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Lines
			buf := whole(6, 5, first)
			l.Drawn(first, 5)
			before := whole(6, 5, first)
			ok := l.Draw(buf, tc.next)
			if ok != tc.byLines {
				t.Fatalf("Draw reported %v, want %v", ok, tc.byLines)
			}
			want := before
			if ok {
				want = whole(6, 5, tc.next)
			}
			if !reflect.DeepEqual(buf.Lines, want.Lines) {
				t.Fatalf("cells after Draw:\n%v\nwant:\n%v", buf.Lines, want.Lines)
			}
		})
	}
}

// TestForgetDrawsWhole: after Forget, or before anything was drawn, Draw
// refuses, as the buffer may hold anything.
func TestForgetDrawsWhole(t *testing.T) {
	var l Lines
	buf := whole(4, 2, "ab\ncd")
	if l.Draw(buf, "ab\nce") {
		t.Fatal("Draw drew by lines with nothing drawn before")
	}
	l.Drawn("ab\ncd", 2)
	l.Forget()
	if l.Draw(buf, "ab\nce") {
		t.Fatal("Draw drew by lines after Forget")
	}
	l.Drawn("ab\ncd", 2)
	if !l.Draw(buf, "ab\nce") || !l.Draw(buf, "xb\nce") {
		t.Fatal("Draw refused two frames in a row")
	}
	if want := whole(4, 2, "xb\nce"); !reflect.DeepEqual(buf.Lines, want.Lines) {
		t.Fatalf("cells after two frames:\n%v\nwant:\n%v", buf.Lines, want.Lines)
	}
}

// TestUnchangedStart: a changed line is parsed again from the last style
// reset of the start it shares with the line before, unless what follows
// the reset could join the cell before it.
func TestUnchangedStart(t *testing.T) {
	for _, tc := range []struct {
		old, line string
		want      int
	}{
		{"\x1b[1mab\x1b[m│x", "\x1b[1mab\x1b[m│y", 9},
		{"\x1b[1mab\x1b[m\x1b[2mx\x1b[m", "\x1b[1mab\x1b[m\x1b[2my\x1b[m", 9},
		{"\x1b[1mab\x1b[m x", "\x1b[1mab\x1b[m y", 9},
		{"\x1b[1mab\x1b[mx", "\x1b[1mac\x1b[mx", 0}, // the change comes before the reset
		{"ab\x1b[m\u0301x", "ab\x1b[m\u0301y", 0},   // a combining mark follows it
		{"ab\x1b[m世x", "ab\x1b[m世y", 5},             // a wide character joins no cell
		{"ab\x1b[m\u0d4ex", "ab\x1b[m\u0d4ey", 0},   // a concatenation mark might
		{"ab\x1b[", "ab\x1b[m", 0},                  // the reset is not in the common start
		{"abc", "abd", 0},
	} {
		if got := unchanged(tc.old, tc.line); got != tc.want {
			t.Errorf("unchanged(%q, %q) = %d, want %d", tc.old, tc.line, got, tc.want)
		}
	}
}

// apply plays what Write wrote onto buf as a terminal would: CUP moves to
// a place (home with no parameters), EL erases from there to the end of
// the line, and text (with its SGR sequences) is written from there, each
// character in its own columns, leaving the rest of the line alone.
func apply(t *testing.T, buf uv.ScreenBuffer, out string) {
	t.Helper()
	// csi returns the final byte of the CSI sequence at s[i:] and its end.
	csi := func(s string, i int) (byte, int) {
		j := i + 2
		for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
			j++
		}
		if j >= len(s) {
			t.Fatalf("an unfinished sequence: %q", s[i:])
		}
		return s[j], j + 1
	}
	x, y := 0, 0
	for out != "" {
		if strings.HasPrefix(out, "\x1b[") {
			if final, end := csi(out, 0); final != 'm' {
				params := out[2 : end-1]
				switch final {
				case 'H':
					x, y = 0, 0
					if params != "" {
						row, col, _ := strings.Cut(params, ";")
						y, _ = strconv.Atoi(row)
						y--
						if col != "" {
							x, _ = strconv.Atoi(col)
							x--
						}
					}
				case 'K':
					if params != "" {
						t.Fatalf("an erase Write does not write: %q", out[:end])
					}
					for i := x; i < buf.Width(); i++ {
						buf.SetCell(i, y, nil)
					}
				default:
					t.Fatalf("a sequence Write does not write: %q", out[:end])
				}
				out = out[end:]
				continue
			}
		}
		// Text, with its SGR sequences, up to the next other sequence.
		n := 0
		for n < len(out) {
			if strings.HasPrefix(out[n:], "\x1b[") {
				final, end := csi(out, n)
				if final != 'm' {
					break
				}
				n = end
				continue
			}
			n++
		}
		text := out[:n]
		out = out[n:]
		w := ansi.StringWidth(text)
		if x+w > buf.Width() {
			t.Fatalf("text written past the line's end at %d,%d: %q", x, y, text)
		}
		if w > 0 {
			uv.NewStyledString(text).Draw(buf, uv.Rect(x, y, w, 1))
		}
		x += w
	}
}

// TestWriteByLines: what Write writes for a frame after another brings a
// screen showing the first to the cells a whole parse of the second gives,
// writing only the changed lines, from their start shared with the line
// before up to its last reset; or Write refuses, writing and remembering
// nothing, for a frame holding what a terminal might measure otherwise
// than the renderer (an emoji, Hangul, a combining mark), a sequence other
// than SGR, a control character, a line wider than the screen, or a frame
// Draw would refuse.
func TestWriteByLines(t *testing.T) {
	const first = "\x1b[1mab\x1b[m│xyz\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend"
	for _, tc := range []struct {
		name, next string
		written    bool
		lines      int // lines written
	}{
		{"after a reset", "\x1b[1mab\x1b[m│xqz\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", true, 1},
		{"a shorter line, erased to its end", "\x1b[1mab\x1b[m│xyz\n──\x1b[31m▸\x1b[m\npl\n\x1b[1mab\x1b[m│xy\nend", true, 1},
		{"a longer line", "\x1b[1mab\x1b[m│xyz\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xyzw\nend", true, 1},
		{"a new style", "\x1b[1mab\x1b[m│xyz\n──\x1b[32m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\n\x1b[4mend\x1b[m", true, 2},
		{"the same frame", first, true, 0},
		{"every line", "a\nb\nc\nd\ne", true, 5},
		{"a wide character", "\x1b[1mab\x1b[m│x世\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", true, 1},
		{"wide characters over narrow ones", "\x1b[1mab\x1b[m│xyz\n──\x1b[31m▸\x1b[m\n（世界）\n\x1b[1mab\x1b[m│xy\nend", true, 1},
		{"a wide character past the line's end", "\x1b[1mab\x1b[m│xyz\n──\x1b[31m▸\x1b[m\nplain世界\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"an emoji", "\x1b[1mab\x1b[m│x\U0001f600\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"Hangul", "\x1b[1mab\x1b[m│x한\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"a combining mark", "\x1b[1mab\x1b[m│xe\u0301\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"an emoji's variation selector", "\x1b[1mab\x1b[m│x\u2764\ufe0f\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"an erase sequence", "\x1b[1mab\x1b[m│x\x1b[K\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"a tab", "\x1b[1mab\x1b[m│x\ty\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"a line wider than the screen", "\x1b[1mab\x1b[m│xyzuvw\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"a style left open", "\x1b[1mab\x1b[m│xyz\n──\x1b[31m▸\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"a hyperlink", "\x1b]8;;http://x\x1b\\ab\x1b]8;;\x1b\\\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
		{"fewer lines", "ab\ncd", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Lines
			buf := whole(8, 5, first)
			l.Drawn(first, 5)
			out, ok := l.Write([]byte("before"), tc.next, 8, 5, ansi.WcWidth)
			if ok != tc.written {
				t.Fatalf("Write reported %v, want %v", ok, tc.written)
			}
			if !strings.HasPrefix(string(out), "before") {
				t.Fatalf("Write lost what dst held: %q", out)
			}
			out = out[len("before"):]
			if !ok {
				if len(out) > 0 {
					t.Fatalf("Write refused the frame but wrote %q", out)
				}
				// Nothing remembered: the first frame is still the one
				// compared with.
				if !l.Draw(buf, first) {
					t.Fatal("after a refused Write, Draw refused the frame drawn before")
				}
				return
			}
			if n := strings.Count(string(out), "H") - 1; tc.lines > 0 && n != tc.lines {
				t.Errorf("%d lines written, want %d: %q", n, tc.lines, out)
			}
			if tc.lines == 0 && len(out) > 0 {
				t.Errorf("wrote %q for no change", out)
			}
			if tc.lines > 0 && !strings.HasSuffix(string(out), ansi.CursorHomePosition) {
				t.Errorf("the cursor is not left home: %q", out)
			}
			apply(t, buf, string(out))
			if want := whole(8, 5, tc.next); !reflect.DeepEqual(buf.Lines, want.Lines) {
				t.Fatalf("cells after %q:\n%v\nwant:\n%v", out, buf.Lines, want.Lines)
			}
			// The cell buffer is behind the screen now: Draw refuses
			// until the frame is drawn whole.
			if l.Draw(buf, first) {
				t.Fatal("Draw drew by lines after a Write")
			}
			l.Drawn(tc.next, 5)
			if !l.Draw(whole(8, 5, tc.next), first) {
				t.Fatal("Draw refused after Drawn")
			}
		})
	}
}

// TestWriteColumn: a changed line is written from the column its unchanged
// start takes, after the last reset in it.
func TestWriteColumn(t *testing.T) {
	var l Lines
	l.Drawn("\x1b[1mab\x1b[m│xyz\nq", 2)
	out, ok := l.Write(nil, "\x1b[1mab\x1b[m│xyw\nq", 8, 2, ansi.WcWidth)
	if want := "\x1b[1;3H│xyw\x1b[K\x1b[H"; !ok || string(out) != want {
		t.Fatalf("Write = %q, %v; want %q", out, ok, want)
	}
}

// TestWriteWideColumns: the cursor is put at the column a changed line's
// unchanged start takes, a wide character counting two; a change whose
// bytes begin inside a wide character (世 and 丗 share their first two
// bytes) is written from that character's first column; and the screen
// then holds the cells a whole parse gives, though the written characters
// stand astride the old ones' columns.
func TestWriteWideColumns(t *testing.T) {
	for _, m := range []uv.WidthMethod{ansi.WcWidth, ansi.GraphemeWidth} {
		for _, tc := range []struct{ name, first, next, want string }{
			{"after two wide characters", "世界\x1b[m│ab\nq", "世界\x1b[m│ac\nq", "\x1b[1;5H│ac\x1b[K\x1b[H"},
			{"inside a wide character", "a\x1b[m世x\nq", "a\x1b[m丗x\nq", "\x1b[1;2H丗x\x1b[K\x1b[H"},
			{"on a wide character's second column", "a\x1b[m世x\nq", "a\x1b[m x世\nq", "\x1b[1;2H x世\x1b[K\x1b[H"},
			{"wide over narrow, to the line's end", "\x1b[1m（a）\x1b[m│bc\nq", "\x1b[1m（a）\x1b[m│。\nq", "\x1b[1;6H│。\x1b[H"},
			{"astride wide ones", "a\x1b[m世界x\nq", "a\x1b[mb世ex\nq", "\x1b[1;2Hb世ex\x1b[K\x1b[H"},
			{"the whole width", "第 1 步\x1b[m│\nq", "第 2 步\x1b[m│\nq", "\x1b[1H第 2 步\x1b[m│\x1b[H"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var l Lines
				buf := whole(8, 2, tc.first)
				l.Drawn(tc.first, 2)
				out, ok := l.Write(nil, tc.next, 8, 2, m)
				if !ok || string(out) != tc.want {
					t.Fatalf("Write = %q, %v; want %q", out, ok, tc.want)
				}
				apply(t, buf, string(out))
				if want := whole(8, 2, tc.next); !reflect.DeepEqual(buf.Lines, want.Lines) {
					t.Fatalf("cells after %q:\n%v\nwant:\n%v", out, buf.Lines, want.Lines)
				}
			})
		}
	}
}

// TestWriteRefusesUnsure: a frame holding a character whose columns a
// terminal might count otherwise than the renderer, even in a line that
// did not change, is not written (it goes through the cells): East Asian
// Ambiguous ones the models count differently, emoji (U+3030 among the CJK
// symbols too), a variation selector after a Chinese character, Hangul,
// letters xterm.js counts as none (a Hangul vowel) or two (U+3248), and a
// concatenation mark that joins the letter after it.
func TestWriteRefusesUnsure(t *testing.T) {
	for _, c := range []string{"\u3248", "\U0001f600", "\u3030", "世\ufe0f", "世\ufe0e", "한", "\u1161", "\u0d4ex", "\u00ad"} {
		for _, m := range []uv.WidthMethod{ansi.WcWidth, ansi.GraphemeWidth} {
			var l Lines
			l.Drawn("ab\n"+c, 2)
			if out, ok := l.Write(nil, "ac\n"+c, 8, 2, m); ok || len(out) > 0 {
				t.Errorf("Write = %q, %v for a frame with %+q (width method %v)", out, ok, c, m)
			}
		}
	}
	// The same frames with a Chinese word are written.
	var l Lines
	l.Drawn("ab\n世界，。", 2)
	if _, ok := l.Write(nil, "ac\n世界，。", 10, 2, ansi.GraphemeWidth); !ok {
		t.Errorf("Write refused a frame with a Chinese word")
	}
}

// TestWideCharacters: the characters taken as two columns wide are many
// (the CJK ideographs), hold the Chinese page's punctuation, and none is a
// mark, a format character or a variation selector; the narrow ones the
// page draws beside them stay one column.
func TestWideCharacters(t *testing.T) {
	var l Lines
	n := 0
	for r := rune(0); r <= 0x3ffff; r++ {
		if l.cellWidth(r, ansi.GraphemeWidth) != 2 {
			continue
		}
		n++
		if unicode.In(r, unicode.M, unicode.C, unicode.Zl, unicode.Zp) || !wide(r) {
			t.Errorf("%U is taken as two columns wide", r)
		}
	}
	// The assigned ideographs of the BMP's blocks alone are over 27,000.
	if n < 27000 {
		t.Errorf("only %d characters are taken as wide", n)
	}
	for _, r := range "，。、：；（）！？「」『』《》【】￥中文第步" {
		if l.cellWidth(r, ansi.GraphemeWidth) != 2 || l.cellWidth(r, ansi.WcWidth) != 2 {
			t.Errorf("%c (%U) is not taken as two columns wide", r, r)
		}
	}
	for _, r := range "·×“”…←↑↓→✓✗─│▸" {
		if l.cellWidth(r, ansi.GraphemeWidth) != 1 {
			t.Errorf("%c (%U) is not taken as one column wide", r, r)
		}
	}
}

// TestWriteAfterErased: a first frame written onto an erased screen holds
// the cells a whole parse gives, its empty lines not written; Draw refuses
// until the frame is drawn whole.
func TestWriteAfterErased(t *testing.T) {
	const frame = "\x1b[1mab\x1b[m│xyz\n\n──\x1b[31m▸\x1b[m世\nplain\n"
	var l Lines
	l.Drawn("a\nb\nc\nd\ne", 5) // a frame before, forgotten by Erased
	l.Erased(5)
	buf := uv.NewScreenBuffer(8, 5)
	if l.Draw(buf, frame) {
		t.Fatal("Draw drew by lines onto an erased screen")
	}
	out, ok := l.Write(nil, frame, 8, 5, ansi.WcWidth)
	if !ok {
		t.Fatal("Write refused the frame")
	}
	if n := strings.Count(string(out), "H") - 1; n != 3 {
		t.Errorf("%d lines written, want the 3 that are not empty: %q", n, out)
	}
	apply(t, buf, string(out))
	if want := whole(8, 5, frame); !reflect.DeepEqual(buf.Lines, want.Lines) {
		t.Fatalf("cells after %q:\n%v\nwant:\n%v", out, buf.Lines, want.Lines)
	}
	if l.Draw(buf, frame) {
		t.Fatal("Draw drew by lines after a Write")
	}
	// Refused, it remembers nothing written: the next Write still starts
	// from the erased screen.
	l.Erased(5)
	if _, ok := l.Write(nil, "a\x1b[31mb\nc\nd\ne\nf", 8, 5, ansi.WcWidth); ok {
		t.Fatal("Write took a frame with a style left open")
	}
	out, ok = l.Write(nil, "\n\nc\n\n", 8, 5, ansi.WcWidth)
	if !ok || string(out) != "\x1b[3Hc\x1b[K"+ansi.CursorHomePosition {
		t.Fatalf("Write after a refused one wrote %q, %v", out, ok)
	}
}
