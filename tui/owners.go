package tui

import (
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/locale"
)

// maxOwnerDepth bounds the owners chain the inspector draws: ownership
// may be a cycle (lesson 12), and a chain deeper than this is not one a
// reader follows on screen.
const maxOwnerDepth = 8

// mark is a styled word after a name.
type mark struct {
	st   *ink
	text string
}

// ownerlessKey is the message for an object with no owner references.
// The collector never deletes such an object as a dependent (R42), but a
// delete with Foreground or Orphan propagation hands it to the collector
// all the same: it waits for the blocking dependents and then removes
// foregroundDeletion (R47), or strips the dependents' references and then
// removes orphan (R50). Telling a learner watching a Foreground delete of
// a root that "the collector never deletes it" would teach the wrong rule.
func ownerlessKey(meta *fakeapi.ObjectMeta) string {
	if meta.DeletionTimestamp != nil {
		switch {
		case meta.HasFinalizer(fakeapi.FinalizerDeleteDependents):
			return "inspector-owners-none-foreground"
		case meta.HasFinalizer(fakeapi.FinalizerOrphanDependents):
			return "inspector-owners-none-orphan"
		}
	}
	return "inspector-owners-none"
}

// ownerChain is the inspector's view up the ownership graph: the selected
// object's owners, each with its own owners below it, indented, up to the
// objects that own nothing (the world tree is the other direction, owner
// to dependents). Each line is an ownerReference: the owner it names,
// whether it is the controller reference and blocks the owner's deletion,
// and whether that owner is in storage (with that uid) or terminating.
func (m *Model) ownerChain(o *fakeapi.Object, width int) []*line {
	t := &m.th
	var out []*line
	if len(o.Metadata.OwnerReferences) == 0 {
		for _, w := range wrap(m.tr.T(ownerlessKey(&o.Metadata)), max(width-1, 10)) {
			out = append(out, new(line).add(&t.dim, w))
		}
		return out
	}
	for _, w := range wrap(m.tr.T("inspector-owners"), max(width-1, 10)) {
		out = append(out, new(line).add(&t.edge, w))
	}
	out = append(out, new(line).add(&t.bold, o.String()))
	seen := map[string]bool{o.Metadata.UID: true}
	var walk func(dep *fakeapi.Object, depth int)
	walk = func(dep *fakeapi.Object, depth int) {
		for _, r := range dep.Metadata.OwnerReferences {
			owner := m.snap.store.ByUID(r.UID)
			if owner != nil && (owner.Kind != r.Kind || owner.Metadata.Name != r.Name ||
				(owner.Metadata.Namespace != "" && owner.Metadata.Namespace != dep.Metadata.Namespace)) {
				owner = nil // the uid is another object's: the reference dangles
			}
			name := r.Kind + "/" + r.Name
			if owner != nil {
				name = owner.String()
			}
			var marks []mark
			var f []string
			if r.IsController() {
				f = append(f, "ctrl")
			}
			if r.Blocks() {
				f = append(f, "block")
			}
			if len(f) > 0 {
				marks = append(marks, mark{&t.edge, "[" + strings.Join(f, ",") + "]"})
			}
			cycle := owner != nil && seen[owner.Metadata.UID]
			switch {
			case owner == nil:
				marks = append(marks, mark{&t.dangling, m.tr.T("inspector-owner-absent")})
			case owner.Metadata.DeletionTimestamp != nil:
				marks = append(marks, mark{&t.terminating, "terminating"})
			}
			if cycle {
				marks = append(marks, mark{&t.cycle, "↻cycle"})
			}
			indent := strings.Repeat("  ", depth+1)
			l := new(line).add(nil, indent+"↑ ").add(&t.text, name)
			out = append(out, l)
			// The marks go on a line of their own, under the name, when
			// the pane is too narrow for both: neither the name nor
			// [ctrl] may be cut.
			w := locale.Width(indent + "↑ " + name)
			for _, mk := range marks {
				w += 1 + locale.Width(mk.text)
			}
			sep := " "
			if w > width-1 && len(marks) > 0 {
				l = new(line).add(nil, indent+"  ")
				out = append(out, l)
				sep = ""
			}
			for _, mk := range marks {
				l.add(nil, sep).add(mk.st, mk.text)
				sep = " "
			}
			if owner == nil || cycle || depth+1 >= maxOwnerDepth {
				continue
			}
			seen[owner.Metadata.UID] = true
			walk(owner, depth+1)
			delete(seen, owner.Metadata.UID)
		}
	}
	walk(o, 0)
	return out
}
