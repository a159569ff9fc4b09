package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/lessons"
)

// newLessonTest opens the lesson named name (or the picker for "") at a
// fixed size, with progress in memory.
func newLessonTest(t *testing.T, name string, w, h int) (*LessonModel, lessons.MemKV, *MemFiles) {
	t.Helper()
	return newLessonTestIn(t, "en", name, w, h)
}

// newLessonTestIn is newLessonTest in a locale.
func newLessonTestIn(t *testing.T, locale, name string, w, h int) (*LessonModel, lessons.MemKV, *MemFiles) {
	t.Helper()
	c := lessons.Builtin()
	var l *lessons.Lesson
	if name != "" {
		var err error
		if l, err = c.Find(name); err != nil {
			t.Fatal(err)
		}
	}
	kv := lessons.MemKV{}
	files := NewMemFiles(nil)
	m, err := NewLesson(Options{Width: w, Height: h, NoColor: true, Theme: ThemeDark, Files: files},
		LessonOptions{Course: c, Lesson: l, Progress: &lessons.KVStore{KV: kv, Key: "progress"}, Locale: locale,
			Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return m, kv, files
}

// lsKey builds the key message for a key name or a single character.
func lsKey(name string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft}
	if r, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: r}
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// lsPress sends keys, following the commands of runs to their end.
func lsPress(t *testing.T, m *LessonModel, keys ...string) {
	t.Helper()
	for _, k := range keys {
		_, cmd := m.Update(lsKey(k))
		for i := 0; cmd != nil && i < 100000; i++ {
			msg := cmd()
			if _, ok := msg.(runMsg); !ok {
				break
			}
			_, cmd = m.Update(msg)
		}
	}
}

// lsScreen is the view as plain text.
func lsScreen(m *LessonModel) string { return ansi.Strip(m.View().Content) }

func progressOf(t *testing.T, kv lessons.MemKV, id string) lessons.LessonProgress {
	t.Helper()
	p, err := (&lessons.KVStore{KV: kv, Key: "progress"}).Load()
	if err != nil {
		t.Fatal(err)
	}
	return p.Of(id)
}

// TestLessonOneByKeys plays lesson 1 as a learner would: read the
// introduction, delete the owner with Background from the picker, run the
// collector, and see the goal reached and the progress saved.
func TestLessonOneByKeys(t *testing.T) {
	m, kv, _ := newLessonTest(t, "1", 120, 40)
	if s := lsScreen(m); !strings.Contains(s, "An object can name other objects as its owners") {
		t.Fatalf("the introduction is not shown first:\n%s", s)
	}
	lsPress(t, m, "enter")
	s := lsScreen(m)
	for _, want := range []string{fmt.Sprintf("Lesson 1/%d · Owners and dependents", len(lessons.Builtin().Lessons)), "✗ ConfigMap/app: gone", "now: in storage", "H hint"} {
		if !strings.Contains(s, want) {
			t.Errorf("the lesson pane lacks %q:\n%s", want, s)
		}
	}
	lsPress(t, m, "H")
	if !strings.Contains(lsScreen(m), "Hint 1") || progressOf(t, kv, "owners-and-dependents").Hints != 1 {
		t.Errorf("H does not reveal and record a hint:\n%s", lsScreen(m))
	}
	lsPress(t, m, "d", "2") // ConfigMap/app is selected; 2 is Background
	if m.done {
		t.Fatalf("done before the collector ran")
	}
	lsPress(t, m, "r")
	s = lsScreen(m)
	if !m.done || !strings.Contains(s, "Goal reached") || !strings.Contains(s, "R44(c)") {
		t.Fatalf("the goal is not reached after the run:\n%s", s)
	}
	if lp := progressOf(t, kv, "owners-and-dependents"); !lp.Done || lp.DoneAt != "2026-01-02T03:04:05Z" {
		t.Errorf("progress not saved: %+v", lp)
	}
	lsPress(t, m, "N")
	if m.l.ID != "background-step-by-step" {
		t.Errorf("N opened %s", m.l.ID)
	}
}

// TestLessonWrongAnswerIsExplained: Orphan in lesson 1 misses the goal,
// and the pane says what differs.
func TestLessonWrongAnswerIsExplained(t *testing.T) {
	m, kv, _ := newLessonTest(t, "1", 120, 40)
	lsPress(t, m, "enter", "d", "3", "r")
	if m.done || progressOf(t, kv, "owners-and-dependents").Done {
		t.Fatalf("Orphan reached the goal")
	}
	s := lsScreen(m)
	if !strings.Contains(s, "✗ Secret/app-token: gone") {
		t.Errorf("the difference is not marked:\n%s", s)
	}
	words := strings.Join(m.grade.Problems(), " ")
	if !strings.Contains(words, "with propagationPolicy=Orphan") || !strings.Contains(words, "(step 1)") {
		t.Errorf("the grader's words do not name the learner's step: %s", words)
	}
}

// TestLessonPrediction: predict, run, and see the score.
func TestLessonPrediction(t *testing.T) {
	m, kv, _ := newLessonTest(t, "foreground", 120, 40)
	lsPress(t, m, "enter", "P")
	if !strings.Contains(lsScreen(m), "Predict, then run") {
		t.Fatalf("P does not open the prediction:\n%s", lsScreen(m))
	}
	lsPress(t, m, "enter") // nothing marked yet: refused
	if m.over != overPredict {
		t.Fatalf("an incomplete prediction was run")
	}
	lsPress(t, m, "d", "d", "enter") // token first, then app: right
	if m.pred == nil || !m.pred.running {
		t.Fatalf("the prediction is not running")
	}
	lsPress(t, m, "r")
	s := lsScreen(m)
	if !strings.Contains(s, "3 of 3 right") || !strings.Contains(s, "order: Secret/app-token → ConfigMap/app") {
		t.Fatalf("no result:\n%s", s)
	}
	if got := progressOf(t, kv, "foreground").Prediction; got != "3 of 3 right" {
		t.Errorf("prediction score saved as %q", got)
	}
	// The prediction's own run reached the goal too: it counts once the
	// result is closed.
	lsPress(t, m, "esc")
	lsPress(t, m, "right") // any playground key lets the lesson look again
	if !m.done {
		t.Errorf("the goal reached by the prediction's run is not counted")
	}
}

// TestLessonSolutionReplay: A shows the solution; enter replays it step
// by step until the goal is reached.
func TestLessonSolutionReplay(t *testing.T) {
	m, kv, _ := newLessonTest(t, "two-owners", 120, 40)
	lsPress(t, m, "enter", "A")
	if s := lsScreen(m); !strings.Contains(s, "delete ConfigMap/ingress-a propagationPolicy=Background") {
		t.Fatalf("the solution is not shown:\n%s", s)
	}
	if !progressOf(t, kv, "two-owners").SolutionSeen {
		t.Errorf("seeing the solution is not recorded")
	}
	lsPress(t, m, "enter") // replay step 1: the delete
	if m.solution.replayed != 1 || m.done {
		t.Fatalf("replayed %d, done %v", m.solution.replayed, m.done)
	}
	lsPress(t, m, "A", "enter") // step 2: settle
	if !m.done {
		t.Fatalf("replaying the solution does not reach the goal:\n%s", lsScreen(m))
	}
}

// TestLessonHandIn: W writes the timeline as a hand-in that passes check.
func TestLessonHandIn(t *testing.T) {
	m, _, files := newLessonTest(t, "1", 120, 40)
	lsPress(t, m, "enter", "d", "2", "r", "esc", "W")
	data, err := files.ReadFile("owners-and-dependents.handin.yaml")
	if err != nil {
		t.Fatalf("no hand-in written: %v\n%s", err, lsScreen(m))
	}
	c := lessons.Builtin()
	res, err := c.Grader("en").Check(m.l, "handin.yaml", data)
	if err != nil || !res.Passed() {
		t.Fatalf("the hand-in does not pass: %v %+v\n%s", err, res, data)
	}
}

// TestLessonPicker: without a lesson the picker opens on the first lesson
// not done; enter opens it.
func TestLessonPicker(t *testing.T) {
	m, _, _ := newLessonTest(t, "", 120, 40)
	if s := lsScreen(m); !strings.Contains(s, "Lessons") || !strings.Contains(s, "17  A controller restart") {
		t.Fatalf("no picker:\n%s", s)
	}
	lsPress(t, m, "down", "enter")
	if m.l.Number != 2 {
		t.Errorf("the picker opened lesson %d", m.l.Number)
	}
}

// TestLessonNarrow: an 80x24 terminal gets the lesson as a band above
// the playground.
func TestLessonNarrow(t *testing.T) {
	m, _, _ := newLessonTest(t, "1", 80, 24)
	lsPress(t, m, "enter")
	s := lsScreen(m)
	lines := strings.Split(s, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24", len(lines))
	}
	if !strings.Contains(lines[1], "Goal:") || !strings.Contains(s, "World") {
		t.Errorf("no band with the goal above the world:\n%s", s)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
}

// TestLessonMouseBelowBand: in the narrow layout the playground is drawn
// below the lesson band, and clicks land where they are drawn.
func TestLessonMouseBelowBand(t *testing.T) {
	m, _, _ := newLessonTest(t, "1", 80, 24)
	lsPress(t, m, "enter")
	lines := strings.Split(lsScreen(m), "\n")
	row := -1
	for i, l := range lines {
		if strings.Contains(l, "ConfigMap/app-flags") {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatalf("ConfigMap/app-flags is not on screen:\n%s", strings.Join(lines, "\n"))
	}
	m.Update(tea.MouseClickMsg(tea.Mouse{X: 6, Y: row, Button: tea.MouseLeft}))
	if r := m.pg.selected(); r == nil || r.obj == nil || r.obj.String() != "ConfigMap/app-flags" {
		t.Errorf("a click on ConfigMap/app-flags selected %+v", r)
	}
}

// TestLessonKeysInHelp checks that the help view lists the lesson's keys
// beside the playground's, in a lesson and only there.
func TestLessonKeysInHelp(t *testing.T) {
	m, _, _ := newLessonTest(t, "1", 120, 40)
	lsPress(t, m, "enter", "?")
	s := lsScreen(m)
	for _, want := range []string{"In a lesson", "next hint", "predict, then run", "write a hand-in file"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the help view in a lesson lacks %q:\n%s", want, s)
		}
	}
	pg, err := New(Options{Width: 120, Height: 40, NoColor: true, Theme: ThemeDark})
	if err != nil {
		t.Fatal(err)
	}
	pg.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	if s := ansi.Strip(pg.View().Content); strings.Contains(s, "In a lesson") {
		t.Fatalf("the playground's help lists lesson keys outside a lesson:\n%s", s)
	}
}
