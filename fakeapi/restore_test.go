package fakeapi

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// restoreSet is a dump's worth of objects of several scopes: namespaced
// and cluster-scoped kinds, given UIDs of both shapes (a UUID and one
// shaped like the store's own), none at all, a system namespace restored
// in place, a kind not served and a duplicate name.
func restoreSet() []*Object {
	var objs []*Object
	add := func(o *Object, uid string) {
		o.Metadata.UID = uid
		objs = append(objs, o)
	}
	add(obj("v1", "Namespace", "", "team"), "5a1f0000-0000-4000-8000-000000000001")
	add(obj("v1", "Namespace", "", "default"), "5a1f0000-0000-4000-8000-000000000002")
	for i := range 40 {
		add(obj("v1", "Pod", "team", fmt.Sprintf("p-%02d", i)), fmt.Sprintf("7c3e0000-0000-4000-8000-%012d", i))
	}
	for i := range 5 {
		add(obj("apps/v1", "ReplicaSet", "default", fmt.Sprintf("rs-%d", i)), "")
	}
	add(obj("v1", "Node", "team", "node-1"), "uid-0012") // cluster-scoped: the namespace is dropped
	add(obj("v1", "Pod", "default", "p-00"), "7c3e0000-0000-4000-8000-999999999999")
	add(obj("v1", "Pod", "team", "p-00"), "7c3e0000-0000-4000-8000-999999999998")      // name in use
	add(obj("example.com/v1", "Widget", "team", "w"), "")                              // not served
	add(obj("v1", "Namespace", "", "default"), "5a1f0000-0000-4000-8000-000000000003") // restored already
	add(obj("v1", "Namespace", "", "kube-public"), "uid-0031")                         // in place of the store's own
	add(obj("v1", "Namespace", "", "kube-public"), "uid-0032")                         // and only once
	return objs
}

// TestReserveChangesNothingVisible restores the same objects into a store
// that reserved room for them and one that did not: every answer, the
// stored objects, their UIDs and the UIDs handed out afterwards agree.
// A system namespace is restored in place of the store's own once,
// whatever the shape of its UID (the store remembers only given UIDs
// shaped like its own).
func TestReserveChangesNothingVisible(t *testing.T) {
	run := func(reserve bool) []string {
		s := NewStore(nil, nil)
		objs := restoreSet()
		if reserve {
			s.Reserve(objs)
		}
		var out []string
		for _, o := range objs {
			out = append(out, fmt.Sprint(o.Metadata.Name, ": ", s.Restore(o)))
		}
		for _, o := range s.Objects() {
			out = append(out, fmt.Sprintf("%s %s/%s %s rv=%s byUID=%v", o.Kind, o.Metadata.Namespace, o.Metadata.Name,
				o.Metadata.UID, o.Metadata.ResourceVersion, s.ByUID(o.Metadata.UID) == o))
		}
		for i := range 10 {
			c, err := s.Create("test", configMap(fmt.Sprintf("new-%d", i)))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c.Metadata.UID)
		}
		return out
	}
	plain, reserved := run(false), run(true)
	if fmt.Sprint(plain) != fmt.Sprint(reserved) {
		t.Fatalf("with Reserve:\n%v\nwithout:\n%v", reserved, plain)
	}
	// The set exercises what it says: refusals, and a given UID shaped
	// like a generated one that the counter then skips.
	for _, want := range []string{`p-00: pods "p-00" already exists`, "w: the server could not find the requested resource", "Node /node-1 uid-0012", `default: namespaces "default" already exists`,
		`kube-public: namespaces "kube-public" already exists`, "Namespace /kube-public uid-0031"} {
		if !strings.Contains(strings.Join(plain, "\n"), want) {
			t.Errorf("no answer says %q:\n%s", want, strings.Join(plain, "\n"))
		}
	}
}

// TestRestoreStoredFormSharedParts restores objects that share parts of
// their fields, as a dump's Pods share a spec: a shared part in the
// stored form is kept, the same fields holding a Go int are made JSON
// however often a part in the stored form was seen before, and a part
// that is not in the stored form is never remembered as one.
func TestRestoreStoredFormSharedParts(t *testing.T) {
	s := NewStore(nil, nil)
	spec := map[string]any{"nodeName": "node-1", "containers": []any{map[string]any{"name": "c", "image": "nginx"}}}
	bad := map[string]any{"replicas": 3} // a Go int: not what JSON decodes
	list := []any{"a", "b"}
	for i := range 30 {
		o := obj("v1", "Pod", "default", fmt.Sprintf("p-%02d", i))
		o.Fields = FieldsOf(map[string]any{"spec": spec, "status": map[string]any{"phase": "Running"}, "list": list})
		if i%7 == 3 {
			o.Fields.Set("extra", bad)
		}
		if err := s.Restore(o); err != nil {
			t.Fatal(err)
		}
		got := s.Lookup(Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: o.Metadata.Name})
		if i%7 == 3 {
			if n, ok := got.Fields.Get("extra").(map[string]any)["replicas"].(float64); !ok || n != 3 {
				t.Fatalf("%s: extra.replicas is %#v, want float64 3", o.Metadata.Name, got.Fields.Get("extra"))
			}
			continue
		}
		if !sameMapAs(got.Fields.Get("spec"), spec) {
			t.Fatalf("%s: the spec in the stored form was copied", o.Metadata.Name)
		}
	}
	for _, part := range s.storedForm.seen {
		if part.p != nil && part.p == reflect.ValueOf(bad).UnsafePointer() {
			t.Fatal("a map holding a Go int is remembered as in the stored form")
		}
	}
}

func sameMapAs(a any, b map[string]any) bool {
	m, ok := a.(map[string]any)
	return ok && reflect.ValueOf(m).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
