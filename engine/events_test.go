package engine

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// correlatorWorld records Events about ReplicaSet/default/web through the
// recorder of a world without controllers, on its virtual clock.
type correlatorWorld struct {
	t *testing.T
	w *World
	// labels names the Events "web.#1", "web.#2"... in the order they are
	// first seen, for tests that do not depend on the clock's nanoseconds.
	labels map[string]string
}

var eventNameRE = regexp.MustCompile(`web\.[0-9a-f]{16}`)

// label replaces each Event name in s by its label.
func (c *correlatorWorld) label(s string) string {
	return eventNameRE.ReplaceAllStringFunc(s, func(n string) string {
		if c.labels == nil {
			c.labels = map[string]string{}
		}
		if _, ok := c.labels[n]; !ok {
			c.labels[n] = fmt.Sprintf("web.#%d", len(c.labels)+1)
		}
		return c.labels[n]
	})
}

func newCorrelatorWorld(t *testing.T) *correlatorWorld {
	return &correlatorWorld{t: t, w: newTestWorld(t, ControllerGC)}
}

func (c *correlatorWorld) record(typ, reason, msg string) *Record {
	c.w.env.begin("test")
	c.w.env.recordEvent(rsClient, fakeapi.Event{
		Object:    fakeapi.Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "web"},
		ObjectUID: "rs-web", Type: typ, Reason: reason, Message: msg, Source: "replicaset-controller",
	})
	return c.w.env.end()
}

func (c *correlatorWorld) advance(d time.Duration) { c.w.clock.now += d }

// events lists the Events as the store shows them: name, count, message.
func (c *correlatorWorld) events() []string {
	var out []string
	for _, ev := range c.w.Store().Events() {
		out = append(out, c.label(fmt.Sprintf("%s x%d %s", ev.Name, ev.Count, ev.Message)))
	}
	return out
}

func (c *correlatorWorld) want(want ...string) {
	c.t.Helper()
	if got := c.events(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		c.t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func (c *correlatorWorld) calls(r *Record) string {
	var out []string
	for _, call := range r.Calls() {
		out = append(out, CallString(call))
	}
	return c.label(strings.Join(out, "; "))
}

// first is the Event ref of the first Event recorded.
func (c *correlatorWorld) first() fakeapi.Ref {
	return fakeapi.Ref{APIVersion: "v1", Kind: "Event", Namespace: "default", Name: c.w.Store().Events()[0].Name}
}

// TestEventCorrelator_DedupePatchesCount: the same event again is a PATCH
// of the first Event's count, lastTimestamp and message; its name and
// firstTimestamp stay.
func TestEventCorrelator_DedupePatchesCount(t *testing.T) {
	c := newCorrelatorWorld(t)
	r := c.record("Normal", "SuccessfulCreate", "Created pod: a")
	if got := c.calls(r); got != "CREATE Event/web.#1 event Normal SuccessfulCreate about ReplicaSet/web -> 201" {
		t.Errorf("first: %s", got)
	}
	c.advance(7 * time.Second)
	r = c.record("Normal", "SuccessfulCreate", "Created pod: a")
	if got := c.calls(r); got != "PATCH Event/web.#1 event Normal SuccessfulCreate about ReplicaSet/web (x2) -> 200" {
		t.Errorf("second: %s", got)
	}
	c.want("web.#1 x2 Created pod: a")
	o := c.w.Store().Lookup(c.first())
	for k, v := range map[string]any{"count": float64(2), "firstTimestamp": "2026-01-01T00:00:00Z",
		"lastTimestamp": "2026-01-01T00:00:07Z", "reportingComponent": "replicaset-controller", "reportingInstance": ""} {
		if got := o.Fields.Get(k); got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	// Another message is another Event.
	c.record("Normal", "SuccessfulCreate", "Created pod: b")
	c.want("web.#1 x2 Created pod: a", "web.#2 x1 Created pod: b")
}

// TestEventCorrelator_PatchOfDeletedEventCreates: a PATCH that finds no
// Event (404) is followed by a CREATE of it, same name, next count.
func TestEventCorrelator_PatchOfDeletedEventCreates(t *testing.T) {
	c := newCorrelatorWorld(t)
	c.record("Warning", "FailedCreate", "quota")
	if _, err := c.w.Store().Delete("test", c.first(), nil); err != nil {
		t.Fatal(err)
	}
	r := c.record("Warning", "FailedCreate", "quota")
	want := "PATCH Event/web.#1 event Warning FailedCreate about ReplicaSet/web (x2) -> 404 NotFound; " +
		"CREATE Event/web.#1 event Warning FailedCreate about ReplicaSet/web (x2) -> 201"
	if got := c.calls(r); got != want {
		t.Errorf("calls %s\nwant %s", got, want)
	}
	o := c.w.Store().Lookup(c.first())
	if o == nil || o.Fields.Get("count") != float64(2) {
		t.Errorf("recreated Event %v", o)
	}
}

// TestEventCorrelator_AggregatesAtTenth: nine similar events (same
// source, object, type and reason, nine messages) are Events of their
// own; the tenth message makes a "(combined from similar events)" Event,
// and later ones count it up with the latest message.
func TestEventCorrelator_AggregatesAtTenth(t *testing.T) {
	c := newCorrelatorWorld(t)
	var want []string
	for i := 1; i <= 9; i++ {
		c.record("Normal", "SuccessfulDelete", fmt.Sprintf("Deleted pod: p%d", i))
		want = append(want, fmt.Sprintf("web.#%d x1 Deleted pod: p%d", i, i))
	}
	c.want(want...)
	c.record("Normal", "SuccessfulDelete", "Deleted pod: p10")
	c.want(append(want, "web.#10 x1 (combined from similar events): Deleted pod: p10")...)
	c.advance(time.Minute)
	c.record("Normal", "SuccessfulDelete", "Deleted pod: p11")
	c.want(append(want, "web.#10 x2 (combined from similar events): Deleted pod: p11")...)
	// Another reason is another group.
	c.record("Normal", "SuccessfulCreate", "Created pod: q")
	if evs := c.events(); evs[len(evs)-1] != "web.#11 x1 Created pod: q" {
		t.Errorf("another reason: %s", evs[len(evs)-1])
	}
	// More than ten minutes after the last similar event, the group starts
	// afresh: a new message is an Event of its own again.
	c.advance(10*time.Minute + time.Second)
	c.record("Normal", "SuccessfulDelete", "Deleted pod: p12")
	if evs := c.events(); evs[len(evs)-1] != "web.#12 x1 Deleted pod: p12" {
		t.Errorf("after the interval: %s", evs[len(evs)-1])
	}
}

// TestEventCorrelator_SpamFilter: 25 events from a source about an object
// (and type) pass, the 26th is dropped, and the bucket refills one each
// 300 seconds of virtual time. A dropped event still counts: the next
// write of a repeated Event carries the count of every occurrence.
func TestEventCorrelator_SpamFilter(t *testing.T) {
	c := newCorrelatorWorld(t)
	for i := 1; i <= 25; i++ {
		if r := c.record("Warning", "FailedCreate", "quota"); len(r.Calls()) != 1 {
			t.Fatalf("event %d: calls %q", i, c.calls(r))
		}
	}
	c.want("web.#1 x25 quota")
	r := c.record("Warning", "FailedCreate", "quota")
	if len(r.Calls()) != 0 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "dropped by the recorder's spam filter") {
		t.Fatalf("26th: calls %q, notes %q", c.calls(r), r.Notes)
	}
	// Another type is another bucket.
	if r := c.record("Normal", "SuccessfulCreate", "ok"); len(r.Calls()) != 1 {
		t.Errorf("Normal after 25 Warnings: calls %q", c.calls(r))
	}
	c.advance(299 * time.Second)
	if r := c.record("Warning", "FailedCreate", "quota"); len(r.Calls()) != 0 {
		t.Errorf("after 299s: calls %q", c.calls(r))
	}
	c.advance(time.Second)
	r = c.record("Warning", "FailedCreate", "quota")
	if got := c.calls(r); got != "PATCH Event/web.#1 event Warning FailedCreate about ReplicaSet/web (x28) -> 200" {
		t.Errorf("after 300s: %s", got)
	}
	if r := c.record("Warning", "FailedCreate", "quota"); len(r.Calls()) != 0 {
		t.Errorf("second after 300s: calls %q", c.calls(r))
	}
	c.advance(600 * time.Second)
	for i := range 2 {
		if r := c.record("Warning", "FailedCreate", "quota"); len(r.Calls()) != 1 {
			t.Errorf("%d after 600s more: calls %q", i+1, c.calls(r))
		}
	}
	c.want("web.#1 x31 quota", "web.#2 x1 ok")
}

// TestEventCorrelator_CloneAndRestart: a clone carries the correlator's
// state and keeps its own; a restarted controller starts a new one.
func TestEventCorrelator_CloneAndRestart(t *testing.T) {
	c := newCorrelatorWorld(t)
	c.record("Normal", "R", "m")
	clone := &correlatorWorld{t: t, w: c.w.Clone()}
	clone.record("Normal", "R", "m")
	clone.want("web.#1 x2 m")
	c.want("web.#1 x1 m")
	c.record("Normal", "R", "m")
	c.want("web.#1 x2 m")

	w := newTestWorld(t, ControllerReplicaSet)
	c = &correlatorWorld{t: t, w: w}
	c.record("Normal", "R", "m")
	if _, err := w.Do(Restart{Controller: ControllerReplicaSet}); err != nil {
		t.Fatal(err)
	}
	c.record("Normal", "R", "m")
	c.want("web.#1 x1 m", "web.#2 x1 m")
}

// TestLRUCache: k8s.io/utils/lru's order: a get or add makes an entry
// the newest; an add beyond the maximum evicts the oldest.
func TestLRUCache(t *testing.T) {
	c := newLRU[int](2)
	c.add("a", 1)
	c.add("b", 2)
	c.get("a")
	c.add("c", 3)
	if _, ok := c.get("b"); ok {
		t.Error("b was not evicted")
	}
	n := c.clone(func(v int) int { return v })
	n.add("d", 4)
	for k, want := range map[string]bool{"a": true, "c": true} {
		if _, ok := c.get(k); ok != want {
			t.Errorf("original %s: %v", k, ok)
		}
	}
	if _, ok := n.get("a"); ok {
		t.Error("clone: a, the oldest, was not evicted")
	}
}
