package engine

import (
	"fmt"
	"sort"
)

// CheckGraphInvariants verifies R35 on the collector's graph: a node is in
// an owner's dependents exactly when its owners name that owner, and every
// dependent is the current node for its UID. It returns nil when the world
// runs no collector.
func (w *World) CheckGraphInvariants() error {
	if w.collector() == nil {
		return nil
	}
	g := w.collector()
	uids := make([]string, 0, g.uidToNode.Len())
	for uid := range g.uidToNode.All() {
		uids = append(uids, uid)
	}
	sort.Strings(uids)
	for _, uid := range uids {
		n, _ := g.uidToNode.Get(uid)
		if n.identity.UID != uid {
			return fmt.Errorf("uidToNode[%s] holds a node with uid %s", uid, n.identity.UID)
		}
		if !n.inGraph {
			return fmt.Errorf("uidToNode[%s] holds %s, which does not know it is in the graph", uid, n.identity.ref())
		}
		for _, d := range n.getDependents() {
			cur, ok := g.uidToNode.Get(d.identity.UID)
			if !ok {
				return fmt.Errorf("%s lists dependent %s, which is not in the graph", n.identity.ref(), d.identity.ref())
			}
			if cur != d {
				return fmt.Errorf("%s lists a stale copy of dependent %s", n.identity.ref(), d.identity.ref())
			}
			names := false
			for _, o := range d.owners {
				if o.UID == uid {
					names = true
				}
			}
			if !names {
				return fmt.Errorf("%s lists dependent %s, whose owners do not name it", n.identity.ref(), d.identity.ref())
			}
		}
		for _, o := range n.owners {
			owner, ok := g.uidToNode.Get(o.UID)
			if !ok {
				continue
			}
			if _, ok := owner.dependents[n]; !ok {
				return fmt.Errorf("%s names owner %s (%s), which does not list it as a dependent", n.identity.ref(), owner.identity.ref(), o.UID)
			}
		}
	}
	// A queued node that says it is in the graph is the graph's node for
	// its UID: the workers take it as that without a lookup (graphNode).
	for _, q := range []*workqueue[*node]{g.attemptToDelete, g.attemptToOrphan} {
		queued := q.Items()
		for _, w := range q.Waiting() {
			queued = append(queued, w.item)
		}
		for _, n := range queued {
			if cur, ok := g.uidToNode.Get(n.identity.UID); n.inGraph && (!ok || cur != n) {
				return fmt.Errorf("queued %s says it is in the graph, but uidToNode holds another node for %s", n.identity.ref(), n.identity.UID)
			}
		}
	}
	return nil
}
