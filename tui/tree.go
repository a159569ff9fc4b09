package tui

import (
	"sort"

	"github.com/gcplay/gcplay/fakeapi"
)

// row is one line of the world tree: an object in storage placed under one
// of its owners, or an owner that is not in storage (a dangling reference,
// for which the collector may hold a virtual node).
type row struct {
	uid string
	// obj is the stored object; nil for an owner that is not in storage.
	obj *fakeapi.Object
	// edge is the ownerReference from obj to the parent row; for a missing
	// owner, the first reference that names it. nil for roots in storage.
	edge *fakeapi.OwnerReference
	// missingRef names a missing owner (Kind/namespace/name).
	missingRef string
	parent     int32 // index of the parent row, -1 for roots
	depth      int32
	last       bool // the last child of its parent
	// elsewhere is set on an object shown under a second (or later) owner:
	// its dependents are listed under its first owner instead.
	elsewhere bool
	// cycle marks an object that is only reachable through an ownership
	// cycle, or a repeat of one inside the cycle.
	cycle bool
}

// depEdge is one dependent of an owner, with the reference that makes it so.
type depEdge struct {
	obj *fakeapi.Object
	ref *fakeapi.OwnerReference
}

// tree is the world flattened for display. It is rebuilt only when the
// world changes; drawing reads only the rows in view.
type tree struct {
	rows []row
	// all is every stored object the tree was built from, Events and
	// hidden namespaces included, in the store's order (Store.Objects).
	all []*fakeapi.Object
	// first maps a UID to the index of its first row.
	first map[string]int
	// deps maps an owner's UID to its dependents in storage, in the store's
	// object order.
	deps map[string][]depEdge
	// objects counts the stored objects shown. Namespaces that own
	// nothing and are not terminating are left out (namespace membership
	// is not ownership), and so
	// are Events, which the collector does not track.
	objects, hiddenNS, events int
}

// buildTree flattens objs (in the store's order) into rows: every object
// without owners is a root; every object appears under each of its owners
// (its dependents are expanded under the first one only); owners that are
// not in storage become roots of their own, after the objects in storage.
func buildTree(objs []*fakeapi.Object, reg *fakeapi.Registry) *tree {
	t := &tree{all: objs, first: make(map[string]int, len(objs)), deps: map[string][]depEdge{}}
	byUID := make(map[string]*fakeapi.Object, len(objs))
	kept := objs[:0:0]
	for _, o := range objs {
		if o.Kind == "Event" && o.APIVersion == "v1" {
			t.events++
			continue
		}
		byUID[o.Metadata.UID] = o
		kept = append(kept, o)
	}
	objs = kept
	type missing struct {
		ref  *fakeapi.OwnerReference
		name string
	}
	var missingOwners []missing
	seenMissing := map[string]bool{}
	for _, o := range objs {
		for i := range o.Metadata.OwnerReferences {
			r := &o.Metadata.OwnerReferences[i]
			t.deps[r.UID] = append(t.deps[r.UID], depEdge{obj: o, ref: r})
			if _, ok := byUID[r.UID]; !ok && !seenMissing[r.UID] {
				seenMissing[r.UID] = true
				ns := o.Metadata.Namespace
				if info, ok := reg.Lookup(r.APIVersion, r.Kind); ok && !info.Namespaced() {
					ns = ""
				}
				missingOwners = append(missingOwners, missing{ref: r, name: fakeapi.RefString(r.Kind, ns, r.Name)})
			}
		}
	}
	sort.SliceStable(missingOwners, func(i, j int) bool { return missingOwners[i].name < missingOwners[j].name })

	t.rows = make([]row, 0, len(objs)+len(missingOwners))
	expanded := make(map[string]bool, len(objs))
	add := func(r row) int32 {
		i := len(t.rows)
		t.rows = append(t.rows, r)
		if _, ok := t.first[r.uid]; !ok {
			t.first[r.uid] = i
		}
		return int32(i)
	}
	var expand func(uid string, at int32)
	expand = func(uid string, at int32) {
		children := t.deps[uid]
		for ci, d := range children {
			r := row{uid: d.obj.Metadata.UID, obj: d.obj, edge: d.ref, parent: at, depth: t.rows[at].depth + 1, last: ci == len(children)-1}
			primary := d.obj.Metadata.OwnerReferences[0].UID == uid
			switch {
			case primary && expanded[r.uid]:
				r.cycle = true
				add(r)
			case primary:
				expanded[r.uid] = true
				expand(r.uid, add(r))
			default:
				r.elsewhere = true
				add(r)
			}
		}
	}
	for _, o := range objs {
		if len(o.Metadata.OwnerReferences) > 0 {
			continue
		}
		uid := o.Metadata.UID
		// A terminating namespace is shown: what holds it is the question.
		if o.Kind == "Namespace" && len(t.deps[uid]) == 0 && o.Metadata.DeletionTimestamp == nil {
			t.hiddenNS++
			continue
		}
		expanded[uid] = true
		expand(uid, add(row{uid: uid, obj: o, parent: -1}))
	}
	for _, m := range missingOwners {
		expand(m.ref.UID, add(row{uid: m.ref.UID, edge: m.ref, missingRef: m.name, parent: -1}))
	}
	t.objects = len(objs) - t.hiddenNS
	// What is left is reachable only through a cycle of owners.
	for _, o := range objs {
		uid := o.Metadata.UID
		if expanded[uid] || len(o.Metadata.OwnerReferences) == 0 {
			continue
		}
		expanded[uid] = true
		expand(uid, add(row{uid: uid, obj: o, parent: -1, cycle: true}))
	}
	return t
}

// prefix returns the tree lines drawn before row i: at most maxLevels
// levels, the deeper ones shown as "…".
func (t *tree) prefix(i int, maxLevels int) string {
	r := &t.rows[i]
	if r.parent < 0 {
		return ""
	}
	depth := int(r.depth)
	levels := min(depth, maxLevels)
	segs := make([]string, levels)
	k := levels - 1
	if r.last {
		segs[k] = "└─ "
	} else {
		segs[k] = "├─ "
	}
	p := r.parent
	for k--; k >= 0 && p >= 0; k-- {
		pr := &t.rows[p]
		if pr.parent < 0 {
			break
		}
		if pr.last {
			segs[k] = "   "
		} else {
			segs[k] = "│  "
		}
		p = pr.parent
	}
	n := 0
	for _, s := range segs {
		n += len(s)
	}
	out := make([]byte, 0, n+4)
	if depth > levels {
		out = append(out, "… "...)
	}
	for _, s := range segs {
		out = append(out, s...)
	}
	return string(out)
}

// descendants counts the objects below uid: its dependents, theirs, and so
// on, each once.
func (t *tree) descendants(uid string) int {
	seen := map[string]bool{uid: true}
	stack := []string{uid}
	n := 0
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range t.deps[u] {
			du := d.obj.Metadata.UID
			if !seen[du] {
				seen[du] = true
				n++
				stack = append(stack, du)
			}
		}
	}
	return n
}
