package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// dumpPresent is the time at which a world restored from objs starts (its
// +0s): the latest moment the objects show to have passed, a creation, a
// deletion asked for (deletionTimestamp less its grace period) or a time
// in a status, or fakeapi.Epoch when that is later. A dump is taken after
// everything it shows; a world started before would meet Pods ready since
// a time to come, and a kubelet waiting out grace periods until then.
func dumpPresent(objs []*fakeapi.Object) time.Time {
	at := fakeapi.Epoch
	later := func(t time.Time) {
		if t.After(at) {
			at = t
		}
	}
	for _, o := range objs {
		m := &o.Metadata
		if m.CreationTimestamp != nil {
			later(m.CreationTimestamp.Time)
		}
		if m.DeletionTimestamp != nil {
			t := m.DeletionTimestamp.Time
			if m.DeletionGracePeriodSeconds != nil {
				t = t.Add(-time.Duration(*m.DeletionGracePeriodSeconds) * time.Second)
			}
			later(t)
		}
		if status, ok := o.Fields.Lookup("status"); ok {
			timesIn(status, later)
		}
	}
	return at
}

// timesIn calls f with every RFC 3339 time among v's strings, at any depth.
func timesIn(v any, f func(time.Time)) {
	switch v := v.(type) {
	case string:
		if len(v) >= len("2006-01-02T15:04:05Z") && v[4] == '-' && v[10] == 'T' {
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				f(t)
			}
		}
	case map[string]any:
		for _, x := range v {
			timesIn(x, f)
		}
	case []any:
		for _, x := range v {
			timesIn(x, f)
		}
	}
}
