package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/internal/locale"
)

// The screens a newcomer met that were wrong (issue 21), each at 80x24
// and 120x40 against a golden view, with the point of each asserted too.

// lsScreenTrim is the lesson screen as plain text, trailing spaces trimmed.
func lsScreenTrim(m *LessonModel) string {
	lines := strings.Split(lsScreen(m), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

var goldenSizes = [][2]int{{80, 24}, {120, 40}}

func TestNewcomerPlayground(t *testing.T) {
	cases := []struct {
		name  string
		keys  []string
		wants []string
		not   []string
	}{
		// After a delete the next step names s, a key that steps (it said
		// "S steps", and S does nothing).
		{"after-delete", []string{"d", "1"}, []string{"Next: s steps the collector"}, []string{"S steps"}},
		// 3 with work only in attemptToDelete: the queue asked for is
		// empty, and the queues with work are named (it said "the world
		// is settled").
		{"step-empty-queue", []string{"d", "1", "s", "s", "3"},
			[]string{"attemptToOrphan is empty; work is ready in 1 graphChanges, 2 attemptToDelete, 4 deployment"}, []string{"settled"}},
		// A lesson's key outside a lesson says so (it did nothing).
		{"lesson-key-outside", []string{"H"}, []string{"H (next hint) works in a lesson"}, nil},
		{"unbound-key", []string{"x"}, []string{"x is not a key here: ? lists the keys that work"}, nil},
	}
	for _, size := range goldenSizes {
		for _, c := range cases {
			name := fmt.Sprintf("newcomer-%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m, _ := newTest(t, size[0], size[1])
				press(t, m, c.keys...)
				msg := oneLine(m.msg)
				for _, w := range c.wants {
					if !strings.Contains(msg, w) {
						t.Errorf("the message does not say %q: %q", w, msg)
					}
				}
				for _, w := range c.not {
					if strings.Contains(msg, w) {
						t.Errorf("the message says %q: %q", w, msg)
					}
				}
				golden(t, name, screen(m))
			})
		}
	}
}

func TestNewcomerLessons(t *testing.T) {
	cases := []struct {
		name, lesson string
		keys         []string
		want         string
	}{
		// The introduction's end is reachable and marked when cut.
		{"lesson1-intro", "1", nil, "Owners and dependents"},
		// Lesson 8 names the key that removes the finalizer.
		{"lesson8-pane", "8", []string{"enter"}, "f edits the finalizers of the selected object|press f to"},
		// up from the first lesson wraps to the last: the picker scrolls
		// there and shows its cursor.
		{"picker-last", "", []string{"up"}, "▸   23  Who owns this Pod"},
		// g and G move to the first and last lesson.
		{"picker-g", "", []string{"G", "g"}, "▸ ✓  1  Owners and dependents"},
	}
	for _, size := range goldenSizes {
		for _, c := range cases {
			name := fmt.Sprintf("newcomer-%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m, kv, _ := newLessonTest(t, c.lesson, size[0], size[1])
				_ = kv
				if c.name == "picker-g" {
					// One lesson done, so the picker opens on lesson 2.
					m.prog.MarkDone("owners-and-dependents", m.lo.Now())
					m.picker.pick = 1
				}
				lsPress(t, m, c.keys...)
				s := lsScreenTrim(m)
				if !containsAny(s, strings.Split(c.want, "|")) {
					t.Errorf("the screen does not show %q:\n%s", c.want, s)
				}
				golden(t, name, s)
			})
		}
	}
}

// TestTooSmall: the too-small screen is never cut without a mark, down
// to 10x3, and names the key that quits.
func TestTooSmall(t *testing.T) {
	for _, size := range [][2]int{{59, 24}, {40, 10}, {10, 3}} {
		m, _ := newTest(t, size[0], size[1])
		s := ansi.Strip(m.render())
		lines := strings.Split(s, "\n")
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := locale.Width(l); w > size[0] {
				t.Errorf("%dx%d: line %q is %d wide", size[0], size[1], l, w)
			}
		}
		full := strings.Join(lines, " ")
		if !strings.Contains(full, "press q to quit.") && !strings.HasSuffix(full, "…") {
			t.Errorf("%dx%d: the message is cut without a mark: %q", size[0], size[1], s)
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// TestLessonQuitAsks: q in a lesson with steps taken asks first; a
// second q quits; without steps q quits at once.
func TestLessonQuitAsks(t *testing.T) {
	m, _, _ := newLessonTest(t, "1", 80, 24)
	lsPress(t, m, "enter")
	if _, cmd := m.Update(lsKey("q")); cmd == nil {
		t.Fatal("q with no steps taken did not quit")
	}
	lsPress(t, m, "d", "2")
	if _, cmd := m.Update(lsKey("q")); cmd != nil {
		t.Fatal("q with a step taken quit without asking")
	}
	if msg := m.pg.msg; !strings.Contains(msg, "q again quits, W writes them to a hand-in file first") {
		t.Errorf("the question does not name the keys: %q", msg)
	}
	golden(t, "newcomer-lesson-quit-ask-80x24", lsScreenTrim(m))
	if _, cmd := m.Update(lsKey("q")); cmd == nil {
		t.Fatal("a second q did not quit")
	}
}

// TestViewKeepsState: drawing changes nothing a key would see (issue 13:
// View changed state): scrolling past the end and back moves at once.
func TestViewKeepsState(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	press(t, m, "tab", "tab") // the inspector
	for range 200 {
		press(t, m, "j")
	}
	bottom := screen(m)
	before := *m
	_ = m.View()
	if m.inspTop != before.inspTop || m.colTop != before.colTop || m.overlayTop != before.overlayTop || m.tlTop != before.tlTop {
		t.Errorf("View moved a scroll offset: inspector %d→%d, collector %d→%d", before.inspTop, m.inspTop, before.colTop, m.colTop)
	}
	press(t, m, "k")
	if screen(m) == bottom {
		t.Error("one k after scrolling past the end did not scroll back")
	}
}
