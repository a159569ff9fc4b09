package tui

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/objtable"
)

// snapshot is everything the views show that costs more than the rows in
// view: the flattened tree, the queues, the absent-owner cache, the status.
// It is rebuilt when the session's version changes, never per frame; the
// per-object parts (graph flags, manifest, history) are filled in lazily
// for the objects drawn, and kept until the next rebuild.
type snapshot struct {
	version int
	h       *engine.History
	store   *fakeapi.Store
	// tree is rebuilt only when storage changed since the last snapshot:
	// most steps change only the collector's graph and queues.
	tree   *tree
	reg    *fakeapi.Registry
	queues []queueView
	// queueShown is how many items of each queue queues holds.
	queueShown int
	absent     []string
	absentID   map[string]bool // UIDs in the absentOwnerCache
	describe   string
	elapsed    time.Duration
	pos, len   int
	branched   int
	gcRuns     bool
	// cur is the current record (the last one applied), if any; changed
	// holds the UIDs it changed.
	cur     *engine.Record
	changed map[string]bool

	nodes    map[string]nodeFlags
	manifest map[string][]string
	// history holds what historyOf found, handed from snapshot to
	// snapshot while the timeline is only added to.
	history map[string]changedAt
	// scanned counts the records historyOf read.
	scanned  int
	branches int
	// yaml holds manifests as YAML lines by their JSON, handed from
	// snapshot to snapshot: most steps (and steps back) leave the object
	// the inspector shows as it was, and turning it into YAML is most of
	// what a frame after a step costs.
	yaml map[string][]string
	// shown holds the same lines by the stored object they were made
	// from, handed on as yaml is: a stored object is never changed (the
	// store writes a new one), and states of the timeline share the
	// objects a step did not write, so an object drawn before needs
	// neither its JSON nor a lookup by it.
	shown map[*fakeapi.Object][]string
	// sorted says the tree was built from Store.Objects, which sorts
	// every stored object, rather than from the last tree's objects.
	sorted bool
}

// maxYAMLKept bounds the manifests a snapshot hands on.
const maxYAMLKept = 256

// queueView is a queue as the collector pane shows it: its first items
// (as many as the pane can show) and its counts. A queue holds tens of
// thousands of items as a large world is deleted, and a frame lists a
// screenful of them.
type queueView struct {
	name string
	// items are the queue's first items, at most queueShown of them.
	items        []engine.QueueItem
	total, ready int
}

// nodeFlags is the collector's view of one UID.
type nodeFlags struct {
	inGraph bool
	virtual bool
	// flags are the node's flags as engine.NodeView.Flags names them.
	flags              []string
	owners, dependents int
}

// newSnapshot builds the snapshot of the session's world, listing at
// most queueShown items of each queue.
func newSnapshot(s *session, prev *snapshot, queueShown int) *snapshot {
	w := s.world()
	desc := w.Describe() // promotes what is due, before the queues are read
	sn := &snapshot{
		version:  s.version,
		h:        s.h,
		reg:      w.Store().Registry(),
		describe: desc,
		elapsed:  w.Elapsed(),
		pos:      s.h.Pos(),
		len:      s.h.Len(),
		branched: s.h.BranchedAt(),
		gcRuns:   slices.Contains(w.Controllers(), engine.ControllerGC),
		absentID: map[string]bool{},
		changed:  map[string]bool{},
		nodes:    map[string]nodeFlags{},
		manifest: map[string][]string{},
		history:  map[string]changedAt{},
		branches: s.h.Branches(),
		yaml:     map[string][]string{},
		shown:    map[*fakeapi.Object][]string{},
	}
	if prev != nil && len(prev.yaml) < maxYAMLKept {
		sn.yaml = prev.yaml
	}
	if prev != nil && len(prev.shown) < maxYAMLKept {
		sn.shown = prev.shown
	}
	if prev != nil && prev.h == s.h && prev.branches == sn.branches && len(prev.history) < maxYAMLKept {
		sn.history = prev.history
	}
	if prev != nil && prev.h == s.h && prev.tree != nil &&
		(!storageWritten(s.h, prev.pos, sn.pos) || sameShape(s.h, prev.pos, sn.pos, prev.tree, w.Store())) {
		sn.tree = prev.tree
	} else {
		var objs []*fakeapi.Object
		if prev != nil && prev.h == s.h && prev.tree != nil {
			objs = remaining(prev.tree.all, w.Store(), func() map[string]*fakeapi.Object { return arrived(s.h, prev.pos, sn.pos, w.Store()) })
		}
		if objs == nil {
			objs = w.Store().Objects()
			sn.sorted = true
		}
		sn.tree = buildTree(objs, sn.reg)
	}
	sn.store = w.Store()
	sn.queueShown = queueShown
	for _, q := range w.QueueNames() {
		qv := queueView{name: q, items: w.QueueHead(q, queueShown)}
		qv.total, qv.ready = w.QueueCount(q)
		sn.queues = append(sn.queues, qv)
	}
	sn.absent = w.AbsentOwners()
	for _, a := range sn.absent {
		// "Kind/name (apiVersion uid)"
		if i := strings.LastIndexByte(a, ' '); i >= 0 {
			sn.absentID[strings.TrimSuffix(a[i+1:], ")")] = true
		}
	}
	if sn.pos > 0 {
		r := s.h.Record(sn.pos - 1)
		sn.cur = &r
		for _, u := range r.Changed {
			sn.changed[u] = true
		}
	}
	return sn
}

// node returns the collector's flags for uid, looked up once per snapshot.
func (sn *snapshot) node(w *engine.World, uid string) nodeFlags {
	if f, ok := sn.nodes[uid]; ok {
		return f
	}
	var f nodeFlags
	if n, ok := w.Node(uid); ok {
		f = nodeFlags{inGraph: true, virtual: n.Virtual, flags: n.Flags(),
			owners: len(n.Owners), dependents: len(n.Dependents)}
	}
	sn.nodes[uid] = f
	return f
}

// jsonToYAML writes a JSON document as YAML the way kubectl shows
// manifests: keys in their JSON order, two-space indent, list items level
// with their key, quotes only where a plain scalar would change type. It
// uses yaml.v3, which scenario files already need, so the browser build
// links one YAML library, not two.
func jsonToYAML(j []byte) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(j, &doc); err != nil {
		return "", err
	}
	plain(&doc)
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(&doc); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// plain drops the JSON quoting and flow style the parser recorded, so the
// encoder writes block YAML and quotes only what needs quotes, and sorts
// mapping keys as kubectl does.
func plain(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		plain(c)
	}
	if n.Kind == yaml.MappingNode {
		pairs := make([][2]*yaml.Node, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			pairs = append(pairs, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
		}
		sort.SliceStable(pairs, func(i, j int) bool { return pairs[i][0].Value < pairs[j][0].Value })
		for i, p := range pairs {
			n.Content[2*i], n.Content[2*i+1] = p[0], p[1]
		}
	}
}

// manifestOf returns obj as YAML lines, once per snapshot.
func (sn *snapshot) manifestOf(obj *fakeapi.Object) []string {
	uid := obj.Metadata.UID
	if m, ok := sn.manifest[uid]; ok {
		return m
	}
	if m, ok := sn.shown[obj]; ok {
		sn.manifest[uid] = m
		return m
	}
	var lines []string
	j, err := json.Marshal(obj)
	if err == nil {
		if kept, ok := sn.yaml[string(j)]; ok {
			sn.manifest[uid] = kept
			sn.shown[obj] = kept
			return kept
		}
		y, ok := directYAML(j)
		if !ok {
			y, err = jsonToYAML(j)
		}
		if err == nil {
			lines = strings.Split(strings.TrimRight(y, "\n"), "\n")
			sn.yaml[string(j)] = lines
		}
	}
	if err != nil {
		lines = []string{"cannot show the manifest: " + err.Error()}
	} else {
		sn.shown[obj] = lines
	}
	sn.manifest[uid] = lines
	return lines
}

// changedAt is the records that changed an object, among the first
// upto of the timeline.
type changedAt struct {
	at   []int
	upto int
}

// historyOf returns the indexes of the records (the whole timeline,
// including those after the current position) that changed uid. It scans
// only the records added since an earlier snapshot scanned for uid: a
// run draws hundreds of frames of a timeline of 700,000 records. An
// object not scanned for before is scanned for from the start, and with
// it the rows the selection lands on when uid's row goes (historyNear):
// in a cascade the selected object is removed frame after frame, and
// each newly selected one cost a scan of the whole timeline.
func (sn *snapshot) historyOf(h *engine.History, uid string) []int {
	c, ok := sn.history[uid]
	if ok && c.upto == h.Len() {
		return c.at
	}
	want := map[string][]int{uid: slices.Clip(c.at)} // an earlier snapshot's slice is not appended to in place
	from := c.upto
	if !ok {
		for _, n := range sn.historyNear(uid) {
			if _, ok := sn.history[n]; !ok && n != uid {
				want[n] = nil
			}
		}
	}
	for i := from; i < h.Len(); i++ {
		ch := h.Changed(i)
		sn.scanned++
		if len(ch) <= len(want) {
			for _, u := range ch {
				if at, ok := want[u]; ok {
					want[u] = append(at, i)
				}
			}
			continue
		}
		for u, at := range want {
			if _, found := slices.BinarySearch(ch, u); found {
				want[u] = append(at, i)
			}
		}
	}
	for u, at := range want {
		if at == nil {
			at = []int{}
		}
		sn.history[u] = changedAt{at: at, upto: h.Len()}
	}
	return sn.history[uid].at
}

// historyAhead is how many rows after a selected row's own historyOf
// scans for with it.
const historyAhead = 16

// historyNear returns the UIDs of the rows the selection moves to when
// uid's first row leaves the tree (Model.refresh keeps the selection's
// index): the row before it, and the next historyAhead rows after it that
// are not below it (its siblings, then its parent's), since its
// dependents leave with it or move under a missing owner.
func (sn *snapshot) historyNear(uid string) []string {
	i, ok := sn.tree.first[uid]
	if !ok {
		return nil
	}
	rows := sn.tree.rows
	var out []string
	if i > 0 {
		out = append(out, rows[i-1].uid)
	}
	for j := i + 1; j < len(rows) && len(out) <= historyAhead; j++ {
		if rows[j].depth <= rows[i].depth {
			out = append(out, rows[j].uid)
		}
	}
	return out
}

// obj returns the stored object of a row as it is now: a kept tree's rows
// may hold an earlier copy of it (the same object in the same place, with
// other fields changed).
func (sn *snapshot) obj(r *row) *fakeapi.Object {
	if r.obj == nil {
		return nil
	}
	if o := sn.store.ByUID(r.uid); o != nil {
		return o
	}
	return r.obj
}

// remaining returns the store's objects in the store's order, as
// Store.Objects does, from all, an earlier tree's objects in that order:
// those still stored, each as it is stored now, and among them in their
// places the objects of arrivals (those the records between the two
// trees touched) that all lacks: the objects a step back brings back, or
// a step forward creates. It returns nil when the store holds an object
// neither lacks, or an object by a UID all gave to another, or one whose
// order it cannot tell: then only sorting gives the order. An object's
// place in the order (its kind, namespace, name and group) never
// changes, so while a cascade only removes objects, or a step back only
// brings a few back, a frame need not sort all the others.
func remaining(all []*fakeapi.Object, store *fakeapi.Store, arrivals func() map[string]*fakeapi.Object) []*fakeapi.Object {
	out := make([]*fakeapi.Object, 0, store.Len())
	for _, o := range all {
		cur := store.ByUID(o.Metadata.UID)
		if cur == nil {
			continue
		}
		if cur.Kind != o.Kind || cur.APIVersion != o.APIVersion || cur.Metadata.Namespace != o.Metadata.Namespace || cur.Metadata.Name != o.Metadata.Name {
			return nil
		}
		out = append(out, cur)
	}
	if len(out) == store.Len() {
		return out
	}
	if arrivals == nil {
		return nil
	}
	arr := arrivals()
	if len(out)+len(arr) < store.Len() {
		return nil
	}
	return mergeArrivals(out, arr, store.Len(), store)
}

// maxArrivalRecords bounds the records arrived reads: past it (a long
// jump), sorting the store's objects costs less than merging.
const maxArrivalRecords = 1 << 16

// arrived returns the stored objects the records between positions a and
// b touched, by UID: a superset of those stored at b and not at a. It
// returns nil when there are none, or when a and b lie too far apart.
func arrived(h *engine.History, a, b int, store *fakeapi.Store) map[string]*fakeapi.Object {
	lo, hi := min(a, b), max(a, b)
	if hi-lo > maxArrivalRecords {
		return nil
	}
	var out map[string]*fakeapi.Object
	for i := lo; i < hi && i < h.Len(); i++ {
		for _, uid := range h.Changed(i) {
			if o := store.ByUID(uid); o != nil {
				if out == nil {
					out = map[string]*fakeapi.Object{}
				}
				out[uid] = o
			}
		}
	}
	return out
}

// mergeArrivals returns objs (in the store's order) with those objects
// of arrivals that objs lacks in their places, or nil unless that makes
// n objects, or when an object's kind is not served.
func mergeArrivals(objs []*fakeapi.Object, arrivals map[string]*fakeapi.Object, n int, store *fakeapi.Store) []*fakeapi.Object {
	type arrival struct {
		key objtable.Key
		o   *fakeapi.Object
		at  int
	}
	news := make([]arrival, 0, len(arrivals))
	for _, o := range arrivals {
		k, ok := store.OrderKey(o)
		if !ok {
			return nil
		}
		news = append(news, arrival{key: k, o: o})
	}
	slices.SortFunc(news, func(a, b arrival) int { return fakeapi.CompareOrder(a.key, b.key) })
	bad := false
	keyAt := func(j int) objtable.Key {
		k, ok := store.OrderKey(objs[j])
		bad = bad || !ok
		return k
	}
	kept := news[:0]
	for _, a := range news {
		a.at = sort.Search(len(objs), func(j int) bool { return fakeapi.CompareOrder(a.key, keyAt(j)) <= 0 })
		if a.at < len(objs) && fakeapi.CompareOrder(a.key, keyAt(a.at)) == 0 {
			if objs[a.at] != a.o {
				return nil // another object in its place
			}
			continue // stored before: in its place already
		}
		kept = append(kept, a)
	}
	if bad || len(objs)+len(kept) != n {
		return nil
	}
	out := make([]*fakeapi.Object, 0, n)
	from := 0
	for _, a := range kept {
		out = append(append(out, objs[from:a.at]...), a.o)
		from = a.at
	}
	return append(out, objs[from:]...)
}

// sameShape reports whether the records between positions a and b left
// the tree's shape as it was: every object they touched still exists or
// is still absent, with the same ownerReferences. Then only fields the
// rows look up when drawn (finalizers, deletionTimestamp...) changed.
func sameShape(h *engine.History, a, b int, t *tree, store *fakeapi.Store) bool {
	lo, hi := min(a, b), max(a, b)
	seen := map[string]bool{}
	for i := lo; i < hi && i < h.Len(); i++ {
		for _, uid := range h.Changed(i) {
			if seen[uid] {
				continue
			}
			seen[uid] = true
			cur := store.ByUID(uid)
			if cur != nil && cur.Kind == "Event" && cur.APIVersion == "v1" {
				continue
			}
			var old *fakeapi.Object
			if j, ok := t.first[uid]; ok {
				old = t.rows[j].obj
			}
			if (old == nil) != (cur == nil) {
				return false
			}
			if old != nil && !slices.EqualFunc(old.Metadata.OwnerReferences, cur.Metadata.OwnerReferences, fakeapi.OwnerReference.Equal) {
				return false
			}
		}
	}
	return true
}

// storageWritten reports whether any record between positions a and b of
// the timeline wrote to storage (a successful create, update, patch or
// delete). Moving between two positions with none in between leaves
// storage as it was, so the tree can be kept.
func storageWritten(h *engine.History, a, b int) bool {
	lo, hi := min(a, b), max(a, b)
	for i := lo; i < hi && i < h.Len(); i++ {
		for _, c := range h.Record(i).Calls() {
			switch c.Verb {
			case "create", "update", "patch", "delete":
				if c.Code >= 200 && c.Code < 300 {
					return true
				}
			}
		}
	}
	return false
}

// namespaceWhy is what still holds a terminating namespace, for the
// inspector (engine.NamespaceWhy); nil for any other object.
func (sn *snapshot) namespaceWhy(o *fakeapi.Object) []string {
	if o.Kind != "Namespace" || o.Metadata.DeletionTimestamp == nil {
		return nil
	}
	// The whole queue, not the screenful the snapshot holds (nil when the
	// namespace controller does not run).
	queue := sn.h.World().Queue(engine.ControllerNamespace)
	return engine.NamespaceWhy(sn.store, o, queue, sn.h.World().Controllers())
}
