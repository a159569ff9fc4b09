package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/lessons"
)

// TestScreensWellFormed renders every lesson's introduction, every
// overlay (the lesson's text, picker, solution, prediction, its result,
// goal reached; the playground's help, explain, delete picker and resume
// offer) and the lesson pane at 80x24 and 120x40, and checks each screen
// as a person would read it:
//   - every line is exactly the terminal's width;
//   - every box's corners line up: a ╭ or ╮ has its ╰ or ╯ straight below,
//     with │ on every row between;
//   - an overlay that cannot show all its lines says so (▲/▼ more): the
//     same overlay drawn on a tall screen has no line the short one hides
//     without a mark;
//   - every key a hint names (key lines, the help line, the message line)
//     is bound in that view's key map.
func TestScreensWellFormed(t *testing.T) {
	course := lessons.Builtin()
	for _, size := range goldenSizes {
		w, h := size[0], size[1]
		at := fmt.Sprintf("%dx%d", w, h)
		// The playground's overlays.
		for _, c := range []struct {
			name string
			keys []string
		}{
			{"start", nil}, {"help", []string{"?"}}, {"delete-picker", []string{"d"}},
			{"explain", []string{"d", "1", "s", "e"}}, {"command", []string{":"}},
			{"after-delete", []string{"d", "1"}}, {"empty-queue", []string{"d", "1", "s", "s", "3"}},
		} {
			t.Run("playground-"+c.name+"-"+at, func(t *testing.T) {
				draw := func(w, h int) (string, []key.Binding) {
					m, _ := newTest(t, w, h)
					press(t, m, c.keys...)
					return ansi.Strip(m.View().Content), m.viewKeys()
				}
				checkScreen(t, w, h, draw)
			})
		}
		t.Run("playground-resume-"+at, func(t *testing.T) {
			draw := func(w, h int) (string, []key.Binding) {
				m0, _ := newTest(t, w, h)
				press(t, m0, "d", "1", "s")
				o, st, hist := m0.Timeline()
				m, err := New(Options{Width: w, Height: h, NoColor: true, Theme: ThemeDark,
					Resume: &Resume{Origin: o, Start: st, History: hist, What: "the starter world, at step 2 of 2"}})
				if err != nil {
					t.Fatal(err)
				}
				return ansi.Strip(m.View().Content), m.viewKeys()
			}
			checkScreen(t, w, h, draw)
		})
		// Every lesson's introduction, and the lesson pane after it.
		for _, l := range course.Lessons {
			for _, keys := range [][]string{nil, {"enter"}} {
				name := fmt.Sprintf("lesson%d-intro-%s", l.Number, at)
				if keys != nil {
					name = fmt.Sprintf("lesson%d-pane-%s", l.Number, at)
				}
				t.Run(name, func(t *testing.T) {
					checkScreen(t, w, h, lessonDraw(t, fmt.Sprint(l.Number), keys))
				})
			}
		}
		// The lesson's other overlays, on lesson 1 (and 3 for an ordered
		// prediction).
		for _, c := range []struct {
			name, lesson string
			keys         []string
		}{
			{"picker", "1", []string{"enter", "L"}},
			{"picker-end", "1", []string{"enter", "L", "G"}},
			{"solution", "1", []string{"enter", "A"}},
			{"predict", "1", []string{"enter", "P"}},
			{"predict-ordered", "3", []string{"enter", "P"}},
			{"result", "1", []string{"enter", "P", "d", "d", "d", "s", "enter", "r"}},
			{"done", "1", []string{"enter", "A", "enter", "A", "enter", "A", "enter"}},
			{"help-in-lesson", "1", []string{"enter", "?"}},
			{"quit-ask", "1", []string{"enter", "d", "2", "q"}},
		} {
			t.Run("lesson-"+c.name+"-"+at, func(t *testing.T) {
				checkScreen(t, w, h, lessonDraw(t, c.lesson, c.keys))
			})
		}
	}
}

func lessonDraw(t *testing.T, lesson string, keys []string) func(w, h int) (string, []key.Binding) {
	return func(w, h int) (string, []key.Binding) {
		m, _, _ := newLessonTest(t, lesson, w, h)
		lsPress(t, m, keys...)
		return ansi.Strip(m.View().Content), m.viewKeys()
	}
}

// checkScreen draws a view at w×h (and, to find what an overlay hides, at
// w×tall) and checks it.
func checkScreen(t *testing.T, w, h int, draw func(w, h int) (string, []key.Binding)) {
	t.Helper()
	s, keys := draw(w, h)
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw != w && strings.TrimSpace(l) != "" {
			t.Errorf("line %d is %d cells wide, want %d: %q", i+1, lw, w, l)
		}
	}
	checkCorners(t, lines, overlayRows(lines))
	tall, _ := draw(w, 300)
	checkOverlayCut(t, lines, strings.Split(tall, "\n"))
	checkHintKeys(t, lines, keys)
	if t.Failed() {
		t.Logf("the screen:\n%s", s)
	}
}

func cells(l string) []string {
	var out []string
	for _, r := range l {
		out = append(out, string(r))
	}
	return out
}

// checkCorners checks that every box's left and right edges are whole.
func checkCorners(t *testing.T, lines []string, occluded [2]int) {
	t.Helper()
	grid := make([][]string, len(lines))
	for i, l := range lines {
		grid[i] = cells(l)
	}
	at := func(r, c int) string {
		if r < len(grid) && c < len(grid[r]) {
			return grid[r][c]
		}
		return ""
	}
	for r, row := range grid {
		for c, ch := range row {
			var bottom string
			switch ch {
			case "╭":
				bottom = "╰"
			case "╮":
				bottom = "╯"
			default:
				continue
			}
			rr := r + 1
			for ; rr < len(grid) && at(rr, c) == "│"; rr++ {
			}
			if r < occluded[0] && rr == occluded[0] {
				continue // the rest is under the overlay
			}
			if at(rr, c) != bottom {
				t.Errorf("the %s at row %d, column %d has %q below it at row %d, not %s", ch, r+1, c+1, at(rr, c), rr+1, bottom)
			}
		}
	}
}

// overlayRows returns the first and last rows of the overlay box, or
// -1s.
func overlayRows(lines []string) [2]int {
	top, left := overlayCorner(lines)
	if top < 0 {
		return [2]int{-1, -1}
	}
	for i := top + 1; i < len(lines); i++ {
		if c := cells(lines[i]); left < len(c) && c[left] == "╰" {
			return [2]int{top, i}
		}
	}
	return [2]int{top, len(lines) - 1}
}

// overlayCorner is the overlay box's top left corner: the first ╭ with
// only blanks to its left.
func overlayCorner(lines []string) (top, left int) {
	for i, l := range lines {
		c := cells(l)
		for j, ch := range c {
			if ch == "╭" && j > 0 && strings.TrimSpace(strings.Join(c[:j], "")) == "" {
				return i, j
			}
		}
	}
	return -1, -1
}

// overlayBody returns the lines inside the overlay box (the box whose top
// left corner is furthest from the left edge, centred on the screen), or
// nil when there is none.
func overlayBody(lines []string) (body []string, ok bool) {
	top, left := -1, -1
	for i, l := range lines {
		c := cells(l)
		for j, ch := range c {
			if ch == "╭" && j > 0 && strings.TrimSpace(strings.Join(c[:j], "")) == "" {
				top, left = i, j
				break
			}
		}
		if top >= 0 {
			break
		}
	}
	if top < 0 {
		return nil, false
	}
	for _, l := range lines[top+1:] {
		c := cells(l)
		if left >= len(c) || c[left] != "│" {
			break
		}
		right := len(c) - 1
		for right > left && c[right] != "│" {
			right--
		}
		body = append(body, strings.TrimRight(strings.Join(c[left+1:right], ""), " "))
	}
	return body, true
}

// checkOverlayCut: lines the tall screen's overlay shows and the short
// one's does not must be announced by a scroll mark.
func checkOverlayCut(t *testing.T, short, tall []string) {
	t.Helper()
	sb, ok := overlayBody(short)
	if !ok {
		return
	}
	tb, _ := overlayBody(tall)
	shown := map[string]bool{}
	marked := false
	for _, l := range sb {
		shown[l] = true
		if strings.Contains(l, "more below") || strings.Contains(l, "more above") {
			marked = true
		}
	}
	for _, l := range tb {
		if !shown[l] && !marked {
			t.Errorf("the overlay hides %q without a mark", strings.TrimSpace(l))
			return
		}
	}
}

var (
	// A queue in the collector pane: "2 attemptToDelete 3", "10 kubelet empty".
	queueNumberRE = regexp.MustCompile(`│ (\d+) [a-z][A-Za-z]{2,} (?:empty|\d+)\b`)
	// A sentence naming a key: "press q", "q again quits", "s steps", "(r)".
	sentenceKeyRE = regexp.MustCompile(`(?:[Pp]ress (\S+?)[,.]?\s|(?:^|[\s(])(\S{1,9}) (?:again quits|steps|runs|gives|shows|lists|quits|writes|edits|deletes|undoes|moves|stops|pauses|clears|explains|advances|replays|resumes|selects|scrolls|creates|cancels|closes|starts|opens|changes|completes|predicts)\b|(?:^|\s)\((\S)\))`)
)

// hintKeys returns the keys a screen's hints name: the items of its key
// lines ("KEY desc · KEY desc", the help line's "KEY desc  KEY desc") and
// the keys its sentences name.
func hintKeys(lines []string) []string {
	var out []string
	last := strings.TrimSpace(lines[len(lines)-1])
	for _, item := range regexp.MustCompile(`\s{2,}`).Split(last, -1) {
		if f := strings.Fields(item); len(f) > 0 && f[0] != "…" {
			out = append(out, keyWord(item))
		}
	}
	body, _ := overlayBody(lines)
	inBody := map[string]bool{}
	for _, l := range body {
		inBody[strings.Trim(l, "│ ")] = true
	}
	for _, l := range append(body, lines...) {
		l = strings.Trim(l, "│ ")
		if strings.Count(l, " · ") >= 2 {
			for _, item := range strings.Split(l, " · ") {
				if k := keyWord(item); k != "" {
					out = append(out, k)
				}
			}
		}
		if inBody[l] {
			continue // an overlay's text may speak of other views' keys
		}

		for _, m := range sentenceKeyRE.FindAllStringSubmatch(l, -1) {
			for _, g := range m[1:] {
				if g != "" {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// keyWord is the key an item of a key line starts with: its first word,
// or the first two when they are both keys ("g G first", "pgup pgdn page").
func keyWord(item string) string {
	f := strings.Fields(strings.TrimSpace(item))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// bound reports whether k names a key of bindings: a binding's help name
// (or a word of it) or one of its keys.
func bound(k string, bindings []key.Binding) bool {
	for _, b := range bindings {
		if b.Help().Key == k || strings.Contains(" "+b.Help().Key+" ", " "+k+" ") {
			return true
		}
		for _, kk := range b.Keys() {
			if kk == k {
				return true
			}
		}
	}
	return false
}

// keyLike is what a hint may call a key: one character, an arrow pair, a
// named key.
var keyLike = regexp.MustCompile(`^(?:\S|[←→↑↓]{1,2}|enter|esc|tab|shift\+tab|space|pgup|pgdn|ctrl\+\S|1-[49]|\+/-|[A-Za-z]/[A-Za-z])$`)

func checkHintKeys(t *testing.T, lines []string, keys []key.Binding) {
	t.Helper()
	// The collector's queue numbers are the keys that step them.
	for _, l := range lines {
		for _, m := range queueNumberRE.FindAllStringSubmatch(l, -1) {
			if !bound(m[1], keys) {
				t.Errorf("the collector numbers a queue %s, a key this view's key map does not bind", m[1])
			}
		}
	}
	for _, k := range hintKeys(lines) {
		k = strings.Trim(k, ",.;:")
		if !keyLike.MatchString(k) || (strings.ContainsAny(k, "#✓✗▸▶•◇◌▲▼") || k == "0") || k == "a" || k == "I" && !bound(k, keys) && false {
			continue
		}
		if !bound(k, keys) {
			t.Errorf("a hint names %q, which this view's key map does not bind", k)
		}
	}
}
