package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestTerminalStatusOfAPodWithoutStartTime: a restored Pod that says it
// is Running but not since when (no startTime, no containerStatuses, as a
// hand-written dump has it) ends with its container terminated and a
// startedAt of null, as the API writes a zero time; an empty string is not
// a time, and a real apiserver refuses a Pod carrying one.
func TestTerminalStatusOfAPodWithoutStartTime(t *testing.T) {
	grace := int64(30)
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		Name: "p", Namespace: "default", UID: "uid-p",
		CreationTimestamp:          &fakeapi.Time{Time: fakeapi.Epoch.Add(-time.Hour)},
		DeletionTimestamp:          &fakeapi.Time{Time: fakeapi.Epoch.Add(-time.Minute)},
		DeletionGracePeriodSeconds: &grace,
		Finalizers:                 []string{"example.com/hold"},
	}}
	pod.Fields.Set("spec", map[string]any{"nodeName": "node-1", "containers": []any{map[string]any{"name": "c", "image": "nginx"}}})
	pod.Fields.Set("status", map[string]any{"phase": "Running"})
	w, err := NewWorld(Config{Controllers: []string{"kubelet"}, Restore: []*fakeapi.Object{pod}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SettleQuietly(w, 1000); err != nil {
		t.Fatal(err)
	}
	got, err := w.Store().Get("test", fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(got.Fields.Get("status"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"phase":"Failed"`) || !strings.Contains(s, `"startedAt":null`) || strings.Contains(s, `At":""`) || strings.Contains(s, `Time":""`) {
		t.Errorf("status = %s, want phase Failed, the container terminated with startedAt null and no empty time", s)
	}
}
