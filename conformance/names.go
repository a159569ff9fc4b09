package main

import (
	"sort"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Controllers name what they create: a ReplicaSet's Pods get random
// suffixes, a Deployment's ReplicaSets the hash of the Pod template.
// gcplay generates such names deterministically, and scenarios and
// lessons name the objects by them (Pod/web-48qvr); the real cluster
// names them otherwise. The runner pairs the names up: within each group
// of objects of one kind and namespace created by a controller for one
// owner, the n-th object gcplay created is the n-th the real cluster
// created (owners first, so that a ReplicaSet's Pods are grouped under
// the real name of the ReplicaSet gcplay's name stands for). Objects of
// one group are interchangeable to the controller that made them, so the
// pairing inside a batch is arbitrary but consistent.
//
// Names given to generateName in the file are paired directly: the
// object the step created.

// simCreation is an object one of gcplay's controllers created.
type simCreation struct {
	kind, namespace, name string
	owner                 string // RefString of the object the controller was syncing
}

// simCreations lists, in order, the objects gcplay's controllers created
// in a run with records.
func simCreations(res *scenario.Result) []simCreation {
	var out []simCreation
	for _, st := range res.Steps {
		for _, rec := range st.Records {
			out = append(out, creationsOf(rec)...)
		}
	}
	return out
}

func creationsOf(rec engine.Record) []simCreation {
	if rec.Actor == "user" {
		return nil
	}
	var out []simCreation
	for _, c := range rec.Calls() {
		if c.Verb == "create" && c.Code < 300 && c.Code > 0 {
			out = append(out, simCreation{kind: c.Ref.Kind, namespace: c.Ref.Namespace, name: c.Ref.Name, owner: rec.Item})
		}
	}
	return out
}

// names maps gcplay's names of controller-made objects to the real ones.
type names struct {
	// toReal and toSim map "Kind|namespace|name" both ways.
	toReal map[string]string
	toSim  map[string]string
	// generated holds every name gcplay's controllers generated.
	generated map[string]bool
}

func nameKey(kind, namespace, name string) string { return kind + "|" + namespace + "|" + name }

// refresh pairs gcplay's creations with the real cluster's so far.
func (x *executor) refreshNames() {
	n := &names{toReal: map[string]string{}, toSim: map[string]string{}, generated: map[string]bool{}}
	for k, v := range x.userNames {
		n.toReal[k], n.toSim[nameKey(splitKind(k), splitNS(k), v)] = v, k
	}
	type group struct{ sim, real []string }
	groups := map[string]*group{}
	get := func(k string) *group {
		g, ok := groups[k]
		if !ok {
			g = &group{}
			groups[k] = g
		}
		return g
	}
	for _, c := range x.simMade {
		n.generated[nameKey(c.kind, c.namespace, c.name)] = true
		g := get(c.kind + "|" + c.namespace + "|" + c.owner)
		g.sim = append(g.sim, c.name)
	}
	// A controller that names what it makes without generateName (a
	// StatefulSet's Pods web-0, its claims data-web-0) gives the real
	// object the same name: pair those first, by name, whether or not the
	// real object has an owner.
	for _, sg := range x.rec.Sightings() {
		k := nameKey(sg.kind, sg.namespace, sg.name)
		if x.createdUIDs[sg.uid] || !n.generated[k] {
			continue
		}
		if _, ok := n.toReal[k]; !ok {
			n.toReal[k], n.toSim[k] = sg.name, k
		}
	}
	// Real objects in creation order; an owner is always created before
	// what it makes, so its pairing is known when its dependents come.
	for _, sg := range x.rec.Sightings() {
		if sg.owner == "" || x.createdUIDs[sg.uid] {
			continue
		}
		if _, ok := n.toSim[nameKey(sg.kind, sg.namespace, sg.name)]; ok {
			continue // paired by name above
		}
		owner := sg.owner
		if kind, ns, name, ok := parseRefString(owner, sg.namespace); ok {
			if sim, ok := n.toSim[nameKey(kind, ns, name)]; ok {
				owner = fakeapi.RefString(kind, ns, strings.SplitN(sim, "|", 3)[2])
			}
		}
		g, ok := groups[sg.kind+"|"+sg.namespace+"|"+owner]
		if !ok {
			continue
		}
		i := len(g.real)
		g.real = append(g.real, sg.name)
		if i < len(g.sim) {
			simKey := nameKey(sg.kind, sg.namespace, g.sim[i])
			realKey := nameKey(sg.kind, sg.namespace, sg.name)
			n.toReal[simKey] = sg.name
			n.toSim[realKey] = simKey
		}
	}
	x.names = n
}

func splitKind(k string) string { return strings.SplitN(k, "|", 3)[0] }
func splitNS(k string) string   { return strings.SplitN(k, "|", 3)[1] }

// parseRefString reads "Kind/name" or "Kind/namespace/name"; a
// two-part reference is in ns.
func parseRefString(s, ns string) (kind, namespace, name string, ok bool) {
	p := strings.Split(s, "/")
	switch len(p) {
	case 2:
		return p[0], ns, p[1], true
	case 3:
		return p[0], p[1], p[2], true
	}
	return "", "", "", false
}

// realName is the real name of the object gcplay calls name; ok is false
// for a name gcplay generated whose real counterpart does not exist (yet).
func (x *executor) realName(kind, namespace, name string) (string, bool) {
	if x.names == nil {
		return name, true
	}
	k := nameKey(kind, namespace, name)
	if r, ok := x.names.toReal[k]; ok {
		return r, true
	}
	return name, !x.names.generated[k]
}

// simName is gcplay's name for a real object's name.
func (x *executor) simName(kind, namespace, name string) string {
	if x.names == nil {
		return name
	}
	if s, ok := x.names.toSim[nameKey(kind, namespace, name)]; ok {
		return strings.SplitN(s, "|", 3)[2]
	}
	return name
}

// renamed lists the pairs of names in use, for the report.
func (x *executor) renamed() []string {
	if x.names == nil {
		return nil
	}
	var out []string
	for k, real := range x.names.toReal {
		p := strings.SplitN(k, "|", 3)
		if p[2] != real {
			out = append(out, fakeapi.RefString(p[0], p[1], p[2])+" = "+real)
		}
	}
	sort.Strings(out)
	return out
}
