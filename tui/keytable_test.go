package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/lessons"
)

// everyKey is the keys TestHelpListsTheKeysThatWork presses: every
// printable ASCII character and the named keys a terminal sends.
func everyKey() []string {
	var out []string
	for c := '!'; c <= '~'; c++ {
		out = append(out, string(c))
	}
	return append(out, "space", "enter", "esc", "tab", "shift+tab", "up", "down", "left", "right",
		"pgup", "pgdown", "home", "end", "backspace", "delete",
		"ctrl+a", "ctrl+b", "ctrl+d", "ctrl+e", "ctrl+f", "ctrl+h", "ctrl+k", "ctrl+u", "ctrl+w", "ctrl+c")
}

// marker is the message on screen before a key is pressed, so that a key
// whose work is to clear the message (esc) shows it did something.
const marker = "(the message before the key)"

// TestHelpListsTheKeysThatWork: for the playground with each pane
// focused, each of its modes and each of a lesson's overlays, every key
// help lists for that view does something there (changes the screen,
// or returns a command: quit, a run), and every key it does not list
// does nothing but, at most, say it is not a key here. Each view is set
// up where its keys have room to act: a cursor in the middle of its
// list, text longer than its window, a timeline with steps on both sides.
func TestHelpListsTheKeysThatWork(t *testing.T) {
	for _, c := range keyViews(80, 24) {
		t.Run(c.name, func(t *testing.T) {
			var listed []key.Binding
			for _, b := range viewKeysOf(c.open(t)) {
				if b.Enabled() {
					listed = append(listed, b)
				}
			}
			for _, k := range everyKey() {
				msg := keyMsg(k)
				isListed := slices.ContainsFunc(listed, func(b key.Binding) bool { return key.Matches(msg, b) })
				if c.typed && msg.Text != "" {
					isListed = true // typing goes to the line
				}
				m := c.open(t)
				setMessage(m, marker)
				before, state := screenOf(m), stateOf(m)
				cmd := sendLesson(m, msg)
				said := unboundSaid(m)
				acted := cmd != nil || screenOf(m) != before || !state(m)
				switch {
				case isListed && said:
					t.Errorf("%s: %s is listed but says it is not a key here", c.name, k)
				case isListed && !acted:
					t.Errorf("%s: %s is listed but does nothing", c.name, k)
				case !isListed && acted:
					t.Errorf("%s: %s is not listed but acts (help lists %s)", c.name, k, keyNames(listed))
				}
			}
		})
	}
}

// TestShortHelpKeysAct: every key the help line under the command bar
// names acts in that view (changes the screen or the model, or returns a
// command), on a narrow and a wide terminal. In normal mode the help line
// is the one-line help, drawn from the actions marked for it
// (shortEntry); with the command bar or an overlay open, every key that
// works there.
func TestShortHelpKeysAct(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		for _, c := range keyViews(size[0], size[1]) {
			t.Run(fmt.Sprintf("%s-%dx%d", c.name, size[0], size[1]), func(t *testing.T) {
				var shown []key.Binding
				for _, b := range helpLineKeysOf(c.open(t)) {
					if b.Enabled() {
						shown = append(shown, b)
					}
				}
				if len(shown) == 0 {
					t.Fatal("the help line names no key")
				}
				for _, b := range shown {
					for _, k := range b.Keys() {
						m := c.open(t)
						setMessage(m, marker)
						before, state := screenOf(m), stateOf(m)
						cmd := sendLesson(m, keyMsg(k))
						said := unboundSaid(m)
						if said || cmd == nil && screenOf(m) == before && state(m) {
							t.Errorf("the help line names %q %q, but %s does nothing here", b.Help().Key, b.Help().Desc, k)
						}
					}
				}
			})
		}
	}
}

// helpLineKeysOf is the keys a model's help line names.
func helpLineKeysOf(m tea.Model) []key.Binding {
	if lm, ok := m.(*LessonModel); ok {
		return lm.helpLineKeys()
	}
	pg := m.(*Model)
	return pg.helpLineKeys(pg.layout().w)
}

// viewKeysOf is the keys a model's help lists for its view.
func viewKeysOf(m tea.Model) []key.Binding {
	if lm, ok := m.(*LessonModel); ok {
		return lm.viewKeys()
	}
	return m.(*Model).viewKeys()
}

// playgroundOf is the playground of a model.
func playgroundOf(m tea.Model) *Model {
	if lm, ok := m.(*LessonModel); ok {
		return lm.pg
	}
	return m.(*Model)
}

func setMessage(m tea.Model, s string) {
	pg := playgroundOf(m)
	pg.setMsg(msgInfo, s)
	pg.refresh()
}

// unboundSaid reports whether the key's only work was to say it is not a
// key here; it puts the message back as it was, so the screens compare.
func unboundSaid(m tea.Model) bool {
	pg := playgroundOf(m)
	said := false
	for _, s := range []string{" is not a key here", " works in a lesson; this is the playground"} {
		if strings.Contains(pg.msg, s) {
			pg.setMsg(msgInfo, marker)
			pg.refresh()
			said = true
		}
	}
	if lm, ok := m.(*LessonModel); ok && strings.Contains(lm.pane.note, " is not a key in the lesson list") {
		lm.pane.note = ""
		said = true
	}
	return said
}

// screenOf is the frame with its styles (a pane's focus shows only in
// them).
func screenOf(m tea.Model) string {
	if lm, ok := m.(*LessonModel); ok {
		return lm.View().Content
	}
	return m.(*Model).View().Content
}

// stateOf returns a check that the model's fields are as they are now.
func stateOf(m tea.Model) func(tea.Model) bool {
	pg := *playgroundOf(m)
	var lesson LessonModel
	if lm, ok := m.(*LessonModel); ok {
		lesson = *lm
	}
	return func(m tea.Model) bool {
		if lm, ok := m.(*LessonModel); ok && changedFields(lesson, *lm) != nil {
			return false
		}
		return changedFields(pg, *playgroundOf(m)) == nil
	}
}

// sendLesson sends a message to a model and returns its command, running
// a run to its end (a run's command is its own, not a quit).
func sendLesson(m tea.Model, msg tea.Msg) tea.Cmd {
	_, cmd := m.Update(msg)
	first := cmd
	for i := 0; cmd != nil && i < 100000; i++ {
		next, ok := cmd().(runMsg)
		if !ok {
			break
		}
		_, cmd = m.Update(next)
	}
	return first
}

func keyNames(bs []key.Binding) string {
	var out []string
	for _, b := range bs {
		out = append(out, strings.Join(b.Keys(), ","))
	}
	return strings.Join(out, " ")
}

// keyView is a view of the playground or a lesson, set up where its keys
// have room to act.
type keyView struct {
	name string
	open func(t *testing.T) tea.Model
	// typed is set where a printable key types itself (the command bar).
	typed bool
}

// keyViews is the views TestHelpListsTheKeysThatWork and
// TestShortHelpKeysAct press keys in, on a w×h terminal.
func keyViews(w, h int) []keyView {
	// mid is the starter world deleted in the background, four steps
	// taken and one undone, an object in the middle of the tree selected:
	// every pane has something above and below.
	mid := []string{"d", "2", "s", "s", "s", "s", "left", "down"}
	playground := func(keys ...string) func(t *testing.T) tea.Model {
		return func(t *testing.T) tea.Model {
			m, _ := newTest(t, w, h)
			press(t, m, keys...)
			return m
		}
	}
	lesson := func(name string, keys ...string) func(t *testing.T) tea.Model {
		return func(t *testing.T) tea.Model {
			m, _, _ := newLessonTest(t, name, w, h)
			for _, k := range keys {
				sendLesson(m, keyMsg(k))
			}
			return m
		}
	}
	return []keyView{
		{"world", playground(mid...), false},
		{"collector", playground(append(mid, "tab", "j")...), false},
		{"inspector", playground(append(mid, "tab", "tab", "j")...), false},
		{"timeline", playground(append(mid, "tab", "tab", "tab", "up", "up")...), false},
		{"command", func(t *testing.T) tea.Model {
			m, _ := newTest(t, w, h)
			runLine(t, m, "break list")
			runLine(t, m, "break clear")
			press(t, m, ":", "up", "left") // the history's last line, an older one above
			return m
		}, true},
		{"delete-picker", playground("d", "down"), false},
		{"help", playground("?", "j", "j"), false},
		{"explain", playground(append(mid, "tab", "tab", "tab", "up", "up", "e", "j")...), false},
		// The browser page's playground, where q does not quit.
		{"page", func(t *testing.T) tea.Model {
			m, err := New(Options{Width: w, Height: h, NoColor: true, Theme: ThemeDark, NoQuitKey: true})
			if err != nil {
				t.Fatal(err)
			}
			press(t, m, mid...)
			return m
		}, false},
		{"page-lesson-picker", func(t *testing.T) tea.Model {
			m, err := NewLesson(Options{Width: w, Height: h, NoColor: true, Theme: ThemeDark, NoQuitKey: true},
				LessonOptions{Course: lessons.Builtin()})
			if err != nil {
				t.Fatal(err)
			}
			sendLesson(m, keyMsg("j"))
			return m
		}, false},
		{"lesson", lesson("1", "enter", "d", "2", "s", "left"), false},
		{"lesson-text", lesson("1", "j"), false},
		{"lesson-picker", lesson("1", "enter", "L", "j"), false},
		{"lesson-solution", lesson("1", "enter", "A", "j"), false},
		{"lesson-predict", lesson("foreground", "enter", "P", "j"), false},
		{"lesson-result", lesson("foreground", "enter", "P", "d", "d", "enter", "r", "j"), false},
		{"lesson-done", lesson("1", "enter", "d", "2", "r", "j"), false},
	}
}
