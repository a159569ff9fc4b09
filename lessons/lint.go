package lessons

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
var ruleRE = regexp.MustCompile(`\bR(\d+)(\([a-z]\))?`)

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
		if t.Explanation != "" && !ruleRE.MatchString(t.Explanation) {
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
		for _, m := range ruleRE.FindAllStringSubmatch(fields[k], -1) {
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > rulesInSpec {
				add(k, "cites %s, but GC-RULES.md has rules R1 to R%d", m[0], rulesInSpec)
			}
		}
	}
	return ps
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
