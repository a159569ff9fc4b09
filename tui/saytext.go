package tui

import (
	"errors"

	"github.com/gcplay/gcplay/engine"
)

// textError is an error of the playground's own, in its one text form:
// an English form and its values (engine.Text), which the playground's
// language words (forms/<lang>.yaml in internal/i18n). A usage error is
// a command used the wrong way: the message adds the command's usage.
type textError struct {
	engine.Text
	usage bool
}

func (e *textError) Error() string { return e.String() }

// errorf is an error of the playground: as fmt.Errorf, worded in the
// playground's language when shown (no %w: it wraps nothing).
func errorf(form string, args ...any) error { return &textError{Text: engine.Say(form, args...)} }

// usagef is errorf for a command used the wrong way.
func usagef(form string, args ...any) error {
	return &textError{Text: engine.Say(form, args...), usage: true}
}

// errWords is err in the playground's language: a textError's words,
// else err's own text.
func (m *Model) errWords(err error) string {
	if te, ok := err.(*textError); ok {
		args := make([]string, len(te.Args))
		for i, a := range te.Args {
			args[i] = a
			for j := range commands {
				if commands[j].usage == a {
					args[i] = m.usageWords(commands[j])
				}
			}
		}
		if w, ok := m.tr.Say(te.Form, args); ok {
			return w
		}
	}
	// kubectl's errors as the engine gives them (rollout undo's).
	var ke *engine.TextError
	if errors.As(err, &ke) {
		if w, ok := m.tr.Say(ke.Form, ke.Args); ok {
			return w
		}
	}
	return err.Error()
}

// usageWords is a command's usage in the playground's language: the
// syntax stays, what it does is in the language's words.
func (m *Model) usageWords(c *command) string {
	if w, ok := m.tr.Say(c.usage, nil); ok {
		return w
	}
	return c.usage
}

// sayMsg shows a message of the playground in its language: form filled
// with args as fmt fills them, in the words of forms/<lang>.tui.yaml.
func (m *Model) sayMsg(kind msgKind, form string, args ...any) {
	m.setMsg(kind, m.sayText(form, args...))
}

// sayText is form filled with args as fmt fills them, in the words of
// forms/<lang>.tui.yaml.
func (m *Model) sayText(form string, args ...any) string {
	t := engine.Say(form, args...)
	if w, ok := m.tr.Say(t.Form, t.Args); ok {
		return w
	}
	return t.String()
}
