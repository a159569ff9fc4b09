package scenario

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/lazyre"
)

// WhatIfQuestion is a `gcplay what-if ... delete` question written in a
// dump's comments, for the conformance runner to ask a real cluster too.
type WhatIfQuestion struct {
	Target    string // TYPE/NAME
	Namespace string // "" for the default namespace
	Cascade   string // background, foreground or orphan
	// Controllers, when set, are the controllers the world runs (those
	// the other runner has); nil means all of gcplay's.
	Controllers []string
}

var whatIfLineRE = lazyre.New(`gcplay what-if -f \S+ delete (\S+/\S+)((?: -n \S+| --cascade=\w+)*)`)

// WhatIfQuestions returns the delete questions a dump's comments ask
// ("# gcplay what-if -f FILE delete TYPE/NAME [-n NS] [--cascade=P]").
func WhatIfQuestions(data []byte) []WhatIfQuestion {
	var out []WhatIfQuestion
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		m := whatIfLineRE.Get().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		q := WhatIfQuestion{Target: m[1], Cascade: "background"}
		f := strings.Fields(m[2])
		for i := 0; i < len(f); i++ {
			switch {
			case f[i] == "-n" && i+1 < len(f):
				q.Namespace = f[i+1]
				i++
			case strings.HasPrefix(f[i], "--cascade="):
				q.Cascade = strings.TrimPrefix(f[i], "--cascade=")
			}
		}
		out = append(out, q)
	}
	return out
}

var cascadePolicies = map[string]fakeapi.DeletionPropagation{"background": "Background", "foreground": "Foreground", "orphan": "Orphan"}

// WhatIfScenario turns a dump and a delete question into a scenario that
// another runner can play on a real cluster: the world as gcplay had it
// once the controllers settled it (as Save writes it: objects with their
// UIDs, deletes that make the terminating ones terminate), then the
// delete, and an expect step holding gcplay's what-if answer: the deleted
// objects absent, the kept and orphaned ones there and not terminating,
// the stuck ones terminating.
func WhatIfScenario(file string, data []byte, q WhatIfQuestion) (*Scenario, error) {
	policy, ok := cascadePolicies[q.Cascade]
	if !ok {
		return nil, fmt.Errorf("--cascade must be background, foreground or orphan, not %q", q.Cascade)
	}
	start := func() (*Imported, error) {
		d, err := ParseDump(file, data)
		if err != nil {
			return nil, err
		}
		d.Controllers = q.Controllers
		return Start(d)
	}
	world, err := start()
	if err != nil {
		return nil, err
	}
	name := dumpName(file) + "-whatif"
	saved, err := Save(world.World, name)
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("%s (what-if delete %s --cascade=%s)", file, q.Target, q.Cascade)
	s, err := Parse(label, saved)
	if err != nil {
		return nil, fmt.Errorf("the world gcplay saved does not parse: %w", err)
	}
	answerWorld, err := start()
	if err != nil {
		return nil, err
	}
	reg := answerWorld.World.Store().Registry()
	typ, objName, _ := strings.Cut(q.Target, "/")
	target, err := ResolveRef(reg, typ+"/"+objName)
	if err != nil {
		return nil, err
	}
	if info, ok := reg.Lookup(target.APIVersion, target.Kind); ok && info.Namespaced() {
		target.Namespace = "default"
		if q.Namespace != "" {
			target.Namespace = q.Namespace
		}
		target.NamespaceGiven = true
	}
	answer, err := answerWorld.Delete(target, string(policy))
	if err != nil {
		return nil, err
	}
	ref := func(name string) (RefCheck, error) {
		r, err := ResolveRef(reg, name)
		return RefCheck{Ref: r}, err
	}
	x := &Expect{}
	for _, d := range answer.Deleted {
		c, err := ref(d.Object)
		if err != nil {
			return nil, err
		}
		x.Absent = append(x.Absent, c)
	}
	stay := append(append([]string{}, answer.Kept...), func() []string {
		var o []string
		for _, d := range answer.Orphaned {
			o = append(o, d.Object)
		}
		return o
	}()...)
	for _, k := range stay {
		c, err := ref(k)
		if err != nil {
			return nil, err
		}
		x.Exists = append(x.Exists, c)
		x.NotTerminating = append(x.NotTerminating, c)
	}
	for _, st := range answer.Stuck {
		c, err := ref(st.Object)
		if err != nil {
			return nil, err
		}
		x.Terminating = append(x.Terminating, c)
	}
	n := len(s.Steps)
	s.Steps = append(s.Steps,
		Step{Index: n, Action: ActionSettle, MaxSteps: DefaultMaxSteps},
		Step{Index: n + 1, Action: ActionDelete, Target: target, DeleteOptions: &fakeapi.DeleteOptions{PropagationPolicy: &policy}},
		Step{Index: n + 2, Action: ActionSettle, MaxSteps: DefaultMaxSteps},
		Step{Index: n + 3, Action: ActionExpect, Expect: x},
	)
	return s, nil
}

// AsScenario turns an imported dump into an ordinary scenario: the world
// once the controllers have settled it, as Save writes it (objects with
// their UIDs, and deletes that make the terminating ones terminate), for
// a runner or script that can only create objects. A scenario that is
// not a dump is returned as it is.
func AsScenario(s *Scenario) (*Scenario, error) {
	if len(s.Restore) == 0 {
		return s, nil
	}
	file, name := s.File, s.Name
	im, err := Start(s)
	if err != nil {
		return nil, err
	}
	saved, err := saveEntries(im.World, name)
	if err != nil {
		return nil, err
	}
	out, err := parseSaved(file, saved)
	if err != nil {
		return nil, fmt.Errorf("the world gcplay saved does not parse: %w", err)
	}
	return out, nil
}

// parseSaved is Parse(file, saved.text), reading the objects and steps
// one entry at a time: Parse holds the whole text's YAML tree at once,
// tens of nodes an object, where an entry's tree is all that is needed
// at a time. Each entry is read as
// Save wrote it (a sequence of one item, before its lines were indented
// two spaces), its nodes moved to where they are in the text. Should any
// entry not read as it does in the whole text, Parse reads the text.
func parseSaved(file string, saved savedWorld) (*Scenario, error) {
	s, err := Parse(file, saved.text[:saved.head])
	if err != nil || len(saved.entries) == 0 {
		return Parse(file, saved.text)
	}
	p := &parser{file: file, budget: len(saved.text) + maxAliasExpansion}
	reg := fakeapi.NewRegistry()
	for _, k := range s.Kinds {
		if err := reg.Add(k); err != nil {
			return Parse(file, saved.text)
		}
	}
	var item []byte
	objects, steps := 0, 0
	for _, e := range saved.entries {
		item = item[:0]
		for line := range bytes.Lines(saved.text[e.start:e.end]) {
			item = append(item, bytes.TrimPrefix(line, []byte("  "))...)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(item, &doc); err != nil || len(doc.Content) != 1 || len(doc.Content[0].Content) != 1 {
			return Parse(file, saved.text)
		}
		n := doc.Content[0].Content[0]
		moveNodes(n, e.line-1, 2)
		if e.step {
			if st := p.step(n, steps, reg, s.Controllers); st != nil {
				s.Steps = append(s.Steps, *st)
			}
			steps++
			continue
		}
		if m := p.manifest(n, fmt.Sprintf("objects[%d]", objects), reg); m != nil {
			s.Objects = append(s.Objects, *m)
		}
		objects++
	}
	if len(p.errs) > 0 {
		return Parse(file, saved.text)
	}
	return s, nil
}

// moveNodes moves n and the nodes under it by lines and columns.
func moveNodes(n *yaml.Node, lines, columns int) {
	n.Line += lines
	n.Column += columns
	for _, c := range n.Content {
		moveNodes(c, lines, columns)
	}
}
