package scenario

import (
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

// TestSettleBound: the usual bound, ten steps an object, and the square of
// each owner's dependents.
func TestSettleBound(t *testing.T) {
	owned := func(uids ...string) Manifest {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod"}
		for _, u := range uids {
			o.Metadata.OwnerReferences = append(o.Metadata.OwnerReferences, fakeapi.OwnerReference{UID: u})
		}
		return Manifest{Object: o}
	}
	restore := []Manifest{owned(), owned("a"), owned("a"), owned("a", "b")}
	objects := []Manifest{owned("b")}
	// Five objects; "a" has three dependents, "b" two.
	if got, want := settleBound(restore, objects), DefaultMaxSteps+10*5+3*3+2*2; got != want {
		t.Errorf("settleBound = %d, want %d", got, want)
	}
	if got, want := settleBound(), DefaultMaxSteps; got != want {
		t.Errorf("settleBound() = %d, want %d", got, want)
	}
}

// TestWhatIfForegroundOfAWideOwner: a foreground delete of a Deployment
// of 500 replicas settles and removes every object, where a bound of ten
// steps an object stopped it (the collector looks at the remaining Pods
// each time one goes: 130,268 steps), for what-if and for run -f alike.
func TestWhatIfForegroundOfAWideOwner(t *testing.T) {
	data := dumpOf(t, dumpgen.Options{ReplicaSets: 1, Pods: 500})
	web := Ref{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}}

	s, err := ParseFile("gen.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	im, err := Start(s)
	if err != nil {
		t.Fatal(err)
	}
	w, err := im.Delete(web, "Foreground")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Deleted) != 502 || len(w.Stuck) != 0 {
		t.Errorf("what-if: %d deleted, %d stuck; want 502 and 0", len(w.Deleted), len(w.Stuck))
	}
	if limit := DefaultMaxSteps + 10*502; w.Steps <= limit {
		t.Errorf("the delete took %d steps: no longer past the old bound %d, so this test no longer tests the bound", w.Steps, limit)
	}

	s, err = ParseDump("gen.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	s.AddCommandSteps(&web, "Foreground")
	if res := Run(s, RunOptions{}); !res.Passed || len(res.DeletionOrder) != 502 {
		t.Errorf("run -f: passed %v, %d removed: %v", res.Passed, len(res.DeletionOrder), res.Err())
	}
}
