// Package randworld generates scenario files nobody wrote by hand: small
// worlds of owners and dependents (several owners per object, cycles,
// dangling and cross-namespace references, cluster-scoped owners, custom
// and GC finalizers), then actions on them (deletes with each policy and
// the legacy orphanDependents field, deletes again with another policy,
// finalizer removals, owners created again under their old name, late
// dependents), each followed by a settle and an expect that states what
// gcplay did. make conformance-random runs them on a real control plane
// too, and every check there says whether Kubernetes did the same.
//
// Generation is deterministic: a seed always gives the same file, byte for
// byte. The random source is a PCG seeded by the caller, never the global
// one.
package randworld

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Kind is a kind the generator uses.
type Kind struct {
	APIVersion, Kind string
	// Prefix starts the names of objects of the kind.
	Prefix string
	// Cluster is true for a cluster-scoped kind.
	Cluster bool
	// Custom kinds are declared under the scenario's kinds (a
	// CustomResourceDefinition on a real cluster): the collector patches
	// them with JSON merge patches (R53).
	Custom bool
	// Body is the rest of the manifest after metadata, in flow style.
	Body string
}

// The kinds worlds are made of: plain namespaced kinds with no default
// policy, a Job (Orphan by default, R15), a cluster-scoped kind, and a
// custom kind.
var (
	ConfigMap   = &Kind{APIVersion: "v1", Kind: "ConfigMap", Prefix: "cm"}
	Secret      = &Kind{APIVersion: "v1", Kind: "Secret", Prefix: "sec"}
	Job         = &Kind{APIVersion: "batch/v1", Kind: "Job", Prefix: "job", Body: "spec: {suspend: true, template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}"}
	ClusterRole = &Kind{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Prefix: "cr", Cluster: true}
	Widget      = &Kind{APIVersion: "example.com/v1", Kind: "Widget", Prefix: "wd", Custom: true}
	// Gizmo is a kind no API serves: only dangling references name it
	// (the collector retries their dependents forever, R61).
	Gizmo = &Kind{APIVersion: "example.com/v1", Kind: "Gizmo", Prefix: "gz"}
)

// OtherNamespace is the second namespace of worlds that have one.
const OtherNamespace = "other"

// Hold is the custom finalizer the generator puts on objects.
const Hold = "example.com/hold"

// Ref is an owner reference of a generated object.
type Ref struct {
	Kind *Kind
	Name string
	UID  string
	// Block and Controller are nil when the reference leaves them out.
	Block, Controller *bool
}

// Object is one object of the starting world, or one a step creates.
type Object struct {
	Kind       *Kind
	Name       string
	Namespace  string // "" for cluster-scoped kinds
	UID        string
	Finalizers []string
	Owners     []Ref
}

// RefString is the object as scenario steps name it.
func (o *Object) RefString() string {
	if o.Namespace == "" || o.Namespace == "default" {
		return o.Kind.Kind + "/" + o.Name
	}
	return o.Kind.Kind + "/" + o.Namespace + "/" + o.Name
}

// Action is one thing done to a settled world.
type Action struct {
	// Op is "delete", "unhold" (remove the custom finalizer), "clear"
	// (remove every finalizer) or "create".
	Op string
	// Target is the index of the object in World.Objects (delete, unhold,
	// clear), or the object to create.
	Target int
	Create *Object
	// Policy is the propagationPolicy of a delete, "" for none;
	// OrphanDependents the legacy field, nil when not sent.
	Policy           string
	OrphanDependents *bool
	// Finalizers is what "unhold" leaves (computed from gcplay's state
	// when the action is chosen).
	Finalizers []string
	// NoSettle runs the next action at once, while the controllers work.
	NoSettle bool
}

// World is a generated scenario before its expectations.
type World struct {
	Name    string
	Seed    uint64
	Objects []*Object
	Actions []Action
}

// UsesNamespace reports whether some object lives in OtherNamespace.
func (w *World) UsesNamespace() bool {
	for _, o := range w.all() {
		if o.Namespace == OtherNamespace {
			return true
		}
	}
	return false
}

// UsesCustom reports whether the world has a custom kind.
func (w *World) UsesCustom() bool {
	for _, o := range w.all() {
		if o.Kind.Custom {
			return true
		}
		for _, r := range o.Owners {
			if r.Kind.Custom {
				return true
			}
		}
	}
	return false
}

// all returns the starting objects and the ones actions create.
func (w *World) all() []*Object {
	out := slices.Clone(w.Objects)
	for _, a := range w.Actions {
		if a.Create != nil {
			out = append(out, a.Create)
		}
	}
	return out
}

func boolp(b bool) *bool { return &b }

// gen holds the random source of one world.
type gen struct {
	r *rand.Rand
}

func (g *gen) pct(p int) bool { return g.r.IntN(100) < p }

// pick returns one of the weighted choices.
func pick[T any](g *gen, choices []T, weights []int) T {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := g.r.IntN(total)
	for i, w := range weights {
		if n < w {
			return choices[i]
		}
		n -= w
	}
	return choices[len(choices)-1]
}

func newGen(seed uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))} }

// newWorld makes the starting world: 2 to 7 objects.
func newWorld(g *gen, seed uint64) *World {
	w := &World{Name: fmt.Sprintf("random-%d", seed), Seed: seed}
	custom := g.pct(25)
	other := g.pct(30)
	n := 2 + g.r.IntN(6)
	for i := range n {
		k := pick(g, []*Kind{ConfigMap, Secret, Job, ClusterRole, Widget}, []int{40, 20, 10, 20, 10})
		if k == Widget && !custom {
			k = ConfigMap
		}
		o := &Object{Kind: k, Name: fmt.Sprintf("%s-%d", k.Prefix, i), UID: fmt.Sprintf("u%d", i)}
		if !k.Cluster {
			o.Namespace = "default"
			if other && g.pct(25) {
				o.Namespace = OtherNamespace
			}
		}
		switch {
		case g.pct(25):
			o.Finalizers = append(o.Finalizers, Hold)
		}
		switch {
		case g.pct(5):
			o.Finalizers = append(o.Finalizers, "orphan")
		case g.pct(5):
			o.Finalizers = append(o.Finalizers, "foregroundDeletion")
		}
		w.Objects = append(w.Objects, o)
	}
	// Owner references, chosen once every object has its name and UID, so
	// that an object may name a later one (cycles).
	for i, o := range w.Objects {
		nrefs := pick(g, []int{0, 1, 2, 3}, []int{20, 45, 25, 10})
		hasController := false
		for range nrefs {
			var ref Ref
			switch pick(g, []string{"earlier", "later", "dangling", "stale"}, []int{55, 22, 12, 11}) {
			case "earlier":
				if i == 0 {
					continue
				}
				ref = refTo(w.Objects[g.r.IntN(i)])
			case "later":
				if i == len(w.Objects)-1 {
					continue
				}
				ref = refTo(w.Objects[i+1+g.r.IntN(len(w.Objects)-i-1)])
			case "dangling":
				k := pick(g, []*Kind{ConfigMap, ClusterRole, Gizmo}, []int{60, 25, 15})
				ref = Ref{Kind: k, Name: fmt.Sprintf("gone-%d-%d", i, len(o.Owners)), UID: fmt.Sprintf("x%d-%d", i, len(o.Owners))}
			case "stale":
				// The name of an existing object, a UID it does not have.
				t := w.Objects[g.r.IntN(len(w.Objects))]
				ref = refTo(t)
				ref.UID = fmt.Sprintf("old-%s", t.UID)
			}
			if slices.ContainsFunc(o.Owners, func(r Ref) bool { return r.UID == ref.UID }) || ref.UID == o.UID {
				continue
			}
			g.flags(&ref)
			if !hasController && g.pct(20) {
				ref.Controller, hasController = boolp(true), true
			}
			o.Owners = append(o.Owners, ref)
		}
	}
	// A world in three has two objects that own each other: the cycles
	// the collector's cycle breaker is for (R44(b), R55).
	if n := len(w.Objects); g.pct(35) {
		a := w.Objects[g.r.IntN(n)]
		b := w.Objects[(slices.Index(w.Objects, a)+1+g.r.IntN(n-1))%n]
		for _, p := range [][2]*Object{{a, b}, {b, a}} {
			dep, owner := p[0], p[1]
			if !slices.ContainsFunc(dep.Owners, func(r Ref) bool { return r.UID == owner.UID }) {
				ref := refTo(owner)
				g.flags(&ref)
				dep.Owners = append(dep.Owners, ref)
			}
		}
	}
	return w
}

// flags sets blockOwnerDeletion: left out, false or true.
func (g *gen) flags(ref *Ref) {
	switch pick(g, []int{0, 1, 2}, []int{40, 20, 40}) {
	case 1:
		ref.Block = boolp(false)
	case 2:
		ref.Block = boolp(true)
	}
}

func refTo(o *Object) Ref { return Ref{Kind: o.Kind, Name: o.Name, UID: o.UID} }

// Render writes the world as a scenario file. expect, when not nil, gives
// the expect block after each settle (the index of the settle: 0 for the
// one after the starting world, i+1 after action i); it returns YAML lines
// to put under "- expect:", indented by six spaces, or nothing.
func (w *World) Render(expect func(settle int) []string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Generated by internal/randworld from seed %d (make conformance-random).\n", w.Seed)
	fmt.Fprintf(&b, "name: %s\n", w.Name)
	if w.UsesCustom() {
		fmt.Fprintf(&b, "kinds:\n  - {apiVersion: %s, kind: %s, scope: Namespaced}\n", Widget.APIVersion, Widget.Kind)
	}
	b.WriteString("controllers: [garbagecollector]\nobjects:\n")
	if w.UsesNamespace() {
		fmt.Fprintf(&b, "  - {apiVersion: v1, kind: Namespace, metadata: {name: %s}}\n", OtherNamespace)
	}
	for _, o := range w.Objects {
		b.WriteString(manifest(o, "  - "))
	}
	b.WriteString("steps:\n  - settle: {}\n")
	writeExpect := func(i int) {
		if expect == nil {
			return
		}
		if lines := expect(i); len(lines) > 0 {
			b.WriteString("  - expect:\n")
			for _, l := range lines {
				b.WriteString("      " + l + "\n")
			}
		}
	}
	writeExpect(0)
	for i, a := range w.Actions {
		switch a.Op {
		case "delete":
			fmt.Fprintf(&b, "  - delete: %s\n", w.Objects[a.Target].RefString())
			if a.Policy != "" {
				fmt.Fprintf(&b, "    propagationPolicy: %s\n", a.Policy)
			}
			if a.OrphanDependents != nil {
				fmt.Fprintf(&b, "    orphanDependents: %t\n", *a.OrphanDependents)
			}
		case "unhold":
			fmt.Fprintf(&b, "  - patch: %s\n    merge: {metadata: {finalizers: [%s]}}\n", w.Objects[a.Target].RefString(), strings.Join(a.Finalizers, ", "))
		case "clear":
			fmt.Fprintf(&b, "  - patch: %s\n    merge: {metadata: {finalizers: null}}\n", w.Objects[a.Target].RefString())
		case "create":
			b.WriteString(manifest(a.Create, "  - create: "))
		}
		if !a.NoSettle || i == len(w.Actions)-1 {
			b.WriteString("  - settle: {}\n")
			writeExpect(i + 1)
		}
	}
	return []byte(b.String())
}

// manifest writes an object in flow style on one line (plus its owner
// references, one a line).
func manifest(o *Object, lead string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s{apiVersion: %s, kind: %s, metadata: {name: %s", lead, o.Kind.APIVersion, o.Kind.Kind, o.Name)
	if o.Namespace != "" && o.Namespace != "default" {
		fmt.Fprintf(&b, ", namespace: %s", o.Namespace)
	}
	fmt.Fprintf(&b, ", uid: %s", o.UID)
	if len(o.Finalizers) > 0 {
		fmt.Fprintf(&b, ", finalizers: [%s]", strings.Join(o.Finalizers, ", "))
	}
	if len(o.Owners) > 0 {
		b.WriteString(", ownerReferences: [")
		for i, r := range o.Owners {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "{apiVersion: %s, kind: %s, name: %s, uid: %s", r.Kind.APIVersion, r.Kind.Kind, r.Name, r.UID)
			if r.Controller != nil {
				fmt.Fprintf(&b, ", controller: %t", *r.Controller)
			}
			if r.Block != nil {
				fmt.Fprintf(&b, ", blockOwnerDeletion: %t", *r.Block)
			}
			b.WriteString("}")
		}
		b.WriteString("]")
	}
	b.WriteString("}")
	if o.Kind.Body != "" {
		b.WriteString(", " + o.Kind.Body)
	}
	b.WriteString("}\n")
	return b.String()
}
