package engine

import (
	"fmt"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// BenchmarkDaemonSetRollout runs a DaemonSet on 200 Nodes with the
// collector and the kubelet: settled until every Node runs its Pod, then a
// changed template rolled out with maxUnavailable 10% (20 Nodes at a
// time) and settled until every Pod is of the new revision (checked).
func BenchmarkDaemonSetRollout(b *testing.B) {
	var steps int
	for b.Loop() {
		steps = runDaemonSetRollout(b, 200)
	}
	b.ReportMetric(float64(steps), "steps/op")
}

// TestDaemonSetRolloutOnTwentyNodes is the benchmark's world on 20 Nodes.
func TestDaemonSetRolloutOnTwentyNodes(t *testing.T) { runDaemonSetRollout(t, 20) }

func runDaemonSetRollout(tb testing.TB, nodes int) int {
	w, err := NewWorld(Config{Controllers: []string{ControllerGC, ControllerDaemonSet, ControllerKubelet}})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range nodes {
		mustDo(tb, w, Create{Object: &fakeapi.Object{APIVersion: "v1", Kind: "Node",
			Metadata: fakeapi.ObjectMeta{Name: fmt.Sprintf("node-%03d", i)}}})
	}
	template := func(image string) map[string]any {
		return map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": "agent"}},
			"spec": map[string]any{"terminationGracePeriodSeconds": float64(1),
				"containers": []any{map[string]any{"name": "c", "image": image}}}}
	}
	mustDo(tb, w, Create{Object: &fakeapi.Object{APIVersion: "apps/v1", Kind: "DaemonSet",
		Metadata: fakeapi.ObjectMeta{Name: "agent", Namespace: "default"},
		Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{
			"selector":       map[string]any{"matchLabels": map[string]any{"app": "agent"}},
			"updateStrategy": map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxUnavailable": "10%"}},
			"template":       template("agent:v1")}})}})
	steps := mustSettle(tb, w).Steps
	ref := fakeapi.Ref{APIVersion: "apps/v1", Kind: "DaemonSet", Namespace: "default", Name: "agent"}
	mustDo(tb, w, Patch{Ref: ref, Merge: []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"agent:v2"}]}}}}`)})
	steps += mustSettle(tb, w).Steps
	pods := 0
	for _, o := range w.Store().Objects() {
		if o.Kind == "Pod" {
			pods++
		}
	}
	ds, err := w.Store().Get("bench", ref)
	if err != nil {
		tb.Fatal(err)
	}
	if n, _ := nestedInt(ds.Fields.Get("status"), "updatedNumberScheduled"); pods != nodes || n != int64(nodes) {
		tb.Fatalf("%d Pods, %d updated, want %d of each", pods, n, nodes)
	}
	return steps
}
