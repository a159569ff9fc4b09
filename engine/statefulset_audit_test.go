package engine

import (
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// stsTestPod is a Pod of revision rev, Running and Ready when ready.
func stsTestPod(name, rev string, ready bool) *fakeapi.Object {
	status := map[string]any{"phase": "Pending"}
	if ready {
		status = map[string]any{"phase": "Running", "conditions": []any{
			map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}}}
	}
	return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		Name: name, Namespace: "default", Labels: map[string]string{stsRevisionLabel: rev}},
		Fields: fakeapi.FieldsOf(map[string]any{"status": status})}
}

func stsTestRev(name string) *fakeapi.Object {
	return &fakeapi.Object{APIVersion: "apps/v1", Kind: "ControllerRevision", Metadata: fakeapi.ObjectMeta{Name: name, Namespace: "default"}}
}

// TestStatefulSetCompleteRollingUpdateWantsSpecReplicas: completeRollingUpdate
// compares the updated and ready Pods with spec.replicas, not with the
// Pods that exist: while the set still grows (web-1 not created yet), the
// current revision stays.
func TestStatefulSetCompleteRollingUpdateWantsSpecReplicas(t *testing.T) {
	set := &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "web", Namespace: "default"}}
	s := &stsSync{c: &statefulSetController{env: &env{clock: &virtualClock{}}}, v: stsView{obj: set, replicas: 2}, cur: stsTestRev("web-1"), upd: stsTestRev("web-2")}
	replicas := []stsPod{{obj: stsTestPod("web-0", "web-2", true), created: true}, {obj: stsTestPod("web-1", "web-2", false)}}
	st := s.computeStatus(replicas, nil)
	if st.CurrentRevision != "web-1" || st.UpdatedReplicas != 1 || st.Replicas != 1 {
		t.Fatalf("one of two wanted Pods updated: status %+v, want currentRevision web-1 (the update is not complete)", st)
	}
	replicas[1].created = true
	replicas[1].obj = stsTestPod("web-1", "web-2", true)
	if st := s.computeStatus(replicas, nil); st.CurrentRevision != "web-2" || st.CurrentReplicas != 2 {
		t.Fatalf("both wanted Pods updated and ready: status %+v, want currentRevision web-2, currentReplicas 2", st)
	}
}

// TestStatefulSetPodBelowPartitionIsOfCurrentRevision: newVersionedStatefulSetPod
// makes an ordinal below the partition from the current revision's
// template, labelled with that revision; others from the set's template.
func TestStatefulSetPodBelowPartitionIsOfCurrentRevision(t *testing.T) {
	tmpl := func(image string) map[string]any {
		return map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "db"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": image}}}}
	}
	set := &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "db", Namespace: "default", UID: "u"}}
	cur := stsTestRev("db-old")
	cur.Fields = fakeapi.FieldsOf(map[string]any{"data": revisionData(stsView{template: tmpl("postgres:1")}), "revision": int64(1)})
	upd := stsTestRev("db-new")
	s := &stsSync{c: &statefulSetController{}, v: stsView{obj: set, replicas: 2, partition: 1, template: tmpl("postgres:2")}}
	for ordinal, want := range []struct{ image, rev string }{{"postgres:1", "db-old"}, {"postgres:2", "db-new"}} {
		p := s.newVersionedStatefulSetPod(ordinal, cur, upd)
		cs, _ := nestedSlice(p.Fields.Get("spec"), "containers")
		if got := nestedString(cs[0], "image"); got != want.image {
			t.Errorf("ordinal %d: image %q, want %q", ordinal, got, want.image)
		}
		if got := p.Metadata.Labels[stsRevisionLabel]; got != want.rev {
			t.Errorf("ordinal %d: revision label %q, want %q", ordinal, got, want.rev)
		}
	}
	if nestedString(cur.Fields.Get("data"), "spec", "template", "$patch") != "replace" {
		t.Errorf("the revision's data lost its $patch: it must not be changed")
	}
}

// TestStatefulSetAvailabilityIsIsPodAvailable: isRunningAndAvailable is
// podutil.IsPodAvailable: a Ready condition without lastTransitionTime is
// never available under a minReadySeconds, and the moment
// lastTransitionTime + minReadySeconds itself counts.
func TestStatefulSetAvailabilityIsIsPodAvailable(t *testing.T) {
	clock := &virtualClock{}
	c := &statefulSetController{env: &env{clock: clock}}
	p := stsTestPod("web-0", "r", true)
	noTime := p.DeepCopy()
	noTime.Fields.Set("status", map[string]any{"phase": "Running", "conditions": []any{
		map[string]any{"type": "Ready", "status": "True"}}})
	readyAt, _ := time.Parse(time.RFC3339, "2026-01-01T00:00:00Z")
	clock.now = readyAt.Add(10 * time.Second).Sub(fakeapi.Epoch)
	if !c.isRunningAndAvailable(p, 10) {
		t.Errorf("Ready for exactly minReadySeconds: not available, want available")
	}
	if c.isRunningAndAvailable(p, 11) {
		t.Errorf("Ready for less than minReadySeconds: available")
	}
	if c.isRunningAndAvailable(noTime, 10) {
		t.Errorf("Ready without lastTransitionTime under minReadySeconds 10: available, want not")
	}
	if !c.isRunningAndAvailable(noTime, 0) {
		t.Errorf("Ready without lastTransitionTime, minReadySeconds 0: not available")
	}
}

// TestStatefulSetTerminatingPodIsNoRevisions: computeReplicaStatus counts
// a terminating Pod as a replica, ready and available while it is so, but
// in neither currentReplicas nor updatedReplicas; in range or condemned.
func TestStatefulSetTerminatingPodIsNoRevisions(t *testing.T) {
	set := &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "web", Namespace: "default"}}
	s := &stsSync{c: &statefulSetController{env: &env{clock: &virtualClock{}}}, v: stsView{obj: set, replicas: 2}, cur: stsTestRev("web-1"), upd: stsTestRev("web-2")}
	gone := fakeapi.Time{Time: time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC)}
	terminating := func(p *fakeapi.Object) *fakeapi.Object { p.Metadata.DeletionTimestamp = &gone; return p }
	replicas := []stsPod{
		{obj: terminating(stsTestPod("web-0", "web-1", true)), created: true},
		{obj: stsTestPod("web-1", "web-2", true), created: true},
	}
	condemned := []*fakeapi.Object{terminating(stsTestPod("web-2", "web-2", true))}
	st := s.computeStatus(replicas, condemned)
	if st.Replicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 3 {
		t.Errorf("status %+v: want replicas, readyReplicas and availableReplicas 3 (terminating Pods still count)", st)
	}
	if st.CurrentReplicas != 0 || st.UpdatedReplicas != 1 {
		t.Errorf("status %+v: want currentReplicas 0 and updatedReplicas 1 (a terminating Pod is no revision's)", st)
	}
}

// TestStatefulSetPodCreatedThisSyncCountsNextSync: updateStatefulSet
// counts the replicas slice, where a Pod this sync created is still the
// one newVersionedStatefulSetPod made, without a phase (isCreated is
// false): it is in no count until the next sync reads it from the cache.
func TestStatefulSetPodCreatedThisSyncCountsNextSync(t *testing.T) {
	set := &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "web", Namespace: "default"}}
	s := &stsSync{c: &statefulSetController{env: &env{clock: &virtualClock{}}}, v: stsView{obj: set, replicas: 2}, cur: stsTestRev("web-1"), upd: stsTestRev("web-1")}
	made := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		Name: "web-1", Namespace: "default", Labels: map[string]string{stsRevisionLabel: "web-1"}}}
	s.act("CreatedPod", "created %s", fakeapi.RefOf(made))
	replicas := []stsPod{{obj: stsTestPod("web-0", "web-1", true), created: true}, {obj: made}}
	st := s.computeStatus(replicas, nil)
	if st.Replicas != 1 || st.CurrentReplicas != 1 || st.UpdatedReplicas != 1 {
		t.Errorf("status %+v: want replicas, currentReplicas and updatedReplicas 1 (web-1, created in this sync, counts from the next)", st)
	}
}

// TestStatefulSetOrphanPodUpdateWakesOnlyOnLabelChange: updatePod wakes
// the sets that select an orphan Pod only when its labels (or its
// controller reference) changed, and nothing for an update of the same
// resourceVersion; the set that controls a Pod wakes at any new version.
func TestStatefulSetOrphanPodUpdateWakesOnlyOnLabelChange(t *testing.T) {
	set := &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "web", Namespace: "default", UID: "sts-web"},
		Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}})}
	pod := func(rv string, labels map[string]string, owned bool) *fakeapi.Object {
		p := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "stray", Namespace: "default", ResourceVersion: rv, Labels: labels}}
		if owned {
			p.Metadata.OwnerReferences = []fakeapi.OwnerReference{newControllerRef(set)}
		}
		return p
	}
	web, debug := map[string]string{"app": "web"}, map[string]string{"app": "web", "tier": "debug"}
	for _, tc := range []struct {
		name     string
		old, cur *fakeapi.Object
		want     int
	}{
		{"orphan, status only", pod("1", web, false), pod("2", web, false), 0},
		{"orphan, labels changed", pod("1", web, false), pod("2", debug, false), 1},
		{"orphan, released", pod("1", web, true), pod("2", web, false), 1},
		{"owned, status only", pod("1", web, true), pod("2", web, true), 1},
		{"owned, same resourceVersion", pod("2", web, true), pod("2", web, true), 0},
	} {
		c := &statefulSetController{q: newWorkqueue[string]("statefulset"), sets: map[string]*fakeapi.Object{"default/web": set}, quiet: map[string]bool{}}
		c.updatePod(tc.old, tc.cur)
		if got := c.q.Len(); got != tc.want {
			t.Errorf("%s: %d set(s) queued, want %d", tc.name, got, tc.want)
		}
	}
}

// TestStatefulSetDeletedOrphanPodWakesNoOne: deletePod wakes only the set
// that controls the Pod ("no controller should care about orphans being
// deleted"), and addPod handles a Pod that is already terminating as
// deleted.
func TestStatefulSetDeletedOrphanPodWakesNoOne(t *testing.T) {
	set := &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "web", Namespace: "default", UID: "sts-web"},
		Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}})}
	gone := fakeapi.Time{Time: time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC)}
	pod := func(owned, terminating bool) *fakeapi.Object {
		p := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "web-0", Namespace: "default", Labels: map[string]string{"app": "web"}}}
		if owned {
			p.Metadata.OwnerReferences = []fakeapi.OwnerReference{newControllerRef(set)}
		}
		if terminating {
			p.Metadata.DeletionTimestamp = &gone
		}
		return p
	}
	for _, tc := range []struct {
		name string
		ev   fakeapi.WatchEvent
		want int
	}{
		{"orphan deleted", fakeapi.WatchEvent{Type: fakeapi.Deleted, Object: pod(false, true)}, 0},
		{"owned Pod deleted", fakeapi.WatchEvent{Type: fakeapi.Deleted, Object: pod(true, true)}, 1},
		{"orphan added", fakeapi.WatchEvent{Type: fakeapi.Added, Object: pod(false, false)}, 1},
		{"terminating orphan added", fakeapi.WatchEvent{Type: fakeapi.Added, Object: pod(false, true)}, 0},
		{"terminating owned Pod added", fakeapi.WatchEvent{Type: fakeapi.Added, Object: pod(true, true)}, 1},
	} {
		c := &statefulSetController{q: newWorkqueue[string]("statefulset"), sets: map[string]*fakeapi.Object{"default/web": set}, quiet: map[string]bool{}}
		c.observe(tc.ev)
		if got := c.q.Len(); got != tc.want {
			t.Errorf("%s: %d set(s) queued, want %d", tc.name, got, tc.want)
		}
	}
}

// TestStatefulSetRevisionNameIsHashControllerRevision: the revision of a
// template is named as v1.34.4 names it (db-686d5fffc9 for this template,
// db-686d5fffc8 with collision count 1: recorded from upstream's
// getPatch and HashControllerRevision). When another revision holds the
// first name, CreateControllerRevision counts a collision and takes the
// next; the hash label keeps the first hash, and the status carries the
// count (updateStatefulSet always writes it).
func TestStatefulSetRevisionNameIsHashControllerRevision(t *testing.T) {
	set := func() *fakeapi.Object {
		return &fakeapi.Object{APIVersion: "apps/v1", Kind: "StatefulSet", Metadata: fakeapi.ObjectMeta{Name: "db", Namespace: "default"},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{
				"replicas": 1, "serviceName": "db",
				"selector": map[string]any{"matchLabels": map[string]any{"app": "db"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "db"}},
					"spec": map[string]any{"terminationGracePeriodSeconds": 1,
						"containers": []any{map[string]any{"name": "db", "image": "postgres:16"}}}}}})}
	}
	for _, tc := range []struct {
		taken            bool
		name, label      string
		wantCollisionCnt int64
	}{
		{false, "db-686d5fffc9", "686d5fffc9", 0},
		{true, "db-686d5fffc8", "686d5fffc9", 1},
	} {
		w, err := NewWorld(Config{Controllers: []string{"statefulset"}})
		if err != nil {
			t.Fatal(err)
		}
		if tc.taken {
			other := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ControllerRevision", Metadata: fakeapi.ObjectMeta{
				Name: "db-686d5fffc9", Namespace: "default", Labels: map[string]string{"app": "other"}},
				Fields: fakeapi.FieldsOf(map[string]any{"data": map[string]any{}, "revision": 1})}
			if _, err := w.Do(Create{Object: other}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.Do(Create{Object: set()}); err != nil {
			t.Fatal(err)
		}
		if _, err := SettleQuietly(w, 100); err != nil {
			t.Fatal(err)
		}
		rev, err := w.Store().Get("test", fakeapi.Ref{APIVersion: "apps/v1", Kind: "ControllerRevision", Namespace: "default", Name: tc.name})
		if err != nil {
			t.Fatalf("taken=%v: %v", tc.taken, err)
		}
		if got := rev.Metadata.Labels[revisionHashLabel]; got != tc.label {
			t.Errorf("taken=%v: %s label %s=%q, want %q", tc.taken, tc.name, revisionHashLabel, got, tc.label)
		}
		sts, _ := w.Store().Get("test", fakeapi.RefOf(set()))
		if n, ok := nestedInt(sts.Fields, "status", "collisionCount"); !ok || n != tc.wantCollisionCnt {
			t.Errorf("taken=%v: status.collisionCount %d (set %v), want %d", tc.taken, n, ok, tc.wantCollisionCnt)
		}
		if got := nestedString(sts.Fields, "status", "updateRevision"); got != tc.name {
			t.Errorf("taken=%v: updateRevision %q, want %q", tc.taken, got, tc.name)
		}
	}
}
