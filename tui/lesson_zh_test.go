package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/i18n"

	"github.com/charmbracelet/x/ansi"
)

// TestLessonZhGolden: lesson 1 in Chinese at 80x24 and 120x40, as a
// learner meets it: the lesson's text, the pane, a hint, the prediction,
// the delete picker, the goal reached and the lesson picker. Every line of
// every screen must be exactly as wide as the terminal (a CJK character
// is two cells): a line one cell off breaks every border after it.
// Rewrite with go test ./tui -run TestLessonZhGolden -update.
func TestLessonZhGolden(t *testing.T) {
	cases := []struct {
		name string
		keys []string
	}{
		{"text", nil},
		{"pane", []string{"enter"}},
		{"hint", []string{"enter", "H", "H"}},
		{"predict", []string{"enter", "P", "d", "d"}},
		{"predict-result", []string{"enter", "P", "d", "d", "d", "s", "enter", "r"}},
		{"done", []string{"enter", "d", "2", "r"}},
		{"picker", []string{"enter", "L"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, c := range cases {
			name := fmt.Sprintf("zh-lesson-%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m, _, _ := newLessonTestIn(t, "zh", "1", size[0], size[1])
				lsPress(t, m, c.keys...)
				raw := ansi.Strip(m.View().Content)
				for i, l := range strings.Split(raw, "\n") {
					if w := ansi.StringWidth(l); w != size[0] && strings.TrimSpace(l) != "" {
						t.Errorf("line %d is %d cells wide, not %d: %q", i+1, w, size[0], l)
					}
				}
				lines := strings.Split(raw, "\n")
				for i, l := range lines {
					lines[i] = strings.TrimRight(l, " ")
				}
				golden(t, name, strings.Join(lines, "\n")+"\n")
			})
		}
	}
}

// TestOverlayWide: an overlay whose edge cuts a wide character of the
// screen below keeps every column after it in place.
func TestOverlayWide(t *testing.T) {
	base := []string{"|中文中文中文|"} // 14 cells
	for x := 0; x < 6; x++ {
		for w := 1; w < 8; w++ {
			b := append([]string(nil), base...)
			overlay(b, []string{strings.Repeat("x", w)}, x, 0)
			if got := ansi.StringWidth(b[0]); got != 14 {
				t.Errorf("x=%d w=%d: %q is %d cells", x, w, b[0], got)
			}
			// The rest of the row is blank: no half character or cut
			// word of the screen below beside the overlay.
			if want := strings.Repeat(" ", x) + strings.Repeat("x", w) + strings.Repeat(" ", 14-x-w); ansi.Strip(b[0]) != want {
				t.Errorf("x=%d w=%d: %q, want %q", x, w, ansi.Strip(b[0]), want)
			}
		}
	}
}

// TestPlaygroundZhGolden: the playground's own words in Chinese, at 80x24
// and 120x40, where they are translated (the delete picker, on the
// starter world's Deployment and on a Pod), each line exactly as wide as
// the terminal.
func TestPlaygroundZhGolden(t *testing.T) {
	cases := []struct {
		name string
		keys []string
	}{
		{"delete-picker", []string{"d"}},
		{"delete-picker-pod", []string{"down", "down", "down", "d", "down"}},
		{"start", nil},
		{"help", []string{"?"}},
		{"collector", []string{"d", "1", "s", "s", "tab"}},
		// Reasons with their values: a Background delete, the graph
		// builder and the collector's verdict on the ReplicaSet.
		{"background-reasons", []string{"d", "2", "s", "s", "s"}},
		{"command-error", []string{":", "d", "e", "l", "e", "t", "space", "w", "e", "b", "enter"}},
		{"command-usage-error", []string{":", "g", "o", "t", "o", "space", "x", "enter"}},
		// The explain view of the ReplicaSet's verdict: the reason's
		// words and the rule behind it, both in Chinese.
		{"explain", []string{"d", "2", "s", "s", "e"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, c := range cases {
			name := fmt.Sprintf("zh-%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m, err := New(Options{Width: size[0], Height: size[1], NoColor: true, Theme: ThemeDark, Lang: "zh"})
				if err != nil {
					t.Fatal(err)
				}
				press(t, m, c.keys...)
				raw := ansi.Strip(m.View().Content)
				for i, l := range strings.Split(raw, "\n") {
					if w := ansi.StringWidth(l); w != size[0] && strings.TrimSpace(l) != "" {
						t.Errorf("line %d is %d cells wide, not %d: %q", i+1, w, size[0], l)
					}
				}
				golden(t, name, screen(m))
			})
		}
	}
}

// TestKeysTranslated: every key the playground and a lesson describe has
// its Chinese words in the catalog (a new key needs a "ui.<its words>"
// line in internal/i18n/messages/zh.yaml).
func TestKeysTranslated(t *testing.T) {
	zh := i18n.For("zh")
	bs := helpOfEveryPane(t)
	bs = append(bs, commandKeys.bindings()...)
	bs = append(bs, pickerKeys.bindings()...)
	bs = append(bs, overlayKeys.Scroll, overlayKeys.Page, overlayKeys.Close, overlayKeys.PrevNext)
	bs = append(bs, lessonKeys.bindings()...)
	ok := lessonOverlayKeys
	bs = append(bs, ok.Start, ok.Choose, ok.Top, ok.Bottom, ok.Open, ok.Back, ok.Quit, ok.Replay, ok.Survives, ok.Orphaned,
		ok.Deleted, ok.Terminating, ok.RunPrediction, ok.NextLesson, ok.Scroll, ok.Page, ok.Close)
	for _, b := range bs {
		if d := b.Help().Desc; !zh.HasUI(d) {
			t.Errorf("key %s: %q has no Chinese words: add %q to internal/i18n/messages/zh.yaml", b.Help().Key, d, i18n.UIPrefix+d)
		}
	}
	for _, g := range append(slices.Clone(helpGroups), lessonHelp.name) {
		if !zh.HasUI(g) {
			t.Errorf("help group %q has no Chinese words: add %q to internal/i18n/messages/zh.yaml", g, i18n.UIPrefix+g)
		}
	}
}

// BenchmarkLessonView measures one frame of lesson 1's pane at 120x40 in
// English and in Chinese (CJK text is measured and wrapped cell by cell).
func BenchmarkLessonView(b *testing.B) {
	for _, lang := range []string{"en", "zh"} {
		b.Run("lang="+lang, func(b *testing.B) {
			t := &testing.T{}
			m, _, _ := newLessonTestIn(t, lang, "1", 120, 40)
			lsPress(t, m, "enter")
			b.ReportAllocs()
			for b.Loop() {
				m.View()
			}
		})
	}
}

// TestOneLine: a text's lines are joined as Chinese is written, with no
// space after full-width punctuation or between two Chinese characters,
// and with one between Latin words.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"只能剩下 Pod/scratch。\n  保留 ConfigMap/a 和\n  两个 Node。": "只能剩下 Pod/scratch。保留 ConfigMap/a 和两个 Node。",
		"列出各种删除策略。\nBackground 是默认的":                        "列出各种删除策略。Background 是默认的",
		"Delete the\n  owner,  then run":                    "Delete the owner, then run",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
