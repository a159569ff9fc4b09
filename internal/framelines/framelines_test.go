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
	const first = "\x1b[1mab\x1b[m\nc世d\n\x1b[31mef\x1b[m  "
	for _, tc := range []struct {
		name, next string
		byLines    bool
	}{
		{"a changed line", "\x1b[1mab\x1b[m\nc界\x1b[32md\x1b[m\n\x1b[31mef\x1b[m  ", true},
		{"every line changed", "x\ny\nz", true},
		{"the same frame", first, true},
		{"a style left open above a changed line", "\x1b[1mab\nc世e\n\x1b[31mef\x1b[m", false},
		{"a hyperlink", "\x1b]8;;http://x\x1b\\ab\x1b]8;;\x1b\\\ncd\nef", false},
		{"a carriage return", "ab\r\ncd\nef", false},
		{"more lines than the buffer", "ab\ncd\nef\ngh", false},
		{"fewer lines than the buffer", "ab\ncd", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l Lines
			buf := whole(6, 3, first)
			l.Drawn(first, 3)
			before := whole(6, 3, first)
			ok := l.Draw(buf, tc.next)
			if ok != tc.byLines {
				t.Fatalf("Draw reported %v, want %v", ok, tc.byLines)
			}
			want := before
			if ok {
				want = whole(6, 3, tc.next)
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
