package tui

import "charm.land/bubbles/v2/key"

// keyMap is every key of the playground outside the command bar. The help
// view (?) and the short help line are generated from it.
type keyMap struct {
	Step, StepQueue, Advance, Play, Faster, Slower, Run key.Binding
	Back, BackFull, Forward, Undo                       key.Binding
	Delete, CreateDep, Create, Finalizer                key.Binding
	Explain, BreakOrphan, BreakWatch                    key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom, Enter      key.Binding
	NextPane, PrevPane                                  key.Binding
	Command, Help, Esc, Quit, Panes                     key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Step:        b([]string{"s", "space"}, "s", "step"),
		Panes:       b([]string{"tab"}, "tab", "panes"),
		StepQueue:   b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "step from queue N"),
		Advance:     b([]string{"t"}, "t", "advance clock to next due"),
		Play:        b([]string{"p"}, "p", "play"),
		Faster:      b([]string{"+", "="}, "+/-", "autoplay speed"),
		Slower:      b([]string{"-", "_"}, "-", "slower"),
		Run:         b([]string{"r"}, "r", "run"),
		Back:        b([]string{"left", "h", "["}, "←→", "time"),
		BackFull:    b([]string{"left", "h", "["}, "← h", "back one step"),
		Forward:     b([]string{"right", "l", "]"}, "→ l", "forward one step"),
		Undo:        b([]string{"u"}, "u", "undo"),
		Delete:      b([]string{"d"}, "d", "delete"),
		CreateDep:   b([]string{"c"}, "c", "add dependent"),
		Create:      b([]string{"n"}, "n", "new object"),
		Finalizer:   b([]string{"f"}, "f", "edit finalizer"),
		Explain:     b([]string{"e"}, "e", "explain record"),
		BreakOrphan: b([]string{"B"}, "B", "break on attemptToOrphan"),
		BreakWatch:  b([]string{"b"}, "b", "break when selected changes"),
		Up:          b([]string{"up", "k"}, "↑↓ jk", "select / scroll"),
		Down:        b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:      b([]string{"pgup", "ctrl+u"}, "pgup pgdn", "page"),
		PageDown:    b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:         b([]string{"home", "g"}, "g G", "top, bottom"),
		Bottom:      b([]string{"end", "G"}, "G", "bottom"),
		Enter:       b([]string{"enter"}, "enter", "timeline: go there"),
		NextPane:    b([]string{"tab"}, "tab", "next pane"),
		PrevPane:    b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Command:     b([]string{":"}, ":", "command"),
		Help:        b([]string{"?"}, "?", "help"),
		Esc:         b([]string{"esc"}, "esc", "close / stop"),
		Quit:        b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// ShortHelp is the one-line help under the command bar.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Step, k.Run, k.Play, k.Back, k.Undo, k.Delete, k.CreateDep, k.Command, k.Panes, k.Help, k.Quit}
}

// NarrowHelp is the short help for terminals narrower than wideWidth.
func (k keyMap) NarrowHelp() []key.Binding {
	return []key.Binding{k.Step, k.Run, k.Back, k.Undo, k.Delete, k.Command, k.Panes, k.Help, k.Quit}
}

// FullHelp is the help view, one column per group.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Step, k.StepQueue, k.Advance, k.Run, k.Play, k.Faster},
		{k.BackFull, k.Forward, k.Undo, k.Explain, k.BreakOrphan, k.BreakWatch},
		{k.Delete, k.CreateDep, k.Create, k.Finalizer, k.Command},
		{k.Up, k.PageUp, k.Top, k.Enter, k.NextPane, k.PrevPane, k.Esc, k.Help, k.Quit},
	}
}

// helpGroup is a named column of extra keys for the help view (a lesson
// adds its own).
type helpGroup struct {
	name string
	keys []key.Binding
}

// helpGroups names the columns of FullHelp.
var helpGroups = []string{"Step the collector", "Move in time", "Change the world", "Move around"}
