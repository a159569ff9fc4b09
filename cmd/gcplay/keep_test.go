package main

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/tui"
)

func press(m tea.Model, keys ...string) {
	for _, k := range keys {
		msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		if k == "enter" {
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		m.Update(msg)
	}
}

func plain(m *tui.Model) string { return ansi.Strip(m.View().Content) }

// TestKeepResume: the world left with q comes back, timeline and all, when
// the next gcplay resumes it; starting fresh drops nothing until asked.
func TestKeepResume(t *testing.T) {
	for _, file := range []string{"", "../../examples/foreground.yaml"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gcplay", "playground.link")
			opts := tui.Options{Width: 120, Height: 40, NoColor: true, Theme: tui.ThemeDark, Files: osFiles{}, File: file, StepThrough: true}
			m, err := tui.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			press(m, "d", "1", "s", "s", "s", "h")
			if !m.Built() {
				t.Fatal("a world with a timeline is not worth keeping?")
			}
			want := plain(m)
			if err := keep(m, path); err != nil {
				t.Fatal(err)
			}
			r, err := kept(path)
			if err != nil || r == nil {
				t.Fatalf("kept: %v %v", r, err)
			}
			if r.Note != "" {
				t.Errorf("partly kept: %s", r.Note)
			}
			opts.File, opts.Resume = "", r
			m2, err := tui.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			if s := plain(m2); !strings.Contains(s, "Resume?") || !strings.Contains(s, "enter resume it") {
				t.Fatalf("the next start does not offer the kept world:\n%s", s)
			}
			press(m2, "enter")
			got := plain(m2)
			// The message line differs (it says the world was resumed),
			// and may take another line; the status line,
			// the world, the queues and the inspector must be the same.
			cut := func(s string) string { return strings.Join(strings.Split(s, "\n")[:26], "\n") }
			if cut(got) != cut(want) {
				t.Errorf("the resumed world differs\n--- got:\n%s\n--- want:\n%s", got, want)
			}
			_, _, h := m.Timeline()
			_, _, h2 := m2.Timeline()
			if h.Pos() != h2.Pos() || h.Len() != h2.Len() {
				t.Errorf("timeline at %d of %d, want %d of %d", h2.Pos(), h2.Len(), h.Pos(), h.Len())
			}
			for i := range h.Len() {
				if r, r2 := h.Record(i), h2.Record(i); r.String() != r2.String() {
					t.Errorf("record %d is %q, want %q", i, r2.String(), r.String())
				}
			}
			if !m2.Resumed() {
				t.Error("Resumed() is false after enter")
			}
		})
	}
}
