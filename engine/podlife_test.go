package engine

import (
	"reflect"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestPodIndexMetadataUpdate: an update that keeps a Pod's fields map
// (a deletion's deletionTimestamp, an annotation) reads as a fresh read
// of the new object would, and an update with new fields is read anew.
func TestPodIndexMetadataUpdate(t *testing.T) {
	ctrl := true
	fields := map[string]any{
		"spec": map[string]any{"nodeName": "node-7"},
		"status": map[string]any{"phase": "Running",
			"conditions":        []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}},
			"containerStatuses": []any{map[string]any{"restartCount": float64(3)}}},
	}
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Fields: fields, Metadata: fakeapi.ObjectMeta{
		Name: "web-1", Namespace: "default", UID: "u1",
		OwnerReferences: []fakeapi.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs", Controller: &ctrl}}}}
	x := newPodIndex()
	x.put(pod)

	deleting := *pod
	deleting.Metadata.DeletionTimestamp = &fakeapi.Time{Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
	deleting.Metadata.Annotations = map[string]string{podDeletionCostAnnotation: "-5"}
	got := x.put(&deleting)
	if want := newPodInfo(&deleting); !reflect.DeepEqual(got, want) {
		t.Errorf("metadata update read as %+v, want %+v", *got, *want)
	}
	if !got.terminating || got.cost != -5 || got.nodeName != "node-7" || !got.ready || got.restarts != 3 {
		t.Errorf("metadata update read as %+v", *got)
	}

	failed := deleting
	failed.Fields = map[string]any{"spec": fields["spec"], "status": map[string]any{"phase": "Failed"}}
	got = x.put(&failed)
	if got.phase != "Failed" || got.ready || got.restarts != 0 {
		t.Errorf("an update with new fields kept the old status: %+v", *got)
	}
	if n := len(x.controlledBy("default", "rs")); n != 1 {
		t.Errorf("%d Pods under the ReplicaSet after two updates, want 1", n)
	}
}

// TestPodIndexGrowKeepsPods: growing the index keeps every Pod it holds,
// and Pods put afterwards are found beside them.
func TestPodIndexGrowKeepsPods(t *testing.T) {
	pod := func(name string) *fakeapi.Object {
		return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: name, Namespace: "default", UID: "u-" + name}}
	}
	x := newPodIndex()
	x.put(pod("a"))
	x.grow(100)
	x.put(pod("b"))
	x.remove(pod("c")) // not there: nothing happens
	for _, name := range []string{"a", "b"} {
		if p := x.byKey["default/"+name]; p == nil || p.obj.Metadata.Name != name {
			t.Errorf("%s is not in the index after grow", name)
		}
	}
	if got := len(x.orphansIn("default")); got != 2 || len(x.byKey) != 2 {
		t.Errorf("%d orphans, %d Pods by key; want 2 and 2", got, len(x.byKey))
	}
}
