package tui

import (
	"image/color"
	"strings"

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
	text, dim, bold               ink
	title, titleFocus             ink
	border, borderFocus           ink
	sel                           ink // the selected row
	changed                       ink // touched by the current record
	terminating, finalizer, edge  ink
	virtual, dangling, cycle      ink
	err, warn, ok, info           ink
	current, future               ink // timeline
	status, statusKey             ink
	queue, due                    ink
	helpKey, helpDesc, helpSep    ink
	cmdPrompt, cmdText, cmdCursor ink
}

// ink is a style with its escape codes worked out once: drawing a run of
// text is then two concatenations, not a lipgloss Render per run (which
// dominated the cost of a frame).
type ink struct {
	lipgloss.Style
	pre, post string
}

func newInk(s lipgloss.Style) ink {
	r := s.Render("x")
	i := strings.IndexByte(r, 'x')
	if i < 0 {
		return ink{Style: s}
	}
	return ink{Style: s, pre: r[:i], post: r[i+1:]}
}

// Render draws s in the style (s must be one line of plain text).
func (k ink) Render(s string) string {
	if k.pre == "" && k.post == "" {
		return s
	}
	return k.pre + s + k.post
}

// writeTo writes s in the style to b, as Render would return it.
func (k *ink) writeTo(b *strings.Builder, s string) {
	b.WriteString(k.pre)
	b.WriteString(s)
	b.WriteString(k.post)
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
		text:        newInk(s().Foreground(p.fg)),
		dim:         newInk(s().Foreground(p.dim)),
		bold:        newInk(s().Foreground(p.fg).Bold(true)),
		title:       newInk(s().Foreground(p.dim).Bold(true)),
		titleFocus:  newInk(s().Foreground(p.accent).Bold(true)),
		border:      newInk(s().Foreground(p.dim)),
		borderFocus: newInk(s().Foreground(p.accent)),
		sel:         newInk(s().Foreground(p.selFg).Background(p.selBg).Bold(true)),
		changed:     newInk(s().Foreground(p.changedFg).Bold(true)),
		terminating: newInk(s().Foreground(p.red).Bold(true)),
		finalizer:   newInk(s().Foreground(p.yellow)),
		edge:        newInk(s().Foreground(p.blue)),
		virtual:     newInk(s().Foreground(p.magenta).Italic(true)),
		dangling:    newInk(s().Foreground(p.red).Italic(true)),
		cycle:       newInk(s().Foreground(p.magenta)),
		err:         newInk(s().Foreground(p.red).Bold(true)),
		warn:        newInk(s().Foreground(p.yellow).Bold(true)),
		ok:          newInk(s().Foreground(p.green)),
		info:        newInk(s().Foreground(p.fg)),
		current:     newInk(s().Foreground(p.selFg).Background(p.selBg).Bold(true)),
		future:      newInk(s().Foreground(p.dim).Italic(true)),
		status:      newInk(s().Foreground(p.fg)),
		statusKey:   newInk(s().Foreground(p.accent).Bold(true)),
		queue:       newInk(s().Foreground(p.accent2).Bold(true)),
		due:         newInk(s().Foreground(p.dim)),
		helpKey:     newInk(s().Foreground(p.accent).Bold(true)),
		helpDesc:    newInk(s().Foreground(p.dim)),
		helpSep:     newInk(s().Foreground(p.dim)),
		cmdPrompt:   newInk(s().Foreground(p.accent).Bold(true)),
		cmdText:     newInk(s().Foreground(p.fg)),
		cmdCursor:   newInk(s().Reverse(true)),
	}
	if hc {
		t.dim = newInk(s().Foreground(p.dim).Bold(true))
		t.future = newInk(s().Foreground(p.dim).Underline(true))
		t.helpDesc = newInk(s().Foreground(p.fg))
		t.border = newInk(s().Foreground(p.fg))
		t.title = newInk(s().Foreground(p.fg).Bold(true))
		t.due = newInk(s().Foreground(p.fg))
	}
	return t
}

// monoTheme uses only bold, faint, italic, underline and reverse video,
// for NO_COLOR.
func monoTheme() theme {
	s := lipgloss.NewStyle
	return theme{
		name: "no-color", text: newInk(s()), dim: newInk(s().Faint(true)), bold: newInk(s().Bold(true)),
		title: newInk(s().Bold(true)), titleFocus: newInk(s().Bold(true).Underline(true)),
		border: newInk(s()), borderFocus: newInk(s().Bold(true)),
		sel: newInk(s().Reverse(true)), changed: newInk(s().Bold(true).Underline(true)),
		terminating: newInk(s().Bold(true)), finalizer: newInk(s().Italic(true)), edge: newInk(s()),
		virtual: newInk(s().Italic(true)), dangling: newInk(s().Italic(true).Underline(true)), cycle: newInk(s().Italic(true)),
		err: newInk(s().Bold(true)), warn: newInk(s().Bold(true)), ok: newInk(s()), info: newInk(s()),
		current: newInk(s().Reverse(true)), future: newInk(s().Faint(true)),
		status: newInk(s()), statusKey: newInk(s().Bold(true)), queue: newInk(s().Bold(true)), due: newInk(s().Faint(true)),
		helpKey: newInk(s().Bold(true)), helpDesc: newInk(s()), helpSep: newInk(s().Faint(true)),
		cmdPrompt: newInk(s().Bold(true)), cmdText: newInk(s()), cmdCursor: newInk(s().Reverse(true)),
	}
}

// helpStyles styles the bubbles help view with the theme.
func (t theme) helpStyles() help.Styles {
	return help.Styles{
		Ellipsis: t.helpSep.Style, ShortKey: t.helpKey.Style, ShortDesc: t.helpDesc.Style, ShortSeparator: t.helpSep.Style,
		FullKey: t.helpKey.Style, FullDesc: t.helpDesc.Style, FullSeparator: t.helpSep.Style,
	}
}

// validTheme checks a theme name.
func validTheme(name string) error {
	for _, t := range Themes {
		if t == name {
			return nil
		}
	}
	return errorf("unknown theme %q (themes: auto, dark, light, high-contrast)", name)
}
