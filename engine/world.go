package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// World is one simulated cluster: the fake apiserver plus the controllers
// that run against it, under one scheduler on a virtual clock. It is a pure,
// single-threaded state machine: the same actions give the same records.
type World struct {
	cfg   Config
	clock *virtualClock
	store *fakeapi.Store
	env   *env
	// running are the world's controllers, in registry order.
	running []running
	seq     int
	// next is the default step's queue as Idle last found it, after
	// promoting what was due: a Step that follows at once (as a settle's
	// does) takes it rather than promoting and looking again. A record
	// begun since (seq), a moved clock or a watch event makes it stale.
	next readyQueue
}

// readyQueue is what Idle found (see World.next): the queue and the
// controller that owns it.
type readyQueue struct {
	valid bool
	seq   int
	at    time.Duration
	queue string
	owner controller
}

// running is one controller a world runs.
type running struct {
	reg *registration
	c   controller
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
		if lookupRegistration(n) == nil {
			return nil, fmt.Errorf("unknown controller %q (gcplay has %s)", n, strings.Join(AllControllers(), ", "))
		}
	}
	w := &World{cfg: cfg, clock: &virtualClock{epoch: dumpPresent(cfg.Restore)}}
	w.store = fakeapi.NewStore(reg, w.clock)
	w.store.Reserve(cfg.Restore)
	for _, o := range cfg.Restore {
		if err := w.store.Restore(o); err != nil {
			return nil, fmt.Errorf("restoring %s: %w", o, err)
		}
	}
	w.cfg.Restore = nil // stored now; a clone must not keep the dump alive
	w.env = newEnv(w.store, w.clock)
	for _, r := range registry {
		if slices.Contains(names, r.name) {
			w.running = append(w.running, running{reg: r, c: r.new(w.env)})
		}
	}
	w.wire()
	// The controllers start after the namespaces exist, with a list.
	// What those lists enqueue and request belongs to no record (the
	// next step's begin drops whatever was gathered outside a step), so
	// the world gathers nothing for them: at a dump's size, a label for
	// every object on every queue. The collector's graph events are
	// labelled when first asked for.
	w.env.discard, w.env.wordless = true, true
	for _, r := range w.running {
		r.c.restart(&Record{})
	}
	w.env.discard, w.env.wordless = false, false
	return w, nil
}

// wire connects the store's watch and request hooks, once per store.
func (w *World) wire() {
	w.store.Watch(w.dispatch)
	w.store.OnRequestReading(func(r fakeapi.Request) { w.env.called(&r) }, func() bool { return !w.env.discard })
}

// dispatch delivers one watch event to every informer, in a fixed order.
func (w *World) dispatch(ev fakeapi.WatchEvent) {
	w.next.valid = false
	w.env.touch(ev.Object.Metadata.UID)
	w.env.observePod(ev)
	for _, r := range w.running {
		r.c.observe(ev)
	}
}

// collector returns the world's garbage collector, or nil when it does not
// run one (for the views of its graph).
func (w *World) collector() *garbageCollector {
	for _, r := range w.running {
		if g, ok := r.c.(*garbageCollector); ok {
			return g
		}
	}
	return nil
}

// Store returns the world's apiserver (for reads and introspection).
func (w *World) Store() *fakeapi.Store { return w.store }

// Elapsed returns the virtual time since the world started.
func (w *World) Elapsed() time.Duration { return w.clock.now }

// Epoch is the world's time at its start (+0s): fakeapi.Epoch, or the
// present of the dump it restored (see dumpPresent).
func (w *World) Epoch() time.Time { return w.clock.start() }

// Seq returns the number of records the world has produced.
func (w *World) Seq() int { return w.seq }

// Controllers returns the names of the running controllers.
func (w *World) Controllers() []string {
	var out []string
	for _, r := range w.running {
		out = append(out, r.reg.name)
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
		if terr := rec.Reason.checkTexts(); terr != nil && err == nil {
			err = fmt.Errorf("after %s: %w", rec, terr)
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
		rec.Reason = Reason{Code: "Created"}.Say("%s created with uid %s", out, out.Metadata.UID)
	}
	return w.userEnd(err)
}

func (w *World) userEnd(err error) (*Record, error) {
	if err != nil {
		w.env.rec.Err = err.Error()
		if te, ok := err.(*TextError); ok {
			w.env.rec.Reason = Reason{}.Saying(te.Text)
		} else {
			w.env.rec.Reason = Reason{Code: string(fakeapi.ReasonOf(err))}.Say("%s", err.Error())
		}
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
		rec.Reason = Reason{Code: "Deleted", Rule: "R16", Func: "Store.Delete"}.Saying(describeDelete(a.Ref, res))
		if o := res.Object; o != nil && !res.Removed && o.Kind == "Namespace" && o.Metadata.DeletionTimestamp != nil {
			if fins := fakeapi.NamespaceFinalizers(o); len(fins) > 0 {
				rec.Reason = Reason{Code: "NamespaceTerminating", Rule: "N1", Func: "namespace REST.Delete"}.
					Say("%s is now Terminating (deletionTimestamp set, status.phase Terminating, HTTP %d): its content stays until the namespace controller deletes it, and spec.finalizers %s keeps the namespace until then",
						a.Ref, res.Code, fmtList(fins))
			}
		}
	}
	return w.userEnd(err)
}

func describeDelete(ref fakeapi.Ref, res fakeapi.DeleteResult) Text {
	if res.Removed {
		return say("%s removed from storage at once (HTTP %d)", ref, res.Code)
	}
	o := res.Object
	if o == nil {
		return say("%s: HTTP %d", ref, res.Code)
	}
	if o.Metadata.DeletionTimestamp == nil {
		return say("%s: nothing written (dry run or pending)", ref)
	}
	if len(o.Metadata.Finalizers) > 0 {
		return say("%s is now terminating (deletionTimestamp set, finalizers [%s]; HTTP %d)", ref, strings.Join(o.Metadata.Finalizers, ", "), res.Code)
	}
	return say("%s is now terminating (deletionTimestamp set, no finalizers; HTTP %d)", ref, res.Code)
}

func (a Patch) String() string { return "patch " + a.Ref.String() + " " + string(a.Merge) }

func (a Patch) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	out, err := w.store.Patch("user", a.Ref, fakeapi.MergePatch, a.Merge)
	if err == nil {
		if out == nil || w.store.ByUID(out.Metadata.UID) == nil {
			rec.Reason = Reason{Code: "Patched", Rule: "R9"}.Say("%s patched; its finalizers are now empty while it was being deleted, so it is removed from storage", a.Ref)
		} else {
			rec.Reason = Reason{Code: "Patched"}.Say("%s patched (resourceVersion %s)", a.Ref, out.Metadata.ResourceVersion)
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
	rec.Reason = Reason{Code: "FaultInjected"}.Say("the next %d %s request(s) on %s will fail with %s", f.Times, f.Verb, faultTarget(f), f.Reason)
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
	rec.Reason = Reason{Code: "ClockAdvanced"}.Say("virtual clock moved %s forward, to %s", a.D, fmtElapsed(w.clock.now))
	w.promote()
	return w.end(), nil
}

func fmtElapsed(d time.Duration) string { return "+" + d.String() }

func (a Restart) String() string { return "restart " + a.Controller }

func (a Restart) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	for _, r := range w.running {
		if r.reg.name == a.Controller {
			r.c.restart(rec)
			w.env.forgetEvents(a.Controller)
			if rec.Reason.Code == "" {
				rec.Reason = Reason{Code: "Restarted"}.Say("%s's in-memory state was thrown away; it relisted", a.Controller)
			}
			return w.end(), nil
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
	q := a.Queue
	var c controller
	if q != "" {
		w.promote()
		c = w.queueOwner(q)
	} else {
		q, c = w.defaultQueue()
		if q == "" {
			rec := w.begin("scheduler")
			rec.Item = "step"
			return w.userEnd(ErrNothingToDo)
		}
	}
	rec := w.begin(q)
	if c == nil {
		return w.userEnd(fmt.Errorf("no queue or controller named %q (there are %s)", q, strings.Join(w.QueueNames(), ", ")))
	}
	if !c.ready(q) {
		return w.userEnd(fmt.Errorf("queue %s has nothing ready", q))
	}
	c.step(q, rec)
	return w.end(), nil
}

// queueOwner returns the running controller that owns queue, or nil.
func (w *World) queueOwner(queue string) controller {
	for _, r := range w.running {
		if slices.Contains(r.reg.queues, queue) {
			return r.c
		}
	}
	return nil
}

// QueueNames lists every queue a Step can name, in the default order.
func (w *World) QueueNames() []string {
	var out []string
	for _, r := range w.running {
		out = append(out, r.reg.queues...)
	}
	return out
}

// promote moves every delayed item that is due into its queue.
func (w *World) promote() {
	for _, r := range w.running {
		r.c.promote(w.clock.now)
	}
}

// nextQueue picks the default step: the first ready queue of the first
// controller in registry order (the graph builder keeps up with events
// first, then the collector's workers, then the workload controllers),
// and the controller that owns it (nil when no queue is ready).
func (w *World) nextQueue() (string, controller) {
	for _, r := range w.running {
		for _, q := range r.reg.queues {
			if r.c.ready(q) {
				return q, r.c
			}
		}
	}
	return "", nil
}

// Idle reports whether no work is ready now (timers may still be pending).
func (w *World) Idle() bool {
	w.promote()
	q, c := w.nextQueue()
	w.next = readyQueue{valid: true, seq: w.seq, at: w.clock.now, queue: q, owner: c}
	return q == ""
}

// defaultQueue is the queue a Step that names none takes, after promoting
// what is due, and its owner: Idle's answer when nothing has happened
// since, else found again. The owner comes with the queue, so a step
// does not look its queue's name up among every controller's.
func (w *World) defaultQueue() (string, controller) {
	if n := w.next; n.valid && n.seq == w.seq && n.at == w.clock.now {
		w.next.valid = false
		w.next.owner = nil
		return n.queue, n.owner
	}
	w.promote()
	return w.nextQueue()
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
	for _, r := range w.running {
		consider(r.c.nextDue())
	}
	return best, found
}

// clockWaiter is a controller that also waits for time passing in the
// cluster (a Job's pod-failure backoff and activeDeadlineSeconds,
// ttlSecondsAfterFinished, a CronJob's next schedule): waits that settle
// does not cross and advance does (the format's 2026-11-25 additions).
type clockWaiter interface {
	// nextTimer returns when its next such wait ends.
	nextTimer() (time.Duration, bool)
}

// NextTimer returns the virtual time at which the next wait for time
// passing in the cluster ends (see clockWaiter), and false when there is
// none. Settle stops before it; AdvanceBy runs it.
func (w *World) NextTimer() (time.Duration, bool) {
	var best time.Duration
	found := false
	for _, r := range w.running {
		if cw, ok := r.c.(clockWaiter); ok {
			if d, ok := cw.nextTimer(); ok && (!found || d < best) {
				best, found = d, true
			}
		}
	}
	return best, found
}

// NextWake returns the earlier of NextDue and NextTimer: when anything
// next becomes due, which is where an advance without a duration goes.
func (w *World) NextWake() (time.Duration, bool) {
	d, ok := w.NextDue()
	if t, tok := w.NextTimer(); tok && (!ok || t < d) {
		return t, true
	}
	return d, ok
}

// onlyMaxBackoffLeft reports whether every pending item is a retry whose
// backoff has reached the maximum (settle stops there).
func (w *World) onlyMaxBackoffLeft() bool {
	any := false
	for _, r := range w.running {
		rt, ok := r.c.(retrier)
		if !ok {
			if _, pending := r.c.nextDue(); pending {
				return false
			}
			continue
		}
		pending, capped := rt.retriesCapped()
		if pending && !capped {
			return false
		}
		any = any || pending
	}
	return any
}

// Describe says in one line what the next default step will do.
func (w *World) Describe() string {
	w.promote()
	q, c := w.nextQueue()
	if q == "" {
		if d, ok := w.NextDue(); ok {
			return fmt.Sprintf("idle until %s, when delayed work is due", fmtElapsed(d))
		}
		if d, ok := w.NextTimer(); ok {
			return fmt.Sprintf("idle: the clock waits until %s (a schedule, a backoff, a deadline or a TTL); advance crosses it", fmtElapsed(d))
		}
		return "idle: every queue is empty"
	}
	return c.describeNext(q)
}

// Node returns the collector's uidToNode entry for uid.
func (w *World) Node(uid string) (NodeView, bool) {
	g := w.collector()
	if g == nil {
		return NodeView{}, false
	}
	n, ok := g.uidToNode.Get(uid)
	if !ok {
		return NodeView{}, false
	}
	return n.view(), true
}

// Nodes returns every uidToNode entry, sorted by UID.
func (w *World) Nodes() []NodeView {
	g := w.collector()
	if g == nil {
		return nil
	}
	uids := make([]string, 0, g.uidToNode.Len())
	for uid := range g.uidToNode.All() {
		uids = append(uids, uid)
	}
	slices.Sort(uids)
	out := make([]NodeView, len(uids))
	for i, uid := range uids {
		n, _ := g.uidToNode.Get(uid)
		out[i] = n.view()
	}
	return out
}

// Queue returns a queue's contents, front first, then waiting items by due time.
func (w *World) Queue(name string) []QueueItem { return w.QueueHead(name, math.MaxInt) }

// QueueHead returns the first n items of Queue(name), reading about n
// items however long the queue is: a frame shows a screenful of queues
// that hold tens of thousands of items as a large world is deleted.
func (w *World) QueueHead(name string, n int) []QueueItem {
	if c := w.queueOwner(name); c != nil && n > 0 {
		return listHead(nil, c.items(name), n)
	}
	return nil
}

// QueueCount returns how many items Queue(name) lists, and how many of
// them are ready (not Waiting), without listing them.
func (w *World) QueueCount(name string) (total, ready int) {
	if c := w.queueOwner(name); c != nil {
		for _, p := range c.items(name) {
			r, wt := p.count()
			total += r + wt
			ready += r
		}
	}
	return total, ready
}

// AbsentOwners returns the absentOwnerCache entries, most recent first.
func (w *World) AbsentOwners() []string {
	g := w.collector()
	if g == nil {
		return nil
	}
	var out []string
	for _, r := range g.absent.entries() {
		out = append(out, fmt.Sprintf("%s (%s %s)", r.ref(), r.APIVersion, r.UID))
	}
	return out
}

// Clone returns an independent copy of the world.
func (w *World) Clone() *World {
	c := &World{cfg: w.cfg, clock: &virtualClock{epoch: w.clock.epoch, now: w.clock.now}, seq: w.seq}
	c.store = w.store.Clone(c.clock)
	c.env = newEnv(c.store, c.clock)
	if w.env.pods != nil {
		c.env.pods, c.env.podsListed = w.env.pods.clone(), w.env.podsListed
	}
	for src, corr := range w.env.correlators {
		if c.env.correlators == nil {
			c.env.correlators = make(map[string]*eventCorrelator, len(w.env.correlators))
		}
		c.env.correlators[src] = corr.clone()
	}
	for _, r := range w.running {
		c.running = append(c.running, running{reg: r.reg, c: r.c.clone(c.env)})
	}
	c.wire()
	return c
}
