package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/lazyre"
)

// isName reports whether s matches ^[a-z0-9-]+$, a scenario's name;
// isKindName whether s matches ^[A-Za-z][A-Za-z0-9]*$, a kind's.
// TestIsNameIsTheRegexp holds both to their regexps. They are written out
// because package-level regexps are compiled at every start, in the
// browser before the first frame, and the starter world's name is
// checked there.
func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return s != ""
}

func isKindName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

var (
	// durationRE is the syntax time.ParseDuration reads; a string that has
	// it but does not parse is out of range.
	durationRE = lazyre.New(`^[-+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$`)
)

var topLevelKeys = []string{"name", "description", "kinds", "controllers", "objects", "steps"}

// AllControllers lists the controllers gcplay has, as `controllers:`
// names them (the engine's registry, in scheduler order).
var AllControllers = engine.AllControllers()

// restartable lists the controllers a restart step may name: those of
// kube-controller-manager.
var restartable = engine.RestartableControllers()

// Queues lists the queues a step or an expectation may name: every queue
// of every controller, in scheduler order.
var Queues = engine.AllQueues()

var injectVerbs = []string{"get", "list", "create", "update", "patch", "delete"}

// stepOptions lists the sibling keys each action takes besides itself.
var stepOptions = map[Action][]string{
	ActionCreate:      {"expectError"},
	ActionDelete:      {"propagationPolicy", "orphanDependents", "gracePeriodSeconds", "preconditions", "dryRun", "expectError"},
	ActionPatch:       {"merge", "expectError"},
	ActionStep:        {"queue", "expectError"},
	ActionSettle:      {"expectError"},
	ActionAdvance:     {"expectError"},
	ActionRestart:     {"expectError"},
	ActionInject:      {"expectError"},
	ActionExpect:      {},
	ActionExit:        {"code", "expectError"},
	ActionRolloutUndo: {"toRevision", "expectError"},
}

// allStepKeys is every key a step may have, for suggestions.
var allStepKeys = func() []string {
	var keys []string
	for _, a := range actions {
		keys = append(keys, string(a))
	}
	for _, a := range actions {
		for _, o := range stepOptions[a] {
			if !slices.Contains(keys, o) {
				keys = append(keys, o)
			}
		}
	}
	return keys
}()

// Parse reads and validates a scenario file. filename is used in every
// message. On failure the error is an ErrorList holding every problem
// found in the file, sorted by line.
func Parse(filename string, data []byte) (*Scenario, error) {
	p := &parser{file: filename, budget: len(data) + maxAliasExpansion}
	root := p.document(data)
	if root == nil {
		p.errs.sort()
		return nil, p.errs
	}
	s := &Scenario{File: filename}
	p.scenario(root, s)
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	return s, nil
}

// document decodes the single YAML document of the file.
func (p *parser) document(data []byte) *yaml.Node {
	var roots []*yaml.Node
	fast := plainText(data) && fastDocuments(data, "", nil, func(_ int, root *yaml.Node) bool {
		roots = append(roots, root)
		return true
	}, nil, nil)
	if fast && len(roots) == 1 && roots[0] != nil && roots[0].Kind == yaml.MappingNode {
		return roots[0]
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.errs = append(p.errs, &Error{File: p.file, Line: 1, Message: "the file is empty: a scenario needs at least a name"})
		} else {
			p.errs = append(p.errs, YAMLError(p.file, data, err))
		}
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		p.errorf(&extra, "", "a scenario file holds one YAML document; remove the second one (---)")
	} else if !errors.Is(err, io.EOF) {
		p.errs = append(p.errs, YAMLError(p.file, data, err))
	}
	root := deref(&doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = deref(root.Content[0])
	}
	if root == nil || root.Kind != yaml.MappingNode {
		line := 1
		if root != nil && root.Line > 0 {
			line = root.Line
		}
		p.errs = append(p.errs, &Error{File: p.file, Line: line, Message: fmt.Sprintf("a scenario is a mapping with name, objects and steps; found %s", kindName(root))})
		return nil
	}
	if len(p.errs) > 0 {
		return nil
	}
	return root
}

func (p *parser) scenario(root *yaml.Node, s *Scenario) {
	f, _ := p.fields(root, "", topLevelKeys)
	if e, ok := f["name"]; !ok {
		p.errorf(root, "", "missing required key %q", "name")
	} else if name, ok := p.str(e.Value, "name"); ok {
		if !isName(name) {
			p.errorf(e.Value, "name", "%q must match [a-z0-9-]+", name)
		}
		s.Name = name
	}
	if e, ok := f["description"]; ok && !isNull(e.Value) {
		s.Description, _ = p.str(e.Value, "description")
	}

	reg := fakeapi.NewRegistry()
	if e, ok := f["kinds"]; ok {
		s.Kinds = p.kinds(e.Value, reg)
	}
	if e, ok := f["controllers"]; ok {
		s.Controllers = p.controllers(e.Value)
	}
	if e, ok := f["objects"]; ok {
		for i, n := range p.list(e.Value, "objects") {
			if m := p.manifest(n, fmt.Sprintf("objects[%d]", i), reg); m != nil {
				s.Objects = append(s.Objects, *m)
			}
		}
	}
	if e, ok := f["steps"]; ok {
		for i, n := range p.list(e.Value, "steps") {
			if st := p.step(n, i, reg, s.Controllers); st != nil {
				s.Steps = append(s.Steps, *st)
			}
		}
	}
}

// list returns the entries of a list node; null is an empty list.
func (p *parser) list(n *yaml.Node, path string) []*yaml.Node {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, path, "expected a list, found %s", kindName(n))
		return nil
	}
	out := make([]*yaml.Node, len(n.Content))
	for i, e := range n.Content {
		out[i] = deref(e)
	}
	return out
}

func (p *parser) kinds(n *yaml.Node, reg *fakeapi.Registry) []fakeapi.KindInfo {
	var out []fakeapi.KindInfo
	for i, e := range p.list(n, "kinds") {
		path := fmt.Sprintf("kinds[%d]", i)
		f, ok := p.fields(e, path, []string{"apiVersion", "kind", "scope"})
		if !ok {
			continue
		}
		var k fakeapi.KindInfo
		good := true
		for _, key := range []string{"apiVersion", "kind", "scope"} {
			if _, ok := f[key]; !ok {
				p.errorf(e, path, "missing required key %q", key)
				good = false
			}
		}
		if !good {
			continue
		}
		av, ok1 := p.str(f["apiVersion"].Value, path+".apiVersion")
		kind, ok2 := p.str(f["kind"].Value, path+".kind")
		scope, ok3 := p.str(f["scope"].Value, path+".scope")
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		if !isKindName(kind) {
			p.errorf(f["kind"].Value, path+".kind", "%q is not a kind name (letters and digits, starting with a letter)", kind)
			continue
		}
		if scope != string(fakeapi.Namespaced) && scope != string(fakeapi.Cluster) {
			p.errorf(f["scope"].Value, path+".scope", "scope must be Namespaced or Cluster, found %q", scope)
			continue
		}
		k = fakeapi.KindInfo{APIVersion: av, Kind: kind, Scope: fakeapi.Scope(scope), Custom: true}
		if err := reg.Add(k); err != nil {
			p.errorf(e, path, "%v", err)
			continue
		}
		out = append(out, k)
	}
	return out
}

func (p *parser) controllers(n *yaml.Node) []string {
	names, nodes, _ := p.strList(n, "controllers")
	out := []string{}
	for i, c := range names {
		path := fmt.Sprintf("controllers[%d]", i)
		switch {
		case !slices.Contains(AllControllers, c):
			p.errorf(nodes[i], path, "unknown controller %q%s (gcplay has %s)", c, suggest(c, AllControllers), strings.Join(AllControllers, ", "))
		case slices.Contains(out, c):
			p.errorf(nodes[i], path, "controller %q is listed twice", c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// ref reads and resolves a reference.
func (p *parser) ref(n *yaml.Node, path string, reg *fakeapi.Registry) (Ref, bool) {
	s, ok := p.str(n, path)
	if !ok {
		return Ref{}, false
	}
	r, err := ResolveRef(reg, s)
	if err != nil {
		p.errorf(deref(n), path, "%v", err)
		return Ref{}, false
	}
	return r, true
}

func (p *parser) step(n *yaml.Node, i int, reg *fakeapi.Registry, controllers []string) *Step {
	path := fmt.Sprintf("steps[%d]", i)
	if n == nil || n.Kind != yaml.MappingNode {
		p.errorf(n, path, "a step is a mapping with one action key (%s); found %s", actionList(), kindName(n))
		return nil
	}
	entries := p.pairs(n, path, 0)
	var found []pair
	for _, e := range entries {
		if slices.Contains(actions, Action(e.Key)) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		for _, e := range entries {
			if !slices.Contains(allStepKeys, e.Key) {
				p.errorf(e.KeyN, path, "unknown key %q%s", e.Key, suggest(e.Key, allStepKeys))
			}
		}
		p.errorf(n, path, "a step needs one action key (%s); found none", actionList())
		return nil
	case 1:
	default:
		var names []string
		for _, e := range found {
			names = append(names, strconv.Quote(e.Key))
		}
		p.errorf(found[1].KeyN, path, "a step has exactly one action key; found %s", strings.Join(names, " and "))
		return nil
	}
	act := Action(found[0].Key)
	st := &Step{Index: i, Line: n.Line, Action: act}
	opts := map[string]pair{}
	allowed := append([]string{string(act)}, stepOptions[act]...)
	for _, e := range entries {
		switch {
		case e.Key == string(act):
		case slices.Contains(allowed, e.Key):
			opts[e.Key] = e
		case slices.Contains(allStepKeys, e.Key):
			p.errorf(e.KeyN, path, "%q is not an option of %s step%s", e.Key, article(string(act)), takes(stepOptions[act]))
		default:
			p.errorf(e.KeyN, path, "unknown key %q%s", e.Key, suggest(e.Key, allowed))
		}
	}
	if e, ok := opts["expectError"]; ok {
		if r, ok := p.str(e.Value, path+".expectError"); ok {
			switch {
			case r == "":
				// The empty reason a Status has when the apiserver
				// gives none (a 500 made of a plain error).
				st.ExpectNoReason = true
			case !fakeapi.KnownReason(fakeapi.Reason(r)):
				p.errorf(deref(e.Value), path+".expectError", "unknown reason %q%s", r, suggest(r, knownReasons))
			}
			st.ExpectError = fakeapi.Reason(r)
		}
	}
	v := found[0].Value
	apath := path + "." + string(act)
	switch act {
	case ActionCreate:
		st.Create = p.manifest(deref(v), apath, reg)
	case ActionDelete:
		st.Target, _ = p.ref(v, apath, reg)
		st.DeleteOptions = p.deleteOptions(opts, path)
	case ActionPatch:
		st.Target, _ = p.ref(v, apath, reg)
		e, ok := opts["merge"]
		if !ok {
			p.errorf(n, path, "a patch step needs merge: {...}, the JSON merge patch")
			break
		}
		m := deref(e.Value)
		if m == nil || m.Kind != yaml.MappingNode {
			p.errorf(m, path+".merge", "expected a mapping (the JSON merge patch), found %s", kindName(m))
			break
		}
		if val, ok := p.value(m, path+".merge", 0); ok {
			b, err := json.Marshal(val)
			if err != nil {
				p.errorf(m, path+".merge", "%v", err)
				break
			}
			st.Merge = b
		}
	case ActionStep:
		if c, ok := p.integer(v, apath); ok {
			if c < 1 || c > 1<<30 {
				p.errorf(deref(v), apath, "the number of work items must be at least 1, found %d", c)
			}
			st.Count = int(c)
		}
		if e, ok := opts["queue"]; ok {
			if q, ok := p.str(e.Value, path+".queue"); ok {
				if !slices.Contains(Queues, q) {
					p.errorf(deref(e.Value), path+".queue", "unknown queue %q%s (queues: %s)", q, suggest(q, Queues), strings.Join(Queues, ", "))
				}
				st.Queue = q
			}
		}
	case ActionSettle:
		st.MaxSteps = DefaultMaxSteps
		if isNull(v) {
			break
		}
		f, ok := p.fields(v, apath, []string{"maxSteps"})
		if !ok {
			break
		}
		if e, ok := f["maxSteps"]; ok {
			if m, ok := p.integer(e.Value, apath+".maxSteps"); ok {
				if m < 1 || m > 1<<30 {
					p.errorf(deref(e.Value), apath+".maxSteps", "maxSteps must be at least 1, found %d", m)
				}
				st.MaxSteps = int(m)
			}
		}
	case ActionAdvance:
		s, ok := p.str(v, apath)
		if !ok {
			break
		}
		d, err := time.ParseDuration(s)
		switch {
		case err != nil && durationRE.Get().MatchString(s):
			p.errorf(deref(v), apath, "duration %q is out of range: the clock moves at most %s (about 292 years) at a time", s, time.Duration(math.MaxInt64))
		case err != nil:
			p.errorf(deref(v), apath, "invalid duration %q: write a number with a unit, such as 30s, 2m or 1h30m", s)
		case d <= 0:
			p.errorf(deref(v), apath, "the duration must be positive, found %q", s)
		}
		st.Duration = d
	case ActionRestart:
		c, ok := p.str(v, apath)
		if !ok {
			break
		}
		switch {
		case !slices.Contains(restartable, c):
			p.errorf(deref(v), apath, "cannot restart %q%s: restart takes %s", c, suggest(c, restartable), strings.Join(restartable, ", "))
		case controllers != nil && !slices.Contains(controllers, c):
			p.errorf(deref(v), apath, "controller %q does not run in this scenario (controllers: [%s])", c, strings.Join(controllers, ", "))
		}
		st.Controller = c
	case ActionInject:
		p.inject(v, apath, reg, st)
	case ActionExpect:
		st.Expect = p.expect(v, apath, reg)
	case ActionExit:
		p.exitStep(v, opts, path, reg, st)
	case ActionRolloutUndo:
		st.Target, _ = p.ref(v, apath, reg)
		if k := st.Target.Kind; k != "" && k != "Deployment" && k != "StatefulSet" && k != "DaemonSet" {
			p.errorf(deref(v), apath, "rolloutUndo takes a Deployment, StatefulSet or DaemonSet, found %s", k)
		}
		if e, ok := opts["toRevision"]; ok {
			if i, ok := p.integer(e.Value, path+".toRevision"); ok {
				if i < 0 {
					p.errorf(deref(e.Value), path+".toRevision", "toRevision must be 0 (the previous revision) or more, found %d", i)
				}
				st.ToRevision = i
			}
		}
	}
	return st
}

var knownReasons = []string{"NotFound", "AlreadyExists", "Conflict", "Invalid", "Forbidden", "BadRequest",
	"UnsupportedMediaType", "InternalError", "ServiceUnavailable", "Timeout", "TooManyRequests", "MethodNotAllowed", "Gone"}

func actionList() string {
	var names []string
	for _, a := range actions {
		names = append(names, string(a))
	}
	return strings.Join(names, ", ")
}

// article prefixes a noun with "a" or "an".
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func takes(opts []string) string {
	if len(opts) == 0 {
		return " (it takes no options)"
	}
	return " (it takes " + strings.Join(opts, ", ") + ")"
}

// deleteOptions builds DeleteOptions from a delete step's sibling keys.
// Types are checked; values go to the apiserver as given.
func (p *parser) deleteOptions(opts map[string]pair, path string) *fakeapi.DeleteOptions {
	o := &fakeapi.DeleteOptions{}
	if e, ok := opts["propagationPolicy"]; ok {
		if s, ok := p.str(e.Value, path+".propagationPolicy"); ok {
			pp := fakeapi.DeletionPropagation(s)
			o.PropagationPolicy = &pp
		}
	}
	if e, ok := opts["orphanDependents"]; ok {
		if b, ok := p.boolean(e.Value, path+".orphanDependents"); ok {
			o.OrphanDependents = fakeapi.Bool(b)
		}
	}
	if e, ok := opts["gracePeriodSeconds"]; ok {
		if i, ok := p.integer(e.Value, path+".gracePeriodSeconds"); ok {
			o.GracePeriodSeconds = fakeapi.Int64(i)
		}
	}
	if e, ok := opts["preconditions"]; ok {
		ppath := path + ".preconditions"
		if f, ok := p.fields(e.Value, ppath, []string{"uid", "resourceVersion"}); ok {
			pre := &fakeapi.Preconditions{}
			if e, ok := f["uid"]; ok {
				if s, ok := p.str(e.Value, ppath+".uid"); ok {
					pre.UID = &s
				}
			}
			if e, ok := f["resourceVersion"]; ok {
				if s, ok := p.str(e.Value, ppath+".resourceVersion"); ok {
					pre.ResourceVersion = &s
				}
			}
			o.Preconditions = pre
		}
	}
	if e, ok := opts["dryRun"]; ok {
		v := deref(e.Value)
		switch {
		case v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool":
			if b, _ := p.boolean(v, path+".dryRun"); b {
				o.DryRun = []string{"All"}
			}
		case v != nil && v.Kind == yaml.SequenceNode:
			l, _, _ := p.strList(v, path+".dryRun")
			o.DryRun = append([]string{}, l...)
		default:
			p.errorf(v, path+".dryRun", "expected true, false or a list such as [All], found %s", kindName(v))
		}
	}
	return o
}

func (p *parser) inject(v *yaml.Node, path string, reg *fakeapi.Registry, st *Step) {
	f, ok := p.fields(v, path, []string{"verb", "object", "error", "times"})
	if !ok {
		return
	}
	for _, k := range []string{"verb", "object", "error"} {
		if _, ok := f[k]; !ok {
			p.errorf(deref(v), path, "missing required key %q", k)
		}
	}
	fault := fakeapi.Fault{Times: 1}
	if e, ok := f["verb"]; ok {
		if s, ok := p.str(e.Value, path+".verb"); ok {
			if !slices.Contains(injectVerbs, s) {
				p.errorf(deref(e.Value), path+".verb", "unknown verb %q%s (verbs: %s)", s, suggest(s, injectVerbs), strings.Join(injectVerbs, ", "))
			}
			fault.Verb = s
		}
	}
	if e, ok := f["object"]; ok {
		if s, ok := p.str(e.Value, path+".object"); ok {
			if !strings.Contains(s, "/") && !strings.HasPrefix(s, "uid:") {
				info, err := kindByName(reg, s)
				if err != nil {
					p.errorf(deref(e.Value), path+".object", "%v", err)
				}
				fault.Kind = info.Kind
			} else if r, err := ResolveRef(reg, s); err != nil {
				p.errorf(deref(e.Value), path+".object", "%v", err)
			} else {
				st.Target = r
				fault.Kind, fault.Namespace, fault.Name = r.Kind, r.Namespace, r.Name
			}
		}
	}
	if e, ok := f["error"]; ok {
		if s, ok := p.str(e.Value, path+".error"); ok {
			if !fakeapi.KnownReason(fakeapi.Reason(s)) {
				p.errorf(deref(e.Value), path+".error", "unknown reason %q%s", s, suggest(s, knownReasons))
			}
			fault.Reason = fakeapi.Reason(s)
		}
	}
	if e, ok := f["times"]; ok {
		if t, ok := p.integer(e.Value, path+".times"); ok {
			if t < 1 || t > 1<<30 {
				p.errorf(deref(e.Value), path+".times", "times must be at least 1, found %d", t)
			}
			fault.Times = int(t)
		}
	}
	st.Fault = fault
}
