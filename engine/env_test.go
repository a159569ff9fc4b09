package engine

import (
	"testing"
	"unsafe"

	"github.com/gcplay/gcplay/fakeapi"
)

// A queue's sets start a fresh map once emptied after being large, and
// keep their contents otherwise.
func TestItemSet_ShrinksWhenEmptied(t *testing.T) {
	var s itemSet[int]
	for i := range 1000 {
		s.add(i)
	}
	for i := range 999 {
		s.delete(i)
	}
	if !s.has(999) || s.has(0) || s.m == nil {
		t.Fatal("the set lost or kept the wrong items")
	}
	s.delete(999)
	if s.m != nil || s.peak != 0 {
		t.Fatal("an emptied large set must drop its map")
	}
	s.add(1)
	s.delete(1)
	if s.m == nil {
		t.Fatal("a small set keeps its map")
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
