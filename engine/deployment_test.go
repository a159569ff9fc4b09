package engine

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

func deploymentYAML(name string, replicas int, extra string) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: %s}
spec:
  replicas: %d
%s  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: "nginx:1.27"}]}
`, name, replicas, extra)
}

func deployRef(name string) fakeapi.Ref {
	return fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: name}
}

func setImage(image string) []byte {
	return []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"` + image + `"}]}}}}`)
}

// replicaSetsOf returns the ReplicaSets whose controller is the named
// Deployment, by name.
func replicaSetsOf(w *World, deployment string) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, o := range w.Store().Objects() {
		if ref := controllerOf(o); isKind(o, "apps/v1", "ReplicaSet") && ref != nil && ref.Kind == "Deployment" && ref.Name == deployment {
			out = append(out, o)
		}
	}
	return out
}

// TestDeploymentPodTemplateHash checks that the hash is stable across
// runs, written in the safe-encoding alphabet, independent of key order,
// and changed by the collision count.
func TestDeploymentPodTemplateHash(t *testing.T) {
	tmpl := manifest(t, deploymentYAML("web", 1, "")).Fields.Get("spec").(map[string]any)["template"].(map[string]any)
	h := podTemplateHash(tmpl, nil)
	if h != "6f5954ff8d" {
		t.Fatalf("hash %q changed: ReplicaSet names in lessons and tests would change with it", h)
	}
	for _, r := range h {
		if !strings.ContainsRune(safeEncoding, r) {
			t.Fatalf("%q is not in the safe-encoding alphabet", r)
		}
	}
	if podTemplateHash(copyJSONMap(tmpl), nil) != h {
		t.Fatal("a copy of the template must hash alike")
	}
	if podTemplateHash(tmpl, fakeapi.Int64(1)) == h {
		t.Fatal("collisionCount must change the hash")
	}
	// ComputeHash writes the collision count into an 8-byte buffer, the
	// low four bytes little-endian and four zero bytes after them.
	if got := podTemplateHash(tmpl, fakeapi.Int64(1)); got != "79d6b49465" {
		t.Fatalf("hash with collisionCount 1 is %q, want 79d6b49465 (FNV-32a over the JSON, then 01 00 00 00 00 00 00 00)", got)
	}
	withHash := copyJSONMap(tmpl)
	withHash["metadata"].(map[string]any)["labels"].(map[string]any)[podTemplateHashLabel] = h
	if !equalIgnoreHash(tmpl, withHash) {
		t.Fatal("EqualIgnoreHash must ignore the pod-template-hash label")
	}
}

// TestDeploymentRollingUpdate checks a rolling update step by step: the
// graph invariant holds, the ReplicaSets never want more than
// replicas+maxSurge Pods, the ready Pods never drop below
// replicas-maxUnavailable once the first rollout is done, and after three updates revisionHistoryLimit old
// ReplicaSets are left, each with its revision.
func TestDeploymentRollingUpdate(t *testing.T) {
	const replicas, surge, unavailable, limit = 4, 1, 1, 2
	w := newTestWorld(t)
	mustDo(t, w, Create{Object: manifest(t, deploymentYAML("web", replicas,
		fmt.Sprintf("  revisionHistoryLimit: %d\n  strategy: {rollingUpdate: {maxSurge: %d, maxUnavailable: %d}}\n", limit, surge, unavailable)))})
	checkedSettle(t, w)
	check := func(when string) {
		t.Helper()
		var wanted, available int64
		for _, rs := range replicaSetsOf(w, "web") {
			wanted += rsReplicas(rs)
			pods, _ := podsOf(w, "ReplicaSet", rs.Metadata.Name)
			for _, p := range pods {
				if info := newPodInfo(p); info.active() && info.ready {
					available++
				}
			}
		}
		// maxSurge bounds the ReplicaSets' spec.replicas, not live Pods:
		// a new ReplicaSet may create Pods before an old one deletes its.
		if wanted > replicas+surge {
			t.Fatalf("%s: the ReplicaSets want %d Pods, more than replicas+maxSurge %d", when, wanted, replicas+surge)
		}
		if available < replicas-unavailable {
			t.Fatalf("%s: %d available Pods, below replicas-maxUnavailable %d", when, available, replicas-unavailable)
		}
	}
	for i, image := range []string{"nginx:1.28", "nginx:1.29", "nginx:1.30"} {
		mustDo(t, w, Patch{Ref: deployRef("web"), Merge: setImage(image)})
		for steps := 0; ; steps++ {
			if steps > 100000 {
				t.Fatal("the rollout did not settle")
			}
			if w.Idle() {
				due, ok := w.NextDue()
				if !ok || due-w.Elapsed() > 5*60*1e9 {
					break // only the progress-deadline recheck is left
				}
				mustDo(t, w, Advance{D: due - w.Elapsed()})
				continue
			}
			if _, err := w.Do(Step{}); err != nil {
				t.Fatal(err)
			}
			if err := w.CheckGraphInvariants(); err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("update %d, step %d", i+1, steps))
		}
		d := w.Store().Lookup(deployRef("web"))
		if got := d.Metadata.Annotations[revisionAnnotation]; got != fmt.Sprint(i+2) {
			t.Fatalf("revision %q after update %d", got, i+1)
		}
	}
	checkedSettle(t, w)
	var revs []string
	for _, rs := range replicaSetsOf(w, "web") {
		revs = append(revs, rs.Metadata.Annotations[revisionAnnotation]+"="+fmt.Sprint(rsReplicas(rs)))
	}
	slices.Sort(revs)
	if got := strings.Join(revs, " "); got != "2=0 3=0 4=4" {
		t.Fatalf("ReplicaSets revision=replicas: %s, want the current one and %d old ones", got, limit)
	}
	st := w.Store().Lookup(deployRef("web")).Fields.Get("status")
	for _, f := range []string{"replicas", "updatedReplicas", "readyReplicas", "availableReplicas"} {
		if n, _ := nestedInt(st, f); n != replicas {
			t.Fatalf("status.%s = %d", f, n)
		}
	}
}

// TestDeploymentDeletePolicies deletes a Deployment with each policy.
func TestDeploymentDeletePolicies(t *testing.T) {
	setup := func(t *testing.T) (*World, string) {
		w := newTestWorld(t)
		mustDo(t, w, Create{Object: manifest(t, deploymentYAML("web", 3, ""))})
		checkedSettle(t, w)
		rss := replicaSetsOf(w, "web")
		if len(rss) != 1 {
			t.Fatalf("%d ReplicaSets", len(rss))
		}
		return w, rss[0].Metadata.Name
	}
	del := func(t *testing.T, w *World, p fakeapi.DeletionPropagation) {
		mustDo(t, w, Delete{Ref: deployRef("web"), Options: &fakeapi.DeleteOptions{PropagationPolicy: &p}})
		checkedSettle(t, w)
	}
	t.Run("Orphan", func(t *testing.T) {
		w, rs := setup(t)
		del(t, w, fakeapi.DeletePropagationOrphan)
		if w.Store().Lookup(deployRef("web")) != nil {
			t.Fatal("the Deployment must be gone")
		}
		o := w.Store().Lookup(rsRef(rs))
		if o == nil || len(o.Metadata.OwnerReferences) != 0 {
			t.Fatalf("the ReplicaSet must stay, orphaned: %v", o)
		}
		if pods, term := podsOf(w, "ReplicaSet", rs); len(pods) != 3 || term != 0 {
			t.Fatalf("%d Pods (%d terminating) must stay", len(pods), term)
		}
		mustDo(t, w, Create{Object: manifest(t, deploymentYAML("web-again", 3, ""))})
		checkedSettle(t, w)
		if got := replicaSetsOf(w, "web-again"); len(got) != 1 || got[0].Metadata.Name != rs {
			t.Fatalf("the new Deployment must adopt %s, got %v", rs, got)
		}
		if pods, _ := podsOf(w, "ReplicaSet", rs); len(pods) != 3 {
			t.Fatalf("adoption must keep the 3 Pods, got %d", len(pods))
		}
	})
	t.Run("Background", func(t *testing.T) {
		w, rs := setup(t)
		del(t, w, fakeapi.DeletePropagationBackground)
		for _, o := range w.Store().Objects() {
			if isKind(o, "v1", "Pod") || isKind(o, "apps/v1", "ReplicaSet") || isKind(o, "apps/v1", "Deployment") {
				t.Fatalf("%s is left", o)
			}
		}
		if w.Store().Lookup(rsRef(rs)) != nil {
			t.Fatal("the ReplicaSet must be gone")
		}
	})
	t.Run("Foreground", func(t *testing.T) {
		w, rs := setup(t)
		del(t, w, fakeapi.DeletePropagationForeground)
		var order []string
		for _, r := range w.Store().Removals() {
			if r.Ref.Kind != "Event" {
				order = append(order, r.Ref.Kind)
			}
		}
		if got := strings.Join(order, ","); got != "Pod,Pod,Pod,ReplicaSet,Deployment" {
			t.Fatalf("removal order %s: the chain must unwind from the Pods up", got)
		}
		_ = rs
	})
}

// TestDeploymentTraceDeterministic checks that a rollout gives a
// byte-identical trace twice.
func TestDeploymentTraceDeterministic(t *testing.T) {
	run := func() string {
		w := newTestWorld(t)
		mustDo(t, w, Create{Object: manifest(t, deploymentYAML("web", 3, ""))})
		var b strings.Builder
		for _, r := range checkedSettle(t, w).Records {
			b.WriteString(r.Detail())
		}
		mustDo(t, w, Patch{Ref: deployRef("web"), Merge: setImage("nginx:1.28")})
		for _, r := range checkedSettle(t, w).Records {
			b.WriteString(r.Detail())
		}
		return b.String()
	}
	if a, b := run(), run(); a != b {
		t.Fatal("two runs of the same actions gave different traces")
	}
}

// BenchmarkDeploymentScaleUp10k scales a settled Deployment from 0 to
// 10,000 replicas and settles: the ReplicaSet creates the Pods in
// slow-start batches of at most 500 per sync, the kubelet binds and starts
// each, and the collector observes every event.
func BenchmarkDeploymentScaleUp10k(b *testing.B) {
	var steps int
	for b.Loop() {
		b.StopTimer()
		w, err := NewWorld(Config{})
		if err != nil {
			b.Fatal(err)
		}
		mustDo(b, w, Create{Object: manifest(b, deploymentYAML("web", 0, ""))})
		mustSettle(b, w)
		runtime.GC()
		b.StartTimer()
		mustDo(b, w, Patch{Ref: deployRef("web"), Merge: []byte(`{"spec":{"replicas":10000}}`)})
		res := mustSettle(b, w)
		steps = res.Steps
		b.StopTimer()
		st := w.Store().Lookup(deployRef("web")).Fields.Get("status")
		if n, _ := nestedInt(st, "availableReplicas"); n != 10000 {
			b.Fatalf("%d available replicas after settling", n)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(steps), "steps")
}

// TestReplicaSetFractionAnnotation checks getReplicaSetFraction's reading
// of the max-replicas annotation: a value that is not a whole number from
// 0 to MaxInt32, or is 0, falls back to status.replicas, and to no share
// at all when that is 0 too (never a division by zero).
func TestReplicaSetFractionAnnotation(t *testing.T) {
	d := &deployment{replicas: 6, strategy: strategyRecreate}
	cases := []struct {
		annotation     string
		statusReplicas int64
		want           int64
	}{
		{annotation: "3", want: 6 - 3}, // 3 * 6 / 3 - 3
		{annotation: "0", want: 0},     // no status either: no share
		{annotation: "-2", want: 0},    // not a whole number: as absent
		{annotation: "+3", want: 0},    // a sign is not taken
		{annotation: "0", statusReplicas: 6, want: 0},
		{annotation: "-2", statusReplicas: 2, want: 9 - 3},
		{annotation: "", statusReplicas: 2, want: 9 - 3},
	}
	for _, c := range cases {
		rs := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Metadata: fakeapi.ObjectMeta{Name: "rs",
			Annotations: map[string]string{}},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"replicas": int64(3)}})}
		if c.annotation != "" {
			rs.Metadata.Annotations[maxReplicasAnnotation] = c.annotation
		}
		d.status.Replicas = c.statusReplicas
		if got := replicaSetFraction(rs, d); got != c.want {
			t.Errorf("max-replicas %q, status.replicas %d: fraction %d, want %d", c.annotation, c.statusReplicas, got, c.want)
		}
	}
}

// TestDeploymentOldScaleDownFailureNotRetried checks reconcileOldReplicaSets'
// handling of a failed scale-down of an old ReplicaSet: as upstream, the
// error is dropped, the sync goes on to the rollout status and returns
// none, so the key is not retried with backoff for it.
func TestDeploymentOldScaleDownFailureNotRetried(t *testing.T) {
	w := newTestWorld(t)
	mustDo(t, w, Create{Object: manifest(t, deploymentYAML("web", 2, "  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n"))})
	checkedSettle(t, w)
	old := replicaSetsOf(w, "web")
	if len(old) != 1 {
		t.Fatalf("%d ReplicaSets", len(old))
	}
	mustDo(t, w, Inject{Fault: fakeapi.Fault{Verb: "update", Kind: "ReplicaSet", Name: old[0].Metadata.Name,
		Reason: fakeapi.ReasonInternalError, Times: 1000}})
	mustDo(t, w, Patch{Ref: deployRef("web"), Merge: setImage("nginx:1.28")})
	failed := 0
	for steps := 0; steps < 2000 && failed == 0; steps++ {
		if w.Idle() {
			due, ok := w.NextDue()
			if !ok {
				break
			}
			mustDo(t, w, Advance{D: due - w.Elapsed()})
			continue
		}
		rec, err := w.Do(Step{})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Actor == ControllerDeployment && strings.Contains(English(rec.Reason.Texts), "scaling "+old[0].String()+" to 1 failed") {
			failed++
			if rec.Err != "" {
				t.Fatalf("the sync returned an error after a failed scale-down of an old ReplicaSet: %s\n%s", rec.Err, English(rec.Reason.Texts))
			}
		}
	}
	if failed == 0 {
		t.Fatal("no Deployment sync met the failed scale-down")
	}
}

// TestDeploymentFailedRSCreateEvent checks the Event of a failed create
// of the new ReplicaSet: upstream's getNewReplicaSet records it with
// reason ReplicaSetCreateError (FailedRSCreateReason), the reason of the
// Progressing condition, not FailedCreate.
func TestDeploymentFailedRSCreateEvent(t *testing.T) {
	w := newTestWorld(t)
	mustDo(t, w, Inject{Fault: fakeapi.Fault{Verb: "create", Kind: "ReplicaSet", Reason: fakeapi.ReasonInternalError}})
	mustDo(t, w, Create{Object: manifest(t, deploymentYAML("web", 1, ""))})
	for i := 0; i < 100 && !w.Idle(); i++ {
		mustDo(t, w, Step{})
	}
	var reasons []string
	for _, e := range w.Store().Events() {
		if e.Type == "Warning" && e.Object.Kind == "Deployment" {
			reasons = append(reasons, e.Reason)
		}
	}
	if len(reasons) == 0 || reasons[0] != reasonFailedRSCreate {
		t.Fatalf("Warning Events of the Deployment: %v, want %s first", reasons, reasonFailedRSCreate)
	}
}

// TestDeploymentAnnotationsNotCopied checks annotationsToSkip: the new
// ReplicaSet gets the Deployment's annotations except the ones upstream
// keeps to the Deployment, deprecated.deployment.rollback.to among them.
func TestDeploymentAnnotationsNotCopied(t *testing.T) {
	w := newTestWorld(t)
	d := manifest(t, deploymentYAML("web", 1, ""))
	d.Metadata.Annotations = map[string]string{"team": "a", "deprecated.deployment.rollback.to": "0",
		lastAppliedAnnotation: "{}"}
	mustDo(t, w, Create{Object: d})
	checkedSettle(t, w)
	rss := replicaSetsOf(w, "web")
	if len(rss) != 1 {
		t.Fatalf("%d ReplicaSets", len(rss))
	}
	a := rss[0].Metadata.Annotations
	if a["team"] != "a" {
		t.Fatalf("annotations %v: team=a not copied", a)
	}
	for _, k := range []string{"deprecated.deployment.rollback.to", lastAppliedAnnotation} {
		if _, ok := a[k]; ok {
			t.Fatalf("annotations %v: %s copied", a, k)
		}
	}
}

// TestIsSaturatedAnnotation checks isSaturated's reading of the
// desired-replicas annotation against upstream's IsSaturated: strconv.Atoi
// (a 64-bit int), compared after a conversion to int32, so a value past
// the int32 range wraps; no annotation, or one that is not a whole number,
// is not saturated.
func TestIsSaturatedAnnotation(t *testing.T) {
	d := &deployment{replicas: 3}
	cases := []struct {
		annotation string
		absent     bool
		want       bool
	}{
		{annotation: "3", want: true},
		{annotation: "+3", want: true},
		{annotation: "4294967299", want: true},  // 2^32 + 3: int32 3
		{annotation: "2147483651", want: false}, // 2^31 + 3: int32 -2147483645
		{annotation: "4", want: false},
		{annotation: "3.0", want: false},
		{annotation: "", want: false},
		{absent: true, want: false},
		{annotation: "9223372036854775811", want: false}, // past int64: Atoi fails
	}
	for _, c := range cases {
		rs := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Metadata: fakeapi.ObjectMeta{Name: "rs",
			Annotations: map[string]string{}},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"replicas": int64(3)},
				"status": map[string]any{"availableReplicas": int64(3)}})}
		if !c.absent {
			rs.Metadata.Annotations[desiredReplicasAnnotation] = c.annotation
		}
		if got := isSaturated(d, rs); got != c.want {
			t.Errorf("desired-replicas %q (absent %v): saturated %v, want %v", c.annotation, c.absent, got, c.want)
		}
	}
}

// TestRecreateDeletePodListsReplicaSetsBySelector checks the Deployment
// controller's deletePod for a Recreate Deployment against upstream's: the
// Pods counted are those of the ReplicaSets ListReplicaSets returns, which
// lists them by the Deployment's selector before keeping those it
// controls. A ReplicaSet it controls whose labels its selector does not
// match is not listed, so that set's Pod does not hold back the wake-up
// when the last Pod of the other set is deleted.
func TestRecreateDeletePodListsReplicaSetsBySelector(t *testing.T) {
	w := newTestWorld(t, ControllerDeployment)
	mustDo(t, w, Create{Object: manifest(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, uid: d-web}
spec:
  replicas: 1
  strategy: {type: Recreate}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`)})
	for _, rs := range []struct{ name, app string }{{"web-a", "web"}, {"web-b", "other"}} {
		mustDo(t, w, Create{Object: manifest(t, `
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: `+rs.name+`
  namespace: default
  uid: rs-`+rs.name+`
  labels: {app: `+rs.app+`}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d-web, controller: true}]
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`)})
	}
	pods := map[string]*fakeapi.Object{}
	for _, rs := range []string{"web-a", "web-b"} {
		pods[rs] = manifest(t, `
apiVersion: v1
kind: Pod
metadata:
  name: `+rs+`-1
  namespace: default
  labels: {app: web}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: `+rs+`, uid: rs-`+rs+`, controller: true}]
spec: {containers: [{name: c, image: nginx}]}
`)
		mustDo(t, w, Create{Object: pods[rs]})
	}
	dc, ok := w.queueOwner(ControllerDeployment).(*deploymentController)
	if !ok {
		t.Fatal("no deployment controller")
	}
	for dc.q.Len() > 0 {
		k, _ := dc.q.Get()
		dc.q.Done(k)
	}
	// The informers see web-a-1 go (its kubelet's removal, say).
	w.dispatch(fakeapi.WatchEvent{Type: fakeapi.Deleted, Object: w.Store().Lookup(fakeapi.RefOf(pods["web-a"]))})
	if dc.q.Len() != 1 {
		t.Fatalf("after the last Pod of web-a went, %d Deployments queued; want Deployment/web (web-b's labels do not match its selector, so its Pod is not counted)", dc.q.Len())
	}
}
