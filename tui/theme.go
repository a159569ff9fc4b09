package tui

import (
	"fmt"
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Theme names accepted by Options.Theme and `gcplay --theme`.
const (
	ThemeAuto         = "auto" // dark or light, from the terminal's background
	ThemeDark         = "dark"
	ThemeLight        = "light"
	ThemeHighContrast = "high-contrast"
)

// Themes lists the theme names, for flag help and validation.
var Themes = []string{ThemeAuto, ThemeDark, ThemeLight, ThemeHighContrast}

// theme is every style the views use. Nothing is told apart by colour
// alone: each state also has a word or a mark, so NO_COLOR and monochrome
// terminals lose nothing.
type theme struct {
	name                          string
	text, dim, bold               lipgloss.Style
	title, titleFocus             lipgloss.Style
	border, borderFocus           lipgloss.Style
	sel                           lipgloss.Style // the selected row
	changed                       lipgloss.Style // touched by the current record
	terminating, finalizer, edge  lipgloss.Style
	virtual, dangling, cycle      lipgloss.Style
	err, warn, ok, info           lipgloss.Style
	current, future               lipgloss.Style // timeline
	status, statusKey             lipgloss.Style
	queue, due                    lipgloss.Style
	helpKey, helpDesc, helpSep    lipgloss.Style
	cmdPrompt, cmdText, cmdCursor lipgloss.Style
}

// palette is the colours of a themed (not monochrome) theme.
type palette struct {
	fg, dim, accent, accent2, red, yellow, green, magenta, blue, selFg, selBg, changedFg color.Color
}

func newTheme(name string, dark, noColor bool) theme {
	if noColor {
		return monoTheme()
	}
	var p palette
	switch {
	case name == ThemeHighContrast && dark:
		p = palette{fg: lipgloss.Color("#ffffff"), dim: lipgloss.Color("#d0d0d0"), accent: lipgloss.Color("#00ffff"), accent2: lipgloss.Color("#ffff00"),
			red: lipgloss.Color("#ff5f5f"), yellow: lipgloss.Color("#ffff00"), green: lipgloss.Color("#5fff5f"), magenta: lipgloss.Color("#ff87ff"),
			blue: lipgloss.Color("#87d7ff"), selFg: lipgloss.Color("#000000"), selBg: lipgloss.Color("#ffff00"), changedFg: lipgloss.Color("#00ffff")}
	case name == ThemeHighContrast:
		p = palette{fg: lipgloss.Color("#000000"), dim: lipgloss.Color("#303030"), accent: lipgloss.Color("#0000af"), accent2: lipgloss.Color("#870000"),
			red: lipgloss.Color("#af0000"), yellow: lipgloss.Color("#5f3f00"), green: lipgloss.Color("#005f00"), magenta: lipgloss.Color("#870087"),
			blue: lipgloss.Color("#00008b"), selFg: lipgloss.Color("#ffffff"), selBg: lipgloss.Color("#000000"), changedFg: lipgloss.Color("#0000af")}
	case dark:
		p = palette{fg: lipgloss.Color("#d0d0d0"), dim: lipgloss.Color("#808080"), accent: lipgloss.Color("#87afff"), accent2: lipgloss.Color("#d7af5f"),
			red: lipgloss.Color("#ff8787"), yellow: lipgloss.Color("#d7d75f"), green: lipgloss.Color("#87d787"), magenta: lipgloss.Color("#d787d7"),
			blue: lipgloss.Color("#5fafd7"), selFg: lipgloss.Color("#000000"), selBg: lipgloss.Color("#87afff"), changedFg: lipgloss.Color("#ffd75f")}
	default:
		p = palette{fg: lipgloss.Color("#1c1c1c"), dim: lipgloss.Color("#6c6c6c"), accent: lipgloss.Color("#005faf"), accent2: lipgloss.Color("#875f00"),
			red: lipgloss.Color("#af0000"), yellow: lipgloss.Color("#875f00"), green: lipgloss.Color("#005f00"), magenta: lipgloss.Color("#870087"),
			blue: lipgloss.Color("#005f87"), selFg: lipgloss.Color("#ffffff"), selBg: lipgloss.Color("#005faf"), changedFg: lipgloss.Color("#af5f00")}
	}
	hc := name == ThemeHighContrast
	s := lipgloss.NewStyle
	t := theme{
		name:        name,
		text:        s().Foreground(p.fg),
		dim:         s().Foreground(p.dim),
		bold:        s().Foreground(p.fg).Bold(true),
		title:       s().Foreground(p.dim).Bold(true),
		titleFocus:  s().Foreground(p.accent).Bold(true),
		border:      s().Foreground(p.dim),
		borderFocus: s().Foreground(p.accent),
		sel:         s().Foreground(p.selFg).Background(p.selBg).Bold(true),
		changed:     s().Foreground(p.changedFg).Bold(true),
		terminating: s().Foreground(p.red).Bold(true),
		finalizer:   s().Foreground(p.yellow),
		edge:        s().Foreground(p.blue),
		virtual:     s().Foreground(p.magenta).Italic(true),
		dangling:    s().Foreground(p.red).Italic(true),
		cycle:       s().Foreground(p.magenta),
		err:         s().Foreground(p.red).Bold(true),
		warn:        s().Foreground(p.yellow).Bold(true),
		ok:          s().Foreground(p.green),
		info:        s().Foreground(p.fg),
		current:     s().Foreground(p.selFg).Background(p.selBg).Bold(true),
		future:      s().Foreground(p.dim).Italic(true),
		status:      s().Foreground(p.fg),
		statusKey:   s().Foreground(p.accent).Bold(true),
		queue:       s().Foreground(p.accent2).Bold(true),
		due:         s().Foreground(p.dim),
		helpKey:     s().Foreground(p.accent).Bold(true),
		helpDesc:    s().Foreground(p.dim),
		helpSep:     s().Foreground(p.dim),
		cmdPrompt:   s().Foreground(p.accent).Bold(true),
		cmdText:     s().Foreground(p.fg),
		cmdCursor:   s().Reverse(true),
	}
	if hc {
		t.dim = s().Foreground(p.dim).Bold(true)
		t.future = s().Foreground(p.dim).Underline(true)
		t.helpDesc = s().Foreground(p.fg)
		t.border = s().Foreground(p.fg)
		t.title = s().Foreground(p.fg).Bold(true)
		t.due = s().Foreground(p.fg)
	}
	return t
}

// monoTheme uses only bold, faint, italic, underline and reverse video,
// for NO_COLOR.
func monoTheme() theme {
	s := lipgloss.NewStyle
	return theme{
		name: "no-color", text: s(), dim: s().Faint(true), bold: s().Bold(true),
		title: s().Bold(true), titleFocus: s().Bold(true).Underline(true),
		border: s(), borderFocus: s().Bold(true),
		sel: s().Reverse(true), changed: s().Bold(true).Underline(true),
		terminating: s().Bold(true), finalizer: s().Italic(true), edge: s(),
		virtual: s().Italic(true), dangling: s().Italic(true).Underline(true), cycle: s().Italic(true),
		err: s().Bold(true), warn: s().Bold(true), ok: s(), info: s(),
		current: s().Reverse(true), future: s().Faint(true),
		status: s(), statusKey: s().Bold(true), queue: s().Bold(true), due: s().Faint(true),
		helpKey: s().Bold(true), helpDesc: s(), helpSep: s().Faint(true),
		cmdPrompt: s().Bold(true), cmdText: s(), cmdCursor: s().Reverse(true),
	}
}

// helpStyles styles the bubbles help view with the theme.
func (t theme) helpStyles() help.Styles {
	return help.Styles{
		Ellipsis: t.helpSep, ShortKey: t.helpKey, ShortDesc: t.helpDesc, ShortSeparator: t.helpSep,
		FullKey: t.helpKey, FullDesc: t.helpDesc, FullSeparator: t.helpSep,
	}
}

// validTheme checks a theme name.
func validTheme(name string) error {
	for _, t := range Themes {
		if t == name {
			return nil
		}
	}
	return fmt.Errorf("unknown theme %q (themes: auto, dark, light, high-contrast)", name)
}
