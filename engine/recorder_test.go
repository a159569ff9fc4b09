package engine

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
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
	if rec.calls[0].kind.fail != nil || rec.calls[4].kind.fail == nil {
		t.Error("only a failed call should keep failure details")
	}
	for _, k := range kinds.all {
		if k.fail != nil {
			t.Errorf("the shared kind %+v holds a failure", *k)
		}
	}
}

// Lists carved from shared chunks behave as lists of their own: several
// built at once, one of them long, each keeps exactly what was added to
// it, and appending to a finished (clipped) list copies it.
func TestChunks_ListsAreIndependent(t *testing.T) {
	var c chunks[int]
	var a, b, long []int
	var want [3][]int
	for i := range 2000 {
		switch {
		case i%7 == 0:
			a = c.add(a, i)
			want[0] = append(want[0], i)
		case i%3 == 0:
			b = c.add(b, i)
			want[1] = append(want[1], i)
		default:
			long = c.add(long, i)
			want[2] = append(want[2], i)
		}
	}
	for i, got := range [][]int{a, b, long} {
		if !slices.Equal(got, want[i]) {
			t.Fatalf("list %d = %v, want %v", i, got, want[i])
		}
	}
	done := slices.Clip(a)
	more := c.add(done, -1)
	_ = append(done, -2)
	if !slices.Equal(done, want[0]) || !slices.Equal(more[:len(more)-1], want[0]) || more[len(more)-1] != -1 {
		t.Fatalf("appending to a clipped list changed it: %v, %v", done, more)
	}
	cl := c.clone([]int{1, 2, 3})
	next := c.add(nil, 4)
	if !slices.Equal(cl, []int{1, 2, 3}) || cap(cl) != 3 || !slices.Equal(next, []int{4}) {
		t.Fatalf("clone = %v (cap %d), next = %v", cl, cap(cl), next)
	}
}

// A record's notes keep their text while later records are written (an
// uncapped list from a chunk once let a plain append write into the
// chunk's free end, which the next record's list then overwrote), and a
// record no recorder writes any more takes notes as fmt words them.
func TestRecordNotesKeepTheirText(t *testing.T) {
	e := newEnv(nil, &virtualClock{})
	var kept []Record
	for i := range 300 {
		r := e.begin("step")
		e.touch(fmt.Sprintf("uid-%d", i))
		r.Note("first %d", i)
		r.Note("owner %s is in absentOwnerCache: dangling, no lookup", "ReplicaSet/web")
		if i%2 == 1 {
			r.Note("again %d", i)
		}
		kept = append(kept, *e.end())
	}
	for i, r := range kept {
		want := []string{fmt.Sprintf("first %d", i), "owner ReplicaSet/web is in absentOwnerCache: dangling, no lookup"}
		if i%2 == 1 {
			want = append(want, fmt.Sprintf("again %d", i))
		}
		if !slices.Equal(r.Notes, want) || !slices.Equal(r.Changed, []string{fmt.Sprintf("uid-%d", i)}) {
			t.Fatalf("record %d: notes %q, changed %q; want notes %q", i, r.Notes, r.Changed, want)
		}
		if r.w != nil {
			t.Fatalf("record %d still points at its recorder", i)
		}
	}
	// A sentence repeated from one record to the next is one string.
	if a, b := kept[0].Notes[1], kept[299].Notes[1]; unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("the repeated note was written again instead of shared")
	}
	done := kept[0]
	done.Note("late %s", "note")
	if !slices.Equal(done.Notes, []string{"first 0", "owner ReplicaSet/web is in absentOwnerCache: dangling, no lookup", "late note"}) ||
		!slices.Equal(kept[1].Notes[:1], []string{"first 1"}) {
		t.Fatalf("a note on a finished record: %q (next record %q)", done.Notes, kept[1].Notes)
	}
}

// The recorder words a sentence exactly as fmt.Sprintf does, whatever the
// verbs and arguments (it writes %s of strings and %d of ints itself and
// hands everything else to fmt).
func TestRecorderSprintfIsFmt(t *testing.T) {
	e := newEnv(nil, &virtualClock{})
	type named string
	for _, tt := range []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"%s updated; owners unchanged", []any{"Pod/web-1"}},
		{"%s: %d left: %s", []any{"a", 3, "b"}},
		{"%d of %d, %d", []any{-7, 0, 1 << 40}},
		{"100%% %s", []any{"done"}},
		{"%q and %v", []any{"quoted", 2 * time.Second}},
		{"%s's grace period has %s left", []any{"Pod/default/web-1", 29*time.Second + 500*time.Millisecond}},
		{"retried in %s", []any{time.Duration(0)}},
		{"%s", []any{named("a named string")}},
		{"%s %s", []any{"too few"}},
		{"%s", []any{"too", "many"}},
		{"%d", []any{"a string for %d"}},
		{"%s", []any{42}},
		{"trailing %", []any{}},
		{"%5d|%-4s|", []any{3, "x"}},
		{"%s", []any{objectReference{Kind: "Pod", Name: "p"}}},
		{"ünïcode %s", []any{"ß"}},
	} {
		want := fmt.Sprintf(tt.format, tt.args...)
		r := e.begin("step")
		if got := r.Sprintf(tt.format, tt.args...); got != want {
			t.Errorf("Sprintf(%q, %v) = %q, want %q", tt.format, tt.args, got, want)
		}
		r.Note(tt.format, tt.args...)
		if got := e.end().Notes; !slices.Equal(got, []string{want}) {
			t.Errorf("Note(%q, %v) = %q, want %q", tt.format, tt.args, got, want)
		}
	}
}

// BenchmarkRecorderStep writes the record of a collector step of a
// cascade, as a step writes it: an item, a reason, a note, two calls and

// Because words a reason as Reason.Say does, its sentence and its values,
// whether the recorder writes it or hands it to Say.
func TestRecorderBecauseIsSay(t *testing.T) {
	e := newEnv(nil, &virtualClock{})
	pod := &node{identity: objectReference{Kind: "Pod", Namespace: "prod", Name: "web-1"}}
	obj := &fakeapi.Object{Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "web-2", Namespace: "default"}}
	for _, tt := range []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"%s updated; owners unchanged", []any{pod}},
		{"%s removed from storage: node removed", []any{obj}},
		{"new node %s owned by %s", []any{pod, "ReplicaSet/web, Deployment/web"}},
		{"%s event: %d of %d", []any{deleteEvent, 3, -1}},
		{"100%% %s", []any{"done"}},
		{"%q and %v", []any{"quoted", 2 * time.Second}},
		{"%s %s", []any{"too few"}},
		{"%d", []any{"a string for %d"}},
		{"%5d|%-4s|", []any{3, "x"}},
		{"%s", []any{objectReference{Kind: "Pod", Name: "p"}}},
	} {
		want := Reason{Code: "X", Rule: "R1"}.Say(tt.format, tt.args...)
		r := e.begin("step")
		got := r.Because(Reason{Code: "X", Rule: "R1"}, tt.format, tt.args...)
		e.end()
		sameTexts := slices.EqualFunc(got.Texts, want.Texts, func(a, b Text) bool { return a.Form == b.Form && slices.Equal(a.Args, b.Args) })
		if got.Code != "X" || got.Rule != "R1" || got.Message != want.Message || !sameTexts {
			t.Errorf("Because(%q, %v) = %q %q, want %q %q", tt.format, tt.args, got.Message, got.Texts, want.Message, want.Texts)
		}
		if err := got.checkTexts(); err != nil {
			t.Error(err)
		}
	}
}

// an enqueued item (docs/BENCHMARKS.md).
func BenchmarkRecorderStep(b *testing.B) {
	e := newEnv(nil, &virtualClock{})
	get := fakeapi.Request{Verb: "get", Client: "garbagecollector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-1-2"}, Code: 200}
	del := fakeapi.Request{Verb: "delete", Client: "garbagecollector", Ref: get.Ref, Detail: "propagationPolicy=Background", Code: 200}
	cls := "dangling ReplicaSet/web-1"
	i := 0
	for b.Loop() {
		i++
		name := "Pod/web-1-" + strconv.Itoa(i%1000)
		r := e.begin("attemptToDelete")
		r.Item = name
		r.Note("owner %s is in absentOwnerCache: dangling, no lookup", "ReplicaSet/web-1")
		e.called(&get)
		e.called(&del)
		e.enqueued(QueueGraphChanges, "update "+name, 0)
		e.touch("uid-1")
		r.Reason = Reason{Code: "DeleteBackground", Message: r.Sprintf("%s: %s; deleted with %s", cls, "no owner exists any more, so it is garbage", "Background (it carries no GC finalizer)")}
		e.end()
	}
}

// Reasons with the same classes of references and the same sentences
// after them are one reason; others are worded each as Saying words it;
// the cache stays bounded.
func TestTextCache_SharesEqualReasons(t *testing.T) {
	var c textCache
	rs := func(kind, name string) []fakeapi.OwnerReference {
		return []fakeapi.OwnerReference{{Kind: kind, Name: name}}
	}
	more := []Text{say(": "), say("no owner exists any more, so it is garbage")}
	for _, tt := range []refClasses{
		{dangling: rs("ReplicaSet", "web-1")},
		{dangling: rs("ReplicaSet", "web-2")},
		{solid: rs("ReplicaSet", "web-1")},
		{solid: rs("ReplicaSet", "web-1"), waiting: rs("Deployment", "web")},
		{solid: append(rs("ReplicaSet", "web-1"), rs("Deployment", "web")...)},
	} {
		a := c.reason(Reason{Code: "A"}, tt, more...)
		b := c.reason(Reason{Code: "B"}, tt, more...)
		want := Reason{Code: "A"}.Saying(append(tt.texts(), more...)...)
		if a.Message != want.Message || !reflect.DeepEqual(a.Texts, want.Texts) {
			t.Errorf("%v: got %q %v, want %q %v", tt, a.Message, a.Texts, want.Message, want.Texts)
		}
		if b.Code != "B" || unsafe.StringData(a.Message) != unsafe.StringData(b.Message) || &a.Texts[0] != &b.Texts[0] {
			t.Errorf("%v: equal reasons were not shared", tt)
		}
	}
	if a, b := c.reason(Reason{}, refClasses{dangling: rs("ReplicaSet", "web-1")}, more[1]), c.reason(Reason{}, refClasses{dangling: rs("ReplicaSet", "web-1")}, more...); a.Message == b.Message {
		t.Errorf("reasons with other sentences were shared: %q", a.Message)
	}
	for i := range 3 * textCacheSize {
		c.reason(Reason{}, refClasses{solid: rs("Pod", strconv.Itoa(i))})
	}
	if len(c.reasons) > textCacheSize {
		t.Fatalf("the cache holds %d reasons", len(c.reasons))
	}
}

// The recorder's around and ref word a reference as objectReference.ref
// does.
func TestRecorderAroundAndRef(t *testing.T) {
	var w recorder
	for _, r := range []objectReference{
		{Kind: "Pod", Namespace: "default", Name: "p"},
		{Kind: "Pod", Namespace: "other", Name: "p"},
		{Kind: "Namespace", Name: "team"},
	} {
		if got, want := w.ref(r), r.ref(); got != want {
			t.Errorf("ref = %q, want %q", got, want)
		}
		if got, want := w.around("owner ", r, " x"), "owner "+r.ref()+" x"; got != want {
			t.Errorf("around = %q, want %q", got, want)
		}
	}
}

// TestRecorderRefSharesARepeatedOwner: an owner named between its
// dependents, as the absentOwnerCache note names it for each of them, is
// written once, and every reference reads as ref() does.
func TestRecorderRefSharesARepeatedOwner(t *testing.T) {
	var w recorder
	w.init()
	owner := objectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", Namespace: "default"}
	first := w.ref(owner)
	for i := range 50 {
		pod := objectReference{APIVersion: "v1", Kind: "Pod", Name: "web-1-" + strconv.Itoa(i), Namespace: "team-a"}
		if got := w.ref(pod); got != pod.ref() {
			t.Fatalf("ref(%v) = %q, want %q", pod, got, pod.ref())
		}
		got := w.ref(owner)
		if got != owner.ref() || unsafe.StringData(got) != unsafe.StringData(first) {
			t.Fatalf("after %d dependents the owner reads %q, written again: %v", i+1, got, unsafe.StringData(got) != unsafe.StringData(first))
		}
	}
	other := owner
	other.Namespace = "team-a"
	if got := w.ref(other); got != other.ref() {
		t.Errorf("ref(%v) = %q, want %q", other, got, other.ref())
	}
}

// TestRecorderKeepSharesARepeatedNote: a sentence that repeats between
// sentences that do not is written once.
func TestRecorderKeepSharesARepeatedNote(t *testing.T) {
	var w recorder
	w.init()
	note := []byte("owner ReplicaSet/web-1 is in absentOwnerCache: dangling, no lookup")
	first := w.keep(note)
	for i := range 50 {
		other := "delete Pod/web-1-" + strconv.Itoa(i)
		if got := w.keep([]byte(other)); got != other {
			t.Fatalf("keep(%q) = %q", other, got)
		}
		if got := w.keep(note); got != string(note) || unsafe.StringData(got) != unsafe.StringData(first) {
			t.Fatalf("after %d other sentences the note was written again", i+1)
		}
	}
}

// TestRecorderLetsGoOfLargeScratch: a step that gathers a whole world's
// worth of enqueued items, requests and changed objects gets them all in
// its record, and the recorder keeps no scratch of that size afterwards.
func TestRecorderLetsGoOfLargeScratch(t *testing.T) {
	var w recorder
	w.init()
	w.begin("collector", 0)
	for i := range 5000 {
		uid := fmt.Sprintf("uid-%04d", i)
		w.enqueued(QueueGraphChanges, "add Pod/default/p-"+uid, 0)
		w.called(&fakeapi.Request{Verb: "get", Client: "collector", Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "p-" + uid}, Code: 200})
		w.touch(uid)
	}
	r := w.end()
	if len(r.Enqueued()) != 5000 || len(r.Calls()) != 5000 || len(r.Changed) != 5000 {
		t.Fatalf("the record has %d enqueued, %d calls, %d changed; want 5000 each", len(r.Enqueued()), len(r.Calls()), len(r.Changed))
	}
	if cap(w.stepEnqueued) >= 5000 || cap(w.stepCalls) >= 5000 || cap(w.changed) >= 5000 {
		t.Fatalf("scratch kept: %d enqueued, %d calls, %d changed", cap(w.stepEnqueued), cap(w.stepCalls), cap(w.changed))
	}
	w.begin("kubelet", 0)
	w.enqueued(ControllerKubelet, "Pod/default/p", 0)
	if r := w.end(); len(r.Enqueued()) != 1 {
		t.Fatalf("the next step's record has %d enqueued, want 1", len(r.Enqueued()))
	}
}
