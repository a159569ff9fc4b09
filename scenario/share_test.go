package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

// same reports whether two maps or slices are one in memory.
func same(a, b any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func sharedPod(name, uid string, fields map[string]any) *fakeapi.Object {
	return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: name, Namespace: "default", UID: uid,
		Labels: map[string]string{"app": "web"},
		// Room for more: as the parser's appends leave it.
		OwnerReferences: append(make([]fakeapi.OwnerReference, 0, 4), fakeapi.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-1", Controller: fakeapi.Bool(true)})},
		Fields: fakeapi.FieldsOf(fields)}
}

// TestSharerSharesEqualParts: equal labels, references and subtrees of
// two objects become one, unequal ones stay apart, and no object changes.
func TestSharerSharesEqualParts(t *testing.T) {
	spec := func(node string) map[string]any {
		return map[string]any{"containers": []any{map[string]any{"name": "nginx", "image": "nginx:1", "resources": map[string]any{}}},
			"nodeName": node, "terminationGracePeriodSeconds": 30.0}
	}
	a := sharedPod("a", "1", map[string]any{"spec": spec("n1"), "status": map[string]any{"podIP": "10.0.0.1", "ready": true}})
	b := sharedPod("b", "2", map[string]any{"spec": spec("n1"), "status": map[string]any{"podIP": "10.0.0.2", "ready": true}})
	c := sharedPod("c", "3", map[string]any{"spec": spec("n2"), "status": map[string]any{"podIP": "10.0.0.1", "ready": "true"}})
	var before [][]byte
	for _, o := range []*fakeapi.Object{a, b, c} {
		j, _ := json.Marshal(o)
		before = append(before, j)
	}
	s := newSharer()
	for _, o := range []*fakeapi.Object{a, b, c} {
		s.object(o)
	}
	for i, o := range []*fakeapi.Object{a, b, c} {
		if j, _ := json.Marshal(o); !bytes.Equal(j, before[i]) {
			t.Errorf("%s changed:\n%s\n%s", o.Metadata.Name, before[i], j)
		}
	}
	spec2 := func(o *fakeapi.Object) map[string]any { return o.Fields.Get("spec").(map[string]any) }
	status := func(o *fakeapi.Object) map[string]any { return o.Fields.Get("status").(map[string]any) }
	switch {
	case !same(a.Metadata.Labels, c.Metadata.Labels) || !same(a.Metadata.OwnerReferences, c.Metadata.OwnerReferences):
		t.Error("equal labels or references are not shared")
	case !same(spec2(a), spec2(b)):
		t.Error("equal specs are not shared")
	case same(spec2(a), spec2(c)) || same(status(a), status(b)) || same(status(a), status(c)):
		t.Error("unequal maps are shared (a differs in a node name, a podIP, or true beside \"true\")")
	case !same(spec2(a)["containers"], spec2(c)["containers"]):
		t.Error("equal lists inside unequal maps are not shared")
	case cap(a.Metadata.OwnerReferences) != 1:
		t.Error("shared references have room to append into: one object's append would write into another's")
	}
}

// TestSharerKeepsApart: texts that could run together (a key's end and a
// value's start, a number and a string) stay apart; a large subtree is not
// looked up whole but its parts are; a reference without a uid, which the
// dump completes per object later, is not shared.
func TestSharerKeepsApart(t *testing.T) {
	s := newSharer()
	x, _ := s.value(map[string]any{"ab": "c"})
	y, _ := s.value(map[string]any{"a": "bc"})
	n, _ := s.value([]any{1.0})
	str, _ := s.value([]any{"1"})
	if same(x, y) || same(n, str) {
		t.Error("different values share memory")
	}
	big := func() map[string]any {
		return map[string]any{"text": strings.Repeat("x", maxShared), "small": map[string]any{"k": "v"}}
	}
	b1, b2 := big(), big()
	s.value(b1)
	s.value(b2)
	if same(b1, b2) || !same(b1["small"], b2["small"]) {
		t.Errorf("a subtree over %d bytes is shared whole, or its small part is not", maxShared)
	}
	p, q := sharedPod("p", "1", nil), sharedPod("q", "2", nil)
	p.Metadata.OwnerReferences[0].UID, q.Metadata.OwnerReferences[0].UID = "", ""
	s.object(p)
	s.object(q)
	if same(p.Metadata.OwnerReferences, q.Metadata.OwnerReferences) {
		t.Error("references without a uid are shared")
	}
}

// TestSharedDumpWrites: a dump read with its parts shared gives the
// objects a dump read without gives, and a write to one object of the
// world does not reach the objects it shared parts with.
func TestSharedDumpWrites(t *testing.T) {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{ReplicaSets: 2, Pods: 20}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	read := func(share bool) []Manifest {
		d := newDumpReader("d.yaml", data)
		if !share {
			d.share = nil
		}
		if !fastDocuments(data, "items", d.fastItem, d.fastDoc, nil, nil) || len(d.p.errs) > 0 {
			t.Fatalf("read: %v", d.p.errs)
		}
		return d.restore
	}
	shared, plain := read(true), read(false)
	for i := range shared {
		sj, _ := json.Marshal(shared[i].Object)
		pj, _ := json.Marshal(plain[i].Object)
		if !bytes.Equal(sj, pj) {
			t.Fatalf("object %d:\nshared %s\nplain  %s", i, sj, pj)
		}
	}
	s, err := ParseDump("d.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	im, err := Start(s)
	if err != nil {
		t.Fatal(err)
	}
	store := im.World.Store()
	a := fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-5d8c7f00-00000"}
	b := fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-5d8c7f00-00008"} // the same node: the same spec
	before, _ := json.Marshal(store.Lookup(b))
	if sa := fieldValue(store.Lookup(a), "spec"); sa == 0 || sa != fieldValue(store.Lookup(b), "spec") {
		t.Fatal("the two Pods do not share their spec: the test tests nothing")
	}
	patch := `{"metadata":{"labels":{"app":"other","extra":"x"}},"spec":{"activeDeadlineSeconds":60},"status":{"phase":"Failed"}}`
	if _, err := im.World.Do(engine.Patch{Ref: a, Merge: []byte(patch)}); err != nil {
		t.Fatal(err)
	}
	after, _ := json.Marshal(store.Lookup(b))
	if !bytes.Equal(before, after) {
		t.Errorf("a patch of %s changed %s:\n%s\n%s", a.Name, b.Name, before, after)
	}
	if got := fmt.Sprint(store.Lookup(a).Metadata.Labels); got != "map[app:other extra:x pod-template-hash:5d8c7f00]" {
		t.Errorf("the patched Pod's labels: %s", got)
	}
}
