package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestPastBackoffLimitOnFailureSumsContainers holds the OnFailure restart
// count to upstream's pastBackoffLimitOnFailure: the restartCount of every
// init and regular container of the running and pending Pods, added up,
// not the largest one container's.
func TestPastBackoffLimitOnFailureSumsContainers(t *testing.T) {
	pod := func(phase string, init []float64, regular ...float64) jobPod {
		st := func(l []float64) []any {
			var out []any
			for _, n := range l {
				out = append(out, map[string]any{"name": "c", "restartCount": n})
			}
			return out
		}
		status := map[string]any{"phase": phase, "containerStatuses": st(regular)}
		if init != nil {
			status["initContainerStatuses"] = st(init)
		}
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "p"},
			Fields: fakeapi.FieldsOf(map[string]any{"status": status})}
		return jobPod{podInfo: newPodInfo(o), index: -1}
	}
	job := func(limit int64) jobView { return jobView{restartOnFailure: true, backoffLimit: limit} }
	for _, tc := range []struct {
		name  string
		limit int64
		pods  []jobPod
		want  bool
	}{
		{"two containers of 3 reach 6", 6, []jobPod{pod(podRunning, nil, 3, 3)}, true},
		{"two containers of 3 stay under 7", 7, []jobPod{pod(podRunning, nil, 3, 3)}, false},
		{"init containers count", 4, []jobPod{pod(podPending, []float64{2}, 2)}, true},
		{"over Pods", 4, []jobPod{pod(podRunning, nil, 2), pod(podPending, nil, 1, 1)}, true},
		{"finished Pods do not count", 2, []jobPod{pod(podFailed, nil, 5, 5), pod(podSucceeded, nil, 5), pod(podRunning, nil, 1)}, false},
		{"limit 0: any restart", 0, []jobPod{pod(podRunning, nil, 0, 1)}, true},
		{"limit 0: none", 0, []jobPod{pod(podRunning, nil, 0, 0)}, false},
	} {
		if got := pastBackoffLimitOnFailure(job(tc.limit), tc.pods); got != tc.want {
			t.Errorf("%s: pastBackoffLimitOnFailure = %v, want %v", tc.name, got, tc.want)
		}
	}
	v := job(1)
	v.restartOnFailure = false
	if pastBackoffLimitOnFailure(v, []jobPod{pod(podRunning, nil, 5)}) {
		t.Errorf("restartPolicy Never: restarts counted")
	}
}

// TestActivePodsForRemovalKeepsFurthestDuplicate holds the removal of an
// Indexed Job's duplicate Pods to upstream's
// appendDuplicatedIndexPodsForRemoval: of the active Pods sharing an
// index, the one last in the ActivePods order (scheduled, running, ready)
// stays and the others go, whatever their names; Pods without a valid
// index go too.
func TestActivePodsForRemovalKeepsFurthestDuplicate(t *testing.T) {
	pod := func(name string, index int, node, phase string, ready bool) jobPod {
		ann := map[string]string{}
		if index >= 0 {
			ann[jobCompletionIndexAnnotation] = itoa(int64(index))
		}
		status := map[string]any{"phase": phase}
		if ready {
			status["conditions"] = []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}}
		}
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod",
			Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: name, Annotations: ann},
			Fields:   fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"nodeName": node}, "status": status})}
		return jobPod{podInfo: newPodInfo(o), index: completionIndex(o)}
	}
	three := int64(3)
	v := jobView{indexed: true, completions: &three}
	pods := []jobPod{
		pod("ix-0-a", 0, "node-1", podRunning, true),
		pod("ix-1-a", 1, "", podPending, false),       // unscheduled duplicate of 1
		pod("ix-1-b", 1, "node-1", podRunning, true),  // the furthest of index 1
		pod("ix-1-c", 1, "node-1", podRunning, false), // running, not ready
		pod("ix-2-a", 2, "node-1", podPending, false),
		pod("ix-9-a", 9, "node-1", podRunning, true), // index beyond completions
		pod("no-index", -1, "node-1", podRunning, true),
	}
	var got []string
	for _, p := range activePodsForRemoval(v, pods, 0) {
		got = append(got, p.obj.Metadata.Name)
	}
	slices.Sort(got)
	want := []string{"ix-1-a", "ix-1-c", "ix-9-a", "no-index"}
	if !slices.Equal(got, want) {
		t.Fatalf("activePodsForRemoval = %v, want %v (ix-1-b, running and ready, kept)", got, want)
	}
}

// TestDeleteJobPodsCountsReadyOnFailedDelete holds deleteJobPods to
// upstream's: a ready Pod whose finalizer came off counts among the
// deleted ready Pods (which status.ready is lowered by) even when its
// DELETE fails; it does not count as deleted, and the error is returned.
func TestDeleteJobPodsCountsReadyOnFailedDelete(t *testing.T) {
	store := fakeapi.NewStore(fakeapi.NewRegistry(), &virtualClock{})
	e := newEnv(store, &virtualClock{})
	var pods []jobPod
	for _, name := range []string{"a", "b"} {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: name,
			Finalizers: []string{jobTrackingFinalizer}}}
		created, err := store.Create("test", o)
		if err != nil {
			t.Fatal(err)
		}
		// The apiserver makes a new Pod Pending; the kubelet's status
		// update makes it Running and Ready.
		created.Fields.Set("status", map[string]any{"phase": podRunning,
			"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}})
		out, err := store.Update("test", created)
		if err != nil {
			t.Fatal(err)
		}
		p := jobPod{podInfo: newPodInfo(out), finalizer: true, index: -1}
		if !p.ready {
			t.Fatalf("Pod %s not ready", name)
		}
		pods = append(pods, p)
	}
	store.Inject(fakeapi.Fault{Verb: "delete", Kind: "Pod", Name: "b", Reason: fakeapi.ReasonInternalError})
	c := newJobController(e).(*jobController)
	job := &fakeapi.Object{APIVersion: "batch/v1", Kind: "Job", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "j", UID: "u"}}
	c.exp.set("default/j", 0, 2, 0)
	ready, deleted, err := c.deleteJobPods(job, "default/j", pods)
	if err == nil {
		t.Fatalf("deleteJobPods: no error, want the injected one")
	}
	if ready != 2 || deleted != 1 {
		t.Fatalf("deleteJobPods = %d ready, %d deleted; want 2 ready (upstream counts b's readiness), 1 deleted", ready, deleted)
	}
}

// TestFinishedTimeCountsSidecars holds finishedTime to upstream's
// getFinishedTime: the sidecars (init containers with restartPolicy
// Always) finish after the regular containers and their finishedAt
// counts; a sidecar not yet terminated leaves the Ready=False time; a
// plain init container is not looked at.
func TestFinishedTimeCountsSidecars(t *testing.T) {
	term := func(name, at string) any {
		st := map[string]any{"name": name, "state": map[string]any{"running": map[string]any{}}}
		if at != "" {
			st["state"] = map[string]any{"terminated": map[string]any{"finishedAt": at}}
		}
		return st
	}
	pod := func(inits []any, initStatuses []any, regular ...any) jobPod {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "p"},
			Fields: fakeapi.FieldsOf(map[string]any{
				"spec": map[string]any{"initContainers": inits},
				"status": map[string]any{"phase": podFailed, "containerStatuses": regular, "initContainerStatuses": initStatuses,
					"conditions": []any{map[string]any{"type": "Ready", "status": "False", "lastTransitionTime": "2026-01-01T00:00:30Z"}}},
			})}
		return jobPod{podInfo: newPodInfo(o), index: -1}
	}
	sidecar := map[string]any{"name": "proxy", "restartPolicy": "Always"}
	plain := map[string]any{"name": "setup"}
	for _, tc := range []struct {
		name string
		p    jobPod
		want string
	}{
		{"regular only", pod(nil, nil, term("main", "2026-01-01T00:00:10Z")), "2026-01-01T00:00:10Z"},
		{"sidecar later", pod([]any{sidecar}, []any{term("proxy", "2026-01-01T00:00:12Z")}, term("main", "2026-01-01T00:00:10Z")), "2026-01-01T00:00:12Z"},
		{"sidecar running", pod([]any{sidecar}, []any{term("proxy", "")}, term("main", "2026-01-01T00:00:10Z")), "2026-01-01T00:00:30Z"},
		{"plain init ignored", pod([]any{plain}, []any{term("setup", "2026-01-01T00:00:20Z")}, term("main", "2026-01-01T00:00:10Z")), "2026-01-01T00:00:10Z"},
	} {
		if got := finishedTime(tc.p).UTC().Format(time.RFC3339); got != tc.want {
			t.Errorf("%s: finishedTime = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestFinishedTimeFirstReadyCondition: the Ready=False time counts only
// from the Pod's first Ready condition, as upstream's
// getFinishTimeFromPodReadyFalseCondition reads it through GetPodCondition;
// a later Ready condition is not looked at.
func TestFinishedTimeFirstReadyCondition(t *testing.T) {
	pod := func(conds ...any) jobPod {
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "p",
			CreationTimestamp: &fakeapi.Time{Time: time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)}},
			Fields: fakeapi.FieldsOf(map[string]any{"status": map[string]any{"phase": podFailed, "conditions": conds}})}
		return jobPod{podInfo: newPodInfo(o), index: -1}
	}
	ready := func(status, at string) any {
		return map[string]any{"type": "Ready", "status": status, "lastTransitionTime": at}
	}
	for _, tc := range []struct {
		name string
		p    jobPod
		want string
	}{
		{"first Ready False", pod(ready("False", "2026-01-01T00:00:30Z"), ready("False", "2026-01-01T00:00:40Z")), "2026-01-01T00:00:30Z"},
		{"first Ready True", pod(ready("True", "2026-01-01T00:00:30Z"), ready("False", "2026-01-01T00:00:40Z")), "2026-01-01T00:00:01Z"},
	} {
		if got := finishedTime(tc.p).UTC().Format(time.RFC3339); got != tc.want {
			t.Errorf("%s: finishedTime = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestPodJobsEmptySelectorMatches holds podJobs to the Job lister's
// GetPodJobs: a Job whose selector is empty (manualSelector) is woken by
// every labelled orphan Pod of its namespace; a Job without a selector,
// or of another namespace, is not, and a Pod without labels wakes none.
func TestPodJobsEmptySelectorMatches(t *testing.T) {
	e := newEnv(fakeapi.NewStore(fakeapi.NewRegistry(), &virtualClock{}), &virtualClock{})
	c := newJobController(e).(*jobController)
	job := func(ns, name string, sel any) {
		spec := map[string]any{"manualSelector": true}
		if sel != nil {
			spec["selector"] = sel
		}
		c.jobs[ns+"/"+name] = &fakeapi.Object{APIVersion: "batch/v1", Kind: "Job", Metadata: fakeapi.ObjectMeta{Namespace: ns, Name: name},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": spec})}
	}
	job("default", "all", map[string]any{})
	job("default", "web", map[string]any{"matchLabels": map[string]any{"app": "web"}})
	job("default", "none", nil)
	job("other", "all", map[string]any{})
	names := func(labels map[string]string) []string {
		pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "p", Labels: labels}}
		var out []string
		for _, j := range c.podJobs(pod) {
			out = append(out, j.Metadata.Name)
		}
		return out
	}
	if got, want := names(map[string]string{"app": "web"}), []string{"all", "web"}; !slices.Equal(got, want) {
		t.Errorf("podJobs(app=web) = %v, want %v", got, want)
	}
	if got, want := names(map[string]string{"app": "db"}), []string{"all"}; !slices.Equal(got, want) {
		t.Errorf("podJobs(app=db) = %v, want %v", got, want)
	}
	if got := names(nil); len(got) != 0 {
		t.Errorf("podJobs(no labels) = %v, want none", got)
	}
}

// TestActivePodLessAsUpstream holds the Job controller's ActivePods order
// to upstream's where it reads more than podInfo: a ready Pod whose ready
// time is unknown comes before one ready since a known time (afterOrZero),
// and of two Pods alike down to their regular containers' restarts, the
// one whose sidecar restarted more comes first.
func TestActivePodLessAsUpstream(t *testing.T) {
	pod := func(readyAt string, sidecarRestarts float64) *podInfo {
		ready := map[string]any{"type": "Ready", "status": "True"}
		if readyAt != "" {
			ready["lastTransitionTime"] = readyAt
		}
		o := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "p"},
			Fields: fakeapi.FieldsOf(map[string]any{
				"spec": map[string]any{"nodeName": "n", "initContainers": []any{map[string]any{"name": "proxy", "restartPolicy": "Always"}}},
				"status": map[string]any{"phase": podRunning, "conditions": []any{ready},
					"initContainerStatuses": []any{map[string]any{"name": "proxy", "restartCount": sidecarRestarts}}},
			})}
		return newPodInfo(o)
	}
	unknown, known := pod("", 0), pod("2026-01-01T00:00:00Z", 0)
	if !activePodLess(unknown, known) || activePodLess(known, unknown) {
		t.Errorf("a ready Pod of unknown ready time is not ordered before one of a known time")
	}
	more, fewer := pod("2026-01-01T00:00:00Z", 3), pod("2026-01-01T00:00:00Z", 1)
	if !activePodLess(more, fewer) || activePodLess(fewer, more) {
		t.Errorf("the Pod whose sidecar restarted more is not ordered first")
	}
}
