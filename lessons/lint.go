package lessons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gcplay/gcplay/internal/lazyre"
	"github.com/gcplay/gcplay/scenario"
)

// Problem is one thing wrong with a lesson, found by Lint.
type Problem struct {
	File string
	Line int
	// Path is the field ("solution", "wrong[1].explains[0]", "hints").
	Path    string
	Message string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// ruleRE matches a rule citation: R1 to R69, with an optional letter
// (R44(c)).
var ruleRE = lazyre.New(`\bR(\d+)(\([a-z]\))?`)

// rulesInSpec is the number of the last rule of GC-RULES.md.
const rulesInSpec = 69

// Lint checks a lesson the way the course's tests do, and more: its
// solution runs and reaches the goal; each wrong answer runs, misses the
// goal and is explained with the words it lists; the prediction's steps
// run and its objects exist in the starting world; its English text has
// every field a learner needs, and every rule it cites exists. g words the
// grader's explanations.
func Lint(g *Grader, l *Lesson) []Problem {
	var ps []Problem
	add := func(line int, path, format string, args ...any) {
		ps = append(ps, Problem{File: l.File, Line: line, Path: path, Message: fmt.Sprintf(format, args...)})
	}
	start, err := l.Start()
	if err != nil {
		add(0, "steps", "the starting world does not build: %v", err)
		return ps
	}
	if gr := g.Grade(l, start.World, start.Records); gr.Passed {
		add(0, "goal", "the starting world already meets the goal: there is nothing to do")
	}

	r, err := l.Try(l.Solution)
	switch {
	case err != nil:
		add(0, "solution", "the solution does not run: %v", err)
	default:
		if gr := g.Grade(l, r.World, r.Records); !gr.Passed {
			add(0, "solution", "the solution misses the goal: %s", strings.Join(gr.Problems(), " | "))
		}
	}

	if len(l.Wrong) == 0 {
		add(0, "wrong", "no wrong answer: give at least one plausible wrong answer and the words that explain it")
	}
	for i, w := range l.Wrong {
		path := fmt.Sprintf("wrong[%d]", i)
		r, err := l.Try(w.Steps)
		if err != nil {
			add(w.Line, path, "wrong answer %s does not run: %v", w.ID, err)
			continue
		}
		gr := g.Grade(l, r.World, r.Records)
		if gr.Passed {
			add(w.Line, path, "wrong answer %s reaches the goal", w.ID)
			continue
		}
		words := strings.Join(gr.Problems(), "\n")
		for j, want := range w.Explains {
			if !strings.Contains(words, want) {
				add(w.Line, fmt.Sprintf("%s.explains[%d]", path, j), "the grader does not say %q; it says: %s", want, strings.ReplaceAll(words, "\n", " | "))
			}
		}
	}

	if l.Predict != nil {
		for i, ref := range l.Predict.Objects {
			if start.World.Store().Lookup(ref.Ref) == nil {
				add(0, fmt.Sprintf("predict.objects[%d]", i), "%s is not in the starting world", ref)
			}
		}
		if _, err := l.RunPrediction(); err != nil {
			add(0, "predict.steps", "the prediction's steps do not run: %v", err)
		}
	} else {
		add(0, "predict", "no prediction: give the learner something to predict before stepping (predict: steps, objects)")
	}

	locs := make([]string, 0, len(l.Text))
	for loc := range l.Text {
		locs = append(locs, loc)
	}
	slices.Sort(locs)
	for _, loc := range locs {
		ps = append(ps, lintText(l, loc, l.Text[loc])...)
		if loc != DefaultLocale && l.Text[DefaultLocale] != nil {
			ps = append(ps, lintTranslation(l, loc, l.Text[loc], l.Text[DefaultLocale])...)
		}
	}
	if l.Text[DefaultLocale] == nil {
		add(0, "", "no English text (text/%s/%s.yaml)", DefaultLocale, l.ID)
	}
	return ps
}

// lintText checks a lesson's words in one locale.
func lintText(l *Lesson, locale string, t *Text) []Problem {
	var ps []Problem
	file := t.file
	if file == "" {
		file = fmt.Sprintf("text/%s/%s.yaml", locale, l.ID)
	}
	add := func(path, format string, args ...any) {
		ps = append(ps, Problem{File: file, Path: path, Message: fmt.Sprintf(format, args...)})
	}
	if locale == DefaultLocale {
		required := []struct {
			name, value string
		}{{"title", t.Title}, {"summary", t.Summary}, {"intro", t.Intro}, {"goal", t.Goal}, {"solution", t.Solution},
			{"explanation", t.Explanation}, {"notes", t.Notes}}
		for _, f := range required {
			if f.value == "" {
				add(f.name, "missing: every lesson needs its %s in English", f.name)
			}
		}
		if len(t.Hints) == 0 {
			add("hints", "missing: give at least one hint")
		}
		if l.Predict != nil && t.Predict == "" {
			add("predict", "missing: the lesson has a prediction, so it needs the question")
		}
		if t.Explanation != "" && !ruleRE.Get().MatchString(t.Explanation) {
			add("explanation", "cites no rule: an explanation says which rules of GC-RULES.md make the result what it is (R13, R44(c), ...)")
		}
		if strings.Contains(strings.ToLower(t.Notes), "minute") && l.Minutes == 0 {
			add("notes", "the notes give a time, but the course file has no minutes")
		}
	}
	fields := map[string]string{"title": t.Title, "summary": t.Summary, "intro": t.Intro, "goal": t.Goal, "predict": t.Predict,
		"solution": t.Solution, "explanation": t.Explanation, "simplified": t.Simplified, "notes": t.Notes}
	for i, h := range t.Hints {
		fields[fmt.Sprintf("hints[%d]", i)] = h
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, m := range ruleRE.Get().FindAllStringSubmatch(fields[k], -1) {
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > rulesInSpec {
				add(k, "cites %s, but GC-RULES.md has rules R1 to R%d", m[0], rulesInSpec)
			}
		}
	}
	return ps
}

// objectRE matches an object named in a lesson's text: Kind/name or
// Kind/namespace/name (ConfigMap/app, Pod/web-7d4b9-x2x).
var objectRE = lazyre.New(`\b[A-Z][A-Za-z]+/[a-z0-9][a-z0-9.-]*[a-z0-9](/[a-z0-9][a-z0-9.-]*[a-z0-9])?`)

// lintTranslation checks a lesson's words in locale against English:
// every field English has is translated, with as many hints, and each
// field cites the same rules and names the same objects (a translation
// that drops R44(c) or names another object teaches something else).
func lintTranslation(l *Lesson, locale string, t, en *Text) []Problem {
	var ps []Problem
	file := t.file
	if file == "" {
		file = fmt.Sprintf("text/%s/%s.yaml", locale, l.ID)
	}
	add := func(path, format string, args ...any) {
		ps = append(ps, Problem{File: file, Path: path, Message: fmt.Sprintf(format, args...)})
	}
	type field struct{ name, en, tr string }
	fields := []field{{"title", en.Title, t.Title}, {"summary", en.Summary, t.Summary}, {"intro", en.Intro, t.Intro},
		{"goal", en.Goal, t.Goal}, {"predict", en.Predict, t.Predict}, {"solution", en.Solution, t.Solution},
		{"explanation", en.Explanation, t.Explanation}, {"simplified", en.Simplified, t.Simplified}, {"notes", en.Notes, t.Notes}}
	if len(t.Hints) != len(en.Hints) {
		add("hints", "%d hints, but the English text has %d: a translation has every hint", len(t.Hints), len(en.Hints))
	}
	for i := range min(len(t.Hints), len(en.Hints)) {
		fields = append(fields, field{fmt.Sprintf("hints[%d]", i), en.Hints[i], t.Hints[i]})
	}
	for _, f := range fields {
		switch {
		case f.en == "" && f.tr == "":
			continue
		case f.tr == "":
			add(f.name, "missing: the English text has it, so the %s text needs it too", locale)
			continue
		case f.en == "":
			add(f.name, "the English text has no %s: a translation says what English says", f.name)
			continue
		}
		if a, b := tokens(ruleRE.Get(), f.en), tokens(ruleRE.Get(), f.tr); !slices.Equal(a, b) {
			add(f.name, "cites %s, but the English text cites %s", orNone(b), orNone(a))
		}
		if a, b := tokens(objectRE.Get(), f.en), tokens(objectRE.Get(), f.tr); !slices.Equal(a, b) {
			add(f.name, "names %s, but the English text names %s", orNone(b), orNone(a))
		}
	}
	return ps
}

// tokens returns the distinct matches of re in s, sorted.
func tokens(re *lazyre.Regexp, s string) []string {
	out := re.FindAllString(s, -1)
	slices.Sort(out)
	return slices.Compact(out)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}

// placeholderRE matches a phrase's placeholder: {owner}.
var placeholderRE = lazyre.New(`\{[a-zA-Z]+\}`)

// LintLocales checks the course's locales: every lesson has a text in
// every locale the course has, unless the locale's PENDING file lists it
// (then Pending says so, and it is no problem); a PENDING file names only
// lessons that exist and lack the text; every locale's phrases have the
// English keys, no others, each with the same placeholders.
func (c *Course) LintLocales() []Problem {
	var ps []Problem
	for _, loc := range c.Locales {
		if loc == DefaultLocale {
			continue
		}
		pending := c.Pending[loc]
		for _, l := range c.Lessons {
			if l.Text[loc] == nil && !slices.Contains(pending, l.ID) {
				ps = append(ps, Problem{File: l.File, Message: fmt.Sprintf(
					"no %s text: every lesson has a text in every locale the course has; add text/%s/%s.yaml (or list %s in text/%s/PENDING until it is translated)",
					loc, loc, l.ID, l.ID, loc)})
			}
		}
		for _, id := range pending {
			switch l := c.byID(id); {
			case l == nil:
				ps = append(ps, Problem{File: "text/" + loc + "/PENDING", Message: fmt.Sprintf("no lesson %q in course/", id)})
			case l.Text[loc] != nil:
				ps = append(ps, Problem{File: "text/" + loc + "/PENDING", Message: fmt.Sprintf("%s is translated (text/%s/%s.yaml): take it off the list", id, loc, id)})
			}
		}
	}
	en := c.phrases[DefaultLocale]
	keys := make([]string, 0, len(en))
	for k := range en {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	locs := make([]string, 0, len(c.phrases))
	for loc := range c.phrases {
		if loc != DefaultLocale {
			locs = append(locs, loc)
		}
	}
	slices.Sort(locs)
	for _, loc := range locs {
		p, file := c.phrases[loc], c.phraseFiles[loc]
		for _, k := range keys {
			tr, ok := p[k]
			if !ok {
				ps = append(ps, Problem{File: file, Path: k, Message: "missing: English has this phrase"})
				continue
			}
			if a, b := tokens(placeholderRE.Get(), en[k]), tokens(placeholderRE.Get(), tr); !slices.Equal(a, b) {
				ps = append(ps, Problem{File: file, Path: k, Message: fmt.Sprintf("placeholders %s, but English has %s", orNone(b), orNone(a))})
			}
			if a, b := tokens(ruleRE.Get(), en[k]), tokens(ruleRE.Get(), tr); !slices.Equal(a, b) {
				ps = append(ps, Problem{File: file, Path: k, Message: fmt.Sprintf("cites %s, but English cites %s", orNone(b), orNone(a))})
			}
		}
		var extra []string
		for k := range p {
			if _, ok := en[k]; !ok {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		for _, k := range extra {
			ps = append(ps, Problem{File: file, Path: k, Message: "English has no such phrase"})
		}
	}
	return ps
}

// PendingNote says which lessons still wait for a translation, one line a
// locale ("" when none do).
func (c *Course) PendingNote() string {
	var lines []string
	for _, loc := range c.Locales {
		var ids []string
		for _, id := range c.Pending[loc] {
			if l := c.byID(id); l != nil && l.Text[loc] == nil {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			lines = append(lines, fmt.Sprintf("note: %d %s without %s text yet (text/%s/PENDING): %s",
				len(ids), map[bool]string{true: "lesson", false: "lessons"}[len(ids) == 1], loc, loc, strings.Join(ids, ", ")))
		}
	}
	return strings.Join(lines, "\n")
}

// TextFile is a lesson text file to lint: its name and content.
type TextFile struct {
	Name string
	Data []byte
}

// LintFile parses and lints a course file, with its text files (by
// locale; nil for none). Parse errors come back as problems.
func LintFile(g *Grader, file string, data []byte, texts map[string]TextFile) []Problem {
	l, err := ParseLesson(file, data)
	if err != nil {
		return errorProblems(err)
	}
	l.Text = map[string]*Text{}
	var ps []Problem
	locs := make([]string, 0, len(texts))
	for loc := range texts {
		locs = append(locs, loc)
	}
	slices.Sort(locs)
	for _, loc := range locs {
		tf := texts[loc]
		t, err := ParseText(tf.Name, tf.Data)
		if err != nil {
			ps = append(ps, errorProblems(err)...)
			continue
		}
		l.Text[loc] = t
	}
	return append(ps, Lint(g, l)...)
}

func errorProblems(err error) []Problem {
	if list, ok := err.(scenario.ErrorList); ok {
		var ps []Problem
		for _, e := range list {
			ps = append(ps, Problem{File: e.File, Line: e.Line, Path: e.Path, Message: e.Message})
		}
		return ps
	}
	return []Problem{{Message: err.Error()}}
}
