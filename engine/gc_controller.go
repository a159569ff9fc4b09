package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// ControllerGC is the garbage collector's name in `controllers:`.
const ControllerGC = "garbagecollector"

// The collector's queues, as `step: {queue: ...}` and the trace name them.
const (
	QueueGraphChanges    = "graphChanges"
	QueueAttemptToDelete = "attemptToDelete"
	QueueAttemptToOrphan = "attemptToOrphan"
)

// garbageCollectorRegistration registers the collector: the graph builder
// keeps up with events first, then the two workers.
var garbageCollectorRegistration = registration{
	name:        ControllerGC,
	queues:      []string{QueueGraphChanges, QueueAttemptToDelete, QueueAttemptToOrphan},
	restartable: true,
	new:         func(e *env) controller { return newGarbageCollector(e) },
}

// hook tells the record being written what the collector's queues take.
func (g *garbageCollector) hook() {
	g.graphChanges.onAdd = func(e *graphEvent, d time.Duration) {
		if !g.env.discard {
			g.env.enqueued(QueueGraphChanges, e.String(), d)
		}
	}
	g.attemptToDelete.onAdd = func(n *node, d time.Duration) {
		if !g.env.discard {
			g.env.enqueued(QueueAttemptToDelete, g.env.ref(n.identity), d)
		}
	}
	g.attemptToOrphan.onAdd = func(n *node, d time.Duration) {
		if !g.env.discard {
			g.env.enqueued(QueueAttemptToOrphan, n.identity.ref(), d)
		}
	}
}

func (g *garbageCollector) nodeQueue(queue string) *workqueue[*node] {
	if queue == QueueAttemptToOrphan {
		return g.attemptToOrphan
	}
	return g.attemptToDelete
}

func (g *garbageCollector) promote(now time.Duration) {
	g.graphChanges.Promote(now)
	g.attemptToDelete.Promote(now)
	g.attemptToOrphan.Promote(now)
}

func (g *garbageCollector) ready(queue string) bool {
	if queue == QueueGraphChanges {
		return g.graphChanges.Len() > 0
	}
	return g.nodeQueue(queue).Len() > 0
}

func (g *garbageCollector) nextDue() (time.Duration, bool) {
	var best time.Duration
	found := false
	for _, due := range [...]func() (time.Duration, bool){g.graphChanges.NextDue, g.attemptToDelete.NextDue, g.attemptToOrphan.NextDue} {
		if d, ok := due(); ok && (!found || d < best) {
			best, found = d, true
		}
	}
	return best, found
}

func (g *garbageCollector) step(queue string, rec *Record) {
	switch queue {
	case QueueGraphChanges:
		g.processGraphChanges(rec)
	case QueueAttemptToDelete:
		g.stepAttemptToDelete(rec)
	case QueueAttemptToOrphan:
		g.stepAttemptToOrphan(rec)
	}
}

func (g *garbageCollector) items(queue string) []queuePart {
	if queue == QueueGraphChanges {
		// Its waiting items were never listed.
		return []queuePart{graphChangesReady{g.graphChanges}}
	}
	q := g.nodeQueue(queue)
	return []queuePart{shownQueue[*node]{q: q,
		ready: func(n *node) QueueItem {
			return QueueItem{Item: n.identity.ref(), UID: n.identity.UID, Failures: q.NumRequeues(n)}
		},
		waiting: func(wi waitingItem[*node]) QueueItem {
			return QueueItem{Item: wi.item.identity.ref(), UID: wi.item.identity.UID, Due: wi.due, Waiting: true, Failures: q.NumRequeues(wi.item)}
		},
	}}
}

// graphChangesReady lists graphChanges' ready events.
type graphChangesReady struct{ q *workqueue[*graphEvent] }

func (p graphChangesReady) count() (ready, waiting int) { return p.q.Len(), 0 }

func (p graphChangesReady) head(out []QueueItem, n int) []QueueItem {
	items := p.q.Items()
	for _, e := range items[:min(n, len(items))] {
		out = append(out, QueueItem{Item: e.String(), UID: e.obj.Metadata.UID})
	}
	return out
}

func (g *garbageCollector) describeNext(queue string) string {
	switch queue {
	case QueueGraphChanges:
		return "graphChanges: process " + g.graphChanges.Items()[0].String()
	case QueueAttemptToDelete:
		return "attemptToDelete: decide the fate of " + g.attemptToDelete.Items()[0].identity.ref()
	default:
		return "attemptToOrphan: orphan the dependents of " + g.attemptToOrphan.Items()[0].identity.ref()
	}
}

// retriesCapped: only the workers retry forever; a graphChanges item
// waiting for its delay is work to wait for.
func (g *garbageCollector) retriesCapped() (pending, capped bool) {
	if len(g.graphChanges.Waiting()) > 0 {
		return true, false
	}
	atMax := func(n int) bool { return n > 0 && float64(backoffBase)*pow2(n-1) >= float64(backoffMax) }
	for _, q := range [...]*workqueue[*node]{g.attemptToDelete, g.attemptToOrphan} {
		for _, wi := range q.Waiting() {
			if !atMax(q.NumRequeues(wi.item)) {
				return true, false
			}
			pending = true
		}
	}
	return pending, pending
}

func pow2(n int) float64 {
	f := 1.0
	for range n {
		f *= 2
	}
	return f
}

// restart throws away the graph, the queues and the absent-owner cache,
// and relists (R64).
func (g *garbageCollector) restart(rec *Record) {
	nodes := g.uidToNode.Len()
	*g = *newGarbageCollector(g.env)
	g.hook()
	g.relist()
	rec.Reason = Reason{Code: "Restarted", Rule: "R64", Func: "GarbageCollector.Run"}.
		Say("the collector's graph (%d nodes), queues and absentOwnerCache were thrown away; it relisted every object into graphChanges", nodes)
}

// keepInformerTable makes every collector keep its informers' table
// even where storage holds the same (informerIsStorage): the tests run
// the step files that way too, and must read the same.
var keepInformerTable bool

// relist rebuilds the collector's informers from a fresh list: every object
// becomes an add event, kinds in discovery order (R64).
func (g *garbageCollector) relist() {
	// Every list is made first, in discovery order, then every object
	// observed in the same order: observing makes no request, so the
	// requests and the graph events are those of listing and observing
	// kind by kind. Whether every list succeeded decides how the
	// informers keep what they observe (informerIsStorage).
	type listed struct {
		apiVersion string
		objs       []*fakeapi.Object
	}
	var lists []listed
	all := true
	for _, k := range g.env.api.Registry().Kinds() {
		if k.Kind == "Event" {
			if !ignoredKind(&fakeapi.Object{APIVersion: k.APIVersion, Kind: k.Kind}) {
				all = false // observed, but not listed: only what events show
			}
			continue
		}
		objs, err := g.env.api.ListShared(gcClient, k.APIVersion, k.Kind, "")
		if err != nil {
			all = false // this informer has only what events show it (see informerGet)
			continue
		}
		lists = append(lists, listed{k.APIVersion, objs})
	}
	g.informerIsStorage = all && !keepInformerTable
	for _, l := range lists {
		for _, o := range l.objs {
			if o.APIVersion != l.apiVersion {
				continue // seen through its preferred version only
			}
			g.observe(fakeapi.WatchEvent{Type: fakeapi.Added, Object: o})
		}
	}
}

// clone copies the collector, mapping every node pointer (including stale
// ones still queued) to a fresh copy.
func (g *garbageCollector) clone(e *env) controller {
	// Each node copied points to its copy (node.copied) until the clone
	// is made, rather than a map from node to copy looked up about twice
	// per node, a cache miss each in a large graph (docs/BENCHMARKS.md,
	// "Fifteenth session: play -f ..., stepping back").
	copied := make([]*node, 0, g.uidToNode.Len())
	defer func() {
		for _, n := range copied {
			n.copied = nil
		}
	}()
	var get func(n *node) *node
	get = func(n *node) *node {
		if n.copied != nil {
			return n.copied
		}
		c := &node{identity: n.identity, owners: n.owners, beingDeleted: n.beingDeleted,
			deletingDependents: n.deletingDependents, virtual: n.virtual, queued: n.queued, inGraph: n.inGraph}
		n.copied = c
		copied = append(copied, n)
		if len(n.dependents) > 0 {
			c.dependents = make(map[*node]struct{}, len(n.dependents))
		}
		for d := range n.dependents {
			c.addDependent(get(d))
		}
		return c
	}
	c := &garbageCollector{
		env:       e,
		uidToNode: g.uidToNode.Clone(get),
		absent:    g.absent.clone(),
		informer:  g.informer.Clone(),

		informerIsStorage: g.informerIsStorage,
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
	c.hook()
	return c
}
