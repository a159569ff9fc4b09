package scenario

import (
	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// ExitStep is the body of an exit step: the kubelet's report that the
// containers of one Pod (Target), or of Pods chosen by label selector,
// ended with exit code Code.
type ExitStep struct {
	// Target is the Pod of the one-Pod form (Kind is Pod).
	Target Ref
	// Selector, Namespace and Count are the selector form's; Count is 0
	// when the file gave none (every matching Pod).
	Selector  Selector
	Namespace string
	Count     int
	// Code is the containers' exit code (default 0).
	Code int
}

// exitStep reads `exit: <Pod ref>` or `exit: {selector, namespace, count}`
// with its optional sibling `code`.
func (p *parser) exitStep(v *yaml.Node, opts map[string]pair, path string, reg *fakeapi.Registry, st *Step) {
	ex := &ExitStep{}
	st.Exit = ex
	apath := path + ".exit"
	if e, ok := opts["code"]; ok {
		if c, ok := p.integer(e.Value, path+".code"); ok {
			if c < 0 || c > 255 {
				p.errorf(deref(e.Value), path+".code", "an exit code is between 0 and 255, found %d", c)
			}
			ex.Code = int(c)
		}
	}
	if n := deref(v); n != nil && n.Kind == yaml.ScalarNode {
		r, ok := p.ref(v, apath, reg)
		if ok && r.UID == "" && r.Kind != "Pod" {
			p.errorf(n, apath, "exit ends the containers of a Pod, not of a %s: write Pod/NAME or {selector: ...}", r.Kind)
		}
		ex.Target = r
		return
	}
	f, ok := p.fields(v, apath, []string{"selector", "namespace", "count"})
	if !ok {
		return
	}
	e, ok := f["selector"]
	if !ok {
		p.errorf(deref(v), apath, "the selector form needs selector: (a label selector such as job-name=pi)")
		return
	}
	if s, ok := p.str(e.Value, apath+".selector"); ok {
		sel, err := ParseSelector(s)
		if err != nil {
			p.errorf(deref(e.Value), apath+".selector", "%v", err)
		}
		ex.Selector = sel
	}
	ex.Namespace = "default"
	if e, ok := f["namespace"]; ok {
		if s, ok := p.str(e.Value, apath+".namespace"); ok {
			ex.Namespace = s
		}
	}
	if e, ok := f["count"]; ok {
		if c, ok := p.integer(e.Value, apath+".count"); ok {
			if c < 1 || c > 1<<30 {
				p.errorf(deref(e.Value), apath+".count", "count must be at least 1, found %d", c)
			}
			ex.Count = int(c)
		}
	}
}

// Action returns the engine action of an exit step; uid:<uid> references
// are resolved against store.
func (ex *ExitStep) Action(store *fakeapi.Store) (engine.Exit, error) {
	a := engine.Exit{Code: ex.Code}
	if ex.Target.Name != "" || ex.Target.UID != "" {
		ref, err := requestRef(store, ex.Target)
		if err != nil {
			return a, err
		}
		a.Pod = &ref
		return a, nil
	}
	sel := ex.Selector
	a.Namespace, a.Selector, a.Count = ex.Namespace, &sel, ex.Count
	return a, nil
}

// describe returns the step in one line.
func (ex *ExitStep) describe() string {
	s := "exit "
	if ex.Target.Name != "" || ex.Target.UID != "" {
		s += ex.Target.String()
	} else {
		s += "-l " + ex.Selector.String()
		if fakeapi.ShowNamespace(ex.Namespace) {
			s += " -n " + ex.Namespace
		}
		if ex.Count > 0 {
			s += " --count " + itoa(ex.Count)
		}
	}
	if ex.Code != 0 {
		s += " --code " + itoa(ex.Code)
	}
	return s
}
