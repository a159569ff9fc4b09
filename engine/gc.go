package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/objtable"
	"github.com/gcplay/gcplay/internal/uidmap"
)

// garbageCollector is kube-controller-manager's garbage collector, made
// steppable: the graph builder (uidToNode, graphChanges, absentOwnerCache)
// and the attemptToDelete / attemptToOrphan workers. Each call of step
// does one unit of upstream work.
type garbageCollector struct {
	env             *env
	uidToNode       uidmap.Map[*node]
	graphChanges    *workqueue[*graphEvent]
	attemptToDelete *workqueue[*node]
	attemptToOrphan *workqueue[*node]
	absent          *absentOwnerCache
	// informer is what the collector's informers last observed of each
	// object it monitors, by group, kind, namespace and name: upstream's
	// metadata listers, kept from watch events.
	informer objtable.Table[*fakeapi.Object]
	// informerIsStorage says that what the informers observed is what
	// storage holds, so the table is not kept and informerGet reads
	// storage's: every kind the collector monitors was listed at its last
	// (re)start, and since then every write's watch event has reached
	// observe before any step of the collector runs (the store delivers
	// a request's events before it returns, and a step is never run
	// while events are delivered). So the two agree at every read; the
	// table, a map write at each of a large delete's 300,000 events, is
	// kept only when a list failed (or a kind is observed but never
	// listed), when the informers hold only what events showed them.
	informerIsStorage bool
	// kinds remembers the REST mappings last looked up.
	kinds fakeapi.KindCache
}

const gcClient = ControllerGC

var (
	// errEnqueuedVirtualDelete says a virtual delete event was queued: the
	// item is forgotten (R39).
	errEnqueuedVirtualDelete = errors.New("enqueued virtual delete event")
	// errNamespacedOwnerOfClusterScoped says a cluster-scoped object names a
	// namespaced owner: never retried (R59).
	errNamespacedOwnerOfClusterScoped = errors.New("cluster-scoped objects cannot refer to namespaced owners")
)

// restMappingError says an apiVersion/kind is not served; it is retried
// with backoff forever (R57, R61).
type restMappingError struct{ apiVersion, kind string }

// Error is upstream's text, with its closing period.
func (e *restMappingError) Error() string {
	return fmt.Sprintf("unable to get REST mapping for %s/%s.", e.apiVersion, e.kind)
}

func newGarbageCollector(e *env) *garbageCollector {
	g := &garbageCollector{
		env:             e,
		graphChanges:    newGraphChanges(),
		attemptToDelete: newNodeQueue(QueueAttemptToDelete, dirtyInAttemptToDelete, processingInAttemptToDelete),
		attemptToOrphan: newNodeQueue(QueueAttemptToOrphan, dirtyInAttemptToOrphan, processingInAttemptToOrphan),
		absent:          newAbsentOwnerCache(absentOwnerCacheSize),
	}
	g.hook()
	return g
}

// ignoredKind reports the resources the collector does not monitor (R23).
func ignoredKind(o *fakeapi.Object) bool {
	return o.Kind == "Event" && (o.APIVersion == "v1" || strings.HasPrefix(o.APIVersion, "events.k8s.io/"))
}

// observe is the informers' event handler: every add, update and delete
// becomes a graphChanges item (R23).
func (g *garbageCollector) observe(ev fakeapi.WatchEvent) {
	obj := ev.Object
	if ignoredKind(obj) {
		return
	}
	if !g.informerIsStorage {
		k := informerKey(obj.APIVersion, obj.Kind, obj.Metadata.Namespace, obj.Metadata.Name)
		if ev.Type == fakeapi.Deleted {
			g.informer.Delete(k)
		} else {
			g.informer.Set(k, obj)
		}
	}
	var ge *graphEvent
	switch ev.Type {
	case fakeapi.Added:
		ge = g.newGraphEvent(addEvent, false, obj, nil)
	case fakeapi.Modified:
		ge = g.newGraphEvent(updateEvent, false, obj, ev.Old)
	default:
		ge = g.newGraphEvent(deleteEvent, false, obj, nil)
	}
	g.graphChanges.Add(ge)
}

func (g *garbageCollector) touch(uid string) { g.env.touch(uid) }

// enqueueVirtualDeleteEvent queues a delete event for an identity a worker
// found absent.
func (g *garbageCollector) enqueueVirtualDeleteEvent(id objectReference) {
	obj := &fakeapi.Object{APIVersion: id.APIVersion, Kind: id.Kind,
		Metadata: fakeapi.ObjectMeta{Name: id.Name, Namespace: id.Namespace, UID: id.UID}}
	g.graphChanges.Add(g.newGraphEvent(deleteEvent, true, obj, nil))
}

// apiResource is the REST mapping of an apiVersion/kind (R57).
func (g *garbageCollector) apiResource(apiVersion, kind string) (fakeapi.KindInfo, error) {
	info, ok := g.kinds.Lookup(g.env.api.Registry(), apiVersion, kind)
	if !ok {
		return fakeapi.KindInfo{}, &restMappingError{apiVersion, kind}
	}
	return info, nil
}

func (g *garbageCollector) refFor(id objectReference) (fakeapi.Ref, error) {
	info, err := g.apiResource(id.APIVersion, id.Kind)
	if err != nil {
		return fakeapi.Ref{}, err
	}
	ns := id.Namespace
	if !info.Namespaced() {
		ns = ""
	} else if ns == "" {
		return fakeapi.Ref{}, errNamespacedOwnerOfClusterScoped
	}
	return fakeapi.Ref{APIVersion: id.APIVersion, Kind: id.Kind, Namespace: ns, Name: id.Name}, nil
}

// getObject GETs the object an identity names (R41). The collector only
// reads what it gets, so the answer is the store's snapshot, not a copy.
func (g *garbageCollector) getObject(id objectReference) (*fakeapi.Object, error) {
	ref, err := g.refFor(id)
	if err != nil {
		return nil, err
	}
	return g.env.api.GetShared(gcClient, ref)
}

func (g *garbageCollector) patchObject(id objectReference, body []byte, pt fakeapi.PatchType) (*fakeapi.Object, error) {
	ref, err := g.refFor(id)
	if err != nil {
		return nil, err
	}
	return g.env.api.Patch(gcClient, ref, pt, body)
}

// stepAttemptToDelete takes one attemptToDelete item (R39).
func (g *garbageCollector) stepAttemptToDelete(rec *Record) {
	item, ok := g.attemptToDelete.Get()
	if !ok {
		return
	}
	defer g.attemptToDelete.Done(item)
	rec.Item = g.env.ref(item.identity)
	if item.virtual {
		rec.Item += " (virtual, " + item.identity.UID + ")"
	}
	n := item
	if !n.isObserved() {
		fromGraph, exists := g.uidToNode.Get(n.identity.UID)
		if !exists {
			g.attemptToDelete.Forget(item)
			rec.Reason = Reason{Code: "StaleVirtualItem", Rule: "R39", Func: "GarbageCollector.attemptToDeleteWorker"}.
				Say("this virtual node is no longer in the graph (its deletion was observed meanwhile): forgotten")
			return
		}
		if fromGraph.isObserved() {
			g.attemptToDelete.Forget(item)
			rec.Reason = Reason{Code: "StaleVirtualItem", Rule: "R39", Func: "GarbageCollector.attemptToDeleteWorker"}.
				Say("the real object for this uid has been observed meanwhile, so this stale virtual node is forgotten")
			return
		}
	}
	if fromGraph, ok := g.graphNode(n); ok && (fromGraph.identity.APIVersion != n.identity.APIVersion || fromGraph.identity.Kind != n.identity.Kind) {
		c := n.clone()
		c.identity.APIVersion, c.identity.Kind = fromGraph.identity.APIVersion, fromGraph.identity.Kind
		n = c
	}
	err := g.attemptToDeleteItem(n, rec)
	switch {
	case errors.Is(err, errEnqueuedVirtualDelete):
		g.attemptToDelete.Forget(item)
	case errors.Is(err, errNamespacedOwnerOfClusterScoped):
		g.attemptToDelete.Forget(item)
		if rec.Reason.Code == "" {
			rec.Reason = Reason{Code: "NamespacedOwnerOfClusterScoped", Rule: "R59", Func: "GarbageCollector.attemptToDeleteWorker"}.
				Say("%s is cluster-scoped but names a namespaced owner: never collected, not retried", n.identity.ref())
		}
	case err != nil:
		d := g.attemptToDelete.AddRateLimited(item, g.env.now())
		rec.Err = err.Error()
		var rme *restMappingError
		if errors.As(err, &rme) {
			rec.Reason = Reason{Code: "RESTMappingError", Rule: "R57, R61", Func: "GarbageCollector.attemptToDeleteWorker"}.
				Say("%s is not served, so the owner cannot be looked up: retried in %s, never deleted", rme.apiVersion+"/"+rme.kind, d)
		} else {
			why := rec.Reason
			rec.Reason = Reason{Code: "Requeued", Rule: "R39, R65", Func: "GarbageCollector.attemptToDeleteWorker"}
			if why.Code != "" {
				rec.Reason = rec.Reason.Saying(why.Texts...)
				rec.Reason.and("; ")
			}
			rec.Reason.and("error: %v: requeued with backoff %s", err, d)
		}
	case !item.isObserved():
		d := g.attemptToDelete.AddRateLimited(item, g.env.now())
		rec.Reason.and("; still virtual (not yet observed by an informer): polled again in %s", d)
		if rec.Reason.Rule == "" {
			rec.Reason.Rule = "R39"
		}
	default:
		g.attemptToDelete.Forget(item)
	}
}

// attemptToDeleteItem decides the fate of one object (R40-R46).
func (g *garbageCollector) attemptToDeleteItem(item *node, rec *Record) error {
	if item.beingDeleted && !item.deletingDependents {
		msg := say("%s is already being deleted (and not waiting for dependents): nothing to do until it is gone", item.identity.ref())
		if cur, ok := g.uidToNode.Get(item.identity.UID); !ok || cur != item {
			msg = say("%s was queued while being deleted and has since left the graph: nothing to do", item.identity.ref())
		}
		rec.Reason = Reason{Code: "AlreadyTerminating", Rule: "R40", Func: "GarbageCollector.attemptToDeleteItem"}.Saying(msg)
		return nil
	}
	latest, err := g.getObject(item.identity)
	switch {
	case fakeapi.IsNotFound(err):
		g.enqueueVirtualDeleteEvent(item.identity)
		rec.Reason = Reason{Code: "NotFoundVirtualDelete", Rule: "R41", Func: "GarbageCollector.attemptToDeleteItem"}.
			Say("%s does not exist: a virtual delete event is queued to graphChanges", item.identity.ref())
		return errEnqueuedVirtualDelete
	case err != nil:
		return err
	}
	if latest.Metadata.UID != item.identity.UID {
		g.enqueueVirtualDeleteEvent(item.identity)
		rec.Reason = Reason{Code: "UIDMismatchVirtualDelete", Rule: "R41", Func: "GarbageCollector.attemptToDeleteItem"}.
			Say("%s exists with uid %s, not %s (the name was reused): a virtual delete event is queued", item.identity.ref(), latest.Metadata.UID, item.identity.UID)
		return errEnqueuedVirtualDelete
	}
	if item.deletingDependents {
		return g.processDeletingDependentsItem(item, rec)
	}
	refs := latest.Metadata.OwnerReferences
	if len(refs) == 0 {
		rec.Reason = Reason{Code: "NoOwners", Rule: "R42", Func: "GarbageCollector.attemptToDeleteItem"}.
			Say("%s has no ownerReferences: nothing to collect", item.identity.ref())
		return nil
	}
	solid, dangling, waiting, err := g.classifyReferences(item, refs)
	if err != nil {
		return err
	}
	classes := refClasses{solid, dangling, waiting}
	switch {
	case len(solid) != 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			rec.Reason = rec.reason(Reason{Code: "SolidOwner", Rule: "R44(a)", Func: "GarbageCollector.attemptToDeleteItem"},
				classes, say(": kept, it has an owner that exists"))
			return nil
		}
		uids := append(refUIDs(dangling), refUIDs(waiting)...)
		rec.Reason = rec.reason(Reason{Code: "SolidOwnerRemoveRefs", Rule: "R44(a)", Func: "GarbageCollector.attemptToDeleteItem"},
			classes, say(": kept, it has an owner that exists; the references to its absent or deleting owners are patched away"))
		_, err := g.patch(item, deleteOwnerRefPatch(item.identity.UID, uids), func(n *node) ([]byte, error) {
			return g.deleteOwnerRefJSONMergePatch(n, uids...)
		})
		return err
	case len(waiting) != 0 && len(item.dependents) != 0:
		why := rec.reason(Reason{}, classes, say("; it has dependents of its own: deleted with Foreground"))
		for _, dep := range item.getDependents() {
			if dep.deletingDependents {
				why = Reason{}.Saying(append(classes.texts(),
					say("; its dependent %s is itself deleting dependents, so to avoid a cycle its blocking references are set to blockOwnerDeletion=false first; then deleted with Foreground", dep.identity.ref()))...)
				if _, err := g.patch(item, unblockOwnerRefsPatch(item), g.unblockOwnerReferencesJSONMergePatch); err != nil {
					rec.Reason = Reason{Code: "CycleBreaker", Rule: "R44(b)", Func: "GarbageCollector.attemptToDeleteItem"}.Saying(why.Texts...)
					return err
				}
				break
			}
		}
		rec.Reason = Reason{Code: "DeleteForeground", Rule: "R44(b)", Func: "GarbageCollector.attemptToDeleteItem", Message: why.Message, Texts: why.Texts}
		return g.deleteItem(item, latest, fakeapi.DeletePropagationForeground, rec)
	default:
		policy := fakeapi.DeletePropagationBackground
		why := say("Background (it carries no GC finalizer)")
		switch {
		case hasOrphanFinalizer(latest):
			policy, why = fakeapi.DeletePropagationOrphan, say("Orphan (it already carries the orphan finalizer, which is honoured)")
		case hasDeleteDependentsFinalizer(latest):
			policy, why = fakeapi.DeletePropagationForeground, say("Foreground (it already carries the foregroundDeletion finalizer, which is honoured)")
		}
		verdict := say("no owner exists any more, so it is garbage")
		if len(waiting) > 0 {
			verdict = say("no owner keeps it (its owners are being deleted in the foreground) and it has no dependents of its own")
		}
		rec.Reason = rec.reason(Reason{Code: deleteCode(policy), Rule: "R44(c)", Func: "GarbageCollector.attemptToDeleteItem"},
			classes, say(": "), verdict, say("; deleted with "), why)
		return g.deleteItem(item, latest, policy, rec)
	}
}

func (g *garbageCollector) deleteItem(item *node, latest *fakeapi.Object, policy fakeapi.DeletionPropagation, rec *Record) error {
	err := g.deleteObject(item.identity, latest.Metadata.ResourceVersion, latest.Metadata.OwnerReferences, policy)
	if fakeapi.IsNotFound(err) {
		g.enqueueVirtualDeleteEvent(item.identity)
		rec.Note("the DELETE found nothing: a virtual delete event is queued")
		return errEnqueuedVirtualDelete
	}
	return err
}

// classifyReferences sorts the live owner references into solid, dangling
// and waitingForDependentsDeletion (R43).
func (g *garbageCollector) classifyReferences(item *node, refs []fakeapi.OwnerReference) (solid, dangling, waiting []fakeapi.OwnerReference, err error) {
	for _, r := range refs {
		isDangling, owner, err := g.isDangling(r, item)
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case isDangling:
			dangling = append(dangling, r)
		case beingDeleted(owner) && hasDeleteDependentsFinalizer(owner):
			waiting = append(waiting, r)
		default:
			solid = append(solid, r)
		}
	}
	return solid, dangling, waiting, nil
}

// isDangling checks whether an owner reference names an absent object: the
// absent cache first, then a live GET by name in the dependent's namespace
// (R38, R45).
func (g *garbageCollector) isDangling(r fakeapi.OwnerReference, item *node) (bool, *fakeapi.Object, error) {
	key := coordinates(r)
	if g.absent.Has(key) {
		if g.env.rec.Noting() {
			g.env.rec.Note("owner %s is in absentOwnerCache (cluster-scoped key): dangling, no lookup", g.env.ref(key))
		}
		return true, nil, nil
	}
	key.Namespace = item.identity.Namespace
	if g.absent.Has(key) {
		if g.env.rec.Noting() {
			g.env.rec.Note("owner %s is in absentOwnerCache: dangling, no lookup", g.env.ref(key))
		}
		return true, nil, nil
	}
	info, err := g.apiResource(r.APIVersion, r.Kind)
	if err != nil {
		return false, nil, err
	}
	if !info.Namespaced() {
		key.Namespace = ""
	}
	if item.identity.Namespace == "" && info.Namespaced() {
		return false, nil, errNamespacedOwnerOfClusterScoped
	}
	ns := ""
	if info.Namespaced() {
		ns = item.identity.Namespace
	}
	owner, err := g.env.api.GetShared(gcClient, fakeapi.Ref{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: ns, Name: r.Name})
	switch {
	case fakeapi.IsNotFound(err):
		g.absent.Add(key)
		return true, nil, nil
	case err != nil:
		return false, nil, err
	}
	if owner.Metadata.UID != r.UID {
		g.absent.Add(key)
		g.env.rec.Note("%s exists, but with uid %s, not %s: that owner is gone", key.ref(), owner.Metadata.UID, r.UID)
		return true, nil, nil
	}
	return false, owner, nil
}

// processDeletingDependentsItem removes foregroundDeletion once no blocking
// dependent is left in the graph (R47).
func (g *garbageCollector) processDeletingDependentsItem(item *node, rec *Record) error {
	blocking := item.blockingDependents()
	if len(blocking) == 0 {
		rec.Reason = Reason{Code: "RemoveForegroundFinalizer", Rule: "R47", Func: "GarbageCollector.processDeletingDependentsItem"}.
			Say("%s is deleting dependents and none that blocks it is left: the foregroundDeletion finalizer is removed", item.identity.ref())
		removed, err := g.removeFinalizer(item, fakeapi.FinalizerDeleteDependents)
		if err == nil && !removed {
			rec.Reason = rec.Reason.Say("%s is marked deletingDependents (the flag is never cleared) and none that blocks it is left, but it no longer carries foregroundDeletion: nothing to remove", item.identity.ref())
		}
		return err
	}
	var names []string
	for _, dep := range blocking {
		names = append(names, dep.identity.ref())
		if !dep.deletingDependents {
			g.attemptToDelete.Add(dep)
		}
	}
	rec.Reason = Reason{Code: "WaitingForDependents", Rule: "R47", Func: "GarbageCollector.processDeletingDependentsItem"}.
		Say("%s waits: %d blocking dependent(s) still exist (%s); those not deleting dependents themselves are queued", item.identity.ref(), len(blocking), summarize(names, 3))
	return nil
}

// finalizersPatch is removeFinalizer's JSON merge patch, in upstream's
// field order.
type finalizersPatch struct {
	Metadata finalizersPatchMeta `json:"metadata"`
}

type finalizersPatchMeta struct {
	ResourceVersion string   `json:"resourceVersion"`
	Finalizers      []string `json:"finalizers"`
}

// removeFinalizer removes one finalizer with GET and a JSON merge patch
// carrying the resourceVersion, retried up to four times on conflict (R56).
// It reports whether it removed the finalizer.
func (g *garbageCollector) removeFinalizer(owner *node, finalizer string) (bool, error) {
	const steps = 4
	var err error
	for attempt := 0; attempt < steps; attempt++ {
		var obj *fakeapi.Object
		obj, err = g.getObject(owner.identity)
		if fakeapi.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("cannot finalize owner %s, because cannot get it: %v. The garbage collector will retry later", owner.identity, err)
		}
		if !obj.Metadata.HasFinalizer(finalizer) {
			g.env.rec.Note("finalizer %s is already gone from %s", finalizer, owner.identity.ref())
			return false, nil
		}
		// Upstream's objectForFinalizersPatch: resourceVersion, then the
		// finalizers left, null when none is.
		var remaining []string
		for _, f := range obj.Metadata.Finalizers {
			if f != finalizer {
				remaining = append(remaining, f)
			}
		}
		body, _ := json.Marshal(finalizersPatch{Metadata: finalizersPatchMeta{ResourceVersion: obj.Metadata.ResourceVersion, Finalizers: remaining}})
		_, err = g.patchObject(owner.identity, body, fakeapi.MergePatch)
		if !fakeapi.IsConflict(err) {
			return err == nil, err
		}
	}
	return false, fmt.Errorf("updateMaxRetries(%d) has reached. The garbage collector will retry later for owner %v", steps, owner.identity)
}

// deleteObject DELETEs an item with uid and resourceVersion preconditions,
// retrying once without the resourceVersion when the conflict came from a
// change that left the ownerReferences alone (R44, R46).
func (g *garbageCollector) deleteObject(id objectReference, rv string, owners []fakeapi.OwnerReference, policy fakeapi.DeletionPropagation) error {
	ref, err := g.refFor(id)
	if err != nil {
		return err
	}
	uid := id.UID
	preconditions := fakeapi.Preconditions{UID: &uid}
	if rv != "" {
		preconditions.ResourceVersion = &rv
	}
	opts := &fakeapi.DeleteOptions{Preconditions: &preconditions, PropagationPolicy: &policy}
	_, err = g.env.api.DeleteShared(gcClient, ref, opts)
	if fakeapi.IsConflict(err) && rv != "" {
		live, liveErr := g.env.api.GetShared(gcClient, ref)
		if fakeapi.IsNotFound(liveErr) {
			return liveErr
		}
		if liveErr == nil && live.Metadata.UID == id.UID && live.Metadata.ResourceVersion != rv && refsEqual(live.Metadata.OwnerReferences, owners) {
			g.env.rec.Note("the DELETE conflicted on resourceVersion, but the ownerReferences did not change: retried without it")
			preconditions.ResourceVersion = nil
			_, err = g.env.api.DeleteShared(gcClient, ref, opts)
		}
	}
	return err
}

func refsEqual(a, b []fakeapi.OwnerReference) bool {
	return slices.EqualFunc(a, b, func(x, y fakeapi.OwnerReference) bool { return x.Equal(y) })
}

// patch sends a strategic merge patch, falling back to a JSON merge patch
// when the kind does not support it (R53).
func (g *garbageCollector) patch(item *node, smp []byte, jmp func(*node) ([]byte, error)) (*fakeapi.Object, error) {
	out, err := g.patchObject(item.identity, smp, fakeapi.StrategicMergePatch)
	if err == nil || !fakeapi.IsUnsupportedMediaType(err) {
		return out, err
	}
	body, err := jmp(item)
	if err != nil {
		return nil, err
	}
	return g.patchObject(item.identity, body, fakeapi.MergePatch)
}

type patchMeta struct {
	ResourceVersion string                   `json:"resourceVersion"`
	OwnerReferences []fakeapi.OwnerReference `json:"ownerReferences"`
}

// unblockOwnerRefsPatch sets blockOwnerDeletion=false on the node's
// blocking references, merged by uid (R55). A node with no blocking
// reference gets a patch with no ownerReferences key at all, as upstream's
// (the list is omitted when empty): a null or empty list would be a
// strategic-merge instruction to delete every reference.
func unblockOwnerRefsPatch(n *node) []byte {
	var refs []fakeapi.OwnerReference
	for _, o := range n.owners {
		if o.Blocks() {
			c := o.DeepCopy()
			c.BlockOwnerDeletion = fakeapi.Bool(false)
			refs = append(refs, c)
		}
	}
	// ObjectMeta's field order: uid before ownerReferences.
	var p struct {
		Metadata struct {
			UID             string                   `json:"uid"`
			OwnerReferences []fakeapi.OwnerReference `json:"ownerReferences,omitempty"`
		} `json:"metadata"`
	}
	p.Metadata.UID, p.Metadata.OwnerReferences = n.identity.UID, refs
	body, _ := json.Marshal(p)
	return body
}

// getMetadata reads an object from the informer store, or live when it is
// not cached.
func (g *garbageCollector) getMetadata(id objectReference) (*fakeapi.Object, error) {
	if o := g.informerGet(id); o != nil {
		return o, nil
	}
	return g.getObject(id)
}

// informerGet returns what the collector's informers last observed at id's
// group, kind, namespace and name, or nil. A kind whose LIST failed at the
// last (re)start has only what events showed it since; getMetadata is
// only asked about nodes the collector observed, which events showed.
func (g *garbageCollector) informerGet(id objectReference) *fakeapi.Object {
	k := informerKey(id.APIVersion, id.Kind, id.Namespace, id.Name)
	if g.informerIsStorage {
		if ignoredKind(&fakeapi.Object{APIVersion: id.APIVersion, Kind: id.Kind}) {
			return nil // never observed
		}
		// The table storage keeps by the same key (see informerIsStorage):
		// a read of the informers' state, not a request.
		return g.env.api.store.LookupKey(k)
	}
	o, _ := g.informer.Get(k)
	return o
}

func informerKey(apiVersion, kind, namespace, name string) objtable.Key {
	group, _ := fakeapi.SplitAPIVersion(apiVersion)
	return objtable.Key{Scope: objtable.Scope{Group: group, Kind: kind, Namespace: namespace}, Name: name}
}

func (g *garbageCollector) deleteOwnerRefJSONMergePatch(n *node, ownerUIDs ...string) ([]byte, error) {
	obj, err := g.getMetadata(n.identity)
	if err != nil {
		return nil, err
	}
	m := patchMeta{ResourceVersion: obj.Metadata.ResourceVersion}
	for _, r := range obj.Metadata.OwnerReferences {
		if !slices.Contains(ownerUIDs, r.UID) {
			m.OwnerReferences = append(m.OwnerReferences, r)
		}
	}
	return json.Marshal(map[string]any{"metadata": m})
}

// unblockOwnerReferencesJSONMergePatch sets blockOwnerDeletion=false on
// every reference, not only the blocking ones (an upstream quirk, R53).
func (g *garbageCollector) unblockOwnerReferencesJSONMergePatch(n *node) ([]byte, error) {
	obj, err := g.getMetadata(n.identity)
	if err != nil {
		return nil, err
	}
	m := patchMeta{ResourceVersion: obj.Metadata.ResourceVersion}
	for _, o := range n.owners {
		c := o.DeepCopy()
		c.BlockOwnerDeletion = fakeapi.Bool(false)
		m.OwnerReferences = append(m.OwnerReferences, c)
	}
	return json.Marshal(map[string]any{"metadata": m})
}

// stepAttemptToOrphan takes one attemptToOrphan item (R50).
func (g *garbageCollector) stepAttemptToOrphan(rec *Record) {
	owner, ok := g.attemptToOrphan.Get()
	if !ok {
		return
	}
	defer g.attemptToOrphan.Done(owner)
	rec.Item = owner.identity.ref()
	deps := owner.getDependents()
	var failed []error
	for _, dep := range deps {
		_, err := g.patch(dep, deleteOwnerRefPatch(dep.identity.UID, []string{owner.identity.UID}), func(n *node) ([]byte, error) {
			return g.deleteOwnerRefJSONMergePatch(n, owner.identity.UID)
		})
		if err != nil && !fakeapi.IsNotFound(err) {
			failed = append(failed, fmt.Errorf("orphaning %s failed, %v", dep.identity, err))
		}
	}
	if len(failed) > 0 {
		d := g.attemptToOrphan.AddRateLimited(owner, g.env.now())
		rec.Err = fmt.Sprintf("failed to orphan dependents of owner %s, got errors: %s", owner.identity, aggregate(failed))
		rec.Reason = Reason{Code: "OrphanFailed", Rule: "R50", Func: "GarbageCollector.attemptToOrphanWorker, orphanDependents"}.
			Say("%d of %d dependent(s) could not be patched: %s keeps its orphan finalizer and is retried in %s", len(failed), len(deps), owner.identity.ref(), d)
		return
	}
	if _, err := g.removeFinalizer(owner, fakeapi.FinalizerOrphanDependents); err != nil {
		d := g.attemptToOrphan.AddRateLimited(owner, g.env.now())
		rec.Err = err.Error()
		rec.Reason = Reason{Code: "OrphanFailed", Rule: "R50, R56", Func: "GarbageCollector.attemptToOrphanWorker, removeFinalizer"}.
			Say("dependents orphaned, but removing the orphan finalizer failed: retried in %s", d)
		return
	}
	g.attemptToOrphan.Forget(owner)
	rec.Reason = Reason{Code: "Orphaned", Rule: "R50", Func: "GarbageCollector.attemptToOrphanWorker"}.
		Say("removed the reference to %s from its %d dependent(s) in the graph, then its orphan finalizer", owner.identity.ref(), len(deps))
}

func refUIDs(refs []fakeapi.OwnerReference) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.UID
	}
	return out
}

// refClasses are an object's owner references by class (R43).
type refClasses struct{ solid, dangling, waiting []fakeapi.OwnerReference }

// texts are the classes in their one text form: a sentence per class
// ("solid %s", "dangling %s", "waitingForDependentsDeletion %s") with
// its references, "; " between them.
func (c refClasses) texts() []Text {
	var out []Text
	add := func(t Text) {
		if len(out) > 0 {
			out = append(out, say("; "))
		}
		out = append(out, t)
	}
	if len(c.solid) > 0 {
		add(say("solid %s", refList(c.solid)))
	}
	if len(c.dangling) > 0 {
		add(say("dangling %s", refList(c.dangling)))
	}
	if len(c.waiting) > 0 {
		add(say("waitingForDependentsDeletion %s", refList(c.waiting)))
	}
	return out
}

// refList is "Kind/name, Kind/name" of refs.
func refList(refs []fakeapi.OwnerReference) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Kind + "/" + r.Name
	}
	return strings.Join(names, ", ")
}

// deleteCode is the reason code of an R44(c) delete: "Delete" + policy.
func deleteCode(p fakeapi.DeletionPropagation) string {
	switch p {
	case fakeapi.DeletePropagationBackground:
		return "DeleteBackground"
	case fakeapi.DeletePropagationForeground:
		return "DeleteForeground"
	case fakeapi.DeletePropagationOrphan:
		return "DeleteOrphan"
	}
	return "Delete" + string(p)
}

func summarize(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}
