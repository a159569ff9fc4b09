package objtable

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestTableAgainstGoMap runs random operations on a Table and on a Go map
// keyed by the whole Key, side by side, and compares them throughout.
func TestTableAgainstGoMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	scopes := []Scope{
		{Kind: "Pod", Namespace: "default"}, {Kind: "Pod", Namespace: "team"},
		{Group: "apps", Kind: "ReplicaSet", Namespace: "default"}, {Kind: "Namespace"},
		{Group: "example.com", Kind: "Pod", Namespace: "default"},
	}
	pick := func() Key {
		return Key{scopes[r.IntN(len(scopes))], fmt.Sprintf("o-%d", r.IntN(40))}
	}
	var tab Table[int]
	want := map[Key]int{}
	for i := range 50_000 {
		k := pick()
		if r.IntN(200) == 0 {
			// Growing a scope (the one last written, often) keeps
			// its entries, and later writes land in the grown map.
			tab.Grow(k.Scope, r.IntN(100))
		}
		if r.IntN(3) < 2 {
			tab.Set(k, i)
			want[k] = i
		} else {
			tab.Delete(k)
			delete(want, k)
		}
		q := pick()
		v, ok := tab.Get(q)
		wv, wok := want[q]
		if ok != wok || v != wv {
			t.Fatalf("op %d: Get(%v) = %d, %v; want %d, %v", i, q, v, ok, wv, wok)
		}
		if tab.Len() != len(want) {
			t.Fatalf("op %d: Len() = %d, want %d", i, tab.Len(), len(want))
		}
		pods := func(s Scope) bool { return s.Group == "" && s.Kind == "Pod" }
		wantPods := 0
		for k := range want {
			if pods(k.Scope) {
				wantPods++
			}
		}
		if got := tab.LenWhere(pods); got != wantPods {
			t.Fatalf("op %d: LenWhere(core Pods) = %d, want %d", i, got, wantPods)
		}
	}
	if got := maps.Collect(tab.All()); !maps.Equal(got, want) {
		t.Fatalf("All() differs: %d entries, want %d", len(got), len(want))
	}
	pods := maps.Collect(tab.Where(func(s Scope) bool { return s.Group == "" && s.Kind == "Pod" }))
	for k, v := range want {
		if _, in := pods[k]; in != (k.Group == "" && k.Kind == "Pod") || (in && pods[k] != v) {
			t.Fatalf("Where(core Pods): %v in=%v", k, in)
		}
	}
	c := tab.Clone()
	for k := range want {
		tab.Delete(k)
	}
	if tab.Len() != 0 || c.Len() != len(want) {
		t.Fatalf("after emptying the original: Len() = %d, clone Len() = %d, want 0 and %d", tab.Len(), c.Len(), len(want))
	}
	if got := maps.Collect(c.All()); !maps.Equal(got, want) {
		t.Fatal("the clone changed with the original")
	}
}

// Reads do not write (the remembered scope changes on writes only), so
// goroutines may read a Table at once, as they may a Go map. Run with
// -race to check.
func TestConcurrentReads(t *testing.T) {
	var tab Table[int]
	for i := range 100 {
		tab.Set(Key{Scope{Kind: "Pod", Namespace: fmt.Sprint(i % 4)}, fmt.Sprint(i)}, i)
	}
	done := make(chan bool)
	for g := range 4 {
		go func() {
			ok := true
			for i := range 1000 {
				k := Key{Scope{Kind: "Pod", Namespace: fmt.Sprint((i + g) % 4)}, fmt.Sprint((i + g) % 100)}
				if v, found := tab.Get(k); found && v != (i+g)%100 {
					ok = false
				}
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Fatal("a concurrent read saw a wrong value")
		}
	}
}
