package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/scenario"
)

// ParseText reads a lesson's text file for one locale. Unknown keys are
// errors, so a misspelt key is not silently dropped. Empty fields are
// allowed here (a translation may be partial); Lint says which English
// fields a lesson must have.
func ParseText(file string, data []byte) (*Text, error) {
	var t Text
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&t); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, scenario.ErrorList{{File: file, Line: 1, Message: "the text file is empty: it needs at least a title"}}
		}
		return nil, yamlErrors(file, err)
	}
	for _, s := range []*string{&t.Title, &t.Summary, &t.Intro, &t.Goal, &t.Predict, &t.Solution, &t.Explanation, &t.Simplified, &t.Notes} {
		*s = strings.TrimSpace(*s)
	}
	for i := range t.Hints {
		t.Hints[i] = strings.TrimSpace(t.Hints[i])
	}
	t.file = file
	return &t, nil
}

// yamlErrors turns a yaml.v3 decoding error into file:line errors.
func yamlErrors(file string, err error) error {
	var te *yaml.TypeError
	var out scenario.ErrorList
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for _, m := range msgs {
		line := 0
		if g := yamlLineRE.Get().FindStringSubmatch(m); g != nil {
			line, _ = strconv.Atoi(g[1])
		}
		m = yamlLineRE.Get().ReplaceAllLiteralString(strings.TrimPrefix(m, "yaml: "), "")
		m = strings.Replace(m, "in type lessons.Text", "(a lesson text has title, summary, intro, goal, hints, predict, solution, explanation, simplified, notes)", 1)
		out = append(out, &scenario.Error{File: file, Line: line, Message: m})
	}
	return out
}

// phrases are the grader's and the playground's sentences in one locale,
// by key, with {name} placeholders.
type phrases map[string]string

func parsePhrases(file string, data []byte) (phrases, error) {
	var p phrases
	if err := yaml.Unmarshal(data, &p); err != nil {
		return nil, yamlErrors(file, err)
	}
	return p, nil
}

// say fills a phrase's {name} placeholders from pairs (name, value, ...).
func (p phrases) say(key string, pairs ...string) string {
	s, ok := p[key]
	if !ok {
		s = "[" + key + "]"
	}
	if len(pairs)%2 != 0 {
		panic(fmt.Sprintf("lessons: phrase %q: odd number of arguments", key))
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return strings.TrimSpace(s)
}
