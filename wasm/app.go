//go:build js && wasm

package main

import (
	"fmt"
	"reflect"
	"slices"
	"syscall/js"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/internal/locale"
	"github.com/gcplay/gcplay/lessons"
	"github.com/gcplay/gcplay/scenario"
	"github.com/gcplay/gcplay/share"
	"github.com/gcplay/gcplay/tui"
)

// progressKey is the localStorage key of the lessons' progress.
const progressKey = "gcplay.progress"

// persistDelay is how long the world must stay unchanged before it is
// written to localStorage and the address bar (a run of steps is written
// once, when it ends; the page also asks for a write when it is closed).
const persistDelay = 200 * time.Millisecond

// app is the browser's Bubble Tea model: the terminal playground itself
// (tui.Model, unchanged), plus what only the page needs: keeping the world
// in localStorage and in the URL fragment as a share link, opening links,
// and running the commands behind the page's buttons.
type app struct {
	// top is the model the program runs: the playground itself, or a
	// lesson around it (#lesson=NAME). m is the playground either way.
	top    tea.Model
	m      *tui.Model
	lesson *tui.LessonModel
	files  *webFiles
	course *lessons.Course
	// width and height are the terminal's size, for a model opened later.
	width, height int
	// lang is the page's language (gcplayBoot.lang: the switch's choice or
	// navigator.language), for the playground and the lessons.
	lang string

	// origin is the scenario the world started from, and originSrc its
	// source, which a share link carries.
	origin    *scenario.Scenario
	originSrc []byte
	// version is the world's version when it was last scheduled for
	// writing, and breaks its breakpoints then; gen tells the latest
	// scheduled write from older ones.
	version, gen int
	breaks       *share.Breakpoints
	// shown is the lesson shown when the world was last scheduled for
	// writing ("" in the playground): another lesson is a change too.
	shown string
	// from is the playground the lesson picker was opened from (L or the
	// Lessons button outside a lesson), while that picker shows: esc goes
	// back to it, not into the lesson under the picker.
	from *pickedFrom

	// view is the view last drawn; fresh says no message has reached the
	// model since, so it is still the view (Bubble Tea asks for one after
	// every message, also those the model ignores).
	view  tea.View
	fresh bool
}

// pickedFrom is the plain playground as it was when the lesson picker
// opened over it.
type pickedFrom struct {
	m         *tui.Model
	origin    *scenario.Scenario
	originSrc []byte
}

// Messages from the page.
type (
	persistMsg    struct{ gen int }
	commandMsg    struct{ line string }
	openLinkMsg   struct{ text, from string }
	openLessonMsg struct{ name string }
	// courseMsg is a page button of the course: "open" (the picker),
	// "next" (the next lesson) or "restart" (the lesson at its start).
	courseMsg struct{ what string }
)

func (a *app) Init() tea.Cmd { return a.top.Init() }

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.ColorProfileMsg, tea.EnvMsg, tea.ModeReportMsg:
		// Bubble Tea's reports at start (it acts on them itself): the
		// playground has no use for them, so the view stays as it is.
		return a, nil
	}
	a.fresh = false
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case persistMsg:
		if msg.gen == a.gen {
			a.persist()
		}
		return a, nil
	case commandMsg:
		cmd = a.m.Execute(msg.line)
	case openLinkMsg:
		a.leaveLesson()
		a.openLink(msg.text, msg.from)
	case openLessonMsg:
		a.openLesson(msg.name, "")
	case courseMsg:
		a.course_(msg.what)
	case tea.KeyPressMsg:
		if k := msg.String(); a.wouldQuit(k) {
			// In the page Ctrl+C copies (the page handles it when text is
			// selected) and a lone q is too easy to press: neither quits.
			if k == "ctrl+c" {
				a.m.Notify("Ctrl+C copies here (Shift+drag selects text); it does not quit. Close the tab when you are done: your world is kept.", false)
			} else {
				a.m.Notify("q does not quit in the page: close the tab when you are done, your world is kept (the quit command stops the program).", false)
			}
			break
		}
		if msg.String() == "L" && a.lesson == nil && a.m.Idle() {
			a.pickFromPlayground()
			break
		}
		if a.from != nil && msg.String() == "esc" && a.lesson.PickerOpen() {
			a.backFromPicker()
			break
		}
		_, cmd = a.top.Update(msg)
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		_, cmd = a.top.Update(msg)
	default:
		_, cmd = a.top.Update(msg)
	}
	if a.lesson != nil {
		a.m = a.lesson.Playground() // a new one when another lesson opens
		if a.from != nil && !a.lesson.PickerOpen() {
			a.from = nil // a lesson was chosen: esc no longer leads back
		}
	}
	a.trackOrigin()
	breaks := share.NewBreakpoints(a.m.Breakpoints())
	lesson := a.lessonID()
	if v := a.m.Version(); v != a.version || !reflect.DeepEqual(breaks, a.breaks) || lesson != a.shown {
		a.version, a.breaks, a.shown = v, breaks, lesson
		a.gen++
		gen := a.gen
		cmd = tea.Batch(cmd, tea.Tick(persistDelay, func(time.Time) tea.Msg { return persistMsg{gen: gen} }))
	}
	return a, cmd
}

func (a *app) View() tea.View {
	if !a.fresh {
		a.view, a.fresh = a.top.View(), true
	}
	return a.view
}

// sizeFilter returns a Bubble Tea message filter that drops a
// WindowSizeMsg repeating the size the program already has (cols×rows at
// first). Bubble Tea sends one when it starts, with the size given to
// WithWindowSize, and its renderer answers each by erasing the screen and
// drawing the whole frame again: a second full frame for xterm.js to take
// in before the first one shows. The model was made at that size.
func sizeFilter(cols, rows int) func(tea.Model, tea.Msg) tea.Msg {
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		if s, ok := msg.(tea.WindowSizeMsg); ok {
			if s.Width == cols && s.Height == rows {
				return nil
			}
			cols, rows = s.Width, s.Height
		}
		return msg
	}
}

// trackOrigin notices a newly loaded scenario and keeps its source.
func (a *app) trackOrigin() {
	origin, _, _ := a.m.Timeline()
	if origin == a.origin {
		return
	}
	a.origin, a.originSrc = origin, nil
	if name, src := tui.StarterScenario(); origin.File == name {
		a.originSrc = src
	} else if l := a.lessonOf(origin); l != nil {
		a.originSrc = l.Source
	} else if src, ok := a.files.sources[origin.File]; ok {
		a.originSrc = src
	}
}

// lessonOf returns the lesson whose world origin is, in lesson mode.
func (a *app) lessonOf(origin *scenario.Scenario) *lessons.Lesson {
	if a.lesson == nil || a.course == nil {
		return nil
	}
	for _, l := range a.course.Lessons {
		if l.World == origin || l.ID == origin.Name {
			return l
		}
	}
	return nil
}

// link returns the share link of the world and its timeline.
func (a *app) link() (string, error) {
	a.trackOrigin()
	origin, start, h := a.m.Timeline()
	file, src := origin.File, a.originSrc
	if src == nil {
		// Not known (it cannot happen today): the start world as a saved
		// scenario is the nearest thing.
		b, err := scenario.Save(start, "saved")
		if err != nil {
			return "", err
		}
		file, src = "saved world", b
	}
	l, err := share.New(file, src, h)
	if err != nil {
		return "", err
	}
	l.Breakpoints = share.NewBreakpoints(a.m.Breakpoints())
	return l.Encode()
}

// persist hands the world's link to the page, which keeps it in
// localStorage and in the address bar.
func (a *app) persist() {
	text, err := a.link()
	if err != nil {
		a.m.Notify("cannot keep this world across reloads: "+err.Error(), true)
		return
	}
	js.Global().Call("onGoWorld", text, a.lessonID())
}

// lessonID is the lesson shown, or "" in the plain playground.
func (a *app) lessonID() string {
	origin, _, _ := a.m.Timeline()
	if l := a.lessonOf(origin); l != nil {
		return l.ID
	}
	return ""
}

// openLink restores a world from a link's text; from says where the text
// came from ("link" or "saved"). When it fails, the message line says why
// and the world is unchanged. The page learns whether a link ("link")
// opened: only then was the learner's own world replaced.
func (a *app) openLink(text, from string) (err error) {
	if from == "link" {
		defer func() { js.Global().Call("onGoLinkOpened", err == nil) }()
	}
	l, err := share.Decode(text)
	var o *share.Opened
	if err == nil {
		o, err = l.Open()
	}
	if err != nil {
		what := "This link"
		if from == "saved" {
			what = "The world saved in this browser"
		}
		a.m.Notify(fmt.Sprintf("%s could not be opened: %v", what, err), true)
		return err
	}
	h := o.History
	var msg string
	if from == "saved" {
		msg = fmt.Sprintf("Welcome back: your world is as you left it (%s, step %d of %d). ", describe(l.File), h.Pos(), h.Len())
	} else {
		msg = fmt.Sprintf("Opened a shared world: %s, at step %d of %d. ", describe(l.File), h.Pos(), h.Len())
	}
	msg += "← → move along its timeline; the address bar always links to what you see."
	if o.Note != "" {
		msg = "Partly restored: " + o.Note + ". " + msg
	}
	a.m.Restore(o.Origin, o.Start, h, msg)
	if b := l.Breakpoints; b != nil {
		a.m.SetBreakpoints(b.Orphan, b.Watched())
	}
	if o.Note != "" {
		a.m.Notify(msg, true)
	}
	a.origin, a.originSrc = o.Origin, []byte(l.Scenario)
	return nil
}

func describe(file string) string {
	if name, _ := tui.StarterScenario(); file == name {
		return "the starter world"
	}
	return file
}

// openLesson opens a lesson by name (#lesson=NAME): the playground with
// the lesson beside it, progress kept in localStorage. saved, when set, is
// the link of the lesson's world as the learner left it.
func (a *app) openLesson(name, saved string) {
	if a.course == nil {
		a.course = lessons.Builtin()
	}
	var l *lessons.Lesson // nil: the picker, on the first lesson not done
	if name != "" {
		var err error
		if l, err = a.course.Find(name); err != nil {
			a.m.Notify(fmt.Sprintf("This link opens the lesson %q: %v. Here is the playground instead.", name, err), true)
			return
		}
	}
	loc, _ := locale.Pick("", func(string) string { return "" }, a.course.Locales)
	if slices.Contains(a.course.Locales, a.lang) {
		loc = a.lang
	}
	lm, err := tui.NewLesson(tui.Options{Theme: pageTheme, Files: a.files, Width: a.width, Height: a.height, Lang: a.lang, NoQuitKey: true},
		tui.LessonOptions{Course: a.course, Lesson: l, Progress: &lessons.KVStore{KV: localKV{}, Key: progressKey}, Locale: loc})
	if err != nil {
		a.m.Notify(fmt.Sprintf("The lesson %q could not be opened: %v", name, err), true)
		return
	}
	a.top, a.lesson, a.m = lm, lm, lm.Playground()
	a.origin = nil
	if saved != "" {
		a.openLink(saved, "saved")
	}
	a.trackOrigin()
	a.version = -1 // write the lesson into the address bar
}

// pickFromPlayground opens the lesson picker over the plain playground
// (the L key or the Lessons button), remembering the playground: the
// picker's esc goes back to it.
func (a *app) pickFromPlayground() {
	from := &pickedFrom{m: a.m, origin: a.origin, originSrc: a.originSrc}
	a.openLesson("", "")
	if a.lesson != nil && a.lesson.PickerOpen() {
		a.from = from
	}
}

// backFromPicker closes the lesson picker opened from the playground and
// shows that playground again, as it was.
func (a *app) backFromPicker() {
	f := a.from
	a.from = nil
	a.top, a.m, a.lesson = f.m, f.m, nil
	a.origin, a.originSrc = f.origin, f.originSrc
	a.m.Update(tea.WindowSizeMsg{Width: a.width, Height: a.height}) // the window may have changed meanwhile
	a.version = -1                                                  // the address bar shows the world again, not the lesson
}

// wouldQuit reports whether the key k would quit the model shown.
func (a *app) wouldQuit(k string) bool {
	if a.lesson != nil {
		return a.lesson.WouldQuit(k)
	}
	return a.m.WouldQuit(k)
}

// course_ runs a course button of the page: what is "open" (the lesson
// picker, on the first lesson not done when no lesson is shown), "next"
// or "restart".
func (a *app) course_(what string) {
	switch {
	case what == "open" && a.lesson == nil:
		a.pickFromPlayground()
	case what == "open":
		a.lesson.OpenPicker()
	case a.lesson == nil:
		// next and restart are lesson buttons; the page hides them
		// outside one.
	case what == "next":
		a.lesson.NextLesson()
	case what == "restart":
		a.lesson.Restart()
	}
}

// courseState is what the page's course buttons show: lessons done, the
// lesson shown ("" in the playground) and the one after it.
type courseState struct {
	Done   int    `json:"done"`
	Total  int    `json:"total"`
	Lesson string `json:"lesson"`
	Number int    `json:"number"`
	Next   string `json:"next"`
}

func (a *app) courseState() courseState {
	// In the playground only the lessons' ids are needed: the page asks
	// right after its first frame, and reading the whole course then
	// would hold the first keys back.
	var ids []string
	if a.course == nil {
		ids = lessons.BuiltinIDs()
	} else {
		for _, l := range a.course.Lessons {
			ids = append(ids, l.ID)
		}
	}
	s := courseState{Total: len(ids)}
	if p, _ := (&lessons.KVStore{KV: localKV{}, Key: progressKey}).Load(); p != nil {
		s.Done = p.Done(ids)
	}
	if a.lesson != nil {
		l := a.lesson.Lesson()
		s.Lesson, s.Number = l.ID, l.Number
		if n := a.course.Next(l); n != nil {
			s.Next = n.ID
		}
	}
	return s
}

// leaveLesson goes back to the plain playground (a share link opened
// while a lesson was shown).
func (a *app) leaveLesson() {
	if a.lesson == nil {
		return
	}
	a.top, a.lesson = a.m, nil
}

// localKV is localStorage, as the lessons' progress store wants it.
type localKV struct{}

func (localKV) Get(key string) (string, bool, error) {
	v := js.Global().Get("gcplayStore").Call("get", key)
	if v.Type() != js.TypeString {
		return "", false, nil
	}
	return v.String(), true, nil
}

func (localKV) Set(key, value string) error {
	if !js.Global().Get("gcplayStore").Call("set", key, value).Truthy() {
		return fmt.Errorf("the browser's storage is full or disabled: %s was not saved", key)
	}
	return nil
}
