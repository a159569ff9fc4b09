package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/lessons"
)

// quitHint finds a hint or help line naming q or Ctrl+C as a quit key.
var quitHint = regexp.MustCompile(`(^|\s)(q|ctrl\+c)(\s+ctrl\+c)?\s+(quit|退出)`)

// In the browser page q and Ctrl+C do not quit (the page says why when
// they are pressed), so with NoQuitKey no footer, help or picker names
// them; without it the terminal's screens do.
func TestNoQuitKeyHidesQuitHints(t *testing.T) {
	for _, lang := range []string{"", "zh"} {
		for _, noQuit := range []bool{false, true} {
			opts := Options{Width: 120, Height: 40, Lang: lang, NoQuitKey: noQuit}
			m, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			screens := map[string]string{"playground": ansi.Strip(m.View().Content)}
			m.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
			screens["help"] = ansi.Strip(m.View().Content)

			lm, err := NewLesson(opts, LessonOptions{Course: lessons.Builtin()})
			if err != nil {
				t.Fatal(err)
			}
			screens["lesson picker"] = ansi.Strip(lm.View().Content)

			for name, scr := range screens {
				hints := scr[strings.LastIndex(scr, "\n")+1:]
				if name == "help" {
					hints = scr
				}
				named := quitHint.MatchString(hints)
				if named == noQuit {
					t.Errorf("lang %q, NoQuitKey %v: the %s names q quit: %v\n%s", lang, noQuit, name, named, scr)
				}
			}
		}
	}
}
