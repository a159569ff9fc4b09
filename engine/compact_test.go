package engine

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestCompactEnqueueRoundTrip checks that every queue and delay, up to the
// largest backoff and far beyond, comes back from the compact form unchanged.
func TestCompactEnqueueRoundTrip(t *testing.T) {
	for _, q := range queueNames {
		for _, d := range []time.Duration{0, 1, 5 * time.Millisecond, 1000 * time.Second, 100 * 365 * 24 * time.Hour, math.MaxInt64} {
			want := Enqueue{Queue: q, Item: "Pod/p", After: d}
			if got := packEnqueue(q, want.Item, d).unpack(); got != want {
				t.Errorf("%+v came back as %+v", want, got)
			}
		}
	}
}

// TestCompactCallRoundTrip checks that a request, failed or not, comes
// back from a record as it was made, and that requests of one kind share
// their callKind.
func TestCompactCallRoundTrip(t *testing.T) {
	var kinds callKinds
	reqs := []fakeapi.Request{
		{Verb: "get", Client: "garbagecollector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "a"}, Code: 200},
		{Verb: "delete", Client: "garbagecollector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "a"}, Detail: "propagationPolicy=Background", Code: 200},
		{Verb: "patch", Client: "user", Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "ns", Name: "r"}, Code: 409,
			Reason: fakeapi.ReasonConflict, Message: "injected fault: Conflict", Injected: true},
		{Verb: "list", Client: "replicaset", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod"}, Code: 200},
		{Verb: "get", Client: "garbagecollector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "b"}, Code: 404,
			Reason: fakeapi.ReasonNotFound, Message: `pods "b" not found`},
		{Verb: "get", Client: "garbagecollector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "c"}, Code: 200},
		{Verb: "get", Client: "garbagecollector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "other", Name: "c"}, Code: 200},
	}
	var rec Record
	for i := range reqs {
		rec.calls = append(rec.calls, kinds.compact(&reqs[i]))
	}
	got := rec.Calls()
	if len(got) != len(reqs) {
		t.Fatalf("%d calls back, want %d", len(got), len(reqs))
	}
	for i := range reqs {
		if got[i] != reqs[i] {
			t.Errorf("call %d came back as %+v, want %+v", i, got[i], reqs[i])
		}
	}
	if rec.calls[0].kind != rec.calls[5].kind {
		t.Error("two GETs of Pods by the collector, both found, do not share their callKind")
	}
	if rec.calls[0].kind == rec.calls[4].kind || rec.calls[5].kind == rec.calls[6].kind {
		t.Error("calls with another status code or namespace share a callKind")
	}
	if rec.calls[0].fail != nil || rec.calls[4].fail == nil {
		t.Error("only a failed call should keep failure details")
	}
}

// TestEventSentence checks that a sentence shares an event's bytes only
// when they say exactly what env.around would write, and is written anew
// otherwise.
func TestEventSentence(t *testing.T) {
	w, err := NewWorld(Config{Controllers: []string{ControllerGC}})
	if err != nil {
		t.Fatal(err)
	}
	g := w.collector()
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "web-1", Namespace: "default", UID: "u1"}}
	other := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "web-1", Namespace: "prod", UID: "u2"}}
	id := func(kind, ns, name string) objectReference {
		return objectReference{APIVersion: "v1", Kind: kind, Namespace: ns, Name: name}
	}
	for _, tt := range []struct {
		ev     *graphEvent
		id     objectReference
		suffix string
		shared bool
	}{
		{g.newGraphEvent(updateEvent, false, pod, pod), id("Pod", "default", "web-1"), updatedSentence, true},
		{g.newGraphEvent(updateEvent, false, pod, pod), id("Pod", "", "web-1"), updatedSentence, true},
		{g.newGraphEvent(deleteEvent, false, pod, nil), id("Pod", "default", "web-1"), removedSentence, true},
		{g.newGraphEvent(deleteEvent, false, pod, nil), id("Pod", "default", "web-1"), " verified absent by a worker: node removed", false},
		{g.newGraphEvent(updateEvent, false, pod, pod), id("Pod", "default", "web-1"), removedSentence, false},
		{g.newGraphEvent(updateEvent, false, pod, pod), id("Pod", "default", "web-2"), updatedSentence, false},
		{g.newGraphEvent(updateEvent, false, pod, pod), id("Pox", "default", "web-1"), updatedSentence, false},
		{g.newGraphEvent(updateEvent, false, pod, pod), id("Pod", "prod", "web-1"), updatedSentence, false},
		{g.newGraphEvent(updateEvent, false, other, other), id("Pod", "prod", "web-1"), updatedSentence, false},
		{g.newGraphEvent(deleteEvent, true, pod, nil), id("Pod", "default", "web-1"), removedSentence, false},
		{g.newGraphEvent(addEvent, false, pod, nil), id("Pod", "default", "web-1"), updatedSentence, false},
	} {
		got := g.sentence(tt.ev, tt.id, tt.suffix)
		if want := g.env.around("", tt.id, tt.suffix); got != want {
			t.Errorf("%s, %s%s: got %q, want %q", tt.ev, tt.id.ref(), tt.suffix, got, want)
		}
		if shared := tt.ev.said != "" && unsafe.StringData(got) == unsafe.StringData(tt.ev.said); shared != tt.shared {
			t.Errorf("%s, %s%s: shared the event's bytes = %v, want %v", tt.ev, tt.id.ref(), tt.suffix, shared, tt.shared)
		}
	}
}

// TestRecordNotesKeepTheirText checks that a record's notes, written both
// through env.note (carved from a chunk) and Record.note (a plain append),
// keep their text while later records are written: an uncapped list from
// a chunk let the plain append write into the chunk's free end, which the
// next record's list then overwrote.
func TestRecordNotesKeepTheirText(t *testing.T) {
	e := newEnv(nil, &virtualClock{})
	var kept []Record
	for i := range 300 {
		r := e.begin("step")
		e.touch(fmt.Sprintf("uid-%d", i))
		e.note(r, fmt.Sprintf("env %d", i))
		r.note("plain %d", i)
		if i%2 == 1 {
			e.note(r, fmt.Sprintf("env again %d", i))
		}
		kept = append(kept, *e.end())
	}
	for i, r := range kept {
		want := []string{fmt.Sprintf("env %d", i), fmt.Sprintf("plain %d", i)}
		if i%2 == 1 {
			want = append(want, fmt.Sprintf("env again %d", i))
		}
		if !slices.Equal(r.Notes, want) || !slices.Equal(r.Changed, []string{fmt.Sprintf("uid-%d", i)}) {
			t.Fatalf("record %d: notes %q, changed %q; want notes %q", i, r.Notes, r.Changed, want)
		}
	}
}
