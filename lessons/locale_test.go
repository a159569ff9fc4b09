package lessons

import (
	"strings"
	"testing"
	"testing/fstest"
)

// localeCourse is a two-lesson course with an English and a Chinese
// text; files replaces or adds files.
func localeCourse(t *testing.T, files map[string]string) *Course {
	t.Helper()
	lesson := strings.ReplaceAll(minimalLesson, "name: tiny", "name: ID")
	fsys := fstest.MapFS{}
	base := map[string]string{
		"course/01-one.yaml": strings.ReplaceAll(lesson, "ID", "one"),
		"course/02-two.yaml": strings.ReplaceAll(lesson, "ID", "two"),
		"text/en/one.yaml":   "title: One\nintro: Delete ConfigMap/owner (R44(c)).\nhints: [a, b]\n",
		"text/en/two.yaml":   "title: Two\n",
		"text/zh/one.yaml":   "title: 一\nintro: 删除 ConfigMap/owner（R44(c)）。\nhints: [甲, 乙]\n",
		"text/zh/two.yaml":   "title: 二\n",
		"phrases/en.yaml":    "gone: \"{object} was deleted, but {goal}.\"\nstays: \"{object} is still in storage.\"\n",
		"phrases/zh.yaml":    "gone: \"{object} 已被删除，但{goal}。\"\nstays: \"{object} 仍在存储中。\"\n",
	}
	for k, v := range files {
		base[k] = v
	}
	for k, v := range base {
		if v != "" {
			fsys[k] = &fstest.MapFile{Data: []byte(v)}
		}
	}
	c, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func problems(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return strings.Join(out, "\n")
}

// TestLintLocales: a lesson without a text in a locale the course has is a
// problem, unless the locale's PENDING file lists it; a phrase whose
// placeholders differ from English's, or that English lacks, is a
// problem.
func TestLintLocales(t *testing.T) {
	if ps := localeCourse(t, nil).LintLocales(); len(ps) != 0 {
		t.Fatalf("a complete course has problems:\n%s", problems(ps))
	}
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"missing text", map[string]string{"text/zh/two.yaml": ""},
			[]string{"course/02-two.yaml: no zh text: every lesson has a text in every locale the course has; add text/zh/two.yaml (or list two in text/zh/PENDING until it is translated)"}},
		{"pending", map[string]string{"text/zh/two.yaml": "", "text/zh/PENDING": "# waiting\ntwo\n"}, nil},
		{"stale pending", map[string]string{"text/zh/PENDING": "two\nthree\n"},
			[]string{"text/zh/PENDING: two is translated (text/zh/two.yaml): take it off the list", `text/zh/PENDING: no lesson "three" in course/`}},
		{"placeholder", map[string]string{"phrases/zh.yaml": "gone: \"{obj} 已被删除，但{goal}。\"\nstays: \"{object} 仍在存储中。\"\n"},
			[]string{"phrases/zh.yaml: gone: placeholders {goal} {obj}, but English has {goal} {object}"}},
		{"missing and extra phrase", map[string]string{"phrases/zh.yaml": "gone: \"{object} 已被删除，但{goal}。\"\nstay: \"{object} 仍在存储中。\"\n"},
			[]string{"phrases/zh.yaml: stays: missing: English has this phrase", "phrases/zh.yaml: stay: English has no such phrase"}},
	} {
		got := problems(localeCourse(t, c.files).LintLocales())
		if got != strings.Join(c.want, "\n") {
			t.Errorf("%s: problems\n%s\nwant\n%s", c.name, got, strings.Join(c.want, "\n"))
		}
	}
	c := localeCourse(t, map[string]string{"text/zh/two.yaml": "", "text/zh/PENDING": "two\n"})
	if got, want := c.PendingNote(), "note: 1 lesson without zh text yet (text/zh/PENDING): two"; got != want {
		t.Errorf("PendingNote = %q, want %q", got, want)
	}
}

// TestLintTranslation: a translation has every field and hint English
// has, and cites the same rules and names the same objects.
func TestLintTranslation(t *testing.T) {
	for _, c := range []struct {
		zh   string
		want []string
	}{
		{"title: 一\nintro: 删除 ConfigMap/owner（R44(c)）。\nhints: [甲, 乙]\n", nil},
		{"title: 一\nhints: [甲]\n", []string{
			"text/zh/one.yaml: hints: 1 hints, but the English text has 2: a translation has every hint",
			"text/zh/one.yaml: intro: missing: the English text has it, so the zh text needs it too"}},
		{"title: 一\nintro: 删除 ConfigMap/other（R44）。\nhints: [甲, 乙]\nnotes: 多余\n", []string{
			"text/zh/one.yaml: intro: cites R44, but the English text cites R44(c)",
			"text/zh/one.yaml: intro: names ConfigMap/other, but the English text names ConfigMap/owner",
			"text/zh/one.yaml: notes: the English text has no notes: a translation says what English says"}},
	} {
		co := localeCourse(t, map[string]string{"text/zh/one.yaml": c.zh})
		l := co.byID("one")
		got := problems(lintTranslation(l, "zh", l.Text["zh"], l.Text["en"]))
		if got != strings.Join(c.want, "\n") {
			t.Errorf("%q: problems\n%s\nwant\n%s", c.zh, got, strings.Join(c.want, "\n"))
		}
	}
}

// TestBuiltinLocales: the built-in course's translations pass the locale
// checks, and every lesson has a title in every locale it is translated to.
func TestBuiltinLocales(t *testing.T) {
	c := Builtin()
	for _, p := range c.LintLocales() {
		t.Errorf("%s", p)
	}
}
