package framelines

import (
	"reflect"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
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
