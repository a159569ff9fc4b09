package engine

import (
	"fmt"
	"sort"

	"github.com/gcplay/gcplay/fakeapi"
)

type eventType int

const (
	addEvent eventType = iota
	updateEvent
	deleteEvent
)

func (t eventType) String() string {
	switch t {
	case addEvent:
		return "add"
	case updateEvent:
		return "update"
	default:
		return "delete"
	}
}

// graphEvent is one item of graphChanges: an informer event, or a virtual
// delete event queued by a worker.
type graphEvent struct {
	eventType eventType
	virtual   bool
	// queued holds the event's membership in the dirty and processing
	// sets of graphChanges (see workqueue.flagsOf). It and label are the
	// only fields written after the event is made, so a clone of the
	// world copies the events still queued.
	queued uint8
	// obj is the new object (for delete events, the last state); for a
	// virtual delete, a stand-in carrying only the identity.
	obj    *fakeapi.Object
	oldObj *fakeapi.Object
	// label is String, written when the event is made, or, for an
	// event made in a settle no one reads (recorder.wordless), when it
	// is first asked for.
	label string
}

// newGraphEvent makes a graphChanges item; a cascade makes two for every
// object it collects.
func (g *garbageCollector) newGraphEvent(t eventType, virtual bool, obj, old *fakeapi.Object) *graphEvent {
	e := &graphEvent{eventType: t, virtual: virtual, obj: obj, oldObj: old}
	switch {
	case g.env.wordless:
	case virtual:
		e.label = g.env.Sprintf(virtualEventLabel, t, obj, obj.Metadata.UID)
	default:
		e.label = g.env.Sprintf(eventLabel, t, obj)
	}
	return e
}

// The forms of a graph event's label.
const (
	eventLabel        = "%s %s"
	virtualEventLabel = "virtual %s %s (%s)"
)

func (e *graphEvent) String() string {
	switch {
	case e.label != "":
	case e.virtual:
		e.label = fmt.Sprintf(virtualEventLabel, e.eventType, e.obj, e.obj.Metadata.UID)
	default:
		e.label = fmt.Sprintf(eventLabel, e.eventType, e.obj)
	}
	return e.label
}

// item is the record's Item for ev: none in a settle no one reads.
func (g *garbageCollector) item(ev *graphEvent) string {
	if g.env.wordless {
		return ""
	}
	return ev.String()
}

// identityFromEvent is the identity an event shows: its apiVersion/kind and
// the object's name, namespace and UID.
func identityFromEvent(e *graphEvent) objectReference {
	return objectReference{APIVersion: e.obj.APIVersion, Kind: e.obj.Kind, Name: e.obj.Metadata.Name,
		UID: e.obj.Metadata.UID, Namespace: e.obj.Metadata.Namespace}
}

func beingDeleted(o *fakeapi.Object) bool { return o.Metadata.DeletionTimestamp != nil }

func hasOrphanFinalizer(o *fakeapi.Object) bool {
	return o.Metadata.HasFinalizer(fakeapi.FinalizerOrphanDependents)
}

func hasDeleteDependentsFinalizer(o *fakeapi.Object) bool {
	return o.Metadata.HasFinalizer(fakeapi.FinalizerDeleteDependents)
}

// processGraphChanges takes one graphChanges item and updates uidToNode
// (R24-R35). The graph builder is the only writer of uidToNode.
func (g *garbageCollector) processGraphChanges(rec *Record) {
	ev, ok := g.graphChanges.Get()
	if !ok {
		return
	}
	defer g.graphChanges.Done(ev)
	rec.Item = g.item(ev)
	obj := ev.obj
	uid := obj.Metadata.UID
	existing, found := g.uidToNode.Get(uid)
	if found && !ev.virtual && !existing.isObserved() {
		observed := identityFromEvent(ev)
		if observed != existing.identity {
			// R25: the real object does not look like what its dependents said.
			_, invalid := partitionDependents(existing.getDependents(), observed)
			for _, dep := range invalid {
				if observed.Namespace != "" && dep.identity.Namespace != observed.Namespace {
					g.reportInvalidNamespaceOwnerRef(dep, uid)
				}
				g.attemptToDelete.Add(dep)
			}
			c := existing.clone()
			c.identity = observed
			g.setNode(c, existing)
			existing = c
			rec.Note("virtual node %s observed as %s: replaced by a clone with the observed identity", uid, observed.ref())
		}
		existing.virtual = false
		g.touch(uid)
		rec.Note("node %s was virtual and is now observed", observed.ref())
	}
	switch {
	case (ev.eventType == addEvent || ev.eventType == updateEvent) && !found:
		n := &node{
			identity:           identityFromEvent(ev),
			owners:             obj.Metadata.OwnerReferences,
			beingDeleted:       beingDeleted(obj),
			deletingDependents: beingDeleted(obj) && hasDeleteDependentsFinalizer(obj),
		}
		g.insertNode(n)
		rec.Reason = Reason{Code: "GraphNodeAdded", Rule: "R26", Func: "GraphBuilder.processGraphChanges, insertNode"}
		switch {
		case g.env.wordless: // no sentence: not even its owners' phrase
		case len(n.owners) > 0:
			rec.Reason = rec.Because(rec.Reason, "new node %s owned by %s", n, ownersPhrase(n.owners))
		default:
			rec.Reason = rec.Because(rec.Reason, "new node %s with no owners", n)
		}
		g.processTransitions(ev.oldObj, obj, n, rec)
	case (ev.eventType == addEvent || ev.eventType == updateEvent) && found:
		if existing.identity.APIVersion != obj.APIVersion || existing.identity.Kind != obj.Kind {
			// R27.1: the object is seen through another version or kind.
			c := existing.clone()
			c.identity.APIVersion, c.identity.Kind = obj.APIVersion, obj.Kind
			g.replaceNode(existing, c)
			existing = c
		}
		rec.Reason = rec.Because(Reason{Code: "GraphNodeUpdated", Rule: "R27", Func: "GraphBuilder.processGraphChanges"},
			"%s updated; owners unchanged", existing)
		added, removed, changed := referencesDiffs(existing.owners, obj.Metadata.OwnerReferences)
		if len(added)+len(removed)+len(changed) > 0 {
			g.addUnblockedOwnersToDeleteQueue(removed, changed, rec)
			existing.owners = obj.Metadata.OwnerReferences
			g.addDependentToOwners(existing, added, rec)
			g.removeDependentFromOwners(existing, removed)
			g.touch(uid)
			rec.Reason = Reason{Code: "GraphOwnersChanged", Rule: "R27", Func: "GraphBuilder.processGraphChanges, referencesDiffs"}.
				Say("%s owners changed: %s", existing.identity.ref(), diffPhrase(added, removed, changed))
		}
		if beingDeleted(obj) && !existing.beingDeleted {
			existing.beingDeleted = true
			g.touch(uid)
			rec.Note("%s marked beingDeleted", existing)
		}
		g.processTransitions(ev.oldObj, obj, existing, rec)
	case ev.eventType == deleteEvent:
		if !found {
			rec.Reason = Reason{Code: "GraphDeleteUnknown", Rule: "R30", Func: "GraphBuilder.processGraphChanges"}.
				Say("delete event for %s, which is not in the graph: ignored", obj)
			return
		}
		g.processDeleteEvent(ev, existing, rec)
	}
}

func (g *garbageCollector) processDeleteEvent(ev *graphEvent, existing *node, rec *Record) {
	uid := existing.identity.UID
	removeExisting := true
	if ev.virtual {
		deleted := identityFromEvent(ev)
		if existing.virtual {
			matching, nonmatching := partitionDependents(existing.getDependents(), deleted)
			if len(nonmatching) > 0 {
				// R31: other dependents name this UID with other coordinates.
				removeExisting = false
				if len(matching) > 0 {
					g.absent.Add(deleted)
					for _, dep := range matching {
						g.attemptToDelete.Add(dep)
					}
				}
				rec.Reason = Reason{Code: "VirtualNodeKept", Rule: "R31", Func: "GraphBuilder.processGraphChanges, partitionDependents"}.
					Say("%s is absent, but %d dependent(s) name uid %s with other coordinates: node kept", deleted.ref(), len(nonmatching), uid)
				if existing.identity == deleted {
					if alt := getAlternateOwnerIdentity(nonmatching, deleted); alt != nil {
						c := existing.clone()
						c.identity = *alt
						g.setNode(c, existing)
						g.touch(uid)
						d := g.attemptToDelete.AddRateLimited(c, g.env.now())
						rec.Note("virtual node re-keyed to alternate identity %s, requeued after %s", alt.ref(), d)
					}
				}
			}
		} else if existing.identity != deleted {
			// R31: the observed object is real; only the mistaken identity is absent.
			removeExisting = false
			matching, _ := partitionDependents(existing.getDependents(), deleted)
			if len(matching) > 0 {
				g.absent.Add(deleted)
				for _, dep := range matching {
					g.attemptToDelete.Add(dep)
				}
			}
			rec.Reason = Reason{Code: "VirtualDeleteOfWrongIdentity", Rule: "R31", Func: "GraphBuilder.processGraphChanges"}.
				Say("%s does not exist, but uid %s is the real %s: node kept, %d dependent(s) naming the absent identity requeued",
					deleted.ref(), uid, existing.identity.ref(), len(matching))
		}
	}
	if !removeExisting {
		return
	}
	g.removeNode(existing)
	deps := existing.getDependents()
	if len(deps) > 0 {
		g.absent.Add(identityFromEvent(ev))
	}
	for _, dep := range deps {
		g.attemptToDelete.Add(dep)
	}
	waiting := 0
	for _, o := range existing.owners {
		owner, ok := g.uidToNode.Get(o.UID)
		if !ok || !owner.deletingDependents {
			continue
		}
		waiting++
		g.attemptToDelete.Add(owner)
	}
	form, rule := "%s removed from storage: node removed", "R30"
	if ev.virtual {
		form, rule = "%s verified absent by a worker: node removed", "R31"
	}
	rec.Reason = rec.Because(Reason{Code: "GraphNodeRemoved", Rule: rule, Func: "GraphBuilder.processGraphChanges, removeNode"}, form, existing)
	if len(deps) > 0 {
		rec.Reason.and("; its identity is now in absentOwnerCache and its %d dependent(s) are queued to attemptToDelete", len(deps))
	}
	if waiting > 0 {
		rec.Reason.and("; %d owner(s) waiting for their dependents are queued again", waiting)
	}
}

// setNode makes n uidToNode's node for its UID, in place of old (nil when
// the UID had none). Every write of uidToNode but removeNode's goes
// through here, so that a node's inGraph says whether the graph holds it.
func (g *garbageCollector) setNode(n, old *node) {
	g.uidToNode.Set(n.identity.UID, n)
	if old != nil {
		old.inGraph = false
	}
	n.inGraph = true
}

// graphNode returns the node uidToNode holds for n's UID, and whether it
// holds one: n itself while n is in the graph, found without a lookup.
func (g *garbageCollector) graphNode(n *node) (*node, bool) {
	if n.inGraph {
		return n, true
	}
	return g.uidToNode.Get(n.identity.UID)
}

// insertNode adds n to uidToNode and to its owners' dependents.
func (g *garbageCollector) insertNode(n *node) {
	g.setNode(n, nil)
	g.touch(n.identity.UID)
	g.addDependentToOwners(n, n.owners, nil)
}

// removeNode drops n from uidToNode and from its owners' dependents.
func (g *garbageCollector) removeNode(n *node) {
	g.uidToNode.Delete(n.identity.UID)
	n.inGraph = false
	g.touch(n.identity.UID)
	g.removeDependentFromOwners(n, n.owners)
}

// replaceNode swaps a clone c for n in uidToNode and in its owners'
// dependent sets.
func (g *garbageCollector) replaceNode(n, c *node) {
	g.setNode(c, n)
	for _, o := range c.owners {
		if owner, ok := g.uidToNode.Get(o.UID); ok {
			owner.deleteDependent(n)
			owner.addDependent(c)
		}
	}
	g.touch(c.identity.UID)
}

// addDependentToOwners links n under each owner, creating a virtual node for
// owners not yet in the graph (R32).
func (g *garbageCollector) addDependentToOwners(n *node, owners []fakeapi.OwnerReference, rec *Record) {
	potentiallyInvalid := false
	for _, o := range owners {
		owner, ok := g.uidToNode.Get(o.UID)
		if !ok {
			owner = &node{
				identity: objectReference{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: o.UID, Namespace: n.identity.Namespace},
				virtual:  true,
			}
			g.setNode(owner, nil)
			g.touch(o.UID)
			if rec == nil {
				rec = g.env.rec
			}
			rec.Note("owner %s (%s) is not in the graph: virtual node created", owner.identity.ref(), o.UID)
		}
		owner.addDependent(n)
		g.touch(o.UID)
		if !ok {
			g.attemptToDelete.Add(owner)
			continue
		}
		if potentiallyInvalid {
			continue
		}
		ownerNamespaced := owner.identity.Namespace != ""
		switch {
		case ownerNamespaced && owner.identity.Namespace != n.identity.Namespace:
			if owner.isObserved() {
				g.reportInvalidNamespaceOwnerRef(n, o.UID)
			}
			potentiallyInvalid = true
		case !matchesCoordinates(o, owner.identity):
			potentiallyInvalid = true
		case !ownerNamespaced && owner.virtual && n.identity.Namespace != owner.identity.Namespace:
			potentiallyInvalid = true
		}
	}
	if potentiallyInvalid {
		g.attemptToDelete.Add(n)
	}
}

func (g *garbageCollector) removeDependentFromOwners(n *node, owners []fakeapi.OwnerReference) {
	for _, o := range owners {
		if owner, ok := g.uidToNode.Get(o.UID); ok {
			owner.deleteDependent(n)
			g.touch(o.UID)
		}
	}
}

// reportInvalidNamespaceOwnerRef records the OwnerRefInvalidNamespace
// warning about dependent n (R60).
func (g *garbageCollector) reportInvalidNamespaceOwnerRef(n *node, ownerUID string) {
	var ref *fakeapi.OwnerReference
	for i := range n.owners {
		if n.owners[i].UID == ownerUID {
			ref = &n.owners[i]
			break
		}
	}
	if ref == nil {
		return
	}
	invalid := objectReference{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name, UID: ref.UID, Namespace: n.identity.Namespace}
	g.env.recordEvent(ControllerGC+"-controller", fakeapi.Event{
		Object:    fakeapi.Ref{APIVersion: n.identity.APIVersion, Kind: n.identity.Kind, Namespace: n.identity.Namespace, Name: n.identity.Name},
		ObjectUID: n.identity.UID,
		Type:      "Warning",
		Reason:    "OwnerRefInvalidNamespace",
		Message:   fmt.Sprintf("ownerRef %s does not exist in namespace %q", invalid, n.identity.Namespace),
		Source:    "garbage-collector-controller",
	})
	g.env.rec.Note("event OwnerRefInvalidNamespace recorded on %s", n.identity.ref())
}

// addUnblockedOwnersToDeleteQueue wakes owners whose blocking reference was
// removed or unblocked (R28).
func (g *garbageCollector) addUnblockedOwnersToDeleteQueue(removed []fakeapi.OwnerReference, changed []refPair, rec *Record) {
	for _, r := range removed {
		if r.Blocks() {
			if owner, ok := g.uidToNode.Get(r.UID); ok {
				g.attemptToDelete.Add(owner)
				rec.Note("blocking reference to %s removed: owner queued", owner.identity.ref())
			}
		}
	}
	for _, c := range changed {
		if c.old.Blocks() && !c.new.Blocks() {
			if owner, ok := g.uidToNode.Get(c.new.UID); ok {
				g.attemptToDelete.Add(owner)
				rec.Note("reference to %s no longer blocks: owner queued", owner.identity.ref())
			}
		}
	}
}

// processTransitions starts orphaning or foreground deletion when the new
// object shows a deletionTimestamp plus the finalizer and the old one did
// not (R29).
func (g *garbageCollector) processTransitions(old, cur *fakeapi.Object, n *node, rec *Record) {
	if deletionStartsWithFinalizer(old, cur, fakeapi.FinalizerOrphanDependents) {
		g.attemptToOrphan.Add(n)
		rec.Reason = Reason{Code: "OrphanStarts", Rule: "R29", Func: "GraphBuilder.processTransitions"}.
			Say("%s has a deletionTimestamp and the orphan finalizer: queued to attemptToOrphan", n.identity.ref())
		return
	}
	if deletionStartsWithFinalizer(old, cur, fakeapi.FinalizerDeleteDependents) {
		n.deletingDependents = true
		g.touch(n.identity.UID)
		deps := n.getDependents()
		for _, dep := range deps {
			g.attemptToDelete.Add(dep)
		}
		g.attemptToDelete.Add(n)
		rec.Reason = Reason{Code: "ForegroundStarts", Rule: "R29", Func: "GraphBuilder.processTransitions"}.
			Say("%s has a deletionTimestamp and the foregroundDeletion finalizer: marked deletingDependents; its %d dependent(s), then itself, queued to attemptToDelete", n.identity.ref(), len(deps))
	}
}

func deletionStartsWithFinalizer(old, cur *fakeapi.Object, finalizer string) bool {
	if !beingDeleted(cur) || !cur.Metadata.HasFinalizer(finalizer) {
		return false
	}
	if old == nil {
		return true
	}
	return !beingDeleted(old) || !old.Metadata.HasFinalizer(finalizer)
}

type refPair struct{ old, new fakeapi.OwnerReference }

// referencesDiffs compares owner references by UID (R27). Each old UID
// is matched once: a new reference repeating a UID already matched is
// added, as upstream's set of old UIDs, from which each match is taken
// out, makes it. (Of old references repeating a UID, the last stands
// for it.)
func referencesDiffs(old, cur []fakeapi.OwnerReference) (added, removed []fakeapi.OwnerReference, changed []refPair) {
	if sameRefsDistinctUIDs(old, cur) {
		return nil, nil, nil // the common update: references untouched
	}
	oldByUID := make(map[string]fakeapi.OwnerReference, len(old))
	for _, r := range old {
		oldByUID[r.UID] = r
	}
	unmatched := make(map[string]bool, len(oldByUID))
	for uid := range oldByUID {
		unmatched[uid] = true
	}
	for _, r := range cur {
		if !unmatched[r.UID] {
			added = append(added, r)
			continue
		}
		delete(unmatched, r.UID)
		if o := oldByUID[r.UID]; !o.Equal(r) {
			changed = append(changed, refPair{old: o, new: r})
		}
	}
	for _, r := range old {
		if unmatched[r.UID] {
			removed = append(removed, oldByUID[r.UID])
			delete(unmatched, r.UID)
		}
	}
	return added, removed, changed
}

// sameRefsDistinctUIDs reports whether old and cur are equal element by
// element and name distinct UIDs: then referencesDiffs finds no difference.
// (With a repeated UID the comparison by UID can report a change even
// between equal lists, so that case takes the long way.)
func sameRefsDistinctUIDs(old, cur []fakeapi.OwnerReference) bool {
	if len(old) != len(cur) {
		return false
	}
	for i := range old {
		if !old[i].Equal(cur[i]) {
			return false
		}
		for j := range i {
			if old[j].UID == old[i].UID {
				return false
			}
		}
	}
	return true
}

// partitionDependents splits dependents into those whose references to
// identity's UID match it and those that do not (R33).
func partitionDependents(deps []*node, identity objectReference) (matching, nonmatching []*node) {
	namespaced := identity.Namespace != ""
	for _, dep := range deps {
		foundMatch, foundMismatch := false, false
		if namespaced && dep.identity.Namespace != identity.Namespace {
			foundMismatch = true
		} else {
			for _, o := range dep.owners {
				if o.UID != identity.UID {
					continue
				}
				if matchesCoordinates(o, identity) {
					foundMatch = true
				} else {
					foundMismatch = true
				}
			}
		}
		if foundMatch {
			matching = append(matching, dep)
		}
		if foundMismatch {
			nonmatching = append(nonmatching, dep)
		}
	}
	return matching, nonmatching
}

func referenceLess(a, b objectReference) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.APIVersion != b.APIVersion {
		return a.APIVersion < b.APIVersion
	}
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	return a.UID < b.UID
}

// getAlternateOwnerIdentity picks the identity a virtual node is re-keyed
// to when the one it had was verified absent (R34).
func getAlternateOwnerIdentity(deps []*node, absent objectReference) *objectReference {
	clusterScoped := absent.Namespace == ""
	seen := map[objectReference]bool{absent: true}
	var candidates []objectReference
	for _, dep := range deps {
		for _, o := range dep.owners {
			if o.UID != absent.UID {
				continue
			}
			if matchesCoordinates(o, absent) && (clusterScoped || dep.identity.Namespace == absent.Namespace) {
				continue // exactly the identity that was verified absent
			}
			c := objectReference{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, UID: o.UID, Namespace: dep.identity.Namespace}
			if clusterScoped && c.APIVersion == absent.APIVersion && c.Kind == absent.Kind {
				c.Namespace = "" // that apiVersion/kind is known to be cluster-scoped
			}
			if seen[c] {
				continue
			}
			seen[c] = true
			candidates = append(candidates, c)
		}
	}
	if len(candidates) == 0 {
		return nil
	}
	sort.Slice(candidates, func(i, j int) bool { return referenceLess(candidates[i], candidates[j]) })
	for _, c := range candidates {
		if referenceLess(absent, c) {
			return &c
		}
	}
	return &candidates[0]
}

// ownersPhrase lists owner references as "Kind/name, Kind/name".
func ownersPhrase(refs []fakeapi.OwnerReference) string {
	s := ""
	for i, r := range refs {
		if i > 0 {
			s += ", "
		}
		s += fakeapi.RefString(r.Kind, "", r.Name)
	}
	return s
}

func diffPhrase(added, removed []fakeapi.OwnerReference, changed []refPair) string {
	var parts []string
	for _, r := range added {
		parts = append(parts, "+"+r.Kind+"/"+r.Name)
	}
	for _, r := range removed {
		parts = append(parts, "-"+r.Kind+"/"+r.Name)
	}
	for _, c := range changed {
		parts = append(parts, "~"+c.new.Kind+"/"+c.new.Name)
	}
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += " "
		}
		s += p
	}
	return s
}
