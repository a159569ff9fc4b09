package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Text is one sentence of a reason in its one text form: an English
// form, with fmt verbs (%s, %d, %v, %q), and the values that fill them,
// each already written as its verb writes it. A language words the form
// in its own and puts the same values in; English fills the form
// (String), which is byte for byte what fmt.Sprintf(form, values...)
// gave.
type Text struct {
	Form string
	Args []string
}

// say is a Text: form filled with args as fmt would fill them.
func say(form string, args ...any) Text {
	t := Text{Form: form}
	if len(args) > 0 {
		t.Args = make([]string, len(args))
		fillArgs(t.Args, form, args)
	}
	return t
}

// fillArgs writes args as form's verbs write them into out: a string, an
// int, a Stringer or an error as themselves without fmt (a cascade
// writes a reason per object), anything else through fmt.
func fillArgs(out []string, form string, args []any) {
	k := 0
	for i := 0; i < len(form) && k < len(args); i++ {
		if form[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(form) && strings.IndexByte("+-# 0123456789.", form[j]) >= 0 {
			j++
		}
		if j >= len(form) {
			break
		}
		if form[j] == '%' {
			i = j
			continue
		}
		spec, a := form[i:j+1], args[k]
		switch v := a.(type) {
		case string:
			if spec == "%s" || spec == "%v" {
				out[k] = v
			} else {
				out[k] = fmt.Sprintf(spec, a)
			}
		case int:
			if spec == "%d" || spec == "%v" {
				out[k] = strconv.Itoa(v)
			} else {
				out[k] = fmt.Sprintf(spec, a)
			}
		case error:
			if spec == "%v" || spec == "%s" {
				out[k] = v.Error()
			} else {
				out[k] = fmt.Sprintf(spec, a)
			}
		case fmt.Stringer:
			if spec == "%s" || spec == "%v" {
				out[k] = v.String()
			} else {
				out[k] = fmt.Sprintf(spec, a)
			}
		default:
			out[k] = fmt.Sprintf(spec, a)
		}
		k++
		i = j
	}
}

// verbs returns the fmt verbs of form in order ("%s", "%3d"), without
// the literal %%.
func verbs(form string) []string {
	var out []string
	for i := 0; i < len(form); i++ {
		if form[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(form) && strings.IndexByte("+-# 0123456789.", form[j]) >= 0 {
			j++
		}
		if j >= len(form) {
			break
		}
		if form[j] != '%' {
			out = append(out, form[i:j+1])
		}
		i = j
	}
	return out
}

// Fill writes form with its verbs replaced by args in order (and %% by
// %): the form's English when form is a Text's Form, or a language's
// words for it when form is written with the same verbs.
func Fill(form string, args []string) string {
	if len(args) == 0 && strings.IndexByte(form, '%') < 0 {
		return form
	}
	// The form and every value: at least the sentence's length, so the
	// builder allocates once (a Pod's reference is longer than a guess).
	n := len(form)
	for _, a := range args {
		n += len(a)
	}
	var b strings.Builder
	b.Grow(n)
	k := 0
	for i := 0; i < len(form); i++ {
		if form[i] != '%' {
			b.WriteByte(form[i])
			continue
		}
		j := i + 1
		for j < len(form) && strings.IndexByte("+-# 0123456789.", form[j]) >= 0 {
			j++
		}
		if j >= len(form) {
			b.WriteString(form[i:])
			break
		}
		if form[j] == '%' {
			b.WriteByte('%')
		} else if k < len(args) {
			b.WriteString(args[k])
			k++
		}
		i = j
	}
	return b.String()
}

// String is the sentence in English.
func (t Text) String() string { return Fill(t.Form, t.Args) }

// Say gives r the one sentence form filled with args: its Texts, and
// Message, their English.
func (r Reason) Say(form string, args ...any) Reason {
	if len(args) <= 4 {
		// One allocation for the sentence and its values.
		p := &struct {
			t [1]Text
			a [4]string
		}{}
		fillArgs(p.a[:len(args)], form, args)
		p.t[0] = Text{Form: form, Args: p.a[:len(args):len(args)]}
		r.Texts = p.t[:]
	} else {
		r.Texts = []Text{say(form, args...)}
	}
	r.Message = r.Texts[0].String()
	return r
}

// Saying gives r the sentences ts, one after the other (a separator is
// a sentence of its own, such as "; ").
func (r Reason) Saying(ts ...Text) Reason {
	r.Texts = ts
	r.Message = English(ts)
	return r
}

// and adds a sentence to r: form filled with args, after the ones it
// has.
func (r *Reason) and(form string, args ...any) {
	t := say(form, args...)
	r.Texts = append(r.Texts, t)
	r.Message += t.String()
}

// also adds the sentences ts to r, after the ones it has.
func (r *Reason) also(ts ...Text) {
	r.Texts = append(r.Texts, ts...)
	r.Message += English(ts)
}

// English is ts in English, one after the other: a reason's Message.
func English(ts []Text) string {
	if len(ts) == 1 {
		return ts[0].String()
	}
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String())
	}
	return b.String()
}

// Render writes ts in a language: words gives a sentence in it, from its
// English form and its values, or ok false where the language has none,
// and the sentence's English stands.
func Render(ts []Text, words func(form string, args []string) (string, bool)) string {
	var b strings.Builder
	for _, t := range ts {
		if w, ok := words(t.Form, t.Args); ok {
			b.WriteString(w)
		} else {
			b.WriteString(t.String())
		}
	}
	return b.String()
}

// joinTexts is parts with the sentence sep between each two.
func joinTexts(parts []Text, sep string) []Text {
	if len(parts) <= 1 {
		return parts
	}
	out := make([]Text, 0, 2*len(parts)-1)
	for i, p := range parts {
		if i > 0 {
			out = append(out, Text{Form: sep})
		}
		out = append(out, p)
	}
	return out
}

// textSlab hands out one-sentence Texts carved from larger blocks: the
// graph builder writes one for nearly every event of a cascade, and one
// allocation per sentence would be most of the step's garbage.
type textSlab struct {
	t []Text
	a []string
}

const textSlabSize = 256

// said is the one sentence form with the values args, already written
// (often slices of the Message they fill, so no byte is copied).
func (s *textSlab) said(form string, args ...string) []Text {
	if len(s.t) == 0 {
		s.t = make([]Text, textSlabSize)
	}
	if len(s.a) < len(args) {
		s.a = make([]string, max(textSlabSize, len(args)))
	}
	a := s.a[:len(args):len(args)]
	copy(a, args)
	s.a = s.a[len(args):]
	t := s.t[:1:1]
	t[0] = Text{Form: form, Args: a}
	s.t = s.t[1:]
	return t
}

// say1 is the one sentence say(form, args...).
func say1(form string, args ...any) []Text { return []Text{say(form, args...)} }

// checkTexts reports a reason whose Texts are not its Message: a
// sentence written without its one text form, which a language could
// not render.
func (r Reason) checkTexts() error {
	if got := English(r.Texts); got != r.Message {
		return fmt.Errorf("reason %s: its texts read %q, its message %q", r.Code, got, r.Message)
	}
	return nil
}

// In is r's sentence in a language (see Render): Message where words is
// nil or r has no sentences.
func (r Reason) In(words func(form string, args []string) (string, bool)) string {
	if words == nil || len(r.Texts) == 0 {
		return r.Message
	}
	return Render(r.Texts, words)
}

// Say is a sentence in its one text form, outside a reason: form filled
// with args as fmt fills them, kept with its values so a language can
// word it (the playground's messages use it too).
func Say(form string, args ...any) Text { return say(form, args...) }

// TextError is an error kubectl (or the engine for it) gives, in its one
// text form, so a playground in another language can word it
// (forms/<lang>.yaml in internal/i18n); its Error is the English.
type TextError struct{ Text }

func (e *TextError) Error() string { return e.String() }

// errSay is a TextError: form filled with args as fmt would fill them.
func errSay(form string, args ...any) error { return &TextError{Text: say(form, args...)} }
