package i18n

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
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
