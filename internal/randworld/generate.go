package randworld

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Generate makes the world of seed with 1 to 4 actions, each chosen from
// the state gcplay reaches, and returns it with its scenario file, whose
// expect blocks state what gcplay did after each settle.
func Generate(seed uint64) (*World, []byte, error) {
	g := newGen(seed)
	w := newWorld(g, seed)
	want := 1 + g.r.IntN(4)
	for tries := 0; len(w.Actions) < want && tries < 20; tries++ {
		state, err := Outcome(w, len(w.Actions))
		if err != nil {
			return nil, nil, err
		}
		a, ok := g.action(w, state)
		if !ok {
			continue
		}
		w.Actions = append(w.Actions, a)
		if _, err := Outcome(w, len(w.Actions)); err != nil {
			w.Actions = w.Actions[:len(w.Actions)-1] // an action gcplay refuses: choose another
		}
	}
	data, err := File(w)
	return w, data, err
}

// File renders the world with its expectations, each from gcplay's state
// after that settle.
func File(w *World) ([]byte, error) {
	var failed error
	data := w.Render(func(i int) []string {
		state, err := Outcome(w, i)
		if err != nil {
			failed = err
			return nil
		}
		return Expect(w, i, state)
	})
	return data, failed
}

// State is the world in gcplay's storage, by the reference steps use.
type State map[string]*fakeapi.Object

// Outcome runs the world in gcplay with its first n actions (and a final
// settle) and returns what storage holds.
func Outcome(w *World, n int) (State, error) {
	cut := *w
	cut.Actions = slices.Clone(w.Actions[:n])
	data := cut.Render(nil)
	s, err := scenario.Parse(w.Name+".yaml", data)
	if err != nil {
		return nil, fmt.Errorf("randworld: seed %d: the generated file is not valid: %v\n%s", w.Seed, err, data)
	}
	res := scenario.Run(s, scenario.RunOptions{CheckInvariants: true})
	if res.InternalError != "" {
		return nil, fmt.Errorf("randworld: seed %d: gcplay broke: %s\n%s", w.Seed, res.InternalError, data)
	}
	if err := res.Err(); err != nil {
		return nil, fmt.Errorf("randworld: seed %d: %v", w.Seed, err)
	}
	st := State{}
	for _, o := range res.Objects {
		if o.Kind == "Namespace" {
			continue
		}
		ref := o.Kind + "/" + o.Metadata.Name
		if o.Metadata.Namespace != "" && o.Metadata.Namespace != "default" {
			ref = o.Kind + "/" + o.Metadata.Namespace + "/" + o.Metadata.Name
		}
		st[ref] = o
	}
	return st, nil
}

// Expect is the expect block of settle i: every object the world has
// named so far, absent or present, and of the present ones whether they
// are terminating, their finalizers and their owners with both flags.
func Expect(w *World, i int, st State) []string {
	var names []string
	seen := map[string]bool{}
	add := func(o *Object) {
		if r := o.RefString(); !seen[r] {
			seen[r] = true
			names = append(names, r)
		}
	}
	for _, o := range w.Objects {
		add(o)
	}
	for _, a := range w.Actions[:i] {
		if a.Create != nil {
			add(a.Create)
		}
	}
	var absent, term, live []string
	for _, n := range names {
		o := st[n]
		switch {
		case o == nil:
			absent = append(absent, n)
		case o.Metadata.DeletionTimestamp != nil:
			term = append(term, n)
		default:
			live = append(live, n)
		}
	}
	var lines []string
	list := func(key string, l []string) {
		if len(l) > 0 {
			lines = append(lines, fmt.Sprintf("%s: [%s]", key, strings.Join(l, ", ")))
		}
	}
	list("absent", absent)
	list("terminating", term)
	list("notTerminating", live)
	present := append(slices.Clone(term), live...)
	slices.Sort(present)
	if len(present) > 0 {
		lines = append(lines, "finalizers:")
		for _, n := range present {
			lines = append(lines, fmt.Sprintf("  %s: [%s]", n, strings.Join(st[n].Metadata.Finalizers, ", ")))
		}
		lines = append(lines, "ownerReferences:")
		for _, n := range present {
			var owners []string
			for _, r := range st[n].Metadata.OwnerReferences {
				owners = append(owners, fmt.Sprintf("{owner: %s/%s, controller: %t, blockOwnerDeletion: %t}", r.Kind, r.Name, r.IsController(), r.Blocks()))
			}
			lines = append(lines, fmt.Sprintf("  %s: [%s]", n, strings.Join(owners, ", ")))
		}
	}
	return lines
}

// action chooses the next action from gcplay's state.
func (g *gen) action(w *World, st State) (Action, bool) {
	var present, terminating, held, finalized []int
	for i, o := range w.Objects {
		so := st[o.RefString()]
		if so == nil || (i > 0 && slices.ContainsFunc(w.Objects[:i], func(p *Object) bool { return p.RefString() == o.RefString() })) {
			continue
		}
		present = append(present, i)
		if so.Metadata.DeletionTimestamp != nil {
			terminating = append(terminating, i)
		}
		if so.Metadata.HasFinalizer(Hold) {
			held = append(held, i)
		}
		if len(so.Metadata.Finalizers) > 0 {
			finalized = append(finalized, i)
		}
	}
	a := Action{NoSettle: g.pct(20)}
	switch pick(g, []string{"delete", "unhold", "clear", "create"}, []int{55, 15, 10, 20}) {
	case "delete":
		if len(present) == 0 {
			return a, false
		}
		a.Op, a.Target = "delete", present[g.r.IntN(len(present))]
		switch owners := ownersOfOthers(w, st, present); {
		case len(terminating) > 0 && g.pct(35):
			a.Target = terminating[g.r.IntN(len(terminating))] // deleted again
		case len(owners) > 0 && g.pct(60):
			a.Target = owners[g.r.IntN(len(owners))] // an owner: a cascade follows
		}
		switch p := pick(g, []string{"", "Orphan", "Background", "Foreground", "legacy-orphan", "legacy-background"}, []int{20, 17, 13, 35, 8, 7}); p {
		case "legacy-orphan":
			a.OrphanDependents = boolp(true)
		case "legacy-background":
			a.OrphanDependents = boolp(false)
		default:
			a.Policy = p
		}
	case "unhold":
		if len(held) == 0 {
			return a, false
		}
		a.Op, a.Target = "unhold", held[g.r.IntN(len(held))]
		for _, f := range st[w.Objects[a.Target].RefString()].Metadata.Finalizers {
			if f != Hold {
				a.Finalizers = append(a.Finalizers, f)
			}
		}
	case "clear":
		if len(finalized) == 0 {
			return a, false
		}
		a.Op, a.Target = "clear", finalized[g.r.IntN(len(finalized))]
	case "create":
		n := len(w.Actions)
		var gone []int
		for i, o := range w.Objects {
			if st[o.RefString()] == nil {
				gone = append(gone, i)
			}
		}
		if len(gone) > 0 && g.pct(60) {
			// An owner created again under its old name: a new UID, which
			// the references to the old one do not name (R38).
			old := w.Objects[gone[g.r.IntN(len(gone))]]
			o := &Object{Kind: old.Kind, Name: old.Name, Namespace: old.Namespace, UID: fmt.Sprintf("%s-r%d", old.UID, n)}
			if g.pct(30) {
				o.Finalizers = []string{Hold}
			}
			a.Op, a.Create = "create", o
			return a, true
		}
		if len(present) == 0 {
			return a, false
		}
		// A late dependent of an object that is there, maybe terminating.
		owner := w.Objects[present[g.r.IntN(len(present))]]
		if len(terminating) > 0 && g.pct(50) {
			owner = w.Objects[terminating[g.r.IntN(len(terminating))]]
		}
		k := pick(g, []*Kind{ConfigMap, Secret}, []int{1, 1})
		o := &Object{Kind: k, Name: fmt.Sprintf("%s-late%d", k.Prefix, n), Namespace: "default", UID: fmt.Sprintf("late%d", n)}
		if !owner.Kind.Cluster {
			o.Namespace = owner.Namespace
		}
		ref := Ref{Kind: owner.Kind, Name: owner.Name, UID: st[owner.RefString()].Metadata.UID}
		if g.pct(50) {
			ref.Block = boolp(true)
		}
		o.Owners = []Ref{ref}
		a.Op, a.Create = "create", o
	}
	return a, a.Op != ""
}

// ownersOfOthers returns the present objects that some present object
// names as an owner (by UID).
func ownersOfOthers(w *World, st State, present []int) []int {
	uids := map[string]bool{}
	for _, o := range st {
		for _, r := range o.Metadata.OwnerReferences {
			uids[r.UID] = true
		}
	}
	var out []int
	for _, i := range present {
		if so := st[w.Objects[i].RefString()]; so != nil && uids[so.Metadata.UID] {
			out = append(out, i)
		}
	}
	return out
}
