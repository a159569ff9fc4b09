//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/scenario"
	"github.com/gcplay/gcplay/share"
	"github.com/gcplay/gcplay/tui"
)

// persistDelay is how long the world must stay unchanged before it is
// written to localStorage and the address bar (a run of steps is written
// once, when it ends; the page also asks for a write when it is closed).
const persistDelay = 200 * time.Millisecond

// app is the browser's Bubble Tea model: the terminal playground itself
// (tui.Model, unchanged), plus what only the page needs: keeping the world
// in localStorage and in the URL fragment as a share link, opening links,
// and running the commands behind the page's buttons.
type app struct {
	m     *tui.Model
	files *webFiles

	// origin is the scenario the world started from, and originSrc its
	// source, which a share link carries.
	origin    *scenario.Scenario
	originSrc []byte
	// version is the world's version when it was last scheduled for
	// writing; gen tells the latest scheduled write from older ones.
	version, gen int
}

// Messages from the page.
type (
	persistMsg    struct{ gen int }
	commandMsg    struct{ line string }
	openLinkMsg   struct{ text string }
	openLessonMsg struct{ name string }
)

func (a *app) Init() tea.Cmd { return a.m.Init() }

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
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
		a.openLink(msg.text, "link")
	case openLessonMsg:
		a.openLesson(msg.name)
	default:
		_, cmd = a.m.Update(msg)
	}
	a.trackOrigin()
	if v := a.m.Version(); v != a.version {
		a.version = v
		a.gen++
		gen := a.gen
		cmd = tea.Batch(cmd, tea.Tick(persistDelay, func(time.Time) tea.Msg { return persistMsg{gen: gen} }))
	}
	return a, cmd
}

func (a *app) View() tea.View { return a.m.View() }

// trackOrigin notices a newly loaded scenario and keeps its source.
func (a *app) trackOrigin() {
	origin, _, _ := a.m.Timeline()
	if origin == a.origin {
		return
	}
	a.origin, a.originSrc = origin, nil
	if name, src := tui.StarterScenario(); origin.File == name {
		a.originSrc = src
	} else if src, ok := a.files.sources[origin.File]; ok {
		a.originSrc = src
	}
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
	js.Global().Call("onGoWorld", text)
}

// openLink restores a world from a link's text; from says where the text
// came from ("link" or "saved"). It reports whether it worked; when not,
// the message line says why and the world is unchanged.
func (a *app) openLink(text, from string) bool {
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
		return false
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
	if o.Note != "" {
		a.m.Notify(msg, true)
	}
	a.origin, a.originSrc = o.Origin, []byte(l.Scenario)
	return true
}

func describe(file string) string {
	if name, _ := tui.StarterScenario(); file == name {
		return "the starter world"
	}
	return file
}

// openLesson opens a lesson by name, for #lesson=NAME links.
//
// TODO(lessons): package lessons is not part of the playground yet. When
// the playground can open a lesson, call that here.
func (a *app) openLesson(name string) {
	a.m.Notify(fmt.Sprintf("This link opens the lesson %q, but this build of gcplay has no lessons yet: here is the playground on its starter world instead.", name), true)
}
