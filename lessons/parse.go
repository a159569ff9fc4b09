package lessons

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/lazyre"
	"github.com/gcplay/gcplay/scenario"
)

// A course file is a scenario file (SCENARIO-FORMAT.md) with lesson keys
// beside the scenario's own. The scenario keys describe the starting world;
// the lesson keys hold the goal (an expect block), the prediction, the
// solution and the wrong answers (lists of scenario steps).
var (
	scenarioKeys = []string{"name", "description", "kinds", "controllers", "objects", "steps"}
	lessonKeys   = []string{"minutes", "goal", "settled", "predict", "solution", "wrong"}
	predictKeys  = []string{"steps", "objects", "order"}
	wrongKeys    = []string{"id", "steps", "explains"}
	// headerKeys are the scenario keys every part needs to be parsed: the
	// name, the custom kinds (for references) and the controllers (for
	// restart steps).
	headerKeys = []string{"name", "kinds", "controllers"}
)

// ParseLesson reads and validates a course file: its scenario part with
// scenario.Parse, and each list of steps and the goal with the same parser,
// so that a lesson accepts exactly what a scenario file accepts. Messages
// name the course file and its lines. On failure the error is a
// scenario.ErrorList. The lesson has no text yet (see ParseText).
func ParseLesson(file string, data []byte) (*Lesson, error) {
	p := &lessonParser{src: newSource(file, data)}
	l := p.parse()
	if len(p.errs) > 0 {
		slices.SortStableFunc(p.errs, func(a, b *scenario.Error) int { return a.Line - b.Line })
		return nil, p.errs
	}
	return l, nil
}

type lessonParser struct {
	src  *source
	errs scenario.ErrorList
}

func (p *lessonParser) errorf(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &scenario.Error{File: p.src.file, Line: line, Path: path, Message: fmt.Sprintf(format, args...)})
}

func (p *lessonParser) parse() *Lesson {
	root := p.src.root(p)
	if root == nil {
		return nil
	}
	top := spansOf(root, len(p.src.lines))
	byKey := map[string]span{}
	for _, sp := range top {
		k := sp.key.Value
		if !slices.Contains(scenarioKeys, k) && !slices.Contains(lessonKeys, k) {
			all := append(slices.Clone(scenarioKeys), lessonKeys...)
			p.errorf(sp.key, "", "unknown key %q%s; a lesson has the scenario keys (%s) and the lesson keys (%s)",
				k, suggest(k, all), strings.Join(scenarioKeys, ", "), strings.Join(lessonKeys, ", "))
			continue
		}
		if _, dup := byKey[k]; dup {
			p.errorf(sp.key, "", "key %q appears twice", k)
			continue
		}
		byKey[k] = sp
	}
	if len(p.errs) > 0 {
		return nil
	}

	// The world: the scenario keys, at their own lines.
	world := &subdoc{}
	var worldText []string
	for _, sp := range top {
		if slices.Contains(scenarioKeys, sp.key.Value) {
			world.copy(p.src, sp.first, sp.last)
			if sp.key.Value != "steps" {
				worldText = append(worldText, p.src.lines[sp.first-1:min(sp.last, len(p.src.lines))]...)
			}
		}
	}
	sc, err := scenario.Parse(p.src.file, world.bytes())
	if err != nil {
		p.remap(err, world, nil)
		return nil
	}
	l := &Lesson{ID: sc.Name, File: p.src.file, World: sc, Source: world.bytes(), worldText: worldText, Settled: true, Minutes: 10}
	for _, st := range sc.Steps {
		if st.Action == scenario.ActionExpect {
			p.errorf(byKey["steps"].key, "steps", "the set-up may not check anything (expect): put checks in the goal")
		}
	}
	reg, err := registry(sc)
	if err != nil {
		p.errorf(root, "kinds", "%v", err)
		return nil
	}
	header := func() *subdoc {
		d := &subdoc{}
		for _, sp := range top {
			if slices.Contains(headerKeys, sp.key.Value) {
				d.copy(p.src, sp.first, sp.last)
			}
		}
		return d
	}

	if sp, ok := byKey["minutes"]; ok {
		n, err := strconv.Atoi(sp.val.Value)
		if sp.val.Kind != yaml.ScalarNode || err != nil || n <= 0 {
			p.errorf(sp.val, "minutes", "minutes is a whole number of minutes above 0, not %q", sp.val.Value)
		} else {
			l.Minutes = n
		}
	}
	if sp, ok := byKey["settled"]; ok {
		switch sp.val.Value {
		case "true":
			l.Settled = true
		case "false":
			l.Settled = false
		default:
			p.errorf(sp.val, "settled", "settled is true or false, not %q", sp.val.Value)
		}
	}
	if sp, ok := byKey["goal"]; ok {
		l.Goal = p.expect(header(), sp, "goal")
	} else {
		p.errorf(root, "", "missing required key %q: the goal's checks, an expect block", "goal")
	}
	if sp, ok := byKey["solution"]; ok {
		l.Solution = p.steps(header(), sp, "solution")
		if len(l.Solution) == 0 && len(p.errs) == 0 {
			p.errorf(sp.key, "solution", "the solution needs at least one step")
		}
	} else {
		p.errorf(root, "", "missing required key %q: the steps that reach the goal", "solution")
	}
	if sp, ok := byKey["wrong"]; ok {
		l.Wrong = p.wrong(header, sp)
	}
	if sp, ok := byKey["predict"]; ok {
		l.Predict = p.predict(header, sp, reg)
	}
	if len(p.errs) > 0 {
		return nil
	}
	return l
}

// registry returns the kinds a lesson's world serves.
func registry(sc *scenario.Scenario) (*fakeapi.Registry, error) {
	reg := fakeapi.NewRegistry()
	for _, k := range sc.Kinds {
		k.Custom = true
		if err := reg.Add(k); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// steps parses a list of scenario steps written under sp's key.
func (p *lessonParser) steps(d *subdoc, sp span, path string) []scenario.Step {
	if sp.val.Kind != yaml.SequenceNode {
		p.errorf(sp.val, path, "%s is a list of scenario steps", path)
		return nil
	}
	if sp.val.Line > sp.key.Line {
		d.add("steps:", sp.key.Line)
	} else {
		d.add("steps: "+p.src.rest(sp.val), sp.key.Line)
	}
	d.copy(p.src, sp.key.Line+1, sp.last)
	sc, err := scenario.Parse(p.src.file, d.bytes())
	if err != nil {
		p.remap(err, d, func(q string) string { return stepsPathRE.Get().ReplaceAllLiteralString(q, path) })
		return nil
	}
	d.remapLines(reflect.ValueOf(sc.Steps))
	return sc.Steps
}

// stepsPathRE matches the start of a step's field path in a sub-document.
var stepsPathRE = lazyre.New(`^steps`)

// expect parses the expect block written under sp's key.
func (p *lessonParser) expect(d *subdoc, sp span, path string) *scenario.Expect {
	if sp.val.Kind != yaml.MappingNode {
		p.errorf(sp.val, path, "%s is an expect block: a mapping of checks (exists, absent, ownerReferences, ...)", path)
		return nil
	}
	for i := 0; i+1 < len(sp.val.Content); i += 2 {
		if k := sp.val.Content[i]; k.Value == "queues" {
			p.errorf(k, path+".queues", "a goal cannot check queues: it describes objects and the graph, not the collector's work in progress")
		}
	}
	d.add("steps:", sp.key.Line)
	if sp.val.Line > sp.key.Line {
		d.add("- expect:", sp.key.Line)
	} else {
		d.add("- expect: "+p.src.rest(sp.val), sp.key.Line)
	}
	for n := sp.key.Line + 1; n <= sp.last; n++ {
		d.add("    "+p.src.lines[n-1], n)
	}
	sc, err := scenario.Parse(p.src.file, d.bytes())
	if err != nil {
		p.remap(err, d, func(q string) string {
			if rest, ok := strings.CutPrefix(q, "steps[0].expect"); ok {
				return path + rest
			}
			return path
		})
		return nil
	}
	if len(sc.Steps) != 1 || sc.Steps[0].Expect == nil {
		p.errorf(sp.val, path, "the goal must be one expect block")
		return nil
	}
	d.remapLines(reflect.ValueOf(sc.Steps[0].Expect))
	return sc.Steps[0].Expect
}

func (p *lessonParser) wrong(header func() *subdoc, sp span) []WrongAnswer {
	if sp.val.Kind != yaml.SequenceNode {
		p.errorf(sp.val, "wrong", "wrong is a list of wrong answers, each with id, steps and explains")
		return nil
	}
	var out []WrongAnswer
	ids := map[string]bool{}
	for i, item := range sp.val.Content {
		path := fmt.Sprintf("wrong[%d]", i)
		last := sp.last
		if i+1 < len(sp.val.Content) {
			last = sp.val.Content[i+1].Line - 1
		}
		if item.Kind != yaml.MappingNode {
			p.errorf(item, path, "a wrong answer is a mapping with id, steps and explains")
			continue
		}
		w := WrongAnswer{Line: item.Line}
		fields := spansOf(item, last)
		seen := map[string]bool{}
		for _, f := range fields {
			k := f.key.Value
			if seen[k] {
				p.errorf(f.key, path, "key %q appears twice", k)
				continue
			}
			seen[k] = true
			switch k {
			case "id":
				w.ID = f.val.Value
				if !idRE.Get().MatchString(w.ID) {
					p.errorf(f.val, path+".id", "%q must match [a-z0-9-]+", w.ID)
				} else if ids[w.ID] {
					p.errorf(f.val, path+".id", "two wrong answers are called %q", w.ID)
				}
				ids[w.ID] = true
			case "steps":
				w.Steps = p.steps(header(), f, path+".steps")
			case "explains":
				w.Explains = p.strings(f.val, path+".explains")
			default:
				p.errorf(f.key, path, "unknown key %q%s; a wrong answer has %s", k, suggest(k, wrongKeys), strings.Join(wrongKeys, ", "))
			}
		}
		for _, k := range wrongKeys {
			if !seen[k] {
				p.errorf(item, path, "missing required key %q", k)
			}
		}
		out = append(out, w)
	}
	return out
}

func (p *lessonParser) predict(header func() *subdoc, sp span, reg *fakeapi.Registry) *Predict {
	if sp.val.Kind != yaml.MappingNode {
		p.errorf(sp.val, "predict", "predict is a mapping with steps, objects and (optionally) order")
		return nil
	}
	pr := &Predict{}
	seen := map[string]bool{}
	for _, f := range spansOf(sp.val, sp.last) {
		k := f.key.Value
		seen[k] = true
		switch k {
		case "steps":
			pr.Steps = p.steps(header(), f, "predict.steps")
		case "objects":
			for i, s := range p.strings(f.val, "predict.objects") {
				r, err := scenario.ResolveRef(reg, s)
				if err != nil {
					p.errorf(f.val.Content[i], fmt.Sprintf("predict.objects[%d]", i), "%v", err)
					continue
				}
				if r.UID != "" {
					p.errorf(f.val.Content[i], fmt.Sprintf("predict.objects[%d]", i), "name the object as Kind/name (a learner cannot predict a uid)")
					continue
				}
				pr.Objects = append(pr.Objects, r)
			}
		case "order":
			switch f.val.Value {
			case "true":
				pr.Order = true
			case "false":
			default:
				p.errorf(f.val, "predict.order", "order is true or false, not %q", f.val.Value)
			}
		default:
			p.errorf(f.key, "predict", "unknown key %q%s; predict has %s", k, suggest(k, predictKeys), strings.Join(predictKeys, ", "))
		}
	}
	if !seen["steps"] || !seen["objects"] {
		p.errorf(sp.val, "predict", "predict needs steps (the action to predict) and objects (what to predict)")
	}
	return pr
}

func (p *lessonParser) strings(n *yaml.Node, path string) []string {
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, path, "%s is a list of strings", path)
		return nil
	}
	var out []string
	for i, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.Value == "" {
			p.errorf(c, fmt.Sprintf("%s[%d]", path, i), "expected a non-empty string")
			continue
		}
		out = append(out, c.Value)
	}
	return out
}

// remap turns the errors of a sub-document into errors of the course
// file: its lines, and field paths rewritten by path.
func (p *lessonParser) remap(err error, d *subdoc, path func(string) string) {
	list, ok := err.(scenario.ErrorList)
	if !ok {
		p.errs = append(p.errs, &scenario.Error{File: p.src.file, Message: err.Error()})
		return
	}
	for _, e := range list {
		c := *e
		c.File = p.src.file
		if c.Line > 0 && c.Line <= len(d.orig) {
			c.Line = d.orig[c.Line-1]
		}
		if path != nil && c.Path != "" {
			c.Path = path(c.Path)
		}
		p.errs = append(p.errs, &c)
	}
}

var idRE = lazyre.New(`^[a-z0-9-]+$`)

// source is a course file as lines.
type source struct {
	file  string
	data  []byte
	lines []string
}

func newSource(file string, data []byte) *source {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	return &source{file: file, data: data, lines: strings.Split(strings.TrimSuffix(text, "\n"), "\n")}
}

// root decodes the file's one YAML document and returns its top mapping.
func (s *source) root(p *lessonParser) *yaml.Node {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(s.data))
	if err := dec.Decode(&doc); err != nil {
		p.errs = append(p.errs, scenario.YAMLError(s.file, s.data, err))
		return nil
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		p.errs = append(p.errs, &scenario.Error{File: s.file, Line: 1, Message: "a lesson is a mapping: a scenario (name, objects, steps) plus goal, solution and the other lesson keys"})
		return nil
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Column != 1 {
			p.errorf(root.Content[i], "", "top-level keys must start in the first column")
			return nil
		}
	}
	return root
}

var yamlLineRE = lazyre.New(`^(?:yaml: )?line (\d+): `)

// rest returns the text of n's line from n's column on: a flow value
// written on its key's line.
func (s *source) rest(n *yaml.Node) string {
	line := s.lines[n.Line-1]
	if n.Column-1 < len(line) {
		return line[n.Column-1:]
	}
	return ""
}

// span is one key of a mapping with the lines its entry covers: from the
// key's line to the line before the next key (or the end of the mapping).
type span struct {
	key, val    *yaml.Node
	first, last int
}

// spansOf lists the entries of mapping m, whose text ends at line last.
func spansOf(m *yaml.Node, last int) []span {
	var out []span
	for i := 0; i+1 < len(m.Content); i += 2 {
		end := last
		if i+2 < len(m.Content) {
			end = m.Content[i+2].Line - 1
		}
		out = append(out, span{key: m.Content[i], val: m.Content[i+1], first: m.Content[i].Line, last: end})
	}
	return out
}

// subdoc is a YAML document assembled from lines of a course file, with
// the course-file line each of its lines came from.
type subdoc struct {
	lines []string
	orig  []int
}

func (d *subdoc) add(line string, orig int) {
	d.lines = append(d.lines, line)
	d.orig = append(d.orig, orig)
}

// copy appends the course file's lines first to last, as they are.
func (d *subdoc) copy(s *source, first, last int) {
	for n := first; n <= last && n <= len(s.lines); n++ {
		d.add(s.lines[n-1], n)
	}
}

// remapLines rewrites every Line field reachable from v (steps, checks,
// their nested parts), a line of the sub-document, to the course file's
// line, so a grade, a lint problem or a run error made from what was
// parsed points where the author wrote it.
func (d *subdoc) remapLines(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			d.remapLines(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			d.remapLines(v.Index(i))
		}
	case reflect.Map:
		// steps and checks hold no lines in maps
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			f := v.Field(i)
			if !t.Field(i).IsExported() {
				continue
			}
			if t.Field(i).Name == "Line" && f.Kind() == reflect.Int && f.CanSet() {
				if n := int(f.Int()); n > 0 && n <= len(d.orig) {
					f.SetInt(int64(d.orig[n-1]))
				}
				continue
			}
			d.remapLines(f)
		}
	}
}

func (d *subdoc) bytes() []byte { return []byte(strings.Join(d.lines, "\n") + "\n") }

// suggest returns ` (did you mean "x"?)` when a candidate is one or two
// edits from s.
func suggest(s string, candidates []string) string {
	for _, c := range candidates {
		if editDistance(s, c) <= 2 {
			return fmt.Sprintf(" (did you mean %q?)", c)
		}
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
