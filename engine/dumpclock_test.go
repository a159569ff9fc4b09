package engine

import (
	"testing"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestDumpPresent: a restored world starts at the latest moment its
// objects show to have passed, and never before fakeapi.Epoch.
func TestDumpPresent(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	obj := func(created string, status map[string]any) *fakeapi.Object {
		o := &fakeapi.Object{}
		if created != "" {
			o.Metadata.CreationTimestamp = &fakeapi.Time{Time: at(created)}
		}
		if status != nil {
			o.Fields.Set("status", status)
		}
		return o
	}
	grace := int64(30)
	deleting := obj("2026-11-25T09:00:00Z", nil)
	deleting.Metadata.DeletionTimestamp = &fakeapi.Time{Time: at("2026-11-25T10:00:30Z")}
	deleting.Metadata.DeletionGracePeriodSeconds = &grace
	for _, c := range []struct {
		name string
		objs []*fakeapi.Object
		want time.Time
	}{
		{"no objects", nil, fakeapi.Epoch},
		{"created before the epoch", []*fakeapi.Object{obj("2025-06-01T00:00:00Z", nil)}, fakeapi.Epoch},
		{"created after it", []*fakeapi.Object{obj("2026-03-01T00:00:00Z", nil), obj("2026-02-01T00:00:00Z", nil)}, at("2026-03-01T00:00:00Z")},
		{"a deletion asked for: its timestamp less its grace period", []*fakeapi.Object{deleting}, at("2026-11-25T10:00:00Z")},
		{"a time deep in a status", []*fakeapi.Object{obj("2026-02-01T00:00:00Z", map[string]any{
			"phase":      "Running",
			"conditions": []any{map[string]any{"type": "Ready", "lastTransitionTime": "2026-11-20T10:00:00Z"}},
			"containerStatuses": []any{map[string]any{"state": map[string]any{
				"running": map[string]any{"startedAt": "2026-11-20T09:59:58Z"}}}},
			"message": "2026-12-31 is not a time here",
		})}, at("2026-11-20T10:00:00Z")},
	} {
		if got := dumpPresent(c.objs); !got.Equal(c.want) {
			t.Errorf("%s: dumpPresent = %s, want %s", c.name, got, c.want)
		}
	}
}
