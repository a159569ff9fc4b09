package lessons

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gcplay/gcplay/internal/lazyre"
	"github.com/gcplay/gcplay/scenario"
)

// content is the built-in course:
//
//	content/course/NN-<id>.yaml   a lesson's course file (locale-independent)
//	content/text/<locale>/<id>.yaml  its words in one locale
//	content/phrases/<locale>.yaml    the grader's and playground's sentences
//
//go:embed content
var content embed.FS

// Course is the ordered list of lessons with their words in every locale
// the course has.
type Course struct {
	Lessons []*Lesson
	// Locales are the locales with text, DefaultLocale first.
	Locales []string
	// Pending lists, by locale, the lessons still waiting for their
	// translation (text/<locale>/PENDING, one id a line): lint lets them
	// lack the locale's text, and says so.
	Pending map[string][]string
	phrases map[string]phrases
	// phraseFiles names each locale's phrases file, for messages.
	phraseFiles map[string]string
}

// Builtin returns the course embedded in gcplay. It panics if the
// embedded files do not load: the tests make sure they do.
func Builtin() *Course {
	builtinOnce.Do(func() {
		sub, _ := fs.Sub(content, "content")
		builtin, builtinErr = Load(sub)
	})
	if builtinErr != nil {
		panic(fmt.Sprintf("lessons: the built-in course does not load: %v", builtinErr))
	}
	return builtin
}

var (
	builtin     *Course
	builtinErr  error
	builtinOnce sync.Once
)

var courseFileRE = lazyre.New(`^(\d+)-([a-z0-9-]+)\.yaml$`)

// BuiltinIDs returns the ids of the built-in course's lessons, in order,
// from its course files' names (NN-<id>.yaml) without reading them: the
// browser page shows the course's progress as soon as it starts, and
// Builtin, which parses every lesson and its world, holds the page's only
// thread for a third of a second or more there.
func BuiltinIDs() []string {
	files, _ := fs.Glob(content, "content/course/*.yaml")
	slices.Sort(files)
	var ids []string
	for _, f := range files {
		if m := courseFileRE.Get().FindStringSubmatch(path.Base(f)); m != nil {
			ids = append(ids, m[2])
		}
	}
	return ids
}

// Load reads a course from fsys, laid out as the built-in one: course/,
// text/<locale>/ and phrases/.
func Load(fsys fs.FS) (*Course, error) {
	c := &Course{phrases: map[string]phrases{}, phraseFiles: map[string]string{}, Pending: map[string][]string{}}
	var errs scenario.ErrorList
	add := func(err error) {
		if l, ok := err.(scenario.ErrorList); ok {
			errs = append(errs, l...)
		} else if err != nil {
			errs = append(errs, &scenario.Error{Message: err.Error()})
		}
	}
	files, err := fs.Glob(fsys, "course/*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	for _, f := range files {
		m := courseFileRE.Get().FindStringSubmatch(path.Base(f))
		if m == nil {
			add(fmt.Errorf("%s: a course file is named NN-<lesson-id>.yaml", f))
			continue
		}
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			add(err)
			continue
		}
		l, err := ParseLesson(f, data)
		if err != nil {
			add(err)
			continue
		}
		if l.ID != m[2] {
			add(fmt.Errorf("%s: the lesson's name is %q, but the file is named after %q", f, l.ID, m[2]))
			continue
		}
		l.Number, _ = strconv.Atoi(m[1])
		l.Text = map[string]*Text{}
		c.Lessons = append(c.Lessons, l)
	}
	for i, l := range c.Lessons {
		if l.Number != i+1 {
			add(fmt.Errorf("%s: lesson numbers must run 1, 2, 3, ... without gaps: expected %02d", l.File, i+1))
		}
	}
	locales, _ := fs.Glob(fsys, "text/*")
	for _, dir := range locales {
		loc := path.Base(dir)
		c.Locales = append(c.Locales, loc)
		if data, err := fs.ReadFile(fsys, dir+"/PENDING"); err == nil {
			c.Pending[loc] = parsePending(string(data))
		}
		texts, _ := fs.Glob(fsys, dir+"/*.yaml")
		for _, f := range texts {
			id := strings.TrimSuffix(path.Base(f), ".yaml")
			l := c.byID(id)
			if l == nil {
				add(fmt.Errorf("%s: no lesson %q in course/", f, id))
				continue
			}
			data, err := fs.ReadFile(fsys, f)
			if err != nil {
				add(err)
				continue
			}
			t, err := ParseText(f, data)
			if err != nil {
				add(err)
				continue
			}
			l.Text[loc] = t
		}
	}
	slices.SortFunc(c.Locales, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == DefaultLocale:
			return -1
		case b == DefaultLocale:
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, l := range c.Lessons {
		if l.Text[DefaultLocale] == nil {
			add(fmt.Errorf("%s: no English text: add text/%s/%s.yaml", l.File, DefaultLocale, l.ID))
		}
	}
	phr, _ := fs.Glob(fsys, "phrases/*.yaml")
	for _, f := range phr {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			add(err)
			continue
		}
		p, err := parsePhrases(f, data)
		if err != nil {
			add(err)
			continue
		}
		c.phrases[strings.TrimSuffix(path.Base(f), ".yaml")] = p
		c.phraseFiles[strings.TrimSuffix(path.Base(f), ".yaml")] = f
	}
	if c.phrases[DefaultLocale] == nil {
		add(fmt.Errorf("phrases/%s.yaml is missing", DefaultLocale))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

// parsePending reads a PENDING file: one lesson id a line; # starts a
// comment.
func parsePending(s string) []string {
	var ids []string
	for _, line := range strings.Split(s, "\n") {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" {
			ids = append(ids, line)
		}
	}
	return ids
}

func (c *Course) byID(id string) *Lesson {
	for _, l := range c.Lessons {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// Find returns the lesson a learner named: by id ("two-owners"), by
// number ("6", "06"), or by a prefix of its id that names one lesson.
func (c *Course) Find(name string) (*Lesson, error) {
	name = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), ".yaml")
	if l := c.byID(name); l != nil {
		return l, nil
	}
	if n, err := strconv.Atoi(name); err == nil {
		if n >= 1 && n <= len(c.Lessons) {
			return c.Lessons[n-1], nil
		}
		return nil, fmt.Errorf("there is no lesson %d: the lessons are numbered 1 to %d", n, len(c.Lessons))
	}
	if m := courseFileRE.Get().FindStringSubmatch(name + ".yaml"); m != nil {
		if l := c.byID(m[2]); l != nil {
			return l, nil
		}
	}
	var found []*Lesson
	for _, l := range c.Lessons {
		if strings.HasPrefix(l.ID, name) {
			found = append(found, l)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		var ids []string
		for _, l := range c.Lessons {
			ids = append(ids, l.ID)
		}
		return nil, fmt.Errorf("there is no lesson %q%s (gcplay lessons lists them)", name, suggest(name, ids))
	}
	var ids []string
	for _, l := range found {
		ids = append(ids, l.ID)
	}
	return nil, fmt.Errorf("%q could be any of %s: give more of the name", name, strings.Join(ids, ", "))
}

// Next returns the lesson after l, or nil after the last.
func (c *Course) Next(l *Lesson) *Lesson {
	for i, x := range c.Lessons {
		if x == l && i+1 < len(c.Lessons) {
			return c.Lessons[i+1]
		}
	}
	return nil
}

// Phrases returns the grader's sentences in locale, with English where
// the locale has none.
func (c *Course) phrasesFor(locale string) phrases {
	en := c.phrases[DefaultLocale]
	p, ok := c.phrases[locale]
	if !ok || locale == DefaultLocale {
		return en
	}
	out := phrases{}
	for k, v := range en {
		out[k] = v
	}
	for k, v := range p {
		out[k] = v
	}
	return out
}

// Say returns one of the course's sentences (the playground's lesson
// words) in locale, its {name} placeholders filled from pairs.
func (c *Course) Say(locale, key string, pairs ...string) string {
	return c.phrasesFor(locale).say(key, pairs...)
}
