package fakeapi

import (
	"testing"
	"time"
)

func TestDelete_R5_DeleteOptionsValidation(t *testing.T) {
	orphan := DeletionPropagation("Orphan")
	bogus := DeletionPropagation("Cascade")
	angled := DeletionPropagation("Side<ways>") // the messages checked on a v1.34.4 apiserver
	tests := []struct {
		name    string
		opts    *DeleteOptions
		wantMsg string
	}{
		{"both orphanDependents and propagationPolicy", &DeleteOptions{OrphanDependents: Bool(true), PropagationPolicy: &orphan},
			`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set`},
		{"unknown policy", &DeleteOptions{PropagationPolicy: &bogus},
			`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Cascade": supported values: "Foreground", "Background", "Orphan", "nil"`},
		{"dryRun other than All", &DeleteOptions{DryRun: []string{"All", "Some"}},
			`DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["All","Some"]: supported values: "All"`},
		{"a policy is shown as JSON", &DeleteOptions{PropagationPolicy: &angled},
			`DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Side\u003cways\u003e": supported values: "Foreground", "Background", "Orphan", "nil"`},
		{"several at once", &DeleteOptions{OrphanDependents: Bool(false), PropagationPolicy: &bogus},
			`DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Invalid value: "Cascade": orphanDependents and deletionPropagation cannot be both set, propagationPolicy: Unsupported value: "Cascade": supported values: "Foreground", "Background", "Orphan", "nil"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.create(configMap("x"))
			n := len(w.events)
			_, err := w.s.Delete("test", cmRef("x"), tt.opts)
			wantStatus(t, err, ReasonInvalid, 422, tt.wantMsg)
			if len(w.events) != n || w.stored(cmRef("x")) == nil {
				t.Errorf("refused delete changed storage: %q", w.since(n))
			}
			// The handler validates before reading the object.
			_, err = w.s.Delete("test", cmRef("missing"), tt.opts)
			wantStatus(t, err, ReasonInvalid, 422, tt.wantMsg)
		})
	}
}

func TestDelete_R11_MissingObjectIsNotFound(t *testing.T) {
	w := newWorld(t)
	_, err := w.s.Delete("test", cmRef("ghost"), nil)
	wantStatus(t, err, ReasonNotFound, 404, `configmaps "ghost" not found`)
	_, err = w.s.Delete("test", Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "ghost"}, nil)
	wantStatus(t, err, ReasonNotFound, 404, `deployments.apps "ghost" not found`)
}

func TestDelete_R12_Preconditions(t *testing.T) {
	w := newWorld(t)
	cm := w.create(configMap("x"))
	_, err := w.s.Delete("test", cmRef("x"), &DeleteOptions{Preconditions: &Preconditions{UID: str("uid-0999")}})
	wantStatus(t, err, ReasonConflict, 409,
		`Operation cannot be fulfilled on ConfigMap "x": the UID in the precondition (uid-0999) does not match the UID in record (uid-0005). The object might have been deleted and then recreated`)
	_, err = w.s.Delete("test", cmRef("x"), &DeleteOptions{Preconditions: &Preconditions{UID: &cm.Metadata.UID, ResourceVersion: str("2")}})
	wantStatus(t, err, ReasonConflict, 409,
		`Operation cannot be fulfilled on ConfigMap "x": the ResourceVersion in the precondition (2) does not match the ResourceVersion in record (5). The object might have been modified`)
	w.create(obj("apps/v1", "ReplicaSet", "default", "rs"))
	_, err = w.s.Delete("test", Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "rs"},
		&DeleteOptions{Preconditions: &Preconditions{UID: str("nope")}})
	wantStatus(t, err, ReasonConflict, 409, `Operation cannot be fulfilled on ReplicaSet.apps "rs": the UID in the precondition (nope)...`)

	res := w.delete(cmRef("x"), &DeleteOptions{Preconditions: &Preconditions{UID: &cm.Metadata.UID, ResourceVersion: &cm.Metadata.ResourceVersion}})
	if !res.Removed {
		t.Error("delete with matching preconditions did not remove the object")
	}
}

func TestDelete_R12_ResourceVersionPreconditionMovesAfterTheWrite(t *testing.T) {
	// An unscheduled pod with grace 0 is written (new resourceVersion) and
	// then removed: the precondition given for the old version still holds.
	w := newWorld(t)
	p := w.create(obj("v1", "Pod", "default", "p"))
	n := len(w.events)
	res := w.delete(podRef("p"), &DeleteOptions{Preconditions: &Preconditions{ResourceVersion: &p.Metadata.ResourceVersion}})
	if !res.Removed {
		t.Fatal("pod not removed")
	}
	wantEvents(t, w.since(n), "MODIFIED Pod/p", "DELETED Pod/p")
}

func TestDelete_R13_PolicyResolution(t *testing.T) {
	orphanDeps := func(b bool) *DeleteOptions { return &DeleteOptions{OrphanDependents: Bool(b)} }
	tests := []struct {
		name       string
		obj        *Object
		opts       *DeleteOptions
		want       []string // finalizers afterwards; nil means removed
		wantRemove bool
	}{
		{"no options, no default: background", configMap("x"), nil, nil, true},
		{"orphanDependents=true", configMap("x"), orphanDeps(true), []string{"orphan"}, false},
		{"orphanDependents=false strips foregroundDeletion", withFinalizers(configMap("x"), "foregroundDeletion", "example.com/a"), orphanDeps(false), []string{"example.com/a"}, false},
		{"Orphan", configMap("x"), policy(DeletePropagationOrphan), []string{"orphan"}, false},
		{"Foreground", configMap("x"), policy(DeletePropagationForeground), []string{"foregroundDeletion"}, false},
		{"Background", withFinalizers(configMap("x"), "orphan", "example.com/a"), policy(DeletePropagationBackground), []string{"example.com/a"}, false},
		{"existing orphan wins over the default", withFinalizers(configMap("x"), "orphan"), nil, []string{"orphan"}, false},
		{"existing foregroundDeletion kept", withFinalizers(configMap("x"), "example.com/a", "foregroundDeletion"), nil, []string{"example.com/a", "foregroundDeletion"}, false},
		{"v1 ReplicationController defaults to orphan", obj("v1", "ReplicationController", "default", "x"), nil, []string{"orphan"}, false},
		{"options beat the default", obj("v1", "ReplicationController", "default", "x"), policy(DeletePropagationBackground), nil, true},
		{"batch/v1 Job defaults to orphan", obj("batch/v1", "Job", "default", "x"), nil, []string{"orphan"}, false},
		{"apps/v1 Deployment defaults to background", obj("apps/v1", "Deployment", "default", "x"), nil, nil, true},
		{"Event never gets a GC finalizer", obj("v1", "Event", "default", "x"), policy(DeletePropagationForeground), nil, true},
		{"Event loses a GC finalizer it carries", withFinalizers(obj("v1", "Event", "default", "x"), "orphan", "example.com/a"), policy(DeletePropagationOrphan), []string{"example.com/a"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.create(tt.obj)
			res := w.delete(ref(tt.obj), tt.opts)
			if res.Removed != tt.wantRemove {
				t.Fatalf("removed = %v, want %v (object %s)", res.Removed, tt.wantRemove, describe(res.Object))
			}
			if !tt.wantRemove {
				wantFinalizers(t, w.stored(ref(tt.obj)), tt.want...)
			}
		})
	}
}

func TestDelete_R14_FinalizerRecomputation(t *testing.T) {
	w := newWorld(t)
	w.create(withFinalizers(configMap("x"), "orphan", "example.com/a", "example.com/b"))
	res := w.delete(cmRef("x"), policy(DeletePropagationForeground))
	wantFinalizers(t, res.Object, "example.com/a", "example.com/b", "foregroundDeletion")

	// Only the set counts: the same set in another order is left as it is.
	w.create(withFinalizers(configMap("y"), "foregroundDeletion", "example.com/a"))
	res = w.delete(cmRef("y"), policy(DeletePropagationForeground))
	wantFinalizers(t, res.Object, "foregroundDeletion", "example.com/a")
}

func TestDelete_R15_DefaultPolicyDependsOnRequestVersion(t *testing.T) {
	reg := NewRegistry()
	for _, k := range []KindInfo{
		{APIVersion: "example.com/v1", Kind: "Widget", Scope: Namespaced, Custom: true, DefaultPolicy: PolicyDeleteDependents},
		{APIVersion: "example.com/v1beta1", Kind: "Widget", Scope: Namespaced, Custom: true, DefaultPolicy: PolicyOrphan},
	} {
		if err := reg.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	w := newWorldWith(t, reg)
	w.create(obj("example.com/v1", "Widget", "default", "a"))
	w.create(obj("example.com/v1", "Widget", "default", "b"))
	res := w.delete(Ref{APIVersion: "example.com/v1beta1", Kind: "Widget", Namespace: "default", Name: "a"}, nil)
	wantFinalizers(t, res.Object, "orphan")
	if res.Object.APIVersion != "example.com/v1beta1" {
		t.Errorf("response apiVersion = %s, want the request's", res.Object.APIVersion)
	}
	if res := w.delete(Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "b"}, nil); !res.Removed {
		t.Errorf("delete through v1 (DeleteDependents default) kept %s", describe(res.Object))
	}
}

func TestDelete_R16_ImmediateRemovalHasNoModifiedEvent(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("x"))
	n := len(w.events)
	res := w.delete(cmRef("x"), nil)
	if !res.Removed || res.Code != 200 || res.Object.Metadata.DeletionTimestamp != nil {
		t.Errorf("result = %+v (%s), want removed, 200, the last state without deletionTimestamp", res, describe(res.Object))
	}
	wantEvents(t, w.since(n), "DELETED ConfigMap/x")
}

func TestDelete_R16_GracefulKindAlwaysWritesFirst(t *testing.T) {
	w := newWorld(t)
	w.create(obj("v1", "Pod", "default", "unscheduled"))
	n := len(w.events)
	res := w.delete(podRef("unscheduled"), &DeleteOptions{GracePeriodSeconds: Int64(0)})
	if !res.Removed {
		t.Fatal("pod with grace 0 and no finalizers was not removed")
	}
	wantEvents(t, w.since(n), "MODIFIED Pod/unscheduled", "DELETED Pod/unscheduled")
	if dt := w.events[n].Object.Metadata.DeletionTimestamp; dt == nil || !dt.Equal(Epoch) {
		t.Errorf("MODIFIED deletionTimestamp = %v, want now", dt)
	}
}

// TestDelete_R18_DeletionStampsAreExact checks the values that Pods
// deleted at one instant share: each Pod gets its own deletion time and
// grace period, however many were deleted before it.
func TestDelete_R18_DeletionStampsAreExact(t *testing.T) {
	w := newWorld(t)
	for _, name := range []string{"a", "b", "c", "d"} {
		w.create(scheduledPod(name))
	}
	a := w.delete(podRef("a"), &DeleteOptions{GracePeriodSeconds: Int64(30)}).Object
	b := w.delete(podRef("b"), &DeleteOptions{GracePeriodSeconds: Int64(30)}).Object
	c := w.delete(podRef("c"), &DeleteOptions{GracePeriodSeconds: Int64(5)}).Object
	w.clock.Advance(time.Second)
	d := w.delete(podRef("d"), &DeleteOptions{GracePeriodSeconds: Int64(5)}).Object
	for _, tt := range []struct {
		o     *Object
		at    time.Time
		grace int64
	}{{a, Epoch.Add(30 * time.Second), 30}, {b, Epoch.Add(30 * time.Second), 30}, {c, Epoch.Add(5 * time.Second), 5}, {d, Epoch.Add(6 * time.Second), 5}} {
		m := tt.o.Metadata
		if m.DeletionTimestamp == nil || !m.DeletionTimestamp.Equal(tt.at) || m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds != tt.grace {
			t.Errorf("%s: deletionTimestamp %v, grace %v; want %v, %d", m.Name, m.DeletionTimestamp, m.DeletionGracePeriodSeconds, tt.at, tt.grace)
		}
	}
}

func TestDelete_R16_PendingGracefulReturnsObjectUnchanged(t *testing.T) {
	w := newWorld(t)
	w.create(scheduledPod("p"))
	first := w.delete(podRef("p"), nil)
	n := len(w.events)
	again := w.delete(podRef("p"), policy(DeletePropagationForeground))
	if again.Removed || again.Object.Metadata.ResourceVersion != first.Object.Metadata.ResourceVersion {
		t.Errorf("re-delete changed the pod: %s", describe(again.Object))
	}
	wantFinalizers(t, again.Object)
	wantEvents(t, w.since(n))
}

func TestDelete_R17_MarkAsDeleting(t *testing.T) {
	w := newWorld(t)
	w.create(withFinalizers(obj("apps/v1", "ReplicaSet", "default", "rs", "spec", map[string]any{}), "example.com/a"))
	w.clock.Advance(10 * time.Second)
	n := len(w.events)
	res := w.delete(Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "rs"}, nil)
	m := res.Object.Metadata
	if res.Removed || m.DeletionTimestamp == nil || !m.DeletionTimestamp.Equal(Epoch.Add(10*time.Second)) ||
		m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds != 0 || m.Generation != 2 {
		t.Errorf("after delete: %s, want deletionTimestamp now, grace 0, generation 2", describe(res.Object))
	}
	wantEvents(t, w.since(n), "MODIFIED ReplicaSet/rs")

	// Deleting again later keeps the earlier deletionTimestamp and the
	// generation; with nothing to change it writes nothing.
	w.clock.Advance(time.Minute)
	n = len(w.events)
	again := w.delete(Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "rs"}, nil)
	if !again.Object.Metadata.DeletionTimestamp.Equal(m.DeletionTimestamp.Time) || again.Object.Metadata.Generation != 2 {
		t.Errorf("re-delete moved things: %s", describe(again.Object))
	}
	wantEvents(t, w.since(n))
}

func TestDelete_R18_PodGracePeriod(t *testing.T) {
	spec := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name   string
		fields []any
		grace  *int64
		want   int64
	}{
		{"default 30", []any{"spec", spec("nodeName", "n1")}, nil, 30},
		{"terminationGracePeriodSeconds", []any{"spec", spec("nodeName", "n1", "terminationGracePeriodSeconds", 45)}, nil, 45},
		{"options win", []any{"spec", spec("nodeName", "n1", "terminationGracePeriodSeconds", 45)}, Int64(5), 5},
		{"unscheduled is 0", []any{"spec", spec("terminationGracePeriodSeconds", 45)}, Int64(5), 0},
		{"Succeeded is 0", []any{"spec", spec("nodeName", "n1"), "status", spec("phase", "Succeeded")}, nil, 0},
		{"Failed is 0", []any{"spec", spec("nodeName", "n1"), "status", spec("phase", "Failed")}, nil, 0},
		{"negative becomes 1", []any{"spec", spec("nodeName", "n1")}, Int64(-7), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			p := obj("v1", "Pod", "default", "p", tt.fields...)
			status, hasStatus := p.Fields.Lookup("status")
			p = w.create(withFinalizers(p, "example.com/hold"))
			if hasStatus {
				// A new Pod is Pending; its status comes after (the
				// kubelet's report).
				p.Fields.Set("status", status)
				if _, err := w.s.Update("test", p); err != nil {
					t.Fatal(err)
				}
			}
			res := w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: tt.grace})
			m := res.Object.Metadata
			if m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds != tt.want ||
				!m.DeletionTimestamp.Equal(Epoch.Add(time.Duration(tt.want)*time.Second)) {
				t.Errorf("grace %v, deletionTimestamp %v; want %d s", jsonValue(m.DeletionGracePeriodSeconds), m.DeletionTimestamp, tt.want)
			}
		})
	}
}

func TestDelete_R18_OnlyAShorterGraceShortens(t *testing.T) {
	w := newWorld(t)
	w.create(scheduledPod("p"))
	w.delete(podRef("p"), nil) // grace 30, due at +30s
	w.clock.Advance(10 * time.Second)
	n := len(w.events)
	for _, g := range []int64{30, 60} {
		if res := w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: Int64(g)}); *res.Object.Metadata.DeletionGracePeriodSeconds != 30 {
			t.Errorf("grace %d changed the pending deletion: %s", g, describe(res.Object))
		}
	}
	wantEvents(t, w.since(n))
	res := w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: Int64(25)})
	if m := res.Object.Metadata; *m.DeletionGracePeriodSeconds != 25 || !m.DeletionTimestamp.Equal(Epoch.Add(25*time.Second)) {
		t.Errorf("after a shorter grace: %s, want grace 25 due at +25s", describe(res.Object))
	}
	res = w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: Int64(0)})
	if !res.Removed {
		t.Errorf("grace 0 did not remove the pod")
	}
}

// TestDelete_R18_ShorterGraceNeverMovesIntoThePast: a shorter grace whose
// deletionTimestamp would lie in the past is due now instead, with grace
// 1 (0 stays 0), as a v1.34.4 apiserver answered (rest.BeforeDelete).
func TestDelete_R18_ShorterGraceNeverMovesIntoThePast(t *testing.T) {
	for _, tt := range []struct{ grace, want int64 }{{5, 1}, {0, 0}} {
		w := newWorld(t)
		w.create(withFinalizers(scheduledPod("p"), "example.com/hold"))
		w.delete(podRef("p"), nil) // grace 30, due at +30s
		w.clock.Advance(10 * time.Second)
		res := w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: Int64(tt.grace)})
		if m := res.Object.Metadata; *m.DeletionGracePeriodSeconds != tt.want || !m.DeletionTimestamp.Equal(Epoch.Add(10*time.Second)) {
			t.Errorf("grace %d at +10s: %s, want grace %d due at +10s", tt.grace, describe(res.Object), tt.want)
		}
	}
}

func TestDelete_R18_NothingRemovesATerminatingPod(t *testing.T) {
	w := newWorld(t)
	w.create(scheduledPod("p"))
	w.delete(podRef("p"), nil)
	w.clock.Advance(time.Hour)
	if _, err := w.s.Get("test", podRef("p")); err != nil {
		t.Errorf("the pod left without a kubelet: %v", err)
	}
}

func TestDelete_R19_RedeleteSwitchesPolicy(t *testing.T) {
	rsRef := Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "rs"}
	t.Run("Foreground then Orphan swaps the finalizer", func(t *testing.T) {
		w := newWorld(t)
		w.create(obj("apps/v1", "ReplicaSet", "default", "rs"))
		first := w.delete(rsRef, policy(DeletePropagationForeground))
		w.clock.Advance(time.Minute)
		res := w.delete(rsRef, policy(DeletePropagationOrphan))
		wantFinalizers(t, res.Object, "orphan")
		if !res.Object.Metadata.DeletionTimestamp.Equal(first.Object.Metadata.DeletionTimestamp.Time) {
			t.Errorf("deletionTimestamp moved to %v", res.Object.Metadata.DeletionTimestamp)
		}
	})
	t.Run("no options keep the GC finalizer", func(t *testing.T) {
		w := newWorld(t)
		w.create(obj("apps/v1", "ReplicaSet", "default", "rs"))
		w.delete(rsRef, policy(DeletePropagationForeground))
		wantFinalizers(t, w.delete(rsRef, nil).Object, "foregroundDeletion")
	})
	t.Run("Background removes at once when nothing else holds it", func(t *testing.T) {
		w := newWorld(t)
		w.create(obj("apps/v1", "ReplicaSet", "default", "rs"))
		w.delete(rsRef, policy(DeletePropagationForeground))
		n := len(w.events)
		if res := w.delete(rsRef, policy(DeletePropagationBackground)); !res.Removed {
			t.Fatalf("not removed: %s", describe(res.Object))
		}
		wantEvents(t, w.since(n), "DELETED ReplicaSet/rs")
	})
	t.Run("a second Foreground re-adds foregroundDeletion", func(t *testing.T) {
		w := newWorld(t)
		w.create(withFinalizers(obj("apps/v1", "ReplicaSet", "default", "rs"), "example.com/a"))
		w.delete(rsRef, policy(DeletePropagationForeground))
		w.mergePatch(rsRef, `{"metadata":{"finalizers":["example.com/a"]}}`) // the GC removes it
		wantFinalizers(t, w.delete(rsRef, policy(DeletePropagationForeground)).Object, "example.com/a", "foregroundDeletion")
	})
	t.Run("a pod with a pending grace period ignores the new policy", func(t *testing.T) {
		w := newWorld(t)
		w.create(scheduledPod("p"))
		w.delete(podRef("p"), policy(DeletePropagationForeground))
		wantFinalizers(t, w.delete(podRef("p"), policy(DeletePropagationOrphan)).Object, "foregroundDeletion")
	})
	t.Run("a pod deleted with grace 0 switches like any object", func(t *testing.T) {
		w := newWorld(t)
		w.create(scheduledPod("p"))
		w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: Int64(0), PropagationPolicy: policy(DeletePropagationForeground).PropagationPolicy})
		wantFinalizers(t, w.delete(podRef("p"), policy(DeletePropagationOrphan)).Object, "orphan")
	})
}

func TestDelete_R20_StatusCode(t *testing.T) {
	tests := []struct {
		name string
		obj  *Object
		opts *DeleteOptions
		want int
	}{
		{"removed, orphanDependents=false", configMap("x"), &DeleteOptions{OrphanDependents: Bool(false)}, 200},
		{"kept, orphanDependents=false", withFinalizers(configMap("x"), "example.com/a"), &DeleteOptions{OrphanDependents: Bool(false)}, 202},
		{"kept, orphanDependents=true", configMap("x"), &DeleteOptions{OrphanDependents: Bool(true)}, 200},
		{"kept, Foreground", configMap("x"), policy(DeletePropagationForeground), 200},
		{"terminating pod, orphanDependents=false", scheduledPod("x"), &DeleteOptions{OrphanDependents: Bool(false)}, 202},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.create(tt.obj)
			var codes []int
			w.s.OnRequest(func(r Request) { codes = append(codes, r.Code) })
			if res := w.delete(ref(tt.obj), tt.opts); res.Code != tt.want {
				t.Errorf("code = %d, want %d", res.Code, tt.want)
			}
			if len(codes) != 1 || codes[0] != tt.want {
				t.Errorf("request record codes = %v, want [%d]", codes, tt.want)
			}
		})
	}
}

func TestDelete_R21_DryRunWritesNothing(t *testing.T) {
	tests := []struct {
		name        string
		obj         *Object
		opts        DeleteOptions
		wantFinal   []string
		wantDeleted bool // the response says it would be gone
	}{
		{"would remove", configMap("x"), DeleteOptions{}, nil, true},
		{"would mark foreground", configMap("x"), DeleteOptions{PropagationPolicy: policy(DeletePropagationForeground).PropagationPolicy}, []string{"foregroundDeletion"}, false},
		{"would start a grace period", scheduledPod("x"), DeleteOptions{}, nil, false},
		{"would write then remove a pod", obj("v1", "Pod", "default", "x"), DeleteOptions{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			before := w.create(tt.obj)
			stored := w.stored(ref(tt.obj))
			n := len(w.events)
			opts := tt.opts
			opts.DryRun = []string{"All"}
			res := w.delete(ref(tt.obj), &opts)
			if res.Removed || len(w.events) != n || w.stored(ref(tt.obj)) != stored || len(w.s.Removals()) != 0 {
				t.Fatalf("dry run changed storage: result %+v, events %q", res, w.since(n))
			}
			wantFinalizers(t, res.Object, tt.wantFinal...)
			if res.Object.Metadata.ResourceVersion != before.Metadata.ResourceVersion {
				t.Errorf("dry run resourceVersion = %s, want %s", res.Object.Metadata.ResourceVersion, before.Metadata.ResourceVersion)
			}
			if !tt.wantDeleted && res.Object.Metadata.DeletionTimestamp == nil {
				t.Errorf("dry run result has no deletionTimestamp: %s", describe(res.Object))
			}
			// A real delete afterwards starts from the untouched object.
			if real := w.delete(ref(tt.obj), &tt.opts); real.Removed != tt.wantDeleted {
				t.Errorf("real delete removed = %v, want %v", real.Removed, tt.wantDeleted)
			}
		})
	}
}

// TestDelete_R18_NegativeStoredGraceCountsAsOne: BeforeDelete treats a
// stored negative deletionGracePeriodSeconds (only a restored object can
// hold one) as 1: a pending deletion answers with 1 and stores nothing,
// and the kubelet's grace-0 delete shortens it and removes the Pod.
func TestDelete_R18_NegativeStoredGraceCountsAsOne(t *testing.T) {
	w := newWorld(t)
	p := scheduledPod("p")
	p.Metadata.UID = "pod-uid"
	p.Metadata.CreationTimestamp = &Time{Epoch}
	p.Metadata.DeletionTimestamp = &Time{Epoch.Add(10 * time.Second)}
	p.Metadata.DeletionGracePeriodSeconds = Int64(-5)
	if err := w.s.Restore(p); err != nil {
		t.Fatal(err)
	}
	res := w.delete(podRef("p"), nil)
	if g := res.Object.Metadata.DeletionGracePeriodSeconds; g == nil || *g != 1 || res.Removed {
		t.Errorf("pending delete: grace %v, removed %t; want 1, not removed", jsonValue(g), res.Removed)
	}
	if g := w.s.Lookup(podRef("p")).Metadata.DeletionGracePeriodSeconds; g == nil || *g != -5 {
		t.Errorf("stored grace %v, want -5 kept", jsonValue(g))
	}
	if res := w.delete(podRef("p"), &DeleteOptions{GracePeriodSeconds: Int64(0)}); !res.Removed {
		t.Errorf("grace-0 delete did not remove the Pod: %s", describe(res.Object))
	}
}
