package engine

import (
	"fmt"
	"time"
)

// expectationsTimeout is upstream's ExpectationsTimeout: a controller that
// waits for watch events it never sees syncs anyway after five minutes,
// here on the virtual clock.
const expectationsTimeout = 5 * time.Minute

// controlleeExpectations counts the creations and deletions one controller
// still expects to observe, and when they were set.
type controlleeExpectations struct {
	add, del  int64
	timestamp time.Duration
}

func (c *controlleeExpectations) fulfilled() bool { return c.add <= 0 && c.del <= 0 }

// expectations is upstream's UIDTrackingControllerExpectations around
// ControllerExpectations (pkg/controller/controller_utils.go): a sync that
// creates or deletes Pods records how many it expects to see, the event
// handlers lower the counts as the Pods show up or go, and the next sync
// manages replicas only once the counts reach zero or five minutes pass.
// Deletions are tracked by Pod key, so a Pod seen first as terminating and
// then as deleted is counted once. The ReplicaSet controller uses it so;
// the Job controller uses it as the plain ControllerExpectations (set,
// lower, creationObserved: no Pod keys). The world's clones copy it.
type expectations struct {
	exps map[string]*controlleeExpectations
	// uids holds, per controller key, the keys of the Pods whose deletion
	// is expected.
	uids map[string]map[string]bool
}

func newExpectations() *expectations {
	return &expectations{exps: map[string]*controlleeExpectations{}, uids: map[string]map[string]bool{}}
}

// satisfied is SatisfiedExpectations: true when there are none, when they
// are fulfilled, or when they expired. The string says which, for records.
func (e *expectations) satisfied(key string, now time.Duration) (bool, []Text) {
	exp, ok := e.exps[key]
	switch {
	case !ok:
		return true, say1("no expectations recorded")
	case exp.fulfilled():
		return true, say1("expectations fulfilled")
	case now-exp.timestamp > expectationsTimeout:
		return true, []Text{say("expectations ("), exp.describe(), say(") expired after %s", expectationsTimeout)}
	}
	return false, []Text{say("still expecting "), exp.describe(), say(" (set %s ago, expiring after %s)", now-exp.timestamp, expectationsTimeout)}
}

func (c *controlleeExpectations) describe() Text {
	switch {
	case c.add > 0 && c.del > 0:
		return say("%d creations and %d deletions", c.add, c.del)
	case c.add == 1:
		return say("1 creation")
	case c.add > 0:
		return say("%d creations", c.add)
	case c.del == 1:
		return say("1 deletion")
	case c.del > 0:
		return say("%d deletions", c.del)
	}
	return say("nothing")
}

// set is SetExpectations: it replaces what was expected and restarts the
// timeout.
func (e *expectations) set(key string, add, del int, now time.Duration) {
	e.exps[key] = &controlleeExpectations{add: int64(add), del: int64(del), timestamp: now}
}

// expectCreations is ExpectCreations.
func (e *expectations) expectCreations(key string, adds int, now time.Duration) {
	e.set(key, adds, 0, now)
}

// expectDeletions is the UID-tracking ExpectDeletions: it remembers which
// Pods are expected to go.
func (e *expectations) expectDeletions(key string, podKeys []string, now time.Duration) {
	set := make(map[string]bool, len(podKeys))
	for _, k := range podKeys {
		set[k] = true
	}
	e.uids[key] = set
	e.set(key, 0, len(set), now)
}

// lower is LowerExpectations: it does not touch the timestamp.
func (e *expectations) lower(key string, add, del int) {
	if exp, ok := e.exps[key]; ok {
		exp.add -= int64(add)
		exp.del -= int64(del)
	}
}

// creationObserved is CreationObserved.
func (e *expectations) creationObserved(key string) { e.lower(key, 1, 0) }

// deletionObserved is the UID-tracking DeletionObserved: only a Pod whose
// deletion was expected, and only once.
func (e *expectations) deletionObserved(key, podKey string) {
	if set := e.uids[key]; set != nil && set[podKey] {
		e.lower(key, 0, 1)
		delete(set, podKey)
	}
}

// drop is DeleteExpectations.
func (e *expectations) drop(key string) {
	delete(e.exps, key)
	delete(e.uids, key)
}

// describe says what is expected for key, for views and tests.
func (e *expectations) describe(key string) string {
	exp, ok := e.exps[key]
	if !ok {
		return "none"
	}
	return fmt.Sprintf("add=%d del=%d set at %s", exp.add, exp.del, fmtElapsed(exp.timestamp))
}

func (e *expectations) clone() *expectations {
	c := &expectations{exps: make(map[string]*controlleeExpectations, len(e.exps)), uids: make(map[string]map[string]bool, len(e.uids))}
	for k, v := range e.exps {
		x := *v
		c.exps[k] = &x
	}
	for k, set := range e.uids {
		s := make(map[string]bool, len(set))
		for p := range set {
			s[p] = true
		}
		c.uids[k] = s
	}
	return c
}
