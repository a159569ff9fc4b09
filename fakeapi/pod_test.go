package fakeapi

import (
	"encoding/json"
	"testing"
)

// TestCreate_PodIsPendingWithItsQOSClass: podStrategy.PrepareForCreate
// replaces a new Pod's status with phase Pending and the QoS class
// (qos.GetPodQOS: the one the client gave, else ComputePodQOS); the rest
// of the status the client sent is dropped. Each class computed here was
// checked against v1.34.4's SetObjectDefaults_Pod and ComputePodQOS.
func TestCreate_PodIsPendingWithItsQOSClass(t *testing.T) {
	tests := []struct {
		name, spec, status, want string
	}{
		{"no resources", `{"containers":[{"name":"c"}]}`, ``, "BestEffort"},
		{"no containers", `{}`, ``, "BestEffort"},
		{"zero quantities count as none", `{"containers":[{"name":"c","resources":{"requests":{"cpu":"0","memory":"0Mi"}}}]}`, ``, "BestEffort"},
		{"other resources do not count", `{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}`, ``, "BestEffort"},
		{"requests only", `{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]}`, ``, "Burstable"},
		{"limits default the requests", `{"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}`, ``, "Guaranteed"},
		{"equal in other units", `{"containers":[{"name":"c","resources":{"requests":{"cpu":"1000m","memory":"1024Mi"},"limits":{"cpu":1,"memory":"1Gi"}}}]}`, ``, "Guaranteed"},
		{"requests below limits", `{"containers":[{"name":"c","resources":{"requests":{"cpu":"500m","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}]}`, ``, "Burstable"},
		{"only cpu limited", `{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}`, ``, "Burstable"},
		{"one container without limits", `{"containers":[{"name":"a","resources":{"limits":{"cpu":"1","memory":"1Gi"}}},{"name":"b"}]}`, ``, "Burstable"},
		{"init containers count", `{"initContainers":[{"name":"i","resources":{"requests":{"memory":"1M"}}}],"containers":[{"name":"c"}]}`, ``, "Burstable"},
		{"exponent and decimal suffixes", `{"containers":[{"name":"c","resources":{"requests":{"cpu":"1e0","memory":"1k"},"limits":{"cpu":"1","memory":"1000"}}}]}`, ``, "Guaranteed"},
		{"pod-level limits", `{"resources":{"limits":{"cpu":"2","memory":"2Gi"}},"containers":[{"name":"c"}]}`, ``, "Guaranteed"},
		{"pod-level limits, containers request less", `{"resources":{"limits":{"cpu":"2","memory":"2Gi"}},"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}`, ``, "Burstable"},
		{"pod-level requests only", `{"resources":{"requests":{"cpu":"1"}},"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}`, ``, "Burstable"},
		{"pod-level limits and equal requests", `{"resources":{"limits":{"cpu":"2","memory":"2Gi"}},"containers":[{"name":"c","resources":{"requests":{"cpu":"2","memory":"2Gi"}}}]}`, ``, "Guaranteed"},
		{"pod-level limits, an init container needs more", `{"resources":{"limits":{"cpu":"2","memory":"2Gi"}},"initContainers":[{"name":"s","restartPolicy":"Always","resources":{"requests":{"cpu":"1"}}},{"name":"i","resources":{"requests":{"cpu":"2"}}}],"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}`, ``, "Burstable"},
		{"empty pod-level resources hide the containers'", `{"resources":{},"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"}}}]}`, ``, "BestEffort"},
		{"the client's qosClass is kept", `{"containers":[{"name":"c"}]}`, `{"qosClass":"Guaranteed","phase":"Running","podIP":"10.0.0.1"}`, "Guaranteed"},
		{"the rest of the client's status is dropped", `{"containers":[{"name":"c"}]}`, `{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}`, "BestEffort"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			var spec map[string]any
			if err := json.Unmarshal([]byte(tt.spec), &spec); err != nil {
				t.Fatal(err)
			}
			p := obj("v1", "Pod", "default", "p", "spec", spec)
			if tt.status != "" {
				var st map[string]any
				if err := json.Unmarshal([]byte(tt.status), &st); err != nil {
					t.Fatal(err)
				}
				p.Fields.Set("status", st)
			}
			out := w.create(p)
			b, _ := json.Marshal(out.Fields.Get("status"))
			if want := `{"phase":"Pending","qosClass":"` + tt.want + `"}`; string(b) != want {
				t.Errorf("status = %s, want %s", b, want)
			}
		})
	}
}

// TestUpdate_PodStatusIsWrittenAsGiven: gcplay has no status subresource
// for Pods; an update writes the status (the kubelet's report).
func TestUpdate_PodStatusIsWrittenAsGiven(t *testing.T) {
	w := newWorld(t)
	p := w.create(obj("v1", "Pod", "default", "p", "spec", map[string]any{}))
	p.Fields.Set("status", map[string]any{"phase": "Running"})
	out, err := w.s.Update("test", p)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(out.Fields.Get("status")); string(b) != `{"phase":"Running"}` {
		t.Errorf("status = %s", b)
	}
}

func TestParseQuantity(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
		ok   bool
	}{
		{"100m", "1/10", true}, {"1Gi", "1073741824/1", true}, {"1.5Ki", "1536/1", true},
		{"2e3", "2000/1", true}, {"1E-3", "1/1000", true}, {"5n", "1/200000000", true},
		{float64(2), "2/1", true}, {"+1k", "1000/1", true}, {"-1", "-1/1", true},
		{"", "", false}, {"abc", "", false}, {"1..2", "", false}, {"1Xi", "", false}, {".", "", false}, {nil, "", false},
	} {
		got, ok := parseQuantity(tt.in)
		if ok != tt.ok || ok && got.String() != tt.want {
			t.Errorf("parseQuantity(%v) = %v, %t; want %s, %t", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
