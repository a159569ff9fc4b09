package engine

import (
	"container/list"
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// objectReference is the identity of a graph node: the coordinates of an
// owner reference (apiVersion, kind, name, uid) plus a namespace. It is a
// comparable value, used as the absentOwnerCache key (R36).
type objectReference struct {
	APIVersion string
	Kind       string
	Name       string
	UID        string
	Namespace  string
}

// String formats the reference as upstream's objectReference.String does,
// which the OwnerRefInvalidNamespace event text uses (R60).
func (r objectReference) String() string {
	return fmt.Sprintf("[%s/%s, namespace: %s, name: %s, uid: %s]", r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID)
}

// ref returns the scenario-file form ("Kind/name").
func (r objectReference) ref() string { return fakeapi.RefString(r.Kind, r.Namespace, r.Name) }

// coordinates returns the coordinates of an owner reference: everything but
// controller and blockOwnerDeletion.
func coordinates(o fakeapi.OwnerReference) objectReference {
	return objectReference{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: o.UID}
}

// matchesCoordinates reports whether an owner reference names exactly the
// identity's coordinates (namespace aside).
func matchesCoordinates(o fakeapi.OwnerReference, id objectReference) bool {
	return o.UID == id.UID && o.Name == id.Name && o.Kind == id.Kind && o.APIVersion == id.APIVersion
}

// node is one entry of uidToNode: an object the collector knows of, either
// observed through its informers or "virtual" (only referenced as an owner).
// The graph builder is its sole writer; workers read it.
type node struct {
	identity objectReference
	// dependents are the nodes whose owners name this node's UID; nil
	// until the first one is added.
	dependents map[*node]struct{}
	// owners are the ownerReferences last observed on the object. The
	// slice is shared with the stored object, which is never modified in
	// place (the store writes a new object on every change), so it is
	// never modified here either.
	owners []fakeapi.OwnerReference
	// beingDeleted is set once a deletionTimestamp is observed; never cleared.
	beingDeleted bool
	// deletingDependents is set when foreground deletion starts; never cleared.
	deletingDependents bool
	// virtual is true until an informer event for the UID is observed.
	virtual bool
	// queued holds the node's membership in the dirty and processing sets
	// of attemptToDelete and attemptToOrphan (see workqueue.flagsOf): kept here
	// rather than in a map of 100,000 nodes, it costs no memory access of
	// its own. A clone for another world copies it; node.clone does not.
	queued uint8
	// inGraph says that uidToNode holds this node for its UID (see
	// garbageCollector.setNode): a worker then knows the graph's node for
	// a queued item without a lookup in a map of 100,000 nodes.
	inGraph bool
	// copied is the node's copy while a world is cloned
	// (garbageCollector.clone), nil otherwise.
	copied *node
}

func (n *node) addDependent(d *node) {
	if n.dependents == nil {
		n.dependents = map[*node]struct{}{}
	}
	n.dependents[d] = struct{}{}
}
func (n *node) deleteDependent(d *node) { delete(n.dependents, d) }

// String is the node's reference, as the trace writes it.
func (n *node) String() string   { return n.identity.ref() }
func (n *node) isObserved() bool { return !n.virtual }

// getDependents returns the dependents sorted by UID, so that every
// decision made over them is deterministic.
func (n *node) getDependents() []*node {
	if len(n.dependents) == 0 {
		return nil
	}
	out := make([]*node, 0, len(n.dependents))
	for d := range n.dependents {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b *node) int { return strings.Compare(a.identity.UID, b.identity.UID) })
	return out
}

// blockingDependents returns the dependents whose observed owners name this
// node with blockOwnerDeletion=true (R47). It reads the graph's owners, so
// a dependent still terminating in storage still blocks.
func (n *node) blockingDependents() []*node {
	var out []*node
	for _, dep := range n.getDependents() {
		for _, o := range dep.owners {
			if o.UID == n.identity.UID && o.Blocks() {
				out = append(out, dep)
				break
			}
		}
	}
	return out
}

// clone returns a shallow copy with its own dependents set, as upstream's
// node.clone: the old pointer may still sit in a queue.
func (n *node) clone() *node {
	c := *n
	c.queued = 0      // a new item, in no queue
	c.inGraph = false // not in the graph until setNode puts it there
	c.dependents = nil
	for d := range n.dependents {
		c.addDependent(d)
	}
	return &c
}

func (n *node) view() NodeView {
	v := NodeView{
		UID: n.identity.UID, APIVersion: n.identity.APIVersion, Kind: n.identity.Kind,
		Namespace: n.identity.Namespace, Name: n.identity.Name,
		Virtual: n.virtual, BeingDeleted: n.beingDeleted, DeletingDependents: n.deletingDependents,
	}
	for _, o := range n.owners {
		v.Owners = append(v.Owners, o.DeepCopy())
	}
	for _, d := range n.getDependents() {
		v.Dependents = append(v.Dependents, d.identity.UID)
	}
	return v
}

// absentOwnerCache is an LRU set of identities verified absent (R36): keyed
// by the full coordinates plus namespace, size 500. A hit refreshes the
// entry; entries leave only by eviction. Like upstream's LRU it is a map
// into a doubly linked list, so every operation is O(1).
type absentOwnerCache struct {
	size  int
	ll    *list.List // of objectReference, most recently used at the front
	index map[objectReference]*list.Element
	// noNamespace counts the entries without a namespace. The collector
	// asks about an owner's cluster-scoped key before its namespaced one,
	// for every dependent; while no entry has that shape, the answer is
	// known without hashing the key.
	noNamespace int
}

const absentOwnerCacheSize = 500

func newAbsentOwnerCache(size int) *absentOwnerCache {
	return &absentOwnerCache{size: size, ll: list.New(), index: map[objectReference]*list.Element{}}
}

// Add records ref as absent, evicting the least recently used entry when full.
func (c *absentOwnerCache) Add(ref objectReference) {
	if e, ok := c.index[ref]; ok {
		c.ll.MoveToFront(e)
		return
	}
	c.index[ref] = c.ll.PushFront(ref)
	if ref.Namespace == "" {
		c.noNamespace++
	}
	if c.ll.Len() > c.size {
		last := c.ll.Back()
		c.ll.Remove(last)
		gone := last.Value.(objectReference)
		delete(c.index, gone)
		if gone.Namespace == "" {
			c.noNamespace--
		}
	}
}

// Has reports whether ref is recorded absent, refreshing it.
func (c *absentOwnerCache) Has(ref objectReference) bool {
	// The owner asked about last is usually asked about again (the 1,000
	// Pods of a deleted ReplicaSet): it is already the most recent entry,
	// found without hashing its five strings.
	if f := c.ll.Front(); f != nil && f.Value.(objectReference) == ref {
		return true
	}
	if ref.Namespace == "" && c.noNamespace == 0 {
		return false
	}
	e, ok := c.index[ref]
	if ok {
		c.ll.MoveToFront(e)
	}
	return ok
}

// entries returns the entries, most recently used first.
func (c *absentOwnerCache) entries() []objectReference {
	out := make([]objectReference, 0, c.ll.Len())
	for e := c.ll.Front(); e != nil; e = e.Next() {
		out = append(out, e.Value.(objectReference))
	}
	return out
}

func (c *absentOwnerCache) clone() *absentOwnerCache {
	n := newAbsentOwnerCache(c.size)
	for e := c.ll.Back(); e != nil; e = e.Prev() {
		n.index[e.Value.(objectReference)] = n.ll.PushFront(e.Value)
	}
	n.noNamespace = c.noNamespace
	return n
}
