package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// fakeView is a world in plain data, for testing the matchers without
// an engine.
type fakeView struct {
	objects  []*fakeapi.Object
	removals []fakeapi.Removal
	events   []fakeapi.Event
	nodes    []engine.NodeView
	queues   map[string][]engine.QueueItem
}

func (v *fakeView) Lookup(ref fakeapi.Ref) *fakeapi.Object {
	for _, o := range v.objects {
		if o.Kind == ref.Kind && o.Metadata.Namespace == ref.Namespace && o.Metadata.Name == ref.Name {
			return o
		}
	}
	return nil
}

func (v *fakeView) ByUID(uid string) *fakeapi.Object {
	for _, o := range v.objects {
		if o.Metadata.UID == uid {
			return o
		}
	}
	return nil
}

func (v *fakeView) Objects() []*fakeapi.Object        { return v.objects }
func (v *fakeView) Removals() []fakeapi.Removal       { return v.removals }
func (v *fakeView) Events() []fakeapi.Event           { return v.events }
func (v *fakeView) Nodes() []engine.NodeView          { return v.nodes }
func (v *fakeView) Queue(n string) []engine.QueueItem { return v.queues[n] }

func (v *fakeView) Node(uid string) (engine.NodeView, bool) {
	for _, n := range v.nodes {
		if n.UID == uid {
			return n, true
		}
	}
	return engine.NodeView{}, false
}

func obj(kind, ns, name, uid string, mod ...func(*fakeapi.Object)) *fakeapi.Object {
	info, _ := fakeapi.NewRegistry().ByKind(kind)
	o := &fakeapi.Object{APIVersion: info.APIVersion, Kind: kind, Metadata: fakeapi.ObjectMeta{Namespace: ns, Name: name, UID: uid}}
	for _, m := range mod {
		m(o)
	}
	return o
}

func terminating(fins ...string) func(*fakeapi.Object) {
	return func(o *fakeapi.Object) {
		o.Metadata.DeletionTimestamp = &fakeapi.Time{Time: fakeapi.Epoch.Add(time.Second)}
		o.Metadata.Finalizers = fins
	}
}

func ownedByRef(kind, name, uid string, controller, block *bool) func(*fakeapi.Object) {
	return func(o *fakeapi.Object) {
		o.Metadata.OwnerReferences = append(o.Metadata.OwnerReferences, fakeapi.OwnerReference{
			APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: controller, BlockOwnerDeletion: block})
	}
}

func labels(kv ...string) func(*fakeapi.Object) {
	return func(o *fakeapi.Object) {
		o.Metadata.Labels = map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			o.Metadata.Labels[kv[i]] = kv[i+1]
		}
	}
}

// world is a small deployment half-way through a foreground deletion.
func world() *fakeView {
	tr := fakeapi.Bool(true)
	return &fakeView{
		objects: []*fakeapi.Object{
			obj("ReplicaSet", "default", "web-6d", "rs-1", terminating("foregroundDeletion")),
			obj("Pod", "default", "web-6d-a", "pod-a", labels("app", "web"), ownedByRef("ReplicaSet", "web-6d", "rs-1", tr, tr)),
			obj("Pod", "default", "web-6d-b", "pod-b", labels("app", "web", "tier", "db"), terminating("example.com/flush"), ownedByRef("ReplicaSet", "web-6d", "rs-1", tr, fakeapi.Bool(false))),
			obj("Pod", "other", "p", "pod-p", ownedByRef("ReplicaSet", "gone", "rs-gone", nil, nil)),
		},
		removals: []fakeapi.Removal{
			{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "old-a"}, UID: "old-a", Seq: 3},
			{Ref: fakeapi.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}, UID: "dep-1", Seq: 7},
			{Ref: fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "old-b"}, UID: "old-b", Seq: 9},
		},
		events: []fakeapi.Event{
			{Object: fakeapi.Ref{Kind: "Pod", Namespace: "other", Name: "p"}, ObjectUID: "pod-p", Type: "Warning", Reason: "OwnerRefInvalidNamespace",
				Message: `ownerRef [apps/v1/ReplicaSet, namespace: other, name: gone, uid: rs-gone] does not exist in namespace "other"`},
		},
		nodes: []engine.NodeView{
			{UID: "owner-1", APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "ghost", Virtual: true},
			{UID: "pod-a", APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "web-6d-a"},
			{UID: "rs-1", APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "web-6d", BeingDeleted: true, DeletingDependents: true},
		},
		queues: map[string][]engine.QueueItem{
			engine.QueueAttemptToDelete: {{Item: "Pod/web-6d-a", UID: "pod-a"}, {Item: "ReplicaSet/web-6d", UID: "rs-1", Waiting: true, Due: 5 * time.Millisecond}},
		},
	}
}

// checks parses an expect body and evaluates it against v.
func checks(t *testing.T, v view, body string) []Check {
	t.Helper()
	src := "name: t\nsteps:\n  - expect:\n" + indent(body, "      ")
	s := mustParse(t, src)
	return s.Steps[0].Expect.evaluate(v)
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// outcome renders checks as "PASS|FAIL line message" lines.
func outcome(cs []Check) string {
	var b strings.Builder
	for _, c := range cs {
		status := "PASS"
		if !c.Passed {
			status = "FAIL"
		}
		b.WriteString(status + " " + c.Message() + "\n")
	}
	return b.String()
}

func TestExpectMatchers(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"exists and absent", `
exists: [ReplicaSet/web-6d, po/web-6d-b, Pod/gone]
absent: [Deployment/web, Pod/web-6d-a, uid:pod-b]`, `
PASS ReplicaSet/web-6d: exists: expected in storage, found terminating, finalizers [foregroundDeletion]
PASS Pod/web-6d-b: exists: expected in storage, found terminating, finalizers [example.com/flush]
FAIL Pod/gone: exists: expected in storage, found absent
PASS Deployment/web: absent: expected absent, found absent
FAIL Pod/web-6d-a: absent: expected absent, found in storage, not terminating
FAIL uid:pod-b: absent: expected absent, found terminating, finalizers [example.com/flush]`},
		{"terminating", `
terminating: [rs/web-6d, Pod/web-6d-a, Pod/nope]
notTerminating: [Pod/web-6d-a, Pod/other/p, Pod/web-6d-b, Pod/nope]`, `
PASS ReplicaSet/web-6d: terminating: expected terminating, found terminating, finalizers [foregroundDeletion]
FAIL Pod/web-6d-a: terminating: expected terminating, found in storage, not terminating
FAIL Pod/nope: terminating: expected terminating, found absent
PASS Pod/web-6d-a: notTerminating: expected in storage, not terminating, found in storage, not terminating
PASS Pod/other/p: notTerminating: expected in storage, not terminating, found in storage, not terminating
FAIL Pod/web-6d-b: notTerminating: expected in storage, not terminating, found terminating, finalizers [example.com/flush]
FAIL Pod/nope: notTerminating: expected in storage, not terminating, found absent`},
		{"finalizers", `
finalizers:
  ReplicaSet/web-6d: [foregroundDeletion]
  Pod/web-6d-a: []
  Pod/web-6d-b: [example.com/flush, example.com/other]
  Pod/nope: []`, `
PASS ReplicaSet/web-6d: finalizers: expected [foregroundDeletion], found [foregroundDeletion]
PASS Pod/web-6d-a: finalizers: expected [], found []
FAIL Pod/web-6d-b: finalizers: expected [example.com/flush example.com/other], found [example.com/flush]
FAIL Pod/nope: finalizers: expected [], found absent`},
		{"ownerReferences", `
ownerReferences:
  Pod/web-6d-a: [rs/web-6d]
  Pod/web-6d-b:
    - {owner: ReplicaSet/web-6d, controller: true, blockOwnerDeletion: true}
  Pod/other/p: [ReplicaSet/other/gone]
  rs/web-6d: []
  Pod/other/q: []`, `
PASS Pod/web-6d-a: ownerReferences: expected [ReplicaSet/web-6d], found [ReplicaSet/web-6d]
FAIL Pod/web-6d-b: ownerReferences: expected [ReplicaSet/web-6d{controller:true,blockOwnerDeletion:true}], found [ReplicaSet/web-6d{controller:true,blockOwnerDeletion:false}]
PASS Pod/other/p: ownerReferences: expected [ReplicaSet/other/gone], found [ReplicaSet/gone]
PASS ReplicaSet/web-6d: ownerReferences: expected [], found []
FAIL Pod/other/q: ownerReferences: expected [], found absent`},
		{"ownerReferences is a set", `
ownerReferences:
  Pod/web-6d-a: []
  Pod/other/p: [ReplicaSet/default/gone]`, `
FAIL Pod/web-6d-a: ownerReferences: expected [], found [ReplicaSet/web-6d]
FAIL Pod/other/p: ownerReferences: expected [ReplicaSet/gone], found [ReplicaSet/gone]`},
		{"deletionOrder holds", `
deletionOrder: [Pod/old-a, Deployment/web, Pod/old-b]`, `
PASS deletionOrder: expected [Pod/old-a Deployment/web Pod/old-b] removed in this order, found [Pod/old-a Deployment/web Pod/old-b]`},
		{"deletionOrder wrong", `
deletionOrder: [Deployment/web, Pod/old-a]`, `
FAIL deletionOrder: expected [Deployment/web Pod/old-a] removed in this order, found [Pod/old-a Deployment/web]`},
		{"deletionOrder not removed", `
deletionOrder: [Pod/old-a, ReplicaSet/web-6d, Pod/never]`, `
FAIL deletionOrder: expected [Pod/old-a ReplicaSet/web-6d Pod/never] removed in this order, found ReplicaSet/web-6d still in storage, Pod/never never removed`},
		{"events", `
events:
  - {object: Pod/other/p, type: Warning, reason: OwnerRefInvalidNamespace, message: 'does not exist in namespace "other"'}
  - {object: uid:pod-p, reason: OwnerRefInvalidNamespace}
  - {object: Pod/other/p, type: Normal}
  - {object: Pod/web-6d-a, reason: Killing}
noEvents: [Pod/web-6d-a, Pod/other/p]`, `
PASS Pod/other/p: events: expected an event with type Warning, reason OwnerRefInvalidNamespace, message containing "does not exist in namespace \"other\"", found [Warning OwnerRefInvalidNamespace "ownerRef [apps/v1/ReplicaSet, namespace: other, name: gone, uid: rs-gone] does not exist in namespace \"other\""]
PASS uid:pod-p: events: expected an event with reason OwnerRefInvalidNamespace, found [Warning OwnerRefInvalidNamespace "ownerRef [apps/v1/ReplicaSet, namespace: other, name: gone, uid: rs-gone] does not exist in namespace \"other\""]
FAIL Pod/other/p: events: expected an event with type Normal, found [Warning OwnerRefInvalidNamespace "ownerRef [apps/v1/ReplicaSet, namespace: other, name: gone, uid: rs-gone] does not exist in namespace \"other\""]
FAIL Pod/web-6d-a: events: expected an event with reason Killing, found none
PASS Pod/web-6d-a: noEvents: expected no events, found none
FAIL Pod/other/p: noEvents: expected no events, found [Warning OwnerRefInvalidNamespace "ownerRef [apps/v1/ReplicaSet, namespace: other, name: gone, uid: rs-gone] does not exist in namespace \"other\""]`},
		{"queues", `
queues:
  attemptToDelete: [Pod/web-6d-a, uid:rs-1]
  attemptToOrphan: []
  graphChanges: [Pod/web-6d-a]`, `
PASS queues.attemptToDelete: expected [Pod/web-6d-a uid:rs-1], found [Pod/web-6d-a ReplicaSet/web-6d]
PASS queues.attemptToOrphan: expected [], found []
FAIL queues.graphChanges: expected [Pod/web-6d-a], found []`},
		{"queue order matters", `
queues:
  attemptToDelete: [ReplicaSet/web-6d, Pod/web-6d-a]`, `
FAIL queues.attemptToDelete: expected [ReplicaSet/web-6d Pod/web-6d-a], found [Pod/web-6d-a ReplicaSet/web-6d]`},
		{"count", `
count:
  - {kind: Pod, equals: 2}
  - {kind: po, selector: "app=web,tier!=db", equals: 1}
  - {kind: Pod, ownedBy: ReplicaSet/web-6d, terminating: false, equals: 1}
  - {kind: Pod, namespace: other, ownedBy: ReplicaSet/other/gone, equals: 1}
  - {kind: Pod, selector: "tier in (db, cache)", equals: 2}
  - {kind: ReplicaSet, terminating: true, equals: 1}`, `
PASS count: expected 2 (Pod in default), found 2 [Pod/web-6d-a Pod/web-6d-b]
PASS count: expected 1 (Pod in default with app=web,tier!=db), found 1 [Pod/web-6d-a]
PASS count: expected 1 (Pod in default owned by ReplicaSet/web-6d not terminating), found 1 [Pod/web-6d-a]
PASS count: expected 1 (Pod in other owned by ReplicaSet/other/gone), found 1 [Pod/other/p]
FAIL count: expected 2 (Pod in default with tier in (db,cache)), found 1 [Pod/web-6d-b]
PASS count: expected 1 (ReplicaSet in default terminating), found 1 [ReplicaSet/web-6d]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.TrimSpace(outcome(checks(t, world(), strings.TrimPrefix(tc.body, "\n"))))
			if want := strings.TrimSpace(tc.want); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestExpectGraph(t *testing.T) {
	got := strings.TrimSpace(outcome(checks(t, world(), `graph:
  uid:owner-1: {virtual: true}
  Deployment/ghost: {virtual: false}
  ReplicaSet/web-6d: {beingDeleted: true, deletingDependents: true}
  Pod/web-6d-a: {beingDeleted: true}
  Pod/web-6d-b: {absent: true}
  uid:pod-a: {absent: true}
  Pod/nope: {}
  uid:rs-1: {}
`)))
	want := strings.TrimSpace(`
PASS uid:owner-1: graph: expected a node with virtual=true, found virtual=true
FAIL Deployment/ghost: graph: expected a node with virtual=false, found virtual=true
PASS ReplicaSet/web-6d: graph: expected a node with beingDeleted=true deletingDependents=true, found beingDeleted=true deletingDependents=true
FAIL Pod/web-6d-a: graph: expected a node with beingDeleted=true, found beingDeleted=false
PASS Pod/web-6d-b: graph: expected no node, found no node
FAIL uid:pod-a: graph: expected no node, found a node {virtual=false beingDeleted=false deletingDependents=false}
FAIL Pod/nope: graph: expected a node, found no node
PASS uid:rs-1: graph: expected a node, found a node {virtual=false beingDeleted=true deletingDependents=true}`)
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestExpectChecksKeepFileOrder: checks come out in the order of their
// lines, whatever the key.
func TestExpectChecksKeepFileOrder(t *testing.T) {
	cs := checks(t, world(), `absent: [Deployment/web]
exists: [Pod/web-6d-a]
count: [{kind: Pod, equals: 2}]
terminating: [ReplicaSet/web-6d]
`)
	var keys []string
	for _, c := range cs {
		keys = append(keys, c.Key)
	}
	if got := strings.Join(keys, " "); got != "absent exists count terminating" {
		t.Errorf("order = %s", got)
	}
}
