package fakeapi

import (
	"slices"
	"testing"
)

// TestListKeepsUpWithStorage: lists are answered from keys kept between
// them (listKeys), and every way an object comes or goes shows in the
// next list: create, delete, restore, a namespace's objects in one
// namespace and in all, and a clone that goes its own way.
func TestListKeepsUpWithStorage(t *testing.T) {
	w := newWorld(t)
	names := func(s *Store, namespace string) []string {
		t.Helper()
		l, err := s.ListShared("test", "v1", "ConfigMap", namespace)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range l {
			out = append(out, o.Metadata.Namespace+"/"+o.Metadata.Name)
		}
		return out
	}
	want := func(got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("listed %q, want %q", got, want)
		}
	}
	w.create(configMap("b"))
	w.create(configMap("a"))
	want(names(w.s, ""), "default/a", "default/b")
	want(names(w.s, ""), "default/a", "default/b") // from the kept keys
	w.create(configMap("c"))
	want(names(w.s, "default"), "default/a", "default/b", "default/c")
	w.delete(cmRef("b"), nil)
	want(names(w.s, ""), "default/a", "default/c")
	want(names(w.s, "default"), "default/a", "default/c")
	if err := w.s.Restore(obj("v1", "ConfigMap", "kube-system", "r")); err != nil {
		t.Fatal(err)
	}
	want(names(w.s, ""), "default/a", "default/c", "kube-system/r")
	want(names(w.s, "kube-system"), "kube-system/r")
	c := w.s.Clone(nil)
	w.delete(cmRef("a"), nil)
	want(names(w.s, ""), "default/c", "kube-system/r")
	want(names(c, ""), "default/a", "default/c", "kube-system/r")
	if _, err := c.Create("test", configMap("d")); err != nil {
		t.Fatal(err)
	}
	want(names(c, "default"), "default/a", "default/c", "default/d")
	want(names(w.s, "default"), "default/c")
}
