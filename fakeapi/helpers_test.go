package fakeapi

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// testClock is a virtual clock the tests move by hand.
type testClock struct{ t time.Time }

func (c *testClock) Now() time.Time          { return c.t }
func (c *testClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

// world is a store with a clock and a log of its watch events.
type world struct {
	t      *testing.T
	s      *Store
	clock  *testClock
	events []WatchEvent
}

func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldWith(t, NewRegistry())
}

func newWorldWith(t *testing.T, reg *Registry) *world {
	t.Helper()
	w := &world{t: t, clock: &testClock{t: Epoch}}
	w.s = NewStore(reg, w.clock)
	w.s.Watch(func(ev WatchEvent) { w.events = append(w.events, ev) })
	return w
}

// since returns the watch events after the first n, as "TYPE Kind/name".
func (w *world) since(n int) []string {
	var out []string
	for _, ev := range w.events[n:] {
		out = append(out, string(ev.Type)+" "+ev.Object.String())
	}
	return out
}

// obj builds an object; fields are alternating key, value pairs.
func obj(apiVersion, kind, namespace, name string, fields ...any) *Object {
	o := &Object{APIVersion: apiVersion, Kind: kind, Metadata: ObjectMeta{Name: name, Namespace: namespace}}
	for i := 0; i+1 < len(fields); i += 2 {
		o.Fields.Set(fields[i].(string), fields[i+1])
	}
	return o
}

func configMap(name string) *Object { return obj("v1", "ConfigMap", "default", name) }

// scheduledPod is a pod on a node, so deleting it is graceful.
func scheduledPod(name string) *Object {
	return obj("v1", "Pod", "default", name, "spec", map[string]any{"nodeName": "node-1"})
}

func withFinalizers(o *Object, fs ...string) *Object {
	o.Metadata.Finalizers = fs
	return o
}

func (w *world) create(o *Object) *Object {
	w.t.Helper()
	out, err := w.s.Create("test", o)
	if err != nil {
		w.t.Fatalf("create %s: %v", o, err)
	}
	return out
}

func (w *world) delete(ref Ref, opts *DeleteOptions) DeleteResult {
	w.t.Helper()
	res, err := w.s.Delete("test", ref, opts)
	if err != nil {
		w.t.Fatalf("delete %s: %v", ref, err)
	}
	return res
}

func (w *world) mergePatch(ref Ref, body string) *Object {
	w.t.Helper()
	out, err := w.s.Patch("test", ref, MergePatch, []byte(body))
	if err != nil {
		w.t.Fatalf("patch %s %s: %v", ref, body, err)
	}
	return out
}

// stored returns the stored object at ref, or nil.
func (w *world) stored(ref Ref) *Object { return w.s.Lookup(ref) }

func ref(o *Object) Ref { return RefOf(o) }

func cmRef(name string) Ref {
	return Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: name}
}

func podRef(name string) Ref {
	return Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: name}
}

func policy(p DeletionPropagation) *DeleteOptions { return &DeleteOptions{PropagationPolicy: &p} }

func str(s string) *string { return &s }

// wantStatus checks that err is a *StatusError with the reason, code and
// message given (a message ending in "..." is a prefix).
func wantStatus(t *testing.T, err error, reason Reason, code int, msg string) {
	t.Helper()
	var se *StatusError
	if !errors.As(err, &se) {
		t.Fatalf("error = %v (%T), want a *StatusError %s", err, err, reason)
	}
	if se.Reason != reason || se.Code != code {
		t.Errorf("error = %s %d %q, want %s %d", se.Reason, se.Code, se.Message, reason, code)
	}
	if p, ok := strings.CutSuffix(msg, "..."); ok {
		if !strings.HasPrefix(se.Message, p) {
			t.Errorf("message = %q\nwant prefix %q", se.Message, p)
		}
	} else if msg != "" && se.Message != msg {
		t.Errorf("message = %q\nwant        %q", se.Message, msg)
	}
}

func wantEvents(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("watch events = %q, want %q", got, want)
	}
}

func wantFinalizers(t *testing.T, o *Object, want ...string) {
	t.Helper()
	if o == nil {
		t.Fatalf("object is gone, want finalizers %q", want)
	}
	if !slices.Equal(o.Metadata.Finalizers, want) {
		t.Errorf("finalizers of %s = %q, want %q", o, o.Metadata.Finalizers, want)
	}
}

func describe(o *Object) string {
	if o == nil {
		return "<nil>"
	}
	b, err := o.MarshalJSON()
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}
