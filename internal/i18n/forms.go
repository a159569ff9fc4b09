package i18n

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/internal/lazyre"
)

// A step's reason is sentences in their one text form: an English form
// with fmt verbs (%s, %d), and its values (engine.Text). forms/<lang>.yaml
// has a language's words for each English form, with {1}, {2}... where
// the form's values go, in the form's order: the values are the same in
// every language (object names, counts, durations, the apiserver's own
// error text), only the words around them change. The engine's tests
// check that every form the engine can write has words here.

//go:embed forms/*.yaml
var formFiles embed.FS

var (
	formsOnce   sync.Once
	formsByLang map[string]map[string]string
	formsByFile map[string][]string
)

func loadForms() {
	formsByLang = map[string]map[string]string{}
	formsByFile = map[string][]string{}
	names, _ := formFiles.ReadDir("forms")
	for _, n := range names {
		data, err := formFiles.ReadFile(path.Join("forms", n.Name()))
		if err != nil {
			panic(err)
		}
		m := map[string]string{}
		if err := yaml.Unmarshal(data, &m); err != nil {
			panic(fmt.Sprintf("i18n: forms/%s: %v", n.Name(), err))
		}
		file := strings.TrimSuffix(n.Name(), ".yaml")
		lang, _, _ := strings.Cut(file, ".")
		if formsByLang[lang] == nil {
			formsByLang[lang] = map[string]string{}
		}
		for k, v := range m {
			formsByLang[lang][k] = v
			formsByFile[file] = append(formsByFile[file], k)
		}
		slices.Sort(formsByFile[file])
	}
}

// Form returns the language's words for an English sentence form of a
// reason, with {1}, {2}... for its values; ok is false in English and
// where the language has none.
func (c *Catalog) Form(form string) (string, bool) {
	if c == nil || c.lang == "en" {
		return "", false
	}
	formsOnce.Do(loadForms)
	w, ok := formsByLang[c.lang][form]
	return w, ok
}

// Fill puts values into words at {1}, {2}...
func Fill(words string, values []string) string {
	if strings.IndexByte(words, '{') < 0 {
		return words
	}
	var b strings.Builder
	for i := 0; i < len(words); i++ {
		if words[i] == '{' && i+2 < len(words) && words[i+2] == '}' && words[i+1] >= '1' && words[i+1] <= '9' {
			if k := int(words[i+1] - '1'); k < len(values) {
				b.WriteString(values[k])
				i += 2
				continue
			}
		}
		b.WriteByte(words[i])
	}
	return b.String()
}

// Say is a sentence of a reason in the catalog's language: the words
// for its English form with its values put in; ok is false where the
// language has none (and in English).
func (c *Catalog) Say(form string, values []string) (string, bool) {
	w, ok := c.Form(form)
	if !ok {
		return "", false
	}
	return Fill(w, values), true
}

// Forms lists the English forms that forms/<file>.yaml has words for:
// "zh" the engine's reasons, "zh.tui" the playground's messages.
func Forms(file string) []string {
	formsOnce.Do(loadForms)
	return slices.Clone(formsByFile[file])
}

// notePatterns are regular expressions of the forms of forms/<lang>.notes.yaml:
// a record's note is kept as its English text only, and its values are
// read back by matching it against the forms it may have.
var (
	notesOnce    sync.Once
	notePatterns []notePattern
)

type notePattern struct {
	form string
	re   *lazyre.Regexp
}

func loadNotes() {
	formsOnce.Do(loadForms)
	seen := map[string]bool{}
	for file, forms := range formsByFile {
		if !strings.HasSuffix(file, ".notes") {
			continue
		}
		for _, f := range forms {
			if seen[f] {
				continue
			}
			seen[f] = true
			var b strings.Builder
			b.WriteString("^")
			rest := f
			for {
				i := strings.IndexByte(rest, '%')
				if i < 0 || i+1 >= len(rest) {
					b.WriteString(lazyre.QuoteMeta(rest))
					break
				}
				b.WriteString(lazyre.QuoteMeta(rest[:i]))
				b.WriteString("(.+?)")
				rest = rest[i+2:]
			}
			b.WriteString("$")
			notePatterns = append(notePatterns, notePattern{form: f, re: lazyre.MustCompile(b.String())})
		}
	}
	// The longest forms first: a form that is a prefix of another must
	// not take its notes.
	sort.Slice(notePatterns, func(i, j int) bool { return len(notePatterns[i].form) > len(notePatterns[j].form) })
}

// NoteForms lists the English forms of the notes lang words
// (forms/<lang>.notes.yaml).
func NoteForms(lang string) []string { return Forms(lang + ".notes") }

// Note is a record's note in the catalog's language: its English text
// matched against the note forms the language words, the values put into
// their words; the English text where none matches (and in English). A
// value that is itself a phrase of a note form (an expectation, a claim's
// summary, a ranking rule) is put in the language's words the same way.
func (c *Catalog) Note(s string) string {
	if c == nil || c.lang == "en" {
		return s
	}
	notesOnce.Do(loadNotes)
	return c.note(s, 0)
}

// noteDepth bounds how deep a note's values are read as phrases.
const noteDepth = 4

func (c *Catalog) note(s string, depth int) string {
	for _, p := range notePatterns {
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		if _, ok := c.Form(p.form); !ok {
			continue
		}
		values := m[1:]
		if depth < noteDepth {
			values = slices.Clone(values)
			for i, v := range values {
				values[i] = c.note(v, depth+1)
			}
		}
		w, _ := c.Say(p.form, values)
		return w
	}
	return s
}
