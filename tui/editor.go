package tui

import (
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// lineEditor is the command bar's one line of text with a cursor. (The
// bubbles textinput would do, but it needs a clipboard the browser build
// does not have, and its blinking cursor makes frames differ in tests.)
type lineEditor struct {
	buf []rune
	cur int
}

func (e *lineEditor) set(s string) { e.buf, e.cur = []rune(s), len([]rune(s)) }

func (e *lineEditor) String() string { return string(e.buf) }

func (e *lineEditor) insert(s string) {
	r := []rune(s)
	e.buf = append(e.buf[:e.cur], append(r, e.buf[e.cur:]...)...)
	e.cur += len(r)
}

// edit applies an editing key; it reports whether the key was one.
func (e *lineEditor) edit(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "left", "ctrl+b":
		e.cur = max(e.cur-1, 0)
	case "right", "ctrl+f":
		e.cur = min(e.cur+1, len(e.buf))
	case "home", "ctrl+a":
		e.cur = 0
	case "end", "ctrl+e":
		e.cur = len(e.buf)
	case "backspace", "ctrl+h":
		if e.cur > 0 {
			e.buf = append(e.buf[:e.cur-1], e.buf[e.cur:]...)
			e.cur--
		}
	case "delete", "ctrl+d":
		if e.cur < len(e.buf) {
			e.buf = append(e.buf[:e.cur], e.buf[e.cur+1:]...)
		}
	case "ctrl+u":
		e.buf = e.buf[e.cur:]
		e.cur = 0
	case "ctrl+k":
		e.buf = e.buf[:e.cur]
	case "ctrl+w", "alt+backspace":
		i := e.cur
		for i > 0 && unicode.IsSpace(e.buf[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(e.buf[i-1]) {
			i--
		}
		e.buf = append(e.buf[:i], e.buf[e.cur:]...)
		e.cur = i
	case "space":
		e.insert(" ")
	default:
		if msg.Text == "" {
			return false
		}
		e.insert(msg.Text)
	}
	return true
}

// openCommand focuses the command bar with text already typed.
func (m *Model) openCommand(text string) {
	m.mode = modeCommand
	m.cmd.set(text)
	m.histPos = len(m.cmdHist)
	m.compl = completion{}
}

// historyUp puts the line before in the history on the command bar,
// keeping the line being typed to come back to.
func (m *Model) historyUp() {
	if m.histPos > 0 {
		if m.histPos == len(m.cmdHist) {
			m.histSave = m.cmd.String()
		}
		m.histPos--
		m.cmd.set(m.cmdHist[m.histPos])
	}
}

// historyDown puts the line after in the history on the command bar, or
// the line that was being typed.
func (m *Model) historyDown() {
	if m.histPos < len(m.cmdHist) {
		m.histPos++
		if m.histPos == len(m.cmdHist) {
			m.cmd.set(m.histSave)
		} else {
			m.cmd.set(m.cmdHist[m.histPos])
		}
	}
}
