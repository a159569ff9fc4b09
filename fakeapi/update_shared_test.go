package fakeapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// TestUpdateSharedIsUpdate holds UpdateShared to Update: for each update
// below, made on two stores built alike, the shared one stores the same
// object, answers the same, makes the same request and the same watch
// events, and leaves the stored snapshot its object was built from (and
// so every value the two share) as it was.
func TestUpdateSharedIsUpdate(t *testing.T) {
	type setup func(w *world) *Object
	terminating := func(w *world) *Object {
		p := scheduledPod("p")
		p.Metadata.Labels = map[string]string{"app": "web"}
		p.Metadata.Finalizers = []string{"example.com/hold"}
		p.Metadata.OwnerReferences = []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid"}}
		w.create(p)
		w.delete(podRef("p"), nil)
		return w.s.Lookup(podRef("p"))
	}
	running := func(w *world) *Object {
		w.create(scheduledPod("p"))
		return w.s.Lookup(podRef("p"))
	}
	tests := []struct {
		name   string
		setup  setup
		change func(next *Object)
	}{
		{"terminal status of a terminating Pod", terminating, func(next *Object) {
			next.Fields.Set("status", map[string]any{"phase": "Failed", "conditions": []any{map[string]any{"type": "Ready", "status": "False"}}})
		}},
		{"finalizers emptied: the Pod stays for its grace period", terminating, func(next *Object) {
			next.Metadata.Finalizers = nil
		}},
		{"a label added to a running Pod", running, func(next *Object) {
			next.Metadata.Labels = map[string]string{"app": "web", "tier": "front"}
		}},
		{"nothing changed", running, func(*Object) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type result struct {
				stored, answer string
				requests       []string
				events         []string
			}
			run := func(shared bool) (result, *Object, *Object) {
				w := newWorld(t)
				cur := tt.setup(w)
				if cur == nil {
					t.Fatal("no stored Pod")
				}
				before := cur.DeepCopy()
				var reqs []string
				w.s.OnRequest(func(r Request) { reqs = append(reqs, fmt.Sprintf("%+v", r)) })
				n := len(w.events)
				w.clock.Advance(time.Second)
				next := *cur
				next.Fields = cur.Fields.Clone()
				tt.change(&next)
				var out *Object
				var err error
				if shared {
					out, err = w.s.UpdateShared("kubelet", &next)
				} else {
					out, err = w.s.Update("kubelet", &next)
				}
				var r result
				r.answer = fmt.Sprint(err)
				if out != nil {
					r.answer += " " + marshal(t, out)
				}
				if o := w.s.Lookup(podRef("p")); o != nil {
					r.stored = marshal(t, o)
				}
				r.requests = reqs
				r.events = w.since(n)
				return r, before, cur
			}
			plain, _, _ := run(false)
			shared, before, cur := run(true)
			if !reflect.DeepEqual(plain, shared) {
				t.Errorf("UpdateShared differs from Update:\nUpdate:       %+v\nUpdateShared: %+v", plain, shared)
			}
			if !reflect.DeepEqual(before, cur) {
				t.Errorf("UpdateShared changed the snapshot it was built from:\nbefore: %s\nafter:  %s", marshal(t, before), marshal(t, cur))
			}
		})
	}
}

func marshal(t *testing.T, o *Object) string {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
