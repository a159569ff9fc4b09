package lessons

import (
	"sync"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Lesson is one parsed lesson: the locale-independent part from its course
// file (the starting world, the goal checks, the prediction, the solution
// and the wrong answers it is tested with) and its text in every locale
// the course has.
type Lesson struct {
	// ID is the lesson's name, the scenario name of its world
	// ("owners-and-dependents").
	ID string
	// Number is the lesson's place in the course, from 1.
	Number int
	// File is the course file's name, used in messages.
	File string
	// Minutes is the time a workshop should plan for the lesson.
	Minutes int

	// World is the starting world: the scenario part of the course file
	// (kinds, controllers, objects, and set-up steps run before the
	// learner starts).
	World *scenario.Scenario
	// Source is the scenario part of the course file as YAML text (the
	// world without the lesson keys), with its lines at their places in
	// the course file; a hand-in starts with it.
	Source []byte

	// Goal is the goal's checks: a scenario expect block.
	Goal *scenario.Expect
	// Settled says the goal counts only in a settled world (no work
	// ready or due): the default. Step-by-step lessons whose goal is a
	// moment in the middle of a cascade set settled: false.
	Settled bool

	// Predict is the predict-then-run experiment, nil when the lesson has
	// none.
	Predict *Predict

	// Solution is the steps that reach the goal from the starting world.
	// They are shown, not run, unless the learner asks to replay them.
	Solution []scenario.Step

	// Wrong are plausible wrong answers: each must miss the goal, and the
	// grader's words for it must contain Explains.
	Wrong []WrongAnswer

	// Text is the lesson's words by locale ("en", "zh", ...).
	Text map[string]*Text

	// worldText is the course file's lines of the scenario keys other
	// than steps: a hand-in starts with them.
	worldText []string

	startOnce sync.Once
	start     []*fakeapi.Object
}

// startObjects returns the objects of the starting world (computed once).
func (l *Lesson) startObjects() []*fakeapi.Object {
	l.startOnce.Do(func() {
		if r, err := l.Start(); err == nil && r.World != nil {
			for _, o := range r.World.Store().Objects() {
				l.start = append(l.start, o.DeepCopy())
			}
		}
	})
	return l.start
}

// Predict is a lesson's predict-then-run experiment: the learner marks an
// outcome for each object (and, with Order, the order of the deletions)
// before Steps run, then steps through and sees who was right.
type Predict struct {
	// Steps are the action the prediction is about (typically one
	// delete), run from the starting world.
	Steps []scenario.Step
	// Objects are the objects to predict, in the order shown.
	Objects []scenario.Ref
	// Order asks the learner for the order in which the objects they mark
	// deleted are removed from storage (foreground lessons).
	Order bool
}

// WrongAnswer is a plausible wrong answer: steps that miss the goal, and
// the words the grader must use to say why.
type WrongAnswer struct {
	ID    string
	Steps []scenario.Step
	// Explains are substrings of the grader's explanation, each of which
	// must appear.
	Explains []string
	Line     int
}

// Text is a lesson's words in one locale. Every field is plain text; the
// playground wraps it.
type Text struct {
	// Title is the lesson's name as shown in lists ("Owners and dependents").
	Title string `yaml:"title"`
	// Summary is one line for the lesson list.
	Summary string `yaml:"summary"`
	// Intro is the short, concrete introduction shown first.
	Intro string `yaml:"intro"`
	// Goal states the goal in words.
	Goal string `yaml:"goal"`
	// Hints are revealed one at a time.
	Hints []string `yaml:"hints"`
	// Predict is the question of the prediction.
	Predict string `yaml:"predict"`
	// Solution is the words that go with the solution's steps.
	Solution string `yaml:"solution"`
	// Explanation says why the result is what it is, citing the rules
	// (R-numbers of GC-RULES.md).
	Explanation string `yaml:"explanation"`
	// Simplified says where gcplay simplifies what the lesson shows
	// (docs/RULES.md "Not modelled"), or is empty.
	Simplified string `yaml:"simplified"`
	// Notes are the instructor notes: timing, common wrong answers, what
	// to ask the room.
	Notes string `yaml:"notes"`

	file string
}

// DefaultLocale is the locale every lesson has, and the fallback for text
// missing in another.
const DefaultLocale = "en"

// T returns the lesson's text in locale, falling back to English field by
// field where the locale has no words yet.
func (l *Lesson) T(locale string) *Text {
	en := l.Text[DefaultLocale]
	if en == nil {
		en = &Text{Title: l.ID}
	}
	t, ok := l.Text[locale]
	if !ok || locale == DefaultLocale {
		return en
	}
	out := *t
	fill := func(dst *string, src string) {
		if *dst == "" {
			*dst = src
		}
	}
	fill(&out.Title, en.Title)
	fill(&out.Summary, en.Summary)
	fill(&out.Intro, en.Intro)
	fill(&out.Goal, en.Goal)
	fill(&out.Predict, en.Predict)
	fill(&out.Solution, en.Solution)
	fill(&out.Explanation, en.Explanation)
	fill(&out.Simplified, en.Simplified)
	fill(&out.Notes, en.Notes)
	if len(out.Hints) == 0 {
		out.Hints = en.Hints
	}
	return &out
}
