package scenario

import (
	"runtime"
	"testing"
	"weak"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

// TestWhatIfDeleteLetsGoOfRemovedObjects: while a what-if delete runs,
// the objects it removes can be freed; the answer keeps what it needs
// of the world before the delete (uids and owner references), not the
// objects, which would hold a large dump's whole settled world beside
// the new one to the delete's end.
func TestWhatIfDeleteLetsGoOfRemovedObjects(t *testing.T) {
	im := startedDump(t, dumpgen.Options{ReplicaSets: 2, Pods: 100})
	store := im.World.Store()
	var pods []weak.Pointer[fakeapi.Object]
	for _, o := range store.Objects() {
		if o.Kind == "Pod" {
			pods = append(pods, weak.Make(o))
		}
	}
	if len(pods) != 200 {
		t.Fatalf("%d Pods in the dump's world, want 200", len(pods))
	}
	// Every 50 requests of the delete, a collection, and how many of the
	// Pods as they were before it are freed by then.
	requests, freed := 0, 0
	cancel := store.OnRequest(func(fakeapi.Request) {
		if requests++; requests%50 != 0 {
			return
		}
		runtime.GC()
		n := 0
		for _, p := range pods {
			if p.Value() == nil {
				n++
			}
		}
		freed = max(freed, n)
	})
	defer cancel()
	w, err := im.Delete(Ref{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Deleted) < 200 {
		t.Fatalf("the delete removed %d objects, want the 200 Pods at least", len(w.Deleted))
	}
	t.Logf("at most %d of %d Pods freed during the delete", freed, len(pods))
	if freed < len(pods)/2 {
		t.Errorf("during the delete, at most %d of the %d Pods it removes were freed", freed, len(pods))
	}
}
