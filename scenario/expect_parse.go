package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

var expectKeys = []string{"exists", "absent", "terminating", "notTerminating", "finalizers", "ownerReferences",
	"deletionOrder", "events", "noEvents", "graph", "queues", "count", "fields"}

func (p *parser) expect(n *yaml.Node, path string, reg *fakeapi.Registry) *Expect {
	f, ok := p.fields(n, path, expectKeys)
	if !ok {
		return nil
	}
	x := &Expect{}
	refList := func(key string) []RefCheck {
		e, ok := f[key]
		if !ok {
			return nil
		}
		var out []RefCheck
		for i, r := range p.list(e.Value, path+"."+key) {
			if ref, ok := p.ref(r, fmt.Sprintf("%s.%s[%d]", path, key, i), reg); ok {
				out = append(out, RefCheck{Ref: ref, Line: r.Line})
			}
		}
		return out
	}
	x.Exists = refList("exists")
	x.Absent = refList("absent")
	x.Terminating = refList("terminating")
	x.NotTerminating = refList("notTerminating")
	x.NoEvents = refList("noEvents")
	if e, ok := f["deletionOrder"]; ok {
		oc := &OrderCheck{Line: deref(e.Value).Line}
		for _, rc := range refList("deletionOrder") {
			oc.Refs = append(oc.Refs, rc.Ref)
		}
		x.DeletionOrder = oc
	}
	if e, ok := f["finalizers"]; ok {
		kpath := path + ".finalizers"
		for _, kv := range p.refMap(e.Value, kpath, reg) {
			fc := FinalizersCheck{Ref: kv.ref, Line: kv.line, Finalizers: []string{}}
			if !isNull(kv.value) {
				l, _, _ := p.strList(kv.value, kv.path)
				fc.Finalizers = append(fc.Finalizers, l...)
			}
			x.Finalizers = append(x.Finalizers, fc)
		}
	}
	if e, ok := f["ownerReferences"]; ok {
		for _, kv := range p.refMap(e.Value, path+".ownerReferences", reg) {
			oc := OwnersCheck{Ref: kv.ref, Line: kv.line, Owners: []OwnerExpectation{}}
			for i, o := range p.list(kv.value, kv.path) {
				if oe, ok := p.ownerExpectation(o, fmt.Sprintf("%s[%d]", kv.path, i), reg); ok {
					oc.Owners = append(oc.Owners, oe)
				}
			}
			x.OwnerReferences = append(x.OwnerReferences, oc)
		}
	}
	if e, ok := f["events"]; ok {
		for i, ev := range p.list(e.Value, path+".events") {
			epath := fmt.Sprintf("%s.events[%d]", path, i)
			ef, ok := p.fields(ev, epath, []string{"object", "type", "reason", "message"})
			if !ok {
				continue
			}
			ec := EventCheck{Line: ev.Line}
			o, ok := ef["object"]
			if !ok {
				p.errorf(ev, epath, "missing required key %q", "object")
				continue
			}
			if ec.Object, ok = p.ref(o.Value, epath+".object", reg); !ok {
				continue
			}
			for _, k := range []string{"type", "reason", "message"} {
				if kv, ok := ef[k]; ok {
					s, _ := p.str(kv.Value, epath+"."+k)
					switch k {
					case "type":
						ec.Type = s
					case "reason":
						ec.Reason = s
					case "message":
						ec.Message = s
					}
				}
			}
			x.Events = append(x.Events, ec)
		}
	}
	if e, ok := f["graph"]; ok {
		for _, kv := range p.refMap(e.Value, path+".graph", reg) {
			gf, ok := p.fields(kv.value, kv.path, []string{"virtual", "beingDeleted", "deletingDependents", "absent"})
			if !ok {
				continue
			}
			gc := GraphCheck{Ref: kv.ref, Line: kv.line}
			flag := func(k string) *bool {
				if e, ok := gf[k]; ok {
					if b, ok := p.boolean(e.Value, kv.path+"."+k); ok {
						return &b
					}
				}
				return nil
			}
			gc.Virtual, gc.BeingDeleted, gc.DeletingDependents, gc.Absent = flag("virtual"), flag("beingDeleted"), flag("deletingDependents"), flag("absent")
			if gc.Absent != nil && *gc.Absent && (gc.Virtual != nil || gc.BeingDeleted != nil || gc.DeletingDependents != nil) {
				p.errorf(deref(kv.value), kv.path, "absent: true cannot be combined with flags of the node")
			}
			x.Graph = append(x.Graph, gc)
		}
	}
	if e, ok := f["queues"]; ok {
		qpath := path + ".queues"
		v := deref(e.Value)
		if v == nil || v.Kind != yaml.MappingNode {
			p.errorf(v, qpath, "expected a mapping of queue names to lists, found %s", kindName(v))
		} else {
			for _, kv := range p.pairs(v, qpath, 1) {
				if !slices.Contains(Queues, kv.Key) {
					p.errorf(kv.KeyN, qpath, "unknown queue %q%s (queues: %s)", kv.Key, suggest(kv.Key, Queues), strings.Join(Queues, ", "))
					continue
				}
				qc := QueueCheck{Queue: kv.Key, Line: kv.KeyN.Line, Items: []Ref{}}
				for i, r := range p.list(kv.Value, qpath+"."+kv.Key) {
					if ref, ok := p.ref(r, fmt.Sprintf("%s.%s[%d]", qpath, kv.Key, i), reg); ok {
						qc.Items = append(qc.Items, ref)
					}
				}
				x.Queues = append(x.Queues, qc)
			}
		}
	}
	if e, ok := f["fields"]; ok {
		x.Fields = p.parseFields(e.Value, path+".fields", reg)
	}
	if e, ok := f["count"]; ok {
		for i, c := range p.list(e.Value, path+".count") {
			if cc, ok := p.countCheck(c, fmt.Sprintf("%s.count[%d]", path, i), reg); ok {
				cc.Index = i
				x.Count = append(x.Count, cc)
			}
		}
	}
	return x
}

// refEntry is one entry of a mapping keyed by references.
type refEntry struct {
	ref   Ref
	line  int
	path  string
	value *yaml.Node
}

// refMap reads a mapping whose keys are references.
func (p *parser) refMap(n *yaml.Node, path string, reg *fakeapi.Registry) []refEntry {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		p.errorf(n, path, "expected a mapping keyed by object references, found %s", kindName(n))
		return nil
	}
	var out []refEntry
	for _, kv := range p.pairs(n, path, 1) {
		kpath := path + "[" + kv.Key + "]"
		r, err := ResolveRef(reg, kv.Key)
		if err != nil {
			p.errorf(kv.KeyN, path, "%v", err)
			continue
		}
		out = append(out, refEntry{ref: r, line: kv.KeyN.Line, path: kpath, value: kv.Value})
	}
	return out
}

func (p *parser) ownerExpectation(n *yaml.Node, path string, reg *fakeapi.Registry) (OwnerExpectation, bool) {
	if n != nil && n.Kind == yaml.ScalarNode {
		r, ok := p.ownerRef(n, path, reg)
		return OwnerExpectation{Owner: r}, ok
	}
	f, ok := p.fields(n, path, []string{"owner", "controller", "blockOwnerDeletion"})
	if !ok {
		return OwnerExpectation{}, false
	}
	e, ok := f["owner"]
	if !ok {
		p.errorf(n, path, "missing required key %q", "owner")
		return OwnerExpectation{}, false
	}
	var oe OwnerExpectation
	if oe.Owner, ok = p.ownerRef(e.Value, path+".owner", reg); !ok {
		return oe, false
	}
	if e, ok := f["controller"]; ok {
		if b, ok := p.boolean(e.Value, path+".controller"); ok {
			oe.Controller = &b
		}
	}
	if e, ok := f["blockOwnerDeletion"]; ok {
		if b, ok := p.boolean(e.Value, path+".blockOwnerDeletion"); ok {
			oe.BlockOwnerDeletion = &b
		}
	}
	return oe, true
}

func (p *parser) countCheck(n *yaml.Node, path string, reg *fakeapi.Registry) (CountCheck, bool) {
	f, ok := p.fields(n, path, []string{"kind", "namespace", "selector", "ownedBy", "terminating", "equals"})
	if !ok {
		return CountCheck{}, false
	}
	c := CountCheck{Line: n.Line}
	good := true
	for _, k := range []string{"kind", "equals"} {
		if _, ok := f[k]; !ok {
			p.errorf(n, path, "missing required key %q", k)
			good = false
		}
	}
	var info fakeapi.KindInfo
	if e, ok := f["kind"]; ok {
		if s, ok := p.str(e.Value, path+".kind"); ok {
			var err error
			if info, err = kindByName(reg, s); err != nil {
				p.errorf(deref(e.Value), path+".kind", "%v", err)
				good = false
			}
			c.Kind = info.Kind
		} else {
			good = false
		}
	}
	if e, ok := f["namespace"]; ok {
		if s, ok := p.str(e.Value, path+".namespace"); ok {
			if c.Kind != "" && !info.Namespaced() {
				p.errorf(deref(e.Value), path+".namespace", "%s is cluster-scoped: remove namespace", info.Kind)
				good = false
			}
			c.Namespace = s
		}
	} else if info.Namespaced() {
		c.Namespace = "default"
	}
	if e, ok := f["selector"]; ok {
		if s, ok := p.str(e.Value, path+".selector"); ok {
			sel, err := ParseSelector(s)
			if err != nil {
				p.errorf(deref(e.Value), path+".selector", "%v", err)
				good = false
			}
			c.Selector = sel
		}
	}
	if e, ok := f["ownedBy"]; ok {
		if r, ok := p.ref(e.Value, path+".ownedBy", reg); ok {
			c.OwnedBy = &r
		} else {
			good = false
		}
	}
	if e, ok := f["terminating"]; ok {
		if b, ok := p.boolean(e.Value, path+".terminating"); ok {
			c.Terminating = &b
		}
	}
	if e, ok := f["equals"]; ok {
		if v, ok := p.integer(e.Value, path+".equals"); ok {
			if v < 0 || v > 1<<30 {
				p.errorf(deref(e.Value), path+".equals", "equals must be a count, found %d", v)
				good = false
			}
			c.Equals = int(v)
		} else {
			good = false
		}
	}
	return c, good
}

// ownerRef reads an owner of expect.ownerReferences (see ResolveOwnerRef).
func (p *parser) ownerRef(n *yaml.Node, path string, reg *fakeapi.Registry) (Ref, bool) {
	s, ok := p.str(n, path)
	if !ok {
		return Ref{}, false
	}
	r, err := ResolveOwnerRef(reg, s)
	if err != nil {
		p.errorf(deref(n), path, "%v", err)
		return Ref{}, false
	}
	return r, true
}
