package fakeapi

import (
	"slices"
	"testing"
)

// TestListKeepsUpWithStorage: lists are answered from the objects kept
// between them (listedObjects), and every way an object comes, goes or is
// written shows in the next list: create, delete, restore, update, a
// namespace's objects in one namespace and in all, and a clone that goes
// its own way.
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
	listed := func(s *Store, name string) *Object {
		t.Helper()
		l, err := s.ListShared("test", "v1", "ConfigMap", "default")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range l {
			if o.Metadata.Name == name {
				return o
			}
		}
		t.Fatalf("%s not listed", name)
		return nil
	}
	old := listed(w.s, "c")
	cm := old.DeepCopy()
	cm.Fields = FieldsOf(map[string]any{"data": map[string]any{"k": "v"}})
	if _, err := w.s.Update("test", cm); err != nil {
		t.Fatal(err)
	}
	if got, stored := listed(w.s, "c"), w.s.Lookup(cmRef("c")); got != stored || got == old {
		t.Errorf("after an update the list has c at resourceVersion %s, storage %s (before: %s)",
			got.Metadata.ResourceVersion, stored.Metadata.ResourceVersion, old.Metadata.ResourceVersion)
	}
	if l, _ := c.ListShared("test", "v1", "ConfigMap", "default"); len(l) != 3 || l[2].Metadata.Name != "d" {
		t.Errorf("the clone lists %d ConfigMaps after the original's update", len(l))
	}
}
