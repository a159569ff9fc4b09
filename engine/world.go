package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// World is one simulated cluster: the fake apiserver plus the controllers
// that run against it, under one scheduler on a virtual clock. It is a pure,
// single-threaded state machine: the same actions give the same records.
type World struct {
	cfg         Config
	clock       *virtualClock
	store       *fakeapi.Store
	env         *env
	gc          *garbageCollector
	controllers []controller
	seq         int
}

// NewWorld returns a world with the configured kinds and controllers.
func NewWorld(cfg Config) (*World, error) {
	reg := fakeapi.NewRegistry()
	for _, k := range cfg.Kinds {
		k.Custom = true
		if err := reg.Add(k); err != nil {
			return nil, fmt.Errorf("kind %s %s: %w", k.APIVersion, k.Kind, err)
		}
	}
	names := cfg.Controllers
	if names == nil {
		names = AllControllers()
	}
	for _, n := range names {
		if !slices.Contains(AllControllers(), n) {
			return nil, fmt.Errorf("unknown controller %q (gcplay has %s)", n, strings.Join(AllControllers(), ", "))
		}
	}
	w := &World{cfg: cfg, clock: &virtualClock{}}
	w.store = fakeapi.NewStore(reg, w.clock)
	w.env = newEnv(w.store, w.clock)
	if slices.Contains(names, ControllerGC) {
		w.gc = newGarbageCollector(w.env)
	}
	for _, f := range controllerFactories {
		if slices.Contains(names, f.name) {
			w.controllers = append(w.controllers, f.make(w.env))
		}
	}
	w.wire()
	// The controllers start after the namespaces exist, with a list.
	if w.gc != nil {
		w.gc.relist()
	}
	for _, c := range w.controllers {
		c.restart(&Record{})
	}
	return w, nil
}

// wire connects the store's watch and request hooks, once per store, and
// the collector's queue hooks to the world.
func (w *World) wire() {
	w.store.Watch(w.dispatch)
	w.store.OnRequest(func(r fakeapi.Request) { w.env.called(&r) })
	w.wireGC()
}

// wireGC points the collector's queue hooks at the record being written.
func (w *World) wireGC() {
	if g := w.gc; g != nil {
		g.env = w.env
		g.graphChanges.onAdd = func(e *graphEvent, d time.Duration) { w.env.enqueued(QueueGraphChanges, e.String(), d) }
		g.attemptToDelete.onAdd = func(n *node, d time.Duration) { w.env.enqueued(QueueAttemptToDelete, w.env.ref(n.identity), d) }
		g.attemptToOrphan.onAdd = func(n *node, d time.Duration) { w.env.enqueued(QueueAttemptToOrphan, n.identity.ref(), d) }
	}
}

// dispatch delivers one watch event to every informer, in a fixed order.
func (w *World) dispatch(ev fakeapi.WatchEvent) {
	w.env.touch(ev.Object.Metadata.UID)
	if w.gc != nil {
		w.gc.observe(ev)
	}
	for _, c := range w.controllers {
		c.observe(ev)
	}
}

// relist rebuilds the collector's informers from a fresh list: every object
// becomes an add event, kinds in discovery order (R64).
func (g *garbageCollector) relist() {
	for _, k := range g.env.store.Registry().Kinds() {
		if k.Kind == "Event" {
			continue
		}
		objs, err := g.env.store.List(gcClient, k.APIVersion, k.Kind, "")
		if err != nil {
			continue // this informer has only what events show it (see informerGet)
		}
		for _, o := range objs {
			if o.APIVersion != k.APIVersion {
				continue // seen through its preferred version only
			}
			g.observe(fakeapi.WatchEvent{Type: fakeapi.Added, Object: o})
		}
	}
}

// Store returns the world's apiserver (for reads and introspection).
func (w *World) Store() *fakeapi.Store { return w.store }

// Elapsed returns the virtual time since the world started.
func (w *World) Elapsed() time.Duration { return w.clock.now }

// Seq returns the number of records the world has produced.
func (w *World) Seq() int { return w.seq }

// Controllers returns the names of the running controllers.
func (w *World) Controllers() []string {
	var out []string
	if w.gc != nil {
		out = append(out, ControllerGC)
	}
	for _, c := range w.controllers {
		out = append(out, c.name())
	}
	return out
}

// Do applies one action (a user request or a step) and returns its record.
func (w *World) Do(a Action) (Record, error) {
	p, err := a.apply(w)
	rec := *p // the one copy of the record the world keeps writing
	if w.cfg.CheckInvariants {
		if ierr := w.CheckGraphInvariants(); ierr != nil {
			err = fmt.Errorf("graph invariant (R35) broken after %s: %w", rec, ierr)
			rec.Err = err.Error()
		}
	}
	if err != nil && rec.Err == "" {
		rec.Err = err.Error()
	}
	return rec, err
}

func (w *World) begin(actor string) *Record { return w.env.begin(actor) }

// end finishes the step's record; it stays valid until the next begin.
func (w *World) end() *Record {
	w.seq++
	r := w.env.end()
	r.Seq = w.seq
	return r
}

func (a Create) String() string {
	if a.Object == nil {
		return "create"
	}
	return "create " + a.Object.String()
}

func (a Create) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	out, err := w.store.Create("user", a.Object)
	if err == nil {
		rec.Item = "create " + out.String()
		rec.Reason = Reason{Code: "Created", Message: fmt.Sprintf("%s created with uid %s", out, out.Metadata.UID)}
	}
	return w.userEnd(err)
}

func (w *World) userEnd(err error) (*Record, error) {
	if err != nil {
		w.env.rec.Err = err.Error()
		w.env.rec.Reason = Reason{Code: string(fakeapi.ReasonOf(err)), Message: err.Error()}
	}
	return w.end(), err
}

func (a Delete) String() string {
	s := "delete " + a.Ref.String()
	if o := a.Options; o != nil {
		if o.PropagationPolicy != nil {
			s += " propagationPolicy=" + string(*o.PropagationPolicy)
		}
		if o.OrphanDependents != nil {
			s += fmt.Sprintf(" orphanDependents=%t", *o.OrphanDependents)
		}
		if o.GracePeriodSeconds != nil {
			s += fmt.Sprintf(" gracePeriodSeconds=%d", *o.GracePeriodSeconds)
		}
		if len(o.DryRun) > 0 {
			s += " dryRun=" + strings.Join(o.DryRun, ",")
		}
	}
	return s
}

func (a Delete) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	res, err := w.store.Delete("user", a.Ref, a.Options)
	if err == nil {
		rec.Reason = Reason{Code: "Deleted", Rule: "R16", Func: "Store.Delete", Message: describeDelete(a.Ref, res)}
	}
	return w.userEnd(err)
}

func describeDelete(ref fakeapi.Ref, res fakeapi.DeleteResult) string {
	if res.Removed {
		return fmt.Sprintf("%s removed from storage at once (HTTP %d)", ref, res.Code)
	}
	o := res.Object
	if o == nil {
		return fmt.Sprintf("%s: HTTP %d", ref, res.Code)
	}
	if o.Metadata.DeletionTimestamp == nil {
		return fmt.Sprintf("%s: nothing written (dry run or pending)", ref)
	}
	fin := "no finalizers"
	if len(o.Metadata.Finalizers) > 0 {
		fin = "finalizers [" + strings.Join(o.Metadata.Finalizers, ", ") + "]"
	}
	return fmt.Sprintf("%s is now terminating (deletionTimestamp set, %s; HTTP %d)", ref, fin, res.Code)
}

func (a Patch) String() string { return "patch " + a.Ref.String() + " " + string(a.Merge) }

func (a Patch) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	out, err := w.store.Patch("user", a.Ref, fakeapi.MergePatch, a.Merge)
	if err == nil {
		if out == nil || w.store.ByUID(out.Metadata.UID) == nil {
			rec.Reason = Reason{Code: "Patched", Rule: "R9", Message: fmt.Sprintf("%s patched; its finalizers are now empty while it was being deleted, so it is removed from storage", a.Ref)}
		} else {
			rec.Reason = Reason{Code: "Patched", Message: fmt.Sprintf("%s patched (resourceVersion %s)", a.Ref, out.Metadata.ResourceVersion)}
		}
	}
	return w.userEnd(err)
}

func (a Inject) String() string {
	f := a.Fault
	return fmt.Sprintf("inject %s on %s %s x%d", f.Reason, f.Verb, faultTarget(f), max(f.Times, 1))
}

func faultTarget(f fakeapi.Fault) string {
	if f.Name != "" {
		return fakeapi.RefString(f.Kind, f.Namespace, f.Name)
	}
	return "every " + f.Kind
}

func (a Inject) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	f := a.Fault
	if f.Times <= 0 {
		f.Times = 1
	}
	w.store.Inject(f)
	rec.Reason = Reason{Code: "FaultInjected", Message: fmt.Sprintf("the next %d %s request(s) on %s will fail with %s", f.Times, f.Verb, faultTarget(f), f.Reason)}
	return w.end(), nil
}

func (a Advance) String() string { return "advance " + a.D.String() }

func (a Advance) apply(w *World) (*Record, error) {
	rec := w.begin("clock")
	rec.Item = a.String()
	if a.D < 0 {
		return w.userEnd(fmt.Errorf("cannot move the clock backwards (%s)", a.D))
	}
	w.clock.now += a.D
	rec.Reason = Reason{Code: "ClockAdvanced", Message: fmt.Sprintf("virtual clock moved %s forward, to %s", a.D, fmtElapsed(w.clock.now))}
	w.promote()
	return w.end(), nil
}

func fmtElapsed(d time.Duration) string { return "+" + d.String() }

func (a Restart) String() string { return "restart " + a.Controller }

func (a Restart) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	switch {
	case a.Controller == ControllerGC && w.gc != nil:
		old := w.gc
		w.gc = newGarbageCollector(w.env)
		w.wireGC()
		w.gc.relist()
		rec.Reason = Reason{Code: "Restarted", Rule: "R64", Func: "GarbageCollector.Run",
			Message: fmt.Sprintf("the collector's graph (%d nodes), queues and absentOwnerCache were thrown away; it relisted every object into graphChanges", old.uidToNode.Len())}
		return w.end(), nil
	default:
		for _, c := range w.controllers {
			if c.name() == a.Controller {
				c.restart(rec)
				rec.Reason = Reason{Code: "Restarted", Message: fmt.Sprintf("%s's in-memory state was thrown away; it relisted", a.Controller)}
				return w.end(), nil
			}
		}
	}
	return w.userEnd(fmt.Errorf("controller %q is not running (running: %s)", a.Controller, strings.Join(w.Controllers(), ", ")))
}

func (a Step) String() string {
	if a.Queue == "" {
		return "step"
	}
	return "step " + a.Queue
}

// ErrNothingToDo is returned by a Step when no work is ready.
var ErrNothingToDo = fmt.Errorf("nothing to do: every queue is empty or waiting")

func (a Step) apply(w *World) (*Record, error) {
	w.promote()
	q := a.Queue
	if q == "" {
		q = w.nextQueue()
		if q == "" {
			rec := w.begin("scheduler")
			rec.Item = "step"
			return w.userEnd(ErrNothingToDo)
		}
	}
	rec := w.begin(q)
	g := w.gc
	switch {
	case g != nil && q == QueueGraphChanges:
		if g.graphChanges.Len() == 0 {
			return w.userEnd(fmt.Errorf("queue %s is empty", q))
		}
		g.processGraphChanges(rec)
	case g != nil && q == QueueAttemptToDelete:
		if g.attemptToDelete.Len() == 0 {
			return w.userEnd(fmt.Errorf("queue %s is empty", q))
		}
		g.stepAttemptToDelete(rec)
	case g != nil && q == QueueAttemptToOrphan:
		if g.attemptToOrphan.Len() == 0 {
			return w.userEnd(fmt.Errorf("queue %s is empty", q))
		}
		g.stepAttemptToOrphan(rec)
	default:
		c := w.controller(q)
		if c == nil {
			return w.userEnd(fmt.Errorf("no queue or controller named %q (there are %s)", q, strings.Join(w.QueueNames(), ", ")))
		}
		if !c.ready() {
			return w.userEnd(fmt.Errorf("%s has nothing ready", q))
		}
		c.step(rec)
	}
	return w.end(), nil
}

func (w *World) controller(name string) controller {
	for _, c := range w.controllers {
		if c.name() == name {
			return c
		}
	}
	return nil
}

// QueueNames lists every queue a Step can name, in the default order.
func (w *World) QueueNames() []string {
	var out []string
	if w.gc != nil {
		out = append(out, QueueGraphChanges, QueueAttemptToDelete, QueueAttemptToOrphan)
	}
	for _, c := range w.controllers {
		out = append(out, c.name())
	}
	return out
}

// promote moves every delayed item that is due into its queue.
func (w *World) promote() {
	now := w.clock.now
	if g := w.gc; g != nil {
		g.graphChanges.Promote(now)
		g.attemptToDelete.Promote(now)
		g.attemptToOrphan.Promote(now)
	}
	for _, c := range w.controllers {
		c.promote(now)
	}
}

// nextQueue picks the default step: graphChanges first (the graph builder
// keeps up with events), then the collector's workers, then the workload
// controllers, in a fixed order.
func (w *World) nextQueue() string {
	if g := w.gc; g != nil {
		switch {
		case g.graphChanges.Len() > 0:
			return QueueGraphChanges
		case g.attemptToDelete.Len() > 0:
			return QueueAttemptToDelete
		case g.attemptToOrphan.Len() > 0:
			return QueueAttemptToOrphan
		}
	}
	for _, c := range w.controllers {
		if c.ready() {
			return c.name()
		}
	}
	return ""
}

// Idle reports whether no work is ready now (timers may still be pending).
func (w *World) Idle() bool {
	w.promote()
	return w.nextQueue() == ""
}

// NextDue returns the virtual time at which the next delayed work becomes
// ready, and false when nothing is pending at all.
func (w *World) NextDue() (time.Duration, bool) {
	var best time.Duration
	found := false
	consider := func(d time.Duration, ok bool) {
		if ok && (!found || d < best) {
			best, found = d, true
		}
	}
	if g := w.gc; g != nil {
		consider(g.graphChanges.NextDue())
		consider(g.attemptToDelete.NextDue())
		consider(g.attemptToOrphan.NextDue())
	}
	for _, c := range w.controllers {
		consider(c.nextDue())
	}
	return best, found
}

// onlyMaxBackoffLeft reports whether every pending item is a collector
// retry whose backoff has reached the maximum (settle stops there).
func (w *World) onlyMaxBackoffLeft() bool {
	for _, c := range w.controllers {
		if _, ok := c.nextDue(); ok {
			return false
		}
	}
	g := w.gc
	if g == nil {
		return false
	}
	capped := func(n int) bool { return n > 0 && float64(backoffBase)*pow2(n-1) >= float64(backoffMax) }
	any := false
	for _, q := range []*workqueue[*node]{g.attemptToDelete, g.attemptToOrphan} {
		for _, wi := range q.Waiting() {
			if !capped(q.NumRequeues(wi.item)) {
				return false
			}
			any = true
		}
	}
	if len(g.graphChanges.Waiting()) > 0 {
		return false
	}
	return any
}

func pow2(n int) float64 {
	f := 1.0
	for range n {
		f *= 2
	}
	return f
}

// Describe says in one line what the next default step will do.
func (w *World) Describe() string {
	w.promote()
	q := w.nextQueue()
	g := w.gc
	switch {
	case q == "":
		if d, ok := w.NextDue(); ok {
			return fmt.Sprintf("idle until %s, when delayed work is due", fmtElapsed(d))
		}
		return "idle: every queue is empty"
	case g != nil && q == QueueGraphChanges:
		return "graphChanges: process " + g.graphChanges.Items()[0].String()
	case g != nil && q == QueueAttemptToDelete:
		return "attemptToDelete: decide the fate of " + g.attemptToDelete.Items()[0].identity.ref()
	case g != nil && q == QueueAttemptToOrphan:
		return "attemptToOrphan: orphan the dependents of " + g.attemptToOrphan.Items()[0].identity.ref()
	default:
		return w.controller(q).describeNext()
	}
}

// Node returns the collector's uidToNode entry for uid.
func (w *World) Node(uid string) (NodeView, bool) {
	if w.gc == nil {
		return NodeView{}, false
	}
	n, ok := w.gc.uidToNode.Get(uid)
	if !ok {
		return NodeView{}, false
	}
	return n.view(), true
}

// Nodes returns every uidToNode entry, sorted by UID.
func (w *World) Nodes() []NodeView {
	if w.gc == nil {
		return nil
	}
	uids := make([]string, 0, w.gc.uidToNode.Len())
	for uid := range w.gc.uidToNode.All() {
		uids = append(uids, uid)
	}
	slices.Sort(uids)
	out := make([]NodeView, len(uids))
	for i, uid := range uids {
		n, _ := w.gc.uidToNode.Get(uid)
		out[i] = n.view()
	}
	return out
}

// Queue returns a queue's contents, front first, then waiting items by due time.
func (w *World) Queue(name string) []QueueItem {
	g := w.gc
	nodeItems := func(q *workqueue[*node]) []QueueItem {
		var out []QueueItem
		for _, n := range q.Items() {
			out = append(out, QueueItem{Item: n.identity.ref(), UID: n.identity.UID, Failures: q.NumRequeues(n)})
		}
		for _, wi := range q.Waiting() {
			out = append(out, QueueItem{Item: wi.item.identity.ref(), UID: wi.item.identity.UID, Due: wi.due, Waiting: true, Failures: q.NumRequeues(wi.item)})
		}
		return out
	}
	switch {
	case g != nil && name == QueueGraphChanges:
		var out []QueueItem
		for _, e := range g.graphChanges.Items() {
			out = append(out, QueueItem{Item: e.String(), UID: e.obj.Metadata.UID})
		}
		return out
	case g != nil && name == QueueAttemptToDelete:
		return nodeItems(g.attemptToDelete)
	case g != nil && name == QueueAttemptToOrphan:
		return nodeItems(g.attemptToOrphan)
	}
	if c := w.controller(name); c != nil {
		return c.queue()
	}
	return nil
}

// AbsentOwners returns the absentOwnerCache entries, most recent first.
func (w *World) AbsentOwners() []string {
	if w.gc == nil {
		return nil
	}
	var out []string
	for _, r := range w.gc.absent.entries() {
		out = append(out, fmt.Sprintf("%s (%s %s)", r.ref(), r.APIVersion, r.UID))
	}
	return out
}

// Clone returns an independent copy of the world.
func (w *World) Clone() *World {
	c := &World{cfg: w.cfg, clock: &virtualClock{now: w.clock.now}, seq: w.seq}
	c.store = w.store.Clone(c.clock)
	c.env = newEnv(c.store, c.clock)
	if w.gc != nil {
		c.gc = w.gc.clone(c.env)
	}
	for _, ctl := range w.controllers {
		c.controllers = append(c.controllers, ctl.clone(c.env))
	}
	c.wire()
	return c
}

// clone copies the collector, mapping every node pointer (including stale
// ones still queued) to a fresh copy.
func (g *garbageCollector) clone(e *env) *garbageCollector {
	m := make(map[*node]*node, g.uidToNode.Len())
	var get func(n *node) *node
	get = func(n *node) *node {
		if c, ok := m[n]; ok {
			return c
		}
		c := &node{identity: n.identity, owners: n.owners, beingDeleted: n.beingDeleted,
			deletingDependents: n.deletingDependents, virtual: n.virtual, queued: n.queued}
		m[n] = c
		for d := range n.dependents {
			c.addDependent(get(d))
		}
		return c
	}
	c := &garbageCollector{
		env:       e,
		uidToNode: g.uidToNode.Clone(get),
		absent:    g.absent.clone(),
	}
	// Queued events are copied: they carry the queue's flags, which each
	// world changes as it takes them.
	events := map[*graphEvent]*graphEvent{}
	c.graphChanges = g.graphChanges.clone(func(ev *graphEvent) *graphEvent {
		if cp, ok := events[ev]; ok {
			return cp
		}
		cp := *ev
		events[ev] = &cp
		return &cp
	})
	c.attemptToDelete = g.attemptToDelete.clone(get)
	c.attemptToOrphan = g.attemptToOrphan.clone(get)
	return c
}
