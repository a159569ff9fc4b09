package tui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/fakeapi"
)

// newTest returns a playground on the starter world at a fixed size,
// without colour, with in-memory files.
func newTest(t testing.TB, w, h int) (*Model, *MemFiles) {
	t.Helper()
	files := NewMemFiles(nil)
	m, err := New(Options{Width: w, Height: h, NoColor: true, Theme: ThemeDark, Files: files})
	if err != nil {
		t.Fatal(err)
	}
	return m, files
}

// helpOfEveryPane is the keys the help view and the one-line help list
// with each pane focused.
func helpOfEveryPane(t testing.TB) []key.Binding {
	m, _ := newTest(t, 80, 24)
	var out []key.Binding
	for p := range numPanes {
		m.focus = p
		for _, g := range m.fullHelp() {
			out = append(out, g...)
		}
		out = append(out, m.shortHelp(true)...)
		out = append(out, m.shortHelp(false)...)
	}
	return out
}

// keyMsg builds the key message for a key name as tea spells it ("enter",
// "left", "shift+tab", "ctrl+c") or a single character.
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "left": tea.KeyLeft,
		"right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown, "backspace": tea.KeyBackspace,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd, "delete": tea.KeyDelete}
	switch {
	case name == "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case name == "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case name == "alt+backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace, Mod: tea.ModAlt}
	case strings.HasPrefix(name, "ctrl+"):
		return tea.KeyPressMsg{Code: rune(name[len(name)-1]), Mod: tea.ModCtrl}
	}
	if r, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	r := []rune(name)
	if len(r) != 1 {
		panic("keyMsg: unknown key " + name)
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// press sends keys to the model, running the commands they return (runs
// continue until done; autoplay ticks are not followed).
func press(t testing.TB, m *Model, keys ...string) {
	t.Helper()
	for _, k := range keys {
		send(t, m, keyMsg(k))
	}
}

// typeText types text into the model one character at a time.
func typeText(t testing.TB, m *Model, text string) {
	t.Helper()
	for _, r := range text {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		send(t, m, keyMsg(k))
	}
}

// runLine runs a command line through the command bar.
func runLine(t testing.TB, m *Model, line string) {
	t.Helper()
	press(t, m, ":")
	typeText(t, m, line)
	press(t, m, "enter")
}

func send(t testing.TB, m *Model, msg tea.Msg) {
	t.Helper()
	_, cmd := m.Update(msg)
	for i := 0; cmd != nil && i < 100000; i++ {
		next := cmd()
		switch next := next.(type) {
		case runMsg:
			_, cmd = m.Update(next)
		default:
			cmd = nil
		}
	}
}

// screen returns the view as plain text, trailing spaces trimmed.
func screen(m *Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// lookup returns the stored object at "Kind/name" in default, or nil.
func lookup(m *Model, kind, name string) *fakeapi.Object {
	reg := m.s.world().Store().Registry()
	info, err := reg.ByKind(kind)
	if err != nil {
		panic(err)
	}
	ns := ""
	if info.Namespaced() {
		ns = "default"
	}
	return m.s.world().Store().Lookup(fakeapi.Ref{APIVersion: info.APIVersion, Kind: info.Kind, Namespace: ns, Name: name})
}

// selectRef moves the world tree's selection to the first row of Kind/name.
func selectRef(t testing.TB, m *Model, ref string) {
	t.Helper()
	for i, r := range m.snap.tree.rows {
		if r.obj != nil && r.obj.String() == ref {
			m.focus = paneWorld
			d := i - m.sel
			for ; d > 0; d-- {
				press(t, m, "down")
			}
			for ; d < 0; d++ {
				press(t, m, "up")
			}
			return
		}
	}
	t.Fatalf("%s is not in the world tree", ref)
}
