package tui

import (
	"strings"

	"github.com/gcplay/gcplay/internal/locale"

	"charm.land/bubbles/v2/key"
)

// keyMap is every key of the playground outside the command bar and the
// overlays, one key map per component (components.go). The help view (?)
// and the short help line are generated from the components' actions
// (actions.go), which bind these keys.
type keyMap struct {
	collectorKeys
	timelineKeys
	worldKeys
	paneKeys
	globalKeys
}

// collectorKeys step the collector and the controllers: the collector pane's keys.
type collectorKeys struct {
	Step, StepQueue, Advance, Run, Play, Faster, Slower, BreakOrphan key.Binding
}

// timelineKeys move along the timeline and explain its records: the timeline's keys.
type timelineKeys struct {
	BackFull, Forward, Undo, Explain, Enter key.Binding
}

// worldKeys act on the object selected in the world tree: the world tree's keys.
type worldKeys struct {
	Delete, CreateDep, Create, Finalizer, BreakWatch key.Binding
}

// paneKeys move within a pane (select in the world tree, move the timeline's
// cursor, scroll the collector and the inspector) and between panes.
type paneKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom, NextPane, PrevPane key.Binding
}

// globalKeys work whatever pane has the focus.
type globalKeys struct {
	Command, Help, Esc, Quit, ForceQuit key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		collectorKeys: collectorKeys{
			Step:        b([]string{"s", "space"}, "s", "step"),
			StepQueue:   b(stepQueueKeys, "1-9", "step from queue N"),
			Advance:     b([]string{"t"}, "t", "advance clock to next due"),
			Run:         b([]string{"r"}, "r", "run"),
			Play:        b([]string{"p"}, "p", "play"),
			Faster:      b([]string{"+", "="}, "+/-", "autoplay speed"),
			Slower:      b([]string{"-", "_"}, "-", "slower"),
			BreakOrphan: b([]string{"B"}, "B", "break on attemptToOrphan"),
		},
		timelineKeys: timelineKeys{
			BackFull: b([]string{"left", "h", "["}, "← h", "back one step"),
			Forward:  b([]string{"right", "l", "]"}, "→ l", "forward one step"),
			Undo:     b([]string{"u"}, "u", "undo"),
			Explain:  b([]string{"e"}, "e", "explain record"),
			Enter:    b([]string{"enter"}, "enter", "timeline: go there"),
		},
		worldKeys: worldKeys{
			Delete:     b([]string{"d"}, "d", "delete"),
			CreateDep:  b([]string{"c"}, "c", "add dependent"),
			Create:     b([]string{"n"}, "n", "new object"),
			Finalizer:  b([]string{"f"}, "f", "edit finalizer"),
			BreakWatch: b([]string{"b"}, "b", "break when selected changes"),
		},
		paneKeys: paneKeys{
			Up:       b([]string{"up", "k"}, "↑↓ jk", "select / scroll"),
			Down:     b([]string{"down", "j"}, "↓/j", "down"),
			PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup pgdn", "page"),
			PageDown: b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
			Top:      b([]string{"home", "g"}, "g G", "top, bottom"),
			Bottom:   b([]string{"end", "G"}, "G", "bottom"),
			NextPane: b([]string{"tab"}, "tab", "next pane"),
			PrevPane: b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		},
		globalKeys: globalKeys{
			Command: b([]string{":"}, ":", "command"),
			Help:    b([]string{"?"}, "?", "help"),
			Esc:     b([]string{"esc"}, "esc", "close / stop"),
			Quit:    b([]string{"q"}, "q", "quit"),
			// ForceQuit works in every view, overlays and the command bar
			// too, where q is theirs.
			ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		},
	}
}

// helpGroup is a named column of extra keys for the help view (a lesson
// adds its own).
type helpGroup struct {
	name string
	keys []key.Binding
}

// helpGroups names the columns of the help view (fullHelp).
var helpGroups = []string{"Step the collector", "Move in time", "Change the world", "Move around"}

// bind builds a binding: the keys that trigger it, and its name and
// description in help and hints.
func bind(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// kn is how a sentence on screen names a binding's key: its help name,
// so a hint always names the key that works.
func kn(b key.Binding) string { return b.Help().Key }

// keyHints joins bindings as "key desc · key desc", the form of every
// footer and key line drawn from a key map.
func keyHints(bs ...key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		if turnedOff(b) {
			continue
		}
		h := b.Help()
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, " · ")
}

// turnedOff reports whether b is a key this view turned off (the page's
// q); a hint with no key of its own ("P predict first") is not.
func turnedOff(b key.Binding) bool { return len(b.Keys()) > 0 && !b.Enabled() }

// keyHints is keyHints in the playground's language.
func (m *Model) keyHints(bs ...key.Binding) string { return keyHints(m.trKeys(bs)...) }

// trKeys returns bs with their descriptions in the playground's language
// (the keys stay as they are).
func (m *Model) trKeys(bs []key.Binding) []key.Binding {
	if m.tr.Lang() == locale.Default {
		return bs
	}
	out := make([]key.Binding, len(bs))
	for i, b := range bs {
		h := b.Help()
		out[i] = key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(h.Key, m.tr.UI(h.Desc)))
		out[i].SetEnabled(b.Enabled())
	}
	return out
}

// commandKeyMap is the command bar's keys (typing goes to the line).
type commandKeyMap struct{ Run, Complete, History, Clear, Cancel, Edit key.Binding }

var commandKeys = commandKeyMap{
	Run:      bind("enter", "run", "enter"),
	Complete: bind("tab", "complete", "tab"),
	History:  bind("↑↓", "history", "up", "down"),
	Clear:    bind("ctrl+u", "clear", "ctrl+u"),
	Cancel:   bind("esc", "cancel", "esc"),
	// Edit is the line editor's keys (lineEditor.edit), as a shell has them.
	Edit: bind("←→ ⌫", "edit", "left", "right", "home", "end", "backspace", "delete",
		"ctrl+a", "ctrl+e", "ctrl+b", "ctrl+f", "ctrl+h", "ctrl+d", "ctrl+k", "ctrl+w", "alt+backspace"),
}

func (k commandKeyMap) bindings() []key.Binding {
	return []key.Binding{k.Run, k.Complete, k.History, k.Clear, k.Cancel, k.Edit}
}

// pickerKeyMap is the delete picker's keys.
type pickerKeyMap struct{ Delete, Number, Letter, Choose, Cancel key.Binding }

var pickerKeys = pickerKeyMap{
	Delete: bind("enter", "delete", "enter"),
	Number: bind("1-4", "choose and delete", "1", "2", "3", "4"),
	Letter: bind("f b o", "by policy", "f", "b", "o"),
	Choose: bind("↑↓", "choose", "up", "down", "k", "j", "tab"),
	Cancel: bind("esc", "cancel", "esc", "q", "d"),
}

func (k pickerKeyMap) bindings() []key.Binding {
	return []key.Binding{k.Delete, k.Number, k.Letter, k.Choose, k.Cancel}
}

// overlayKeyMap is the keys of the playground's help and explain views,
// and the scrolling and closing keys of the lesson's overlays.
type overlayKeyMap struct{ Scroll, Page, Close, PrevNext key.Binding }

var overlayKeys = overlayKeyMap{
	Scroll:   bind("↑↓", "scroll", "up", "down", "k", "j"),
	Page:     bind("pgup pgdn", "page", "pgup", "pgdown", "space"),
	Close:    bind("esc", "close", "esc", "q", "?", "e", "enter"),
	PrevNext: bind("←→", "previous/next step", "left", "right", "h", "l"),
}

// lessonKeyMap is the keys a lesson adds to the playground (upper case,
// so they do not clash with the playground's own).
type lessonKeyMap struct {
	Hint, Predict, Solution, Text, Restart, Lessons, Next, HandIn key.Binding
}

var lessonKeys = lessonKeyMap{
	Hint:     bind("H", "next hint", "H"),
	Predict:  bind("P", "predict, then run", "P"),
	Solution: bind("A", "the answer (replayable)", "A"),
	Text:     bind("I", "the lesson's text again", "I"),
	Restart:  bind("R", "restart the lesson", "R"),
	Lessons:  bind("L", "all lessons", "L"),
	Next:     bind("N", "next lesson", "N"),
	HandIn:   bind("W", "write a hand-in file", "W"),
}

func (k lessonKeyMap) bindings() []key.Binding {
	return []key.Binding{k.Hint, k.Predict, k.Solution, k.Text, k.Restart, k.Lessons, k.Next, k.HandIn}
}

// lessonOverlayKeyMap is the keys of the lesson's overlays: each overlay
// uses some of them (overlayBindings lists which).
type lessonOverlayKeyMap struct {
	Start, Choose, Top, Bottom, Open, Back, Quit key.Binding
	Replay                                       key.Binding
	Survives, Orphaned, Deleted, Terminating     key.Binding
	RunPrediction, NextLesson                    key.Binding
	Scroll, Page, Close                          key.Binding
}

var lessonOverlayKeys = lessonOverlayKeyMap{
	Start:         bind("enter", "start", "enter"),
	Choose:        bind("↑↓", "choose", "up", "down", "k", "j", "tab"),
	Top:           bind("g", "first", "g", "home"),
	Bottom:        bind("G", "last", "G", "end"),
	Open:          bind("enter", "open", "enter"),
	Back:          bind("esc", "back", "esc", "L"),
	Quit:          bind("q", "quit", "q"),
	Replay:        bind("enter", "replay the next step", "enter", "space"),
	Survives:      bind("s", "survives", "s", "1"),
	Orphaned:      bind("o", "orphaned (kept, owner reference gone)", "o", "2"),
	Deleted:       bind("d", "deleted", "d", "3"),
	Terminating:   bind("t", "stays terminating", "t", "4"),
	RunPrediction: bind("enter", "run", "enter"),
	NextLesson:    bind("N", "next lesson", "N", "n"),
	Scroll:        bind("↑↓", "scroll", "up", "down", "k", "j"),
	Page:          bind("pgup pgdn", "page", "pgup", "pgdown", "space"),
	Close:         bind("esc", "back to the world", "esc", "q"),
}

// viewKeys is every key that works in the playground's current view, in
// the order help lists them.
func (m *Model) viewKeys() []key.Binding {
	if m.mode != modeNormal {
		return bindingsOf(m.modeActions())
	}
	var out []key.Binding
	if m.extraHelp.name != "" {
		out = append(out, m.extraHelp.keys...)
	}
	for _, g := range m.fullHelp() {
		out = append(out, g...)
	}
	// The short help's bindings name some keys more briefly ("←→ time").
	return append(out, m.shortHelp(true)...)
}

// overlayScrolls reports whether the open overlay's text is longer than
// its window (with the footer naming every key it could have).
func (m *Model) overlayScrolls() bool {
	w, maxH := overlayBox(m.layout())
	c := m.overlayContentWith(w-3, bindingsOf(m.overlayActions(true)))
	return len(c.body) > maxH-2-len(c.footer)
}

// viewKeys is every key that works in the lesson's current view: the open
// overlay's, or the lesson's and the playground's.
func (m *LessonModel) viewKeys() []key.Binding {
	if m.over != overNone {
		return m.overlayBindings()
	}
	if m.pg.mode != modeNormal {
		return m.pg.viewKeys()
	}
	return append(lessonKeys.bindings(), m.pg.viewKeys()...)
}

// helpLineKeys is the keys the help line at the foot of the screen names:
// the open overlay's, or the playground's help line.
func (m *LessonModel) helpLineKeys() []key.Binding {
	if m.over != overNone {
		return joinSameDesc(m.viewKeys())
	}
	return m.pg.helpLineKeys(m.pg.layout().w)
}

// stepQueueKeys are StepQueue's keys, the i-th stepping the i-th queue.
// queueKey reads them here, not from a new key map: the collector pane
// asks for a queue's key on every frame, for every queue.
var stepQueueKeys = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

// queueKey is the key that steps the i-th queue (from 0): StepQueue's
// keys, "1" to "9"; "" for a queue past them.
func queueKey(i int) string {
	ks := stepQueueKeys
	if i < 0 || i >= len(ks) {
		return ""
	}
	return ks[i]
}
