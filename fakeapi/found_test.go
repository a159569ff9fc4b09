package fakeapi

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestFoundObjectNeverStale drives a store through random requests on a
// few names (reads, graceful and immediate deletes, creates, updates,
// patches, restores, clones) and checks after each that a GET answers
// what the objects table holds: the object the last request found, which
// a request for the same name reuses, is never one a write has replaced
// or removed.
func TestFoundObjectNeverStale(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 10))
	w := newWorld(t)
	stores := []*Store{w.s}
	refs := []Ref{cmRef("a"), cmRef("b"), {APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "a"}}
	check := func(s *Store, ref Ref, step int) {
		t.Helper()
		got, err := s.GetShared("test", ref)
		info, _ := s.resolve(ref.APIVersion, ref.Kind)
		want := s.object(keyOf(info, ref.Namespace, ref.Name))
		switch {
		case want == nil && !IsNotFound(err):
			t.Fatalf("step %d: GET %s answered %v, %v; the table holds nothing", step, ref.Name, got, err)
		case want != nil && (err != nil || got != want):
			t.Fatalf("step %d: GET %s answered %v (rv %s), %v; the table holds rv %s", step, ref.Name, got, rvOf(got), err, want.Metadata.ResourceVersion)
		}
	}
	for step := range 5000 {
		s := stores[r.IntN(len(stores))]
		ref := refs[r.IntN(len(refs))]
		check(s, ref, step) // the lookup the next request may reuse
		var o *Object
		if ref.Kind == "Pod" {
			o = scheduledPod(ref.Name)
		} else {
			o = configMap(ref.Name)
		}
		switch r.IntN(7) {
		case 0:
			_, _ = s.Create("test", o)
		case 1:
			_, _ = s.Delete("test", ref, nil)
		case 2:
			_, _ = s.Delete("test", ref, &DeleteOptions{GracePeriodSeconds: Int64(0)})
		case 3:
			if cur, err := s.Get("test", ref); err == nil {
				cur.Metadata.Labels = map[string]string{"step": fmt.Sprint(step)}
				_, _ = s.Update("test", cur)
			}
		case 4:
			_, _ = s.Patch("test", ref, MergePatch, []byte(fmt.Sprintf(`{"metadata":{"finalizers":[],"labels":{"p":"%d"}}}`, step)))
		case 5:
			o.Metadata.Name = fmt.Sprintf("%s-%d", ref.Name, step%3)
			_ = s.Restore(o)
		case 6:
			if len(stores) < 4 {
				stores = append(stores, s.Clone(nil))
			}
		}
		for _, s := range stores {
			check(s, refs[r.IntN(len(refs))], step)
		}
	}
}

func rvOf(o *Object) string {
	if o == nil {
		return ""
	}
	return o.Metadata.ResourceVersion
}
