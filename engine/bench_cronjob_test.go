package engine

import (
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// BenchmarkCronJobWeek runs a CronJob that fires every minute for a
// virtual week (10,080 schedules), with the collector, the Job controller
// and the kubelet: each minute the clock advances to the next schedule,
// the new Job's Pod runs, and its containers exit 0, so the Job completes
// and successfulJobsHistoryLimit 3 deletes the oldest Job, whose Pod the
// collector then deletes. The world is settled at the end; 3 finished Jobs
// and the running one are left, with their Pods.
func BenchmarkCronJobWeek(b *testing.B) {
	var steps int
	for b.Loop() {
		steps = runCronJobMinutes(b, 7*24*60)
	}
	b.ReportMetric(float64(steps), "steps/op")
}

// TestCronJobHistoryOverAnHour is the benchmark's world for an hour.
func TestCronJobHistoryOverAnHour(t *testing.T) { runCronJobMinutes(t, 60) }

func runCronJobMinutes(b testing.TB, minutes int) int {
	steps := 0
	{
		w, err := NewWorld(Config{Controllers: []string{ControllerGC, ControllerCronJob, ControllerJob, ControllerKubelet}})
		if err != nil {
			b.Fatal(err)
		}
		cj := &fakeapi.Object{APIVersion: "batch/v1", Kind: "CronJob", Metadata: fakeapi.ObjectMeta{Name: "tick", Namespace: "default"},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{
				"schedule": "* * * * *", "successfulJobsHistoryLimit": float64(3),
				"jobTemplate": map[string]any{"spec": map[string]any{"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": "tick"}},
					"spec":     map[string]any{"restartPolicy": "Never", "containers": []any{map[string]any{"name": "c", "image": "busybox"}}}}}}}})}
		mustDo(b, w, Create{Object: cj})
		sel := &appIs{"tick"}
		for range minutes {
			res, err := AdvanceQuietly(w, time.Minute, 1_000_000)
			if err != nil {
				b.Fatal(err)
			}
			steps += res.Steps
			if _, err := w.Do(Exit{Selector: sel}); err != nil && !fakeapi.IsNotFound(err) {
				b.Fatal(err)
			}
		}
		steps += mustSettle(b, w).Steps
		jobs, pods := 0, 0
		for _, o := range w.Store().Objects() {
			switch o.Kind {
			case "Job":
				jobs++
			case "Pod":
				pods++
			}
		}
		if jobs != 4 || pods != 4 {
			for _, o := range w.Store().Objects() {
				if line := jobLine(w, o); line != "" {
					b.Log(line)
				}
			}
			b.Fatalf("after %d minutes: %d Jobs and %d Pods, want 4 and 4 (3 kept by the history limit, 1 running)", minutes, jobs, pods)
		}
	}
	return steps
}

// appIs is the selector app=<name>.
type appIs struct{ name string }

func (a *appIs) Matches(l map[string]string) bool { return l["app"] == a.name }
func (a *appIs) String() string                   { return "app=" + a.name }
