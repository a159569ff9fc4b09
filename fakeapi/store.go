package fakeapi

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/internal/objtable"
	"github.com/gcplay/gcplay/internal/strarena"
	"github.com/gcplay/gcplay/internal/uidmap"
)

// DeleteResult is the answer to a DELETE.
type DeleteResult struct {
	// Object is the object as the response body carries it: the stored
	// state after the call (with deletionTimestamp and finalizers) or the
	// last state when it was removed.
	Object *Object
	// Code is 200, or 202 Accepted (R20).
	Code int
	// Removed is true when the object left storage during this call. A
	// dry-run DELETE (R21) removes nothing, so Removed is false there even
	// when the object would have been removed; Code still answers as the
	// real apiserver does (as if removed).
	Removed bool
}

// Removal records an object leaving storage.
type Removal struct {
	Ref Ref
	UID string
	Seq int // the WatchEvent.Seq of its DELETED event
}

// objKey is where an object lives in storage: its group and kind (not its
// version, so every served version of a group/kind reads the same object),
// its namespace and its name.
type objKey = objtable.Key

// uidEntry is the stored object with a UID, and the revision at which it
// was created. It holds the object rather than its key: one pointer to
// follow instead of four strings to hash, and a slot of the UID index a
// third the size, which the Go garbage collector scans at every cycle.
type uidEntry struct {
	obj     *Object
	created uint64
}

// Store is the in-process apiserver: storage plus request handling.
//
// The store keeps every object as an immutable snapshot: a write stores a
// new *Object and never modifies a stored one, so Clone copies two maps and
// shares the objects. The store is the sole writer of its objects; callers
// get deep copies from requests and read-only pointers from Objects, ByUID
// and Lookup. It is single-threaded: requests, watch callbacks and request
// observers all run on the caller's goroutine, in order.
type Store struct {
	reg   *Registry
	kinds KindCache // lookups in reg
	clock Clock

	objects objtable.Table[*Object]
	// listed keeps, for each kind and namespace listed, its stored
	// objects in list order, until any object is written, comes or goes
	// (listsChanged): the controllers that start after a restart list the
	// same kinds one after another, and a world of 100,000 Pods is then
	// sorted and looked up once, not once for each.
	listed map[listedScope]listedObjects
	// found is the object the last request found and its key: a
	// controller that reads an object and then deletes or updates it
	// (the kubelet, the collector) addresses it twice in a row, and the
	// second lookup in a table of 100,000 names is then a comparison.
	// Every write to the table forgets it (listsChanged).
	found struct {
		key objKey
		obj *Object
	}
	// text holds the request details the store writes (see strarena).
	text strarena.Arena
	// storedForm remembers the parts of restored objects' fields already
	// found in the stored form.
	storedForm storedFormCache
	// stamps shares the deletionTimestamp and grace period values of
	// objects deleted at the same instant (see deletionStamps).
	stamps deletionStamps
	// byUID finds a stored object by UID, with the revision at which it
	// was created (for listing objects in creation order). Every write to
	// objects writes here too.
	byUID uidmap.Map[uidEntry]

	// lastUID counts assigned UIDs ("uid-0001", ...); givenUIDs holds the
	// UIDs of that shape callers chose, so the counter never hands one out
	// again (see giveUID).
	lastUID   int
	givenUIDs map[string]bool
	// rv is the global resourceVersion counter, like an etcd revision.
	rv uint64
	// nameState is the state of the generateName suffix generator.
	nameState uint64
	// eventCounter numbers the Events recorded, for their names.
	eventCounter uint64
	// seq numbers watch events.
	seq int

	faults []Fault
	// removals are kept in blocks of removalBlock, each full block never
	// changed again, so that a clone shares them and appending never
	// copies the whole history.
	removals [][]removal
	// lastPlace is the place of the last removal (see removal).
	lastPlace *place
	events    []Event

	watchers  []watcher
	observers []observer
	nextHook  int
	pending   []WatchEvent
	flushing  bool
}

// nameSeed is the fixed start state of the generateName generator.
const nameSeed uint64 = 0x9E3779B97F4A7C15

// The namespaces every store starts with, as a real cluster does, and
// those the NamespaceLifecycle admission plugin refuses to delete.
var (
	systemNamespaces   = []string{"default", "kube-system", "kube-public", "kube-node-lease"}
	immortalNamespaces = []string{"default", "kube-system", "kube-public"}
)

// epochClock is the clock a store uses when given none: always Epoch.
type epochClock struct{}

func (epochClock) Now() time.Time { return Epoch }

// NewStore returns a store serving reg's kinds, with the four standard
// namespaces already created. A nil reg serves the built-in kinds; a nil
// clock stands still at Epoch.
func NewStore(reg *Registry, clock Clock) *Store {
	if reg == nil {
		reg = NewRegistry()
	}
	if clock == nil {
		clock = epochClock{}
	}
	s := &Store{
		reg:       reg,
		clock:     clock,
		givenUIDs: map[string]bool{},
		nameState: nameSeed,
	}
	now := s.now()
	for _, ns := range systemNamespaces {
		o := &Object{APIVersion: "v1", Kind: "Namespace", Metadata: ObjectMeta{
			Name:              ns,
			UID:               s.newUID(),
			CreationTimestamp: &Time{now},
		}}
		prepareNamespaceCreate(o)
		o.Metadata.ResourceVersion = s.nextRV()
		s.objects.Set(namespaceKey(ns), o)
		s.byUID.Set(o.Metadata.UID, uidEntry{obj: o, created: s.rv})
	}
	s.listsChanged()
	return s
}

// Registry returns the kinds the store serves.
func (s *Store) Registry() *Registry { return s.reg }

// Objects returns every stored object (not copies), sorted by kind,
// namespace, name and group (CompareOrder of their keys). The objects
// must not be modified.
func (s *Store) Objects() []*Object {
	// Scope by scope, sorting names (sorting 100,000 keys of four strings
	// was half of what the TUI spends when a large world gains or loses an
	// object). Where one kind name lives in two groups in one namespace,
	// those scopes are sorted together: their objects interleave by name.
	scopes := s.objects.Scopes()
	sort.Slice(scopes, func(i, j int) bool {
		a, b := scopes[i], scopes[j]
		return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Group, b.Group)) < 0
	})
	type entry struct {
		name, group string
		o           *Object
	}
	out := make([]*Object, 0, s.objects.Len())
	run := make([]entry, 0, s.objects.Len())
	for i := 0; i < len(scopes); {
		j := i + 1
		for j < len(scopes) && scopes[j].Kind == scopes[i].Kind && scopes[j].Namespace == scopes[i].Namespace {
			j++
		}
		run = run[:0]
		for _, sc := range scopes[i:j] {
			for name, o := range s.objects.In(sc) {
				run = append(run, entry{name, sc.Group, o})
			}
		}
		slices.SortFunc(run, func(a, b entry) int {
			return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.group, b.group))
		})
		for _, e := range run {
			out = append(out, e.o)
		}
		i = j
	}
	return out
}

// Len returns the number of stored objects.
func (s *Store) Len() int { return s.objects.Len() }

// OrderKey returns o's storage key, its place in the order Objects lists
// the store's objects (CompareOrder); false when o's kind is not served.
func (s *Store) OrderKey(o *Object) (objtable.Key, bool) {
	info, serr := s.resolve(o.APIVersion, o.Kind)
	if serr != nil {
		return objtable.Key{}, false
	}
	return keyOf(info, o.Metadata.Namespace, o.Metadata.Name), true
}

// CompareOrder compares two storage keys in the order Objects lists
// objects: by kind, namespace, name, then group.
func CompareOrder(a, b objtable.Key) int {
	return cmp.Or(strings.Compare(a.Kind, b.Kind), strings.Compare(a.Namespace, b.Namespace),
		strings.Compare(a.Name, b.Name), strings.Compare(a.Group, b.Group))
}

// ObjectsInCreationOrder returns every stored object (not copies) in the
// order they were created. The objects must not be modified.
func (s *Store) ObjectsInCreationOrder() []*Object {
	// Every stored object has its UID entry, which knows when it was
	// created.
	entries := make([]uidEntry, 0, s.byUID.Len())
	for _, e := range s.byUID.All() {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b uidEntry) int { return cmp.Compare(a.created, b.created) })
	out := make([]*Object, len(entries))
	for i, e := range entries {
		out[i] = e.obj
	}
	return out
}

// ByUID returns the stored object with uid (not a copy), or nil.
func (s *Store) ByUID(uid string) *Object {
	e, ok := s.byUID.Get(uid)
	if !ok {
		return nil
	}
	return e.obj
}

// Lookup returns the stored object at ref (not a copy), or nil. An empty
// ref.APIVersion finds the kind by name, as Registry.ByKind does.
func (s *Store) Lookup(ref Ref) *Object {
	var info KindInfo
	if ref.APIVersion == "" {
		i, err := s.reg.ByKind(ref.Kind)
		if err != nil {
			return nil
		}
		info = i
	} else {
		i, ok := s.reg.Lookup(ref.APIVersion, ref.Kind)
		if !ok {
			return nil
		}
		info = i
	}
	return s.object(keyOf(info, ref.Namespace, ref.Name))
}

// Removals returns every removal from storage, in order.
func (s *Store) Removals() []Removal {
	n := 0
	for _, b := range s.removals {
		n += len(b)
	}
	if n == 0 {
		return nil
	}
	// Sized once: a cascade's 100,000 removals would otherwise be copied
	// through every doubling of the slice.
	out := make([]Removal, 0, n)
	for _, b := range s.removals {
		for _, r := range b {
			out = append(out, Removal{Ref: Ref{APIVersion: r.place.apiVersion, Kind: r.place.kind, Namespace: r.place.namespace, Name: r.name},
				UID: r.uid, Seq: r.seq})
		}
	}
	return out
}

// removal is a Removal as the store keeps it: a cascade removes thousands
// of objects of one kind in one namespace, and they share one place, for
// 48 bytes each instead of 88.
type removal struct {
	place     *place
	name, uid string
	seq       int
}

// place is an apiVersion, kind and namespace that removals share. It is
// never modified once made.
type place struct{ apiVersion, kind, namespace string }

// removalBlock is the size of a block of removals.
const removalBlock = 1024

func (s *Store) addRemoval(last *Object, seq int) {
	p := s.lastPlace
	if p == nil || p.apiVersion != last.APIVersion || p.kind != last.Kind || p.namespace != last.Metadata.Namespace {
		p = &place{apiVersion: last.APIVersion, kind: last.Kind, namespace: last.Metadata.Namespace}
		s.lastPlace = p
	}
	n := len(s.removals)
	if n == 0 || len(s.removals[n-1]) == cap(s.removals[n-1]) {
		s.removals = append(s.removals, make([]removal, 0, removalBlock))
		n++
	}
	s.removals[n-1] = append(s.removals[n-1], removal{place: p, name: last.Metadata.Name, uid: last.Metadata.UID, seq: seq})
}

// Clone returns an independent copy with no watchers or observers: the
// same objects (shared, since stored objects are never modified), counters,
// generateName state, pending faults, removals and Events. A nil clock
// keeps the original's clock.
func (s *Store) Clone(clock Clock) *Store {
	if clock == nil {
		clock = s.clock
	}
	c := *s
	c.clock = clock
	c.objects = s.objects.Clone()
	c.listed = nil
	c.found.obj = nil
	c.storedForm = storedFormCache{} // its own, as a clone may run on another goroutine
	c.byUID = s.byUID.Clone(nil)
	c.givenUIDs = maps.Clone(s.givenUIDs)
	c.faults = slices.Clone(s.faults)
	// The blocks are shared. The clone's last one is clipped: it starts a
	// block of its own at its next removal, while the original keeps
	// filling the shared one beyond what the clone can see.
	c.removals = slices.Clone(s.removals)
	if n := len(c.removals); n > 0 {
		c.removals[n-1] = slices.Clip(c.removals[n-1])
	}
	// The Events log is only ever appended to, so the clone shares it,
	// clipped: its first append copies it, and what the original appends
	// lies beyond the clone's length. (A copy was a quarter of a
	// checkpoint of a world of Pods, each with its Events.)
	c.events = slices.Clip(s.events)
	c.watchers = nil
	c.observers = nil
	c.pending = nil
	c.flushing = false
	return &c
}

// now is the virtual time at second precision: meta/v1 Time keeps whole
// seconds in storage, so the fake does too.
func (s *Store) now() time.Time { return s.clock.Now().UTC().Truncate(time.Second) }

func (s *Store) nextRV() string {
	s.rv++
	var digits [20]byte
	return s.text.String(strconv.AppendUint(digits[:0], s.rv, 10))
}

// LookupKey returns the stored object at k (its group, kind, namespace
// and name), or nil. Like Lookup it is not a request.
func (s *Store) LookupKey(k objtable.Key) *Object { return s.object(k) }

// object returns the stored object at k, or nil.
func (s *Store) object(k objKey) *Object {
	o, _ := s.objects.Get(k)
	return o
}

// namespaceKey is the storage key of a Namespace.
func namespaceKey(name string) objKey {
	return objKey{Scope: objtable.Scope{Kind: "Namespace"}, Name: name}
}

// keyOf returns the storage key of an object of kind info. Cluster-scoped
// kinds ignore the namespace.
func keyOf(info KindInfo, namespace, name string) objKey {
	if !info.Namespaced() {
		namespace = ""
	}
	return objKey{Scope: objtable.Scope{Group: info.Group(), Kind: info.Kind, Namespace: namespace}, Name: name}
}

// resolve finds the served kind of a request, like the REST mapping that
// routes an HTTP request: an apiVersion or kind that is not served has no
// route at all.
func (s *Store) resolve(apiVersion, kind string) (KindInfo, *StatusError) {
	info, ok := s.kinds.Lookup(s.reg, apiVersion, kind)
	if !ok {
		return KindInfo{}, errNoResource()
	}
	return info, nil
}

// storageVersion is the apiVersion objects of a group/kind are kept and
// watched in: the first served version, as an informer on the preferred
// version would see them.
func (s *Store) storageVersion(info KindInfo) string {
	if v, ok := s.reg.firstGroupKindVersion(info.APIVersion, info.Kind); ok {
		return v
	}
	return info.APIVersion
}

// view returns a deep copy of a stored object as read through apiVersion.
func view(o *Object, apiVersion string) *Object {
	c := o.DeepCopy()
	if apiVersion != "" {
		c.APIVersion = apiVersion
	}
	return c
}

// sharedView returns a stored object as read through apiVersion without
// copying it: the object itself, or a shallow copy carrying apiVersion.
// The answer shares everything with storage and must not be modified.
func sharedView(o *Object, apiVersion string) *Object {
	if apiVersion == "" || apiVersion == o.APIVersion {
		return o
	}
	c := *o
	c.APIVersion = apiVersion
	return &c
}

// qualifiedResource names a kind's resource as errors do: "configmaps",
// "deployments.apps".
func qualifiedResource(info KindInfo) string {
	if g := info.Group(); g != "" {
		return info.Resource + "." + g
	}
	return info.Resource
}

// qualifiedKind names a kind as Invalid errors do: "ConfigMap",
// "Deployment.apps".
func qualifiedKind(info KindInfo) string {
	if g := info.Group(); g != "" {
		return info.Kind + "." + g
	}
	return info.Kind
}

// insert stores a new object and announces it (ADDED).
func (s *Store) insert(k objKey, o *Object) {
	s.objects.Set(k, o)
	s.listsChanged()
	s.byUID.Set(o.Metadata.UID, uidEntry{obj: o, created: s.rv})
	s.emit(Added, o, nil, o.Metadata.ResourceVersion)
}

// writeUpdate stores next in place of old and announces it (MODIFIED).
// Like etcd3's GuaranteedUpdate, a write that changes nothing is skipped:
// no new resourceVersion, no event, and old is returned. A dry run returns
// the would-be object without storing it.
func (s *Store) writeUpdate(k objKey, old, next *Object, dryRun bool) *Object {
	stored, written := s.announceUpdate(old, next, dryRun)
	if written {
		s.objects.Set(k, stored)
		s.listsChanged()
		e, _ := s.byUID.Get(stored.Metadata.UID)
		e.obj = stored
		s.byUID.Set(stored.Metadata.UID, e)
	}
	return stored
}

// writeUpdateThenRemove is writeUpdate followed by remove, with the same
// events (MODIFIED, then DELETED) and the same end state, for a request
// that does both before anyone can read storage: the written state is not
// put in the tables only to be taken out again.
func (s *Store) writeUpdateThenRemove(k objKey, old, next *Object, dryRun bool) *Object {
	stored, _ := s.announceUpdate(old, next, dryRun)
	s.remove(k, stored, dryRun)
	return stored
}

// announceUpdate gives next its resourceVersion and queues its MODIFIED
// event, unless the write changes nothing (old is returned) or is a dry
// run (next is returned unwritten); written says which.
func (s *Store) announceUpdate(old, next *Object, dryRun bool) (stored *Object, written bool) {
	normalizeMeta(&next.Metadata)
	next.Metadata.ResourceVersion = old.Metadata.ResourceVersion
	if sameObject(old, next) {
		return old, false
	}
	if dryRun {
		return next, false
	}
	next.Metadata.ResourceVersion = s.nextRV()
	s.emit(Modified, next, old, next.Metadata.ResourceVersion)
	return next, true
}

// remove takes the object at k out of storage and announces it (DELETED).
// The watch event carries the last stored state and the resourceVersion of
// the deletion (see WatchEvent); the removal is recorded for deletionOrder
// checks. A dry run changes nothing.
func (s *Store) remove(k objKey, last *Object, dryRun bool) {
	if dryRun {
		return
	}
	s.objects.Delete(k)
	s.listsChanged()
	// A live object's UID is its own (create refuses a UID in use).
	s.byUID.Delete(last.Metadata.UID)
	s.emit(Deleted, last, last, s.nextRV())
	s.addRemoval(last, s.seq)
}
