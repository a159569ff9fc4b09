// Package i18n is the playground's message catalog: its own words (the
// delete picker, pane titles, the status line, messages) in every
// language gcplay speaks, by key, with {name} placeholders. The lessons'
// words are the lessons package's (content/phrases); these are the
// playground's.
//
// A catalog file is messages/<lang>.yaml. English is complete; another
// language has every English key with the same placeholders (the tests
// check it), and a key it lacks falls back to English. Words follow
// docs/GLOSSARY.zh.md.
package i18n

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/internal/locale"
)

//go:embed messages/*.yaml
var files embed.FS

var (
	langsOnce sync.Once
	langs     []string // from the files' names, English first

	catalogMu sync.Mutex
	catalogs  = map[string]map[string]string{} // parsed on first use
)

// loadLangs lists the languages from the catalog files' names, without
// reading them: a program in English never parses the other languages'
// catalogs (the page's start above all, where YAML is slow).
func loadLangs() {
	names, _ := files.ReadDir("messages")
	for _, n := range names {
		langs = append(langs, strings.TrimSuffix(n.Name(), ".yaml"))
	}
	slices.SortFunc(langs, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == locale.Default:
			return -1
		case b == locale.Default:
			return 1
		}
		return strings.Compare(a, b)
	})
}

// catalog returns lang's messages, parsed on their first use; false for
// a language gcplay does not speak.
func catalog(lang string) (map[string]string, bool) {
	langsOnce.Do(loadLangs)
	if !slices.Contains(langs, lang) {
		return nil, false
	}
	catalogMu.Lock()
	defer catalogMu.Unlock()
	if m, ok := catalogs[lang]; ok {
		return m, true
	}
	name := lang + ".yaml"
	data, err := files.ReadFile(path.Join("messages", name))
	if err != nil {
		panic(err)
	}
	m, ok := plainCatalog(data)
	if !ok {
		m = map[string]string{}
		if err := yaml.Unmarshal(data, &m); err != nil {
			panic(fmt.Sprintf("i18n: messages/%s: %v", name, err))
		}
	}
	catalogs[lang] = m
	return m, true
}

// plainCatalog reads a catalog written as the files are: comments, blank
// lines and one `key: value` a line, the value double-quoted without
// escapes or plain. YAML's decoder, on wasm, is the largest code a start
// would run only for the catalog (the starter is read by scenario's own
// reader); ok is false at the first line of any other shape, and the file
// is then read as YAML, so what a catalog may hold is unchanged
// (TestPlainCatalogIsYAML checks both files against the YAML reading).
func plainCatalog(data []byte) (m map[string]string, ok bool) {
	m = map[string]string{}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" || line[0] == '#' {
			continue
		}
		var key, value string
		if line[0] == '"' { // a quoted key: "ui.timeline: go there": ...
			i := strings.Index(line, "\": ")
			if i < 1 {
				return nil, false
			}
			key, value = line[1:i], line[i+3:]
			if strings.ContainsAny(key, "\"\\\t\r") {
				return nil, false
			}
		} else {
			var found bool
			key, value, found = strings.Cut(line, ": ")
			if !found || !plainScalar(key) {
				return nil, false
			}
		}
		if value == "" {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false
		}
		if value[0] == '"' {
			if len(value) < 2 || !strings.HasSuffix(value, "\"") {
				return nil, false
			}
			value = value[1 : len(value)-1]
			if strings.ContainsAny(value, "\"\\\t\r") {
				return nil, false
			}
		} else if !plainScalar(value) {
			return nil, false
		}
		m[key] = value
	}
	return m, true
}

// plainScalar reports whether YAML reads s, unquoted in a block mapping,
// as the string s itself: no indicator first, no ": " or " #" within, no
// number, bool or null (a conservative test: anything doubtful is left
// to YAML).
func plainScalar(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' ||
		strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`~<=+.0123456789") ||
		strings.ContainsAny(s, "\t\r") || strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null":
		return false
	}
	return true
}

// Langs returns the languages the catalog has, English first.
func Langs() []string {
	langsOnce.Do(loadLangs)
	return slices.Clone(langs)
}

// Catalog is the playground's words in one language.
type Catalog struct {
	lang string
	m    map[string]string
	en   map[string]string
}

// For returns the catalog of lang; English for a language it lacks (and
// for "").
func For(lang string) *Catalog {
	en, _ := catalog(locale.Default)
	if m, ok := catalog(lang); ok {
		return &Catalog{lang: lang, m: m, en: en}
	}
	return &Catalog{lang: locale.Default, m: en, en: en}
}

// Lang is the catalog's language.
func (c *Catalog) Lang() string {
	if c == nil {
		return locale.Default
	}
	return c.lang
}

// T returns the message key with its {name} placeholders filled from
// pairs (name, value, ...). A key no catalog has comes back as [key], so
// a missing message shows instead of vanishing.
func (c *Catalog) T(key string, pairs ...string) string {
	if c == nil {
		c = For(locale.Default)
	}
	s, ok := c.m[key]
	if !ok {
		if s, ok = c.en[key]; !ok {
			s = "[" + key + "]"
		}
	}
	if len(pairs)%2 != 0 {
		panic(fmt.Sprintf("i18n: message %q: odd number of arguments", key))
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// UIPrefix starts the key of a label translated by its English words:
// "ui.step" is the translation of the key description "step". Labels
// come from key maps and lists written in English in the code; UI looks
// them up by those words.
const UIPrefix = "ui."

// UI returns the translation of an English label (a key's description,
// a help group's name): the message "ui.<label>", or label itself when
// the language has none (and in English).
func (c *Catalog) UI(label string) string {
	if c == nil || c.lang == locale.Default {
		return label
	}
	if s, ok := c.m[UIPrefix+label]; ok {
		return s
	}
	return label
}

// HasUI reports whether the catalog translates label.
func (c *Catalog) HasUI(label string) bool {
	if c.lang == locale.Default {
		return true
	}
	_, ok := c.m[UIPrefix+label]
	return ok
}

// ReasonPrefix starts the key of the words for an engine reason code:
// "reason.DeleteBackground". The engine words each decision in English,
// with the objects it concerns; another language has, per code, what
// the decision means in its words (without the objects, which the rest
// of the screen names), and shows the English sentence where it has
// none.
const ReasonPrefix = "reason."

// Reason words one of the engine's decisions: message itself in English,
// else the language's words for code when it has them ("" when it has
// none).
func (c *Catalog) Reason(code string) string {
	if c == nil || c.lang == locale.Default || code == "" {
		return ""
	}
	return c.m[ReasonPrefix+code]
}

// N is T for a message that depends on a count: key-one when n is 1,
// else key-many (languages without plural forms give both the same
// words).
func (c *Catalog) N(key string, n int, pairs ...string) string {
	pairs = append(pairs, "n", fmt.Sprint(n))
	if n == 1 {
		return c.T(key+"-one", pairs...)
	}
	return c.T(key+"-many", pairs...)
}

// Problems checks every language's messages against English: every
// English key is there, with the same placeholders, and no other key.
func Problems() []string {
	var out []string
	en, _ := catalog(locale.Default)
	keys := make([]string, 0, len(en))
	for k := range en {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, lang := range Langs() {
		if lang == locale.Default {
			continue
		}
		m, _ := catalog(lang)
		for _, k := range keys {
			v, ok := m[k]
			if !ok {
				out = append(out, fmt.Sprintf("messages/%s.yaml: %s: missing: English has this message", lang, k))
				continue
			}
			if a, b := placeholders(en[k]), placeholders(v); !slices.Equal(a, b) {
				out = append(out, fmt.Sprintf("messages/%s.yaml: %s: placeholders %v, but English has %v", lang, k, b, a))
			}
		}
		var extra []string
		for k := range m {
			if _, ok := en[k]; !ok && !strings.HasPrefix(k, UIPrefix) && !strings.HasPrefix(k, ReasonPrefix) && !strings.HasPrefix(k, EnginePrefix) {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		for _, k := range extra {
			out = append(out, fmt.Sprintf("messages/%s.yaml: %s: English has no such message", lang, k))
		}
	}
	return out
}

// placeholders returns the distinct {name}s of s, sorted.
func placeholders(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			break
		}
		out = append(out, s[i:i+j+1])
		s = s[i+j+1:]
	}
	slices.Sort(out)
	return slices.Compact(out)
}
