package tui

import (
	"reflect"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/gcplay/gcplay/internal/framelines"
	"github.com/gcplay/gcplay/lessons"
)

// lineScreens draws each frame it is given twice, as the browser build's
// renderer does (internal/framelines: only the lines that changed are
// parsed into the cell buffer) and as Bubble Tea's own renderer does (the
// buffer cleared and the whole frame parsed into it), and fails when the
// two buffers differ in any cell: a changed line left unwritten, or a line
// drawn on its own into other cells than the whole frame's parse gives it.
type lineScreens struct {
	t          *testing.T
	lines      framelines.Lines
	byLines    uv.ScreenBuffer
	w, h       int
	frames     int
	linesDrawn int // frames drawn by lines, not whole
}

func (s *lineScreens) frame(after string, v tea.View) {
	s.t.Helper()
	w, h := s.w, s.h
	full := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(v.Content).Draw(full, full.Bounds())
	if s.byLines.RenderBuffer == nil || s.byLines.Width() != w || s.byLines.Height() != h {
		// A new size: the renderer erases and draws the frame whole.
		s.byLines = uv.NewScreenBuffer(w, h)
		s.lines.Forget()
	}
	if s.lines.Draw(s.byLines, v.Content) {
		s.linesDrawn++
	} else {
		s.byLines.Clear()
		uv.NewStyledString(v.Content).Draw(s.byLines, s.byLines.Bounds())
		s.lines.Drawn(v.Content, h)
	}
	s.frames++
	if !reflect.DeepEqual(full.Lines, s.byLines.Lines) {
		for y := range h {
			if !reflect.DeepEqual(full.Lines[y], s.byLines.Lines[y]) {
				s.t.Fatalf("after %s (frame %d), row %d drawn by lines differs from the whole frame's:\nby lines: %q\nwhole:    %q",
					after, s.frames, y, s.byLines.Lines[y].String(), full.Lines[y].String())
			}
		}
	}
}

func (s *lineScreens) done() {
	s.t.Helper()
	// Most frames must take the path by lines, or the test checks nothing.
	if s.linesDrawn*10 < s.frames*7 {
		s.t.Errorf("only %d frames of %d were drawn by lines", s.linesDrawn, s.frames)
	}
	s.t.Logf("%d frames, %d drawn by lines", s.frames, s.linesDrawn)
}

// TestFrameLinesAsWholeFrame: the browser build's renderer, which parses
// only a frame's changed lines into its cells, leaves the cells a whole
// parse of the frame gives, along a walk of the playground (steps, steps
// back, jumps, a branch, the selection, the focus round the panes, the
// command line with its cursor, resizes to the narrow layout and back, a
// light background) in English and Chinese, and of a lesson (its
// introduction, the lesson pane, hints, a run to the goal).
func TestFrameLinesAsWholeFrame(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			m, err := New(Options{Width: 140, Height: 45, Theme: ThemeDark, Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			s := &lineScreens{t: t, w: 140, h: 45}
			keys := func(ks ...string) {
				t.Helper()
				for _, k := range ks {
					press(t, m, k)
					s.frame(k, m.View())
				}
			}
			size := func(w, h int) {
				t.Helper()
				send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
				s.w, s.h = w, h
				s.frame("a resize", m.View())
			}
			s.frame("the start", m.View())
			keys(":")
			for _, r := range "delete deploy/web --cascade=foreground" {
				k := string(r)
				if r == ' ' {
					k = "space"
				}
				keys(k)
			}
			keys("enter")
			keys("s", "s", "s", "s", "s", "left", "left", "left", "right", "left")
			keys("down", "down", "down", "b", "s", "s", "up", "s", "end", "s", "home")
			keys("tab", "down", "down", "s", "pgdown", "s", "tab", "down", "down", "s", "up", "tab", "up", "left", "s", "tab")
			size(100, 40)
			keys("s", "left", "tab", "s", "tab", "s", "tab", "down", "s", "tab", "tab")
			size(140, 45)
			keys("s", "left", "s", "left", "left", "left")
			runLine(t, m, "create cm branch")
			s.frame("the branch", m.View())
			keys("s", "s", "left", "down", "down", "s", "?", "esc")
			for _, to := range []string{"goto 3", "goto 9", "goto 1", "goto 12"} {
				runLine(t, m, to)
				s.frame(to, m.View())
			}
			keys("left", "left", "s")
			s.done()
		})
	}
	for _, locale := range []string{"en", "zh"} {
		t.Run("lesson-"+locale, func(t *testing.T) {
			c := lessons.Builtin()
			l, err := c.Find("1")
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewLesson(Options{Width: 140, Height: 45, Theme: ThemeDark, Files: NewMemFiles(nil)},
				LessonOptions{Course: c, Lesson: l, Progress: &lessons.KVStore{KV: lessons.MemKV{}, Key: "progress"}, Locale: locale,
					Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
			if err != nil {
				t.Fatal(err)
			}
			s := &lineScreens{t: t, w: 140, h: 45}
			s.frame("the start", m.View())
			for _, k := range []string{"enter", "H", "down", "up", "d", "2", "s", "s", "left", "r", "s", "left"} {
				lsPress(t, m, k)
				s.frame(k, m.View())
			}
			send := func(msg tea.Msg) {
				_, cmd := m.Update(msg)
				for i := 0; cmd != nil && i < 100; i++ {
					_, cmd = m.Update(cmd())
				}
			}
			send(tea.WindowSizeMsg{Width: 100, Height: 40})
			s.w, s.h = 100, 40
			s.frame("a resize", m.View())
			for _, k := range []string{"left", "s", "down"} {
				lsPress(t, m, k)
				s.frame(k, m.View())
			}
			s.done()
		})
	}
}
