package engine

import (
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestExitWritesTheKubeletsReport checks the status an exit writes: the
// phase from the code, each container terminated with it, and Ready
// False with the reason of that phase; and that the kubelet controller does not start a finished Pod.
func TestExitWritesTheKubeletsReport(t *testing.T) {
	for _, tc := range []struct {
		code                     int
		phase, reason, condition string
		withController           bool
	}{
		{0, "Succeeded", "Completed", "PodCompleted", false},
		{3, "Failed", "Error", "PodFailed", true},
	} {
		w := newTestWorld(t, ControllerKubelet)
		pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "p", Namespace: "default"},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"nodeName": "node-1", "containers": []any{map[string]any{"name": "main", "image": "perl"}}}})}
		mustDo(t, w, Create{Object: pod})
		ref := fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "p"}
		mustDo(t, w, Exit{Pod: &ref, Code: tc.code})
		if _, err := Settle(w, 1000); err != nil {
			t.Fatal(err)
		}
		got := w.Store().Lookup(ref)
		st := got.Fields.Get("status")
		if p := nestedString(st, "phase"); p != tc.phase {
			t.Errorf("code %d: phase %q, want %q", tc.code, p, tc.phase)
		}
		cs, _ := nestedSlice(st, "containerStatuses")
		if len(cs) != 1 {
			t.Fatalf("code %d: containerStatuses %v", tc.code, cs)
		}
		if n, _ := nestedInt(cs[0], "state", "terminated", "exitCode"); n != int64(tc.code) {
			t.Errorf("code %d: exitCode %d", tc.code, n)
		}
		if r := nestedString(cs[0], "state", "terminated", "reason"); r != tc.reason {
			t.Errorf("code %d: reason %q, want %q", tc.code, r, tc.reason)
		}
		if newPodInfo(got).ready {
			t.Errorf("code %d: a finished Pod is still Ready", tc.code)
		}
		// generateContainersReadyConditionForTerminalPhase: the reason
		// names the phase.
		conds, _ := nestedSlice(st, "conditions")
		for _, c := range conds {
			if typ := nestedString(c, "type"); typ == "Ready" || typ == "ContainersReady" {
				if r := nestedString(c, "reason"); r != tc.condition {
					t.Errorf("code %d: %s reason %q, want %q", tc.code, typ, r, tc.condition)
				}
			}
		}
	}
}

// TestExitSelector checks the selector form: count of the matching Pods
// that are neither terminating nor finished, by name, and NotFound when
// fewer match.
func TestExitSelector(t *testing.T) {
	w := newTestWorld(t, ControllerGC)
	for _, n := range []string{"c", "a", "b"} {
		mustDo(t, w, Create{Object: &fakeapi.Object{APIVersion: "v1", Kind: "Pod",
			Metadata: fakeapi.ObjectMeta{Name: n, Namespace: "default", Labels: map[string]string{"job-name": "pi"}}}})
	}
	isPi := &jobNameIs{"pi"}
	mustDo(t, w, Exit{Selector: isPi, Count: 2})
	phase := func(n string) string {
		return nestedString(w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: n}).Fields.Get("status"), "phase")
	}
	if phase("a") != "Succeeded" || phase("b") != "Succeeded" || phase("c") != "Pending" {
		t.Errorf("phases a=%q b=%q c=%q: want the first two by name to finish", phase("a"), phase("b"), phase("c"))
	}
	if _, err := w.Do(Exit{Selector: isPi, Count: 2}); !fakeapi.IsNotFound(err) {
		t.Errorf("two more of one running Pod: %v, want NotFound", err)
	}
	mustDo(t, w, Exit{Selector: isPi, Code: 1})
	if phase("c") != "Failed" {
		t.Errorf("c is %q after exit --code 1", phase("c"))
	}
	if _, err := w.Do(Exit{Selector: isPi}); !fakeapi.IsNotFound(err) {
		t.Errorf("none running: %v, want NotFound", err)
	}
}

// jobNameIs is the selector job-name=<name>.
type jobNameIs struct{ name string }

func (j *jobNameIs) Matches(l map[string]string) bool { return l["job-name"] == j.name }
func (j *jobNameIs) String() string                   { return "job-name=" + j.name }
