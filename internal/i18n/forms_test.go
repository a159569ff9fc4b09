package i18n

import (
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNotePatternsAreRegexp holds the note forms' expressions (matched by
// internal/lazyre) to regexp's answers on notes made of the forms with
// values put in: plain words, empty, with spaces, newlines and invalid
// bytes, other forms' English text (a value that is itself a phrase), and
// the forms' own pieces, with pieces cut off or added at either end.
func TestNotePatternsAreRegexp(t *testing.T) {
	notesOnce.Do(loadNotes)
	if len(notePatterns) < 20 {
		t.Fatalf("only %d note patterns", len(notePatterns))
	}
	var forms []string
	for _, p := range notePatterns {
		forms = append(forms, p.form)
	}
	values := []string{"", "x", "Pod/web-0", "a b", "x\ny", "\xff", "é", "%s", "(1)", "3"}
	for _, f := range forms[:10] {
		values = append(values, fill(f, []string{"v", "w", "u"}))
	}
	r := rand.New(rand.NewSource(1))
	checked := 0
	for _, p := range notePatterns {
		std := regexp.MustCompile(p.re.String())
		for range 300 {
			f := forms[r.Intn(len(forms))]
			if r.Intn(2) == 0 {
				f = p.form
			}
			vals := make([]string, 6)
			for i := range vals {
				vals[i] = values[r.Intn(len(values))]
			}
			s := fill(f, vals)
			switch r.Intn(6) {
			case 0:
				s = s[r.Intn(len(s)+1):]
			case 1:
				s = s[:r.Intn(len(s)+1)]
			case 2:
				s += values[r.Intn(len(values))]
			}
			got, want := p.re.FindStringSubmatch(s), std.FindStringSubmatch(s)
			if !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("`%s` on %q: %q, regexp's %q", p.re, s, got, want)
			}
			if want != nil {
				checked++
			}
		}
	}
	if checked < len(notePatterns)*50 {
		t.Fatalf("only %d notes matched", checked)
	}
}

// fill puts values at a form's fmt verbs, as the engine writes a note.
func fill(form string, values []string) string {
	var b strings.Builder
	k := 0
	for {
		i := strings.IndexByte(form, '%')
		if i < 0 || i+1 >= len(form) {
			b.WriteString(form)
			return b.String()
		}
		b.WriteString(form[:i])
		b.WriteString(values[k%len(values)])
		k++
		form = form[i+2:]
	}
}
