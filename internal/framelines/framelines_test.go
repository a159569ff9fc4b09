package framelines

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

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
		{"ab\x1b[m世x", "ab\x1b[m世y", 0},             // not a border: parsed whole
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
// than the renderer (a wide character, a combining mark), a sequence other
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
		{"a wide character", "\x1b[1mab\x1b[m│x世\n──\x1b[31m▸\x1b[m\nplain\n\x1b[1mab\x1b[m│xy\nend", false, 0},
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

// TestWriteRefusesFrameWithWide: a frame holding a wide character, even in
// a line that did not change, is not written (it goes through the cells,
// as every frame of a Chinese screen).
func TestWriteRefusesFrameWithWide(t *testing.T) {
	var l Lines
	l.Drawn("ab\n世界", 2)
	if out, ok := l.Write(nil, "ac\n世界", 8, 2, ansi.WcWidth); ok || len(out) > 0 {
		t.Fatalf("Write = %q, %v for a frame with a wide character", out, ok)
	}
}
