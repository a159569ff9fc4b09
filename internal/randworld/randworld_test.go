package randworld

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/scenario"
)

// TestGenerateIsDeterministic: a seed always gives the same file.
func TestGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		_, a, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		_, b, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d gave two different files:\n%s\n---\n%s", seed, a, b)
		}
	}
}

// TestGeneratedWorldsPassInGcplay generates the worlds CI runs on a real
// cluster and more: each is a valid scenario whose expectations hold in
// gcplay, with the collector's graph invariant (R35) checked after every
// step. A world that breaks gcplay (a panic, a broken invariant) fails
// here, before any cluster is involved.
func TestGeneratedWorldsPassInGcplay(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		_, data, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse("random.yaml", data)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		res := scenario.Run(s, scenario.RunOptions{CheckInvariants: true})
		if !res.Passed {
			t.Fatalf("seed %d: %v %s\n%s", seed, res.Err(), res.InternalError, data)
		}
	}
}

// TestGeneratedWorldsCoverTheBrief counts, over the first 200 seeds, the
// shapes the generator is meant to make: each must appear.
func TestGeneratedWorldsCoverTheBrief(t *testing.T) {
	var all strings.Builder
	multiOwner, cycles, unblockNothing := 0, 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		w, data, err := Generate(seed)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
		// The first disagreement of issue 14: the cycle breaker on an
		// object with no blocking reference, whose unblock patch changes
		// nothing, so the Foreground DELETE's resourceVersion still holds.
		s, err := scenario.Parse("random.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range scenario.Run(s, scenario.RunOptions{Records: true}).Trace(true) {
			if strings.Contains(l, ": DeleteForeground — ") && strings.Contains(l, "blockOwnerDeletion=false first") {
				unblockNothing++
			}
		}
		for i, o := range w.Objects {
			if len(o.Owners) > 1 {
				multiOwner++
			}
			for _, r := range o.Owners {
				for j := i + 1; j < len(w.Objects); j++ {
					if w.Objects[j].UID == r.UID {
						cycles++ // a reference to a later object: a cycle is possible
					}
				}
			}
		}
	}
	text := all.String()
	for _, want := range []string{
		"uid: x",                         // dangling references
		"uid: old-",                      // an existing name with another UID
		"namespace: other",               // cross-namespace references
		"kind: ClusterRole",              // cluster-scoped owners and dependents
		"kind: Widget",                   // a custom kind (JSON merge patches)
		"kind: Gizmo",                    // a kind no API serves (R61)
		"{owner: Gizmo/",                 // and an expectation naming it
		"finalizers: [example.com/hold",  // custom finalizers
		"finalizers: [orphan]",           // a GC finalizer at creation
		"propagationPolicy: Orphan",      // each policy
		"propagationPolicy: Background",  //
		"propagationPolicy: Foreground",  //
		"orphanDependents: true",         // the legacy field
		"orphanDependents: false",        //
		"merge: {metadata: {finalizers:", // finalizer removals
		"-r",                             // owners created again under their old name
		"-late",                          // late dependents
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no generated world has %q", want)
		}
	}
	if multiOwner < 50 || cycles < 20 || unblockNothing == 0 {
		t.Errorf("%d objects with several owners, %d references to a later object, %d cycle breakers with nothing to unblock: too few", multiOwner, cycles, unblockNothing)
	}
}

// TestSmaller: every smaller world is smaller, still renders a valid
// scenario, and the smallest worlds have nothing left to take.
func TestSmaller(t *testing.T) {
	w, _, err := Generate(7)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range w.Smaller() {
		if c.Size() > w.Size() {
			t.Errorf("a smaller world has size %d, above %d", c.Size(), w.Size())
		}
		if _, err := scenario.Parse("s.yaml", c.Render(nil)); err != nil {
			t.Errorf("%v\n%s", err, c.Render(nil))
		}
	}
	one := &World{Name: "one", Objects: []*Object{{Kind: ConfigMap, Name: "a", Namespace: "default", UID: "u"}}}
	if got := one.Smaller(); len(got) != 0 {
		t.Errorf("a world of one bare object has %d smaller worlds", len(got))
	}
	// Removing an object drops the actions on it and renumbers the others.
	two := &World{Name: "two", Objects: []*Object{{Kind: ConfigMap, Name: "a", UID: "ua"}, {Kind: ConfigMap, Name: "b", UID: "ub"}},
		Actions: []Action{{Op: "delete", Target: 0}, {Op: "delete", Target: 1}}}
	c := two.withoutObject(0)
	if len(c.Actions) != 1 || c.Actions[0].Target != 0 || c.Objects[0].Name != "b" {
		t.Errorf("withoutObject(0) = %+v", c)
	}
	if len(two.Actions) != 2 || two.Objects[0].Name != "a" {
		t.Error("withoutObject changed the world it was given")
	}
}
