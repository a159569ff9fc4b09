package fakeapi

import (
	"slices"
	"strings"
	"testing"
)

// Objects sorts by kind, namespace, name and then group, also when one
// kind name is served by two groups in one namespace (their objects
// interleave by name) and across namespaces and cluster-scoped kinds.
func TestObjectsOrder(t *testing.T) {
	reg := NewRegistry()
	for _, k := range []KindInfo{
		{APIVersion: "example.com/v1", Kind: "Pod", Scope: Namespaced, Custom: true},
		{APIVersion: "other.io/v1", Kind: "Pod", Scope: Namespaced, Custom: true},
		{APIVersion: "example.com/v1", Kind: "Widget", Scope: Cluster, Custom: true},
	} {
		if err := reg.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	w := newWorldWith(t, reg)
	if _, err := w.s.Create("user", obj("v1", "Namespace", "", "team")); err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{"team", "default"} {
		for _, name := range []string{"c", "a", "e", "b", "d"} {
			for _, av := range []string{"v1", "example.com/v1", "other.io/v1"} {
				if (name == "b" && av == "v1") || (name == "e" && av == "other.io/v1") {
					continue
				}
				if _, err := w.s.Create("user", obj(av, "Pod", ns, name)); err != nil {
					t.Fatal(err)
				}
			}
			if ns == "default" {
				if _, err := w.s.Create("user", configMap(name)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, name := range []string{"z", "m"} {
		if _, err := w.s.Create("user", obj("example.com/v1", "Widget", "", name)); err != nil {
			t.Fatal(err)
		}
	}
	got := w.s.Objects()
	want := slices.Clone(got)
	slices.SortStableFunc(want, func(a, b *Object) int {
		ga, _ := SplitAPIVersion(a.APIVersion)
		gb, _ := SplitAPIVersion(b.APIVersion)
		for _, c := range []int{strings.Compare(a.Kind, b.Kind), strings.Compare(a.Metadata.Namespace, b.Metadata.Namespace),
			strings.Compare(a.Metadata.Name, b.Metadata.Name), strings.Compare(ga, gb)} {
			if c != 0 {
				return c
			}
		}
		return 0
	})
	if len(got) != w.s.Len() {
		t.Fatalf("Objects() has %d objects, Len() = %d", len(got), w.s.Len())
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("object %d: %s %s, want %s %s", i, got[i].APIVersion, got[i], want[i].APIVersion, want[i])
		}
	}
	// CompareOrder of OrderKey is the same order, without ties.
	for i := 1; i < len(got); i++ {
		a, aok := w.s.OrderKey(got[i-1])
		b, bok := w.s.OrderKey(got[i])
		if !aok || !bok || CompareOrder(a, b) >= 0 {
			t.Fatalf("objects %d and %d: CompareOrder(%v, %v) = %d (%v %v), want < 0", i-1, i, a, b, CompareOrder(a, b), aok, bok)
		}
	}
	// The interleaving case is really there: default's Pods go core a,
	// example a, other a, example b, other b, ...
	var defaultPods []string
	for _, o := range got {
		if o.Kind == "Pod" && o.Metadata.Namespace == "default" {
			defaultPods = append(defaultPods, o.APIVersion+" "+o.Metadata.Name)
		}
	}
	if strings.Join(defaultPods[:5], ",") != "v1 a,example.com/v1 a,other.io/v1 a,example.com/v1 b,other.io/v1 b" {
		t.Fatalf("default Pods in order: %v", defaultPods)
	}
}
