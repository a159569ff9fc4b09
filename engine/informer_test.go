package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/objtable"
	"github.com/gcplay/gcplay/internal/uidmap"
)

// TestInformerStoreAgainstMap feeds an informerStore the events of objects
// being created, changed and deleted (names are reused, UIDs are not; some
// UIDs are not generated ones) and compares it with a map of name to
// object after every event, and a clone of it after the clone's original
// moves on.
func TestInformerStoreAgainstMap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var s informerStore
	want := map[objtable.Key]*fakeapi.Object{}
	serial := 0
	key := func(i int) objtable.Key {
		return keyOf("v1", "Pod", "default", fmt.Sprintf("p-%d", i))
	}
	check := func(s *informerStore, want map[objtable.Key]*fakeapi.Object, when string) {
		t.Helper()
		for i := range 300 {
			k := key(i)
			got, ok := s.get(k)
			w, wok := want[k]
			if ok != wok || got != w {
				t.Fatalf("%s: get(%s) = %v, %v; want %v, %v", when, k.Name, got, ok, w, wok)
			}
		}
	}
	var clone informerStore
	var cloneWant map[objtable.Key]*fakeapi.Object
	for step := range 20_000 {
		i := r.IntN(300)
		k := key(i)
		cur := want[k]
		switch {
		case cur == nil:
			serial++
			uid := uidmap.Format(serial)
			if serial%7 == 0 {
				uid = fmt.Sprintf("given-%d", serial)
			}
			o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: k.Name, Namespace: "default", UID: uid}}
			s.add(k, o)
			want[k] = o
		case r.IntN(2) == 0:
			o := *cur
			o.Metadata.ResourceVersion = fmt.Sprint(step)
			s.update(k, &o)
			want[k] = &o
		default:
			s.remove(k, cur)
			delete(want, k)
		}
		check(&s, want, fmt.Sprintf("event %d", step))
		if step == 10_000 {
			clone = s.clone()
			cloneWant = map[objtable.Key]*fakeapi.Object{}
			for k, v := range want {
				cloneWant[k] = v
			}
		}
	}
	if s.dead > 1024 && s.dead > s.byName.Len()-s.dead {
		t.Fatalf("%d emptied names left beside %d live ones", s.dead, s.byName.Len()-s.dead)
	}
	check(&clone, cloneWant, "the clone, after its original went on")
}

// A cascade of deletes sweeps the emptied names out as it goes.
func TestInformerStoreSweeps(t *testing.T) {
	var s informerStore
	var objs []*fakeapi.Object
	for i := range 5000 {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: fmt.Sprint(i), Namespace: "default", UID: uidmap.Format(i + 1)}}
		s.add(keyOf("v1", "Pod", "default", o.Metadata.Name), o)
		objs = append(objs, o)
	}
	for _, o := range objs {
		s.remove(keyOf("v1", "Pod", "default", o.Metadata.Name), o)
	}
	if n := s.byName.Len(); n > 1025 {
		t.Fatalf("%d names left after every object was deleted", n)
	}
	if s.byUID.Len() != 0 {
		t.Fatalf("%d UIDs left after every object was deleted", s.byUID.Len())
	}
}
