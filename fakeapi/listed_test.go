package fakeapi

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
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
	cm.Fields = map[string]any{"data": map[string]any{"k": "v"}}
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

// TestListEntriesCompareAsNames: the order of list entries by their
// names' prefixes is the order of the names as strings: for every pair of
// a set of names that share, end within and run past the 24 bytes the
// prefix holds, zero bytes included.
func TestListEntriesCompareAsNames(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 14))
	alphabet := []string{"\x00", "a", "b", "-", "\xff"}
	base := "web-5d8c7f00-00000-abcdef"
	var entries []listEntry
	for range 300 {
		name := ""
		if r.IntN(2) == 0 {
			name = base[:r.IntN(len(base)+1)]
		}
		for n := r.IntN(30); len(name) < n; {
			name += alphabet[r.IntN(len(alphabet))]
		}
		entries = append(entries, newListEntry(name, nil))
	}
	for _, a := range entries {
		for _, b := range entries {
			if got, want := compareListEntries(a, b), strings.Compare(a.name, b.name); got != want {
				t.Fatalf("%q against %q: %d, want %d", a.name, b.name, got, want)
			}
		}
	}
}

// TestListOrderAcrossNamespaces: a list of every namespace comes by
// namespace, then name, each namespace's objects sorted apart.
func TestListOrderAcrossNamespaces(t *testing.T) {
	w := newWorld(t)
	for _, ns := range []string{"kube-system", "default", "kube-public"} {
		for _, name := range []string{"web-5d8c7f00-00001-b", "a", "web-5d8c7f00-00001-a", "web-5d8c7f00-00001"} {
			if err := w.s.Restore(obj("v1", "ConfigMap", ns, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	l, err := w.s.ListShared("test", "v1", "ConfigMap", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range l {
		got = append(got, o.Metadata.Namespace+"/"+o.Metadata.Name)
	}
	want := slices.Clone(got)
	slices.SortFunc(want, func(a, b string) int {
		an, aname, _ := strings.Cut(a, "/")
		bn, bname, _ := strings.Cut(b, "/")
		return cmp.Or(strings.Compare(an, bn), strings.Compare(aname, bname))
	})
	if len(got) != 12 || !slices.Equal(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
}
