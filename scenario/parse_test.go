package scenario

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// parseErrors parses src as t.yaml and returns its error lines.
func parseErrors(t *testing.T, src string) []string {
	t.Helper()
	s, err := Parse("t.yaml", []byte(src))
	if err == nil {
		t.Fatalf("Parse accepted the file: %+v", s)
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error is %T, want ErrorList: %v", err, err)
	}
	return strings.Split(err.Error(), "\n")
}

func mustParse(t *testing.T, src string) *Scenario {
	t.Helper()
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty file", ``, []string{
			`t.yaml:1: the file is empty: a scenario needs at least a name`}},
		{"not a mapping", "- a\n- b\n", []string{
			`t.yaml:1: a scenario is a mapping with name, objects and steps; found a list`}},
		{"yaml syntax", "name: \"a\n", []string{
			`t.yaml:1: invalid YAML: found unexpected end of stream`}},
		{"two documents", "name: a\n---\nname: b\n", []string{
			`t.yaml:2: a scenario file holds one YAML document; remove the second one (---)`}},
		{"missing name", "description: x\n", []string{
			`t.yaml:1: missing required key "name"`}},
		{"bad name", "name: Two_Owners\n", []string{
			`t.yaml:1: name: "Two_Owners" must match [a-z0-9-]+`}},
		{"name not a string", "name: [a]\n", []string{
			`t.yaml:1: name: expected a string, found a list`}},
		{"unknown top-level key", "name: a\nstep: []\n", []string{
			`t.yaml:2: unknown key "step" (did you mean "steps"?)`}},
		{"duplicate key", "name: a\nname: b\n", []string{
			`t.yaml:2: duplicate key "name"`}},
		{"kinds entry", `name: a
kinds:
  - {apiVersion: example.com/v1, kind: Widget, scope: Namespaced, plural: widgets}
  - {apiVersion: example.com/v1, kind: Gadget}
  - {apiVersion: example.com/v1, kind: Gizmo, scope: Global}
  - {apiVersion: v1, kind: Pod, scope: Namespaced}
`, []string{
			`t.yaml:3: kinds[0]: unknown key "plural"`,
			`t.yaml:4: kinds[1]: missing required key "scope"`,
			`t.yaml:5: kinds[2].scope: scope must be Namespaced or Cluster, found "Global"`,
			`t.yaml:6: kinds[3]: v1 Pod is already served`,
		}},
		{"controllers", "name: a\ncontrollers: [garbagecolector, kubelet, kubelet]\n", []string{
			`t.yaml:2: controllers[0]: unknown controller "garbagecolector" (did you mean "garbagecollector"?) (gcplay has ` + strings.Join(engine.AllControllers(), ", ") + `)`,
			`t.yaml:2: controllers[2]: controller "kubelet" is listed twice`,
		}},
		{"manifest without apiVersion, kind, metadata", "name: a\nobjects:\n  - data: {a: b}\n", []string{
			`t.yaml:3: objects[0]: missing required key "apiVersion"`,
			`t.yaml:3: objects[0]: missing required key "kind"`,
			`t.yaml:3: objects[0]: missing required key "metadata"`,
		}},
		{"manifest without name", `name: a
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {labels: {app: web}}
`, []string{
			`t.yaml:5: objects[0].metadata: missing name (or generateName)`,
		}},
		{"unknown kind", `name: a
objects:
  - {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}
  - {apiVersion: v1, kind: ConfigMaps, metadata: {name: c}}
  - {apiVersion: apps/v1, kind: deploy, metadata: {name: d}}
`, []string{
			`t.yaml:3: objects[0].kind: unknown kind "Widget": not built in and not declared under kinds`,
			`t.yaml:4: objects[1].kind: kind "ConfigMaps": a manifest names the kind exactly, "ConfigMap"`,
			`t.yaml:5: objects[2].kind: kind "deploy": a manifest names the kind exactly, "Deployment"`,
		}},
		{"apiVersion not served", `name: a
objects:
  - apiVersion: extensions/v1beta1
    kind: Deployment
    metadata: {name: web}
`, []string{
			`t.yaml:3: objects[0].apiVersion: apiVersion "extensions/v1beta1" does not serve Deployment (served: apps/v1)`,
		}},
		{"namespace on a cluster-scoped kind", `name: a
objects:
  - apiVersion: v1
    kind: Namespace
    metadata:
      name: other
      namespace: default
`, []string{
			`t.yaml:7: objects[0].metadata.namespace: Namespace is cluster-scoped: remove namespace`,
		}},
		{"metadata keys and types", `name: a
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
      labels: {app: 1}
      finalizers: example.com/x
      creationTimestamp: yesterday
      selfLink: /api/v1/x
`, []string{
			`t.yaml:7: objects[0].metadata.labels.app: expected a string, found 1`,
			`t.yaml:8: objects[0].metadata.finalizers: expected a list, found the string "example.com/x"`,
			`t.yaml:9: objects[0].metadata.creationTimestamp: expected an RFC 3339 time such as 2026-01-01T00:00:00Z, found "yesterday"`,
			`t.yaml:10: objects[0].metadata: unknown key "selfLink"`,
		}},
		{"ownerReferences", `name: a
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
      ownerReferences:
        - {apiVersion: v1, kind: Secret}
        - {apiVersion: example.com/v1, kind: Widget, name: w}
        - {apiVersion: apps/v1beta2, kind: Deployment, name: d}
        - {apiVersion: v1, kind: Secret, name: s, uid: u-1, blockOwnerDeletion: yes, colour: red}
        - {apiVersion: example.com/v1, kind: Widget, name: w, uid: u-2}
`, []string{
			`t.yaml:8: objects[0].metadata.ownerReferences[0]: missing name: an ownerReference without uid needs apiVersion, kind and name to find its owner`,
			`t.yaml:9: objects[0].metadata.ownerReferences[1]: unknown owner kind "Widget": not built in and not declared under kinds; declare it or give a uid`,
			`t.yaml:10: objects[0].metadata.ownerReferences[2]: apiVersion "apps/v1beta2" does not serve Deployment (served: apps/v1), so no owner can be found for it; fix it or give a uid`,
			`t.yaml:11: objects[0].metadata.ownerReferences[3].blockOwnerDeletion: expected true or false, found the string "yes"`,
			`t.yaml:11: objects[0].metadata.ownerReferences[3]: unknown key "colour"`,
		}},
		{"step with no action key", "name: a\nsteps:\n  - propagationPolicy: Orphan\n", []string{
			`t.yaml:3: steps[0]: a step needs one action key (create, delete, patch, step, settle, advance, restart, inject, expect, exit, rolloutUndo); found none`,
		}},
		{"step with a misspelt action key", "name: a\nsteps:\n  - setle: {}\n", []string{
			`t.yaml:3: steps[0]: unknown key "setle" (did you mean "settle"?)`,
			`t.yaml:3: steps[0]: a step needs one action key (create, delete, patch, step, settle, advance, restart, inject, expect, exit, rolloutUndo); found none`,
		}},
		{"step with two action keys", "name: a\nsteps:\n  - settle: {}\n    delete: cm/x\n", []string{
			`t.yaml:4: steps[0]: a step has exactly one action key; found "settle" and "delete"`,
		}},
		{"step not a mapping", "name: a\nsteps:\n  - settle\n", []string{
			`t.yaml:3: steps[0]: a step is a mapping with one action key (create, delete, patch, step, settle, advance, restart, inject, expect, exit, rolloutUndo); found the string "settle"`,
		}},
		{"option of another action", "name: a\nsteps:\n  - delete: cm/x\n    merge: {}\n  - expect: {}\n    expectError: NotFound\n", []string{
			`t.yaml:4: steps[0]: "merge" is not an option of a delete step (it takes propagationPolicy, orphanDependents, gracePeriodSeconds, preconditions, dryRun, expectError)`,
			`t.yaml:6: steps[1]: "expectError" is not an option of an expect step (it takes no options)`,
		}},
		{"unknown step option", "name: a\nsteps:\n  - delete: cm/x\n    propagation: Orphan\n", []string{
			`t.yaml:4: steps[0]: unknown key "propagation"`,
		}},
		{"bad references", `name: a
steps:
  - delete: cm
  - delete: cm/a/b/c
  - delete: Widget/w
  - delete: ns/default/x
  - delete: "uid:"
  - patch: cm/x y
    merge: {}
`, []string{
			`t.yaml:3: steps[0].delete: invalid reference "cm": write Kind/name, Kind/namespace/name or uid:<uid>`,
			`t.yaml:4: steps[1].delete: invalid reference "cm/a/b/c": write Kind/name, Kind/namespace/name or uid:<uid>`,
			`t.yaml:5: steps[2].delete: unknown kind "Widget": not built in and not declared under kinds`,
			`t.yaml:6: steps[3].delete: invalid reference "ns/default/x": Namespace is cluster-scoped, write Namespace/x`,
			`t.yaml:7: steps[4].delete: invalid reference "uid:": uid:<uid> needs a uid without spaces or slashes`,
			`t.yaml:8: steps[5].patch: invalid reference "cm/x y": write Kind/name, Kind/namespace/name or uid:<uid>`,
		}},
		{"delete option types", `name: a
steps:
  - delete: cm/x
    propagationPolicy: 3
    orphanDependents: "true"
    gracePeriodSeconds: 1.5
    preconditions: {uid: u, generation: 2}
    dryRun: All
`, []string{
			`t.yaml:4: steps[0].propagationPolicy: expected a string, found 3`,
			`t.yaml:5: steps[0].orphanDependents: expected true or false, found the string "true"`,
			`t.yaml:6: steps[0].gracePeriodSeconds: expected an integer, found 1.5`,
			`t.yaml:7: steps[0].preconditions: unknown key "generation"`,
			`t.yaml:8: steps[0].dryRun: expected true, false or a list such as [All], found the string "All"`,
		}},
		{"patch", "name: a\nsteps:\n  - patch: cm/x\n  - patch: cm/x\n    merge: [1]\n", []string{
			`t.yaml:3: steps[0]: a patch step needs merge: {...}, the JSON merge patch`,
			`t.yaml:5: steps[1].merge: expected a mapping (the JSON merge patch), found a list`,
		}},
		{"step and settle", `name: a
steps:
  - step: 0
  - step: two
  - step: 1
    queue: attemptToDelet
  - settle: {maxStep: 10}
  - settle: {maxSteps: 0}
  - settle: 5
`, []string{
			`t.yaml:3: steps[0].step: the number of work items must be at least 1, found 0`,
			`t.yaml:4: steps[1].step: expected an integer, found the string "two"`,
			`t.yaml:6: steps[2].queue: unknown queue "attemptToDelet" (did you mean "attemptToDelete"?) (queues: ` + strings.Join(engine.AllQueues(), ", ") + `)`,
			`t.yaml:7: steps[3].settle: unknown key "maxStep" (did you mean "maxSteps"?)`,
			`t.yaml:8: steps[4].settle.maxSteps: maxSteps must be at least 1, found 0`,
			`t.yaml:9: steps[5].settle: expected a mapping, found 5`,
		}},
		{"durations", "name: a\nsteps:\n  - advance: 30\n  - advance: 2 minutes\n  - advance: -1s\n", []string{
			`t.yaml:3: steps[0].advance: expected a string, found 30`,
			`t.yaml:4: steps[1].advance: invalid duration "2 minutes": write a number with a unit, such as 30s, 2m or 1h30m`,
			`t.yaml:5: steps[2].advance: the duration must be positive, found "-1s"`,
		}},
		{"restart", "name: a\ncontrollers: [garbagecollector]\nsteps:\n  - restart: kubelet\n  - restart: replicaset\n", []string{
			`t.yaml:4: steps[0].restart: cannot restart "kubelet": restart takes ` + strings.Join(engine.RestartableControllers(), ", "),
			`t.yaml:5: steps[1].restart: controller "replicaset" does not run in this scenario (controllers: [garbagecollector])`,
		}},
		{"inject", `name: a
steps:
  - inject: {verb: gte, object: Pods, error: Nope, times: 0}
  - inject: {verb: get, object: Widget}
  - inject: {verb: get, object: po/x, error: Conflict, when: now}
`, []string{
			`t.yaml:3: steps[0].inject.verb: unknown verb "gte" (did you mean "get"?) (verbs: get, list, create, update, patch, delete)`,
			`t.yaml:3: steps[0].inject.error: unknown reason "Nope"`,
			`t.yaml:3: steps[0].inject.times: times must be at least 1, found 0`,
			`t.yaml:4: steps[1].inject: missing required key "error"`,
			`t.yaml:4: steps[1].inject.object: unknown kind "Widget": not built in and not declared under kinds`,
			`t.yaml:5: steps[2].inject: unknown key "when"`,
		}},
		{"expectError", "name: a\nsteps:\n  - delete: cm/x\n    expectError: NotFund\n", []string{
			`t.yaml:4: steps[0].expectError: unknown reason "NotFund" (did you mean "NotFound"?)`,
		}},
		{"expect keys", `name: a
steps:
  - expect:
      absnt: [Pod/x]
      exists: Pod/x
      terminating: [Pod/a/b/c]
      finalizers: {Pod/x: foregroundDeletion}
      ownerReferences:
        Pod/x: [{ownr: rs/web}]
        Pod/y: [{controller: true}]
`, []string{
			`t.yaml:4: steps[0].expect: unknown key "absnt" (did you mean "absent"?)`,
			`t.yaml:5: steps[0].expect.exists: expected a list, found the string "Pod/x"`,
			`t.yaml:6: steps[0].expect.terminating[0]: invalid reference "Pod/a/b/c": write Kind/name, Kind/namespace/name or uid:<uid>`,
			`t.yaml:7: steps[0].expect.finalizers[Pod/x]: expected a list, found the string "foregroundDeletion"`,
			`t.yaml:9: steps[0].expect.ownerReferences[Pod/x][0]: missing required key "owner"`,
			`t.yaml:9: steps[0].expect.ownerReferences[Pod/x][0]: unknown key "ownr" (did you mean "owner"?)`,
			`t.yaml:10: steps[0].expect.ownerReferences[Pod/y][0]: missing required key "owner"`,
		}},
		{"expect events, graph, queues", `name: a
steps:
  - expect:
      events:
        - {type: Warning}
        - {object: Pod/x, reasn: X}
      graph:
        Pod/x: {virtual: yes}
        uid:u1: {absent: true, virtual: false}
        Podd/x: {}
      queues:
        attemptToDelete: [Pod/x]
        atemptToOrphan: []
`, []string{
			`t.yaml:5: steps[0].expect.events[0]: missing required key "object"`,
			`t.yaml:6: steps[0].expect.events[1]: unknown key "reasn" (did you mean "reason"?)`,
			`t.yaml:8: steps[0].expect.graph[Pod/x].virtual: expected true or false, found the string "yes"`,
			`t.yaml:9: steps[0].expect.graph[uid:u1]: absent: true cannot be combined with flags of the node`,
			`t.yaml:10: steps[0].expect.graph: unknown kind "Podd" (did you mean "Pod"?): not built in and not declared under kinds`,
			`t.yaml:13: steps[0].expect.queues: unknown queue "atemptToOrphan" (did you mean "attemptToOrphan"?) (queues: ` + strings.Join(engine.AllQueues(), ", ") + `)`,
		}},
		{"expect count", `name: a
steps:
  - expect:
      count:
        - {namespace: default}
        - {kind: Pod, selector: "app in ()", equals: -1}
        - {kind: Namespace, namespace: x, equals: 1}
        - {kind: Pod, ownedBy: rs, equals: 1, where: x}
        - {kind: Pod, selector: "tier>3", equals: 1}
`, []string{
			`t.yaml:5: steps[0].expect.count[0]: missing required key "kind"`,
			`t.yaml:5: steps[0].expect.count[0]: missing required key "equals"`,
			`t.yaml:6: steps[0].expect.count[1].selector: invalid selector "app in ()": a set needs values, none of them empty`,
			`t.yaml:6: steps[0].expect.count[1].equals: equals must be a count, found -1`,
			`t.yaml:7: steps[0].expect.count[2].namespace: Namespace is cluster-scoped: remove namespace`,
			`t.yaml:8: steps[0].expect.count[3].ownedBy: invalid reference "rs": write Kind/name, Kind/namespace/name or uid:<uid>`,
			`t.yaml:8: steps[0].expect.count[3]: unknown key "where"`,
			`t.yaml:9: steps[0].expect.count[4].selector: invalid selector "tier>3": unsupported operator (use =, ==, !=, in, notin, key or !key)`,
		}},
		{"alias bomb", `name: a
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: c}
    data:
      a: &a [x,x,x,x,x,x,x,x,x,x]
      b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
      c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
      d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
      e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
      f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
      g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
steps:
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: d}, data: *g}
`, []string{
			`t.yaml:7: aliases expand the document past 131544 nodes, 131072 more than a file of this size holds without them`,
		}},
		{"alias loop", "name: a\nobjects:\n  - &o {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: [*o]}\n", []string{
			`t.yaml:3: the document is nested more than 200 levels deep once aliases are expanded`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseErrors(t, tc.src)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestParseCollectsEveryError checks that one file's errors are all
// reported, in line order, whatever part of the file they are in.
func TestParseCollectsEveryError(t *testing.T) {
	got := parseErrors(t, `steps:
  - expect: {absnt: []}
objects:
  - {apiVersion: v1, kind: Pod}
kinds:
  - {apiVersion: example.com/v1, kind: Widget, scope: Both}
`)
	want := []string{
		`t.yaml:1: missing required key "name"`,
		`t.yaml:2: steps[0].expect: unknown key "absnt" (did you mean "absent"?)`,
		`t.yaml:4: objects[0]: missing required key "metadata"`,
		`t.yaml:6: kinds[0].scope: scope must be Namespaced or Cluster, found "Both"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseDoesNotValidateOptionValues: values the apiserver validates
// (an unknown propagation policy, an odd dryRun) are its business.
func TestParseDoesNotValidateOptionValues(t *testing.T) {
	s := mustParse(t, `name: a
steps:
  - delete: cm/x
    propagationPolicy: Sideways
    orphanDependents: true
    dryRun: [Some]
    expectError: Invalid
`)
	o := s.Steps[0].DeleteOptions
	if *o.PropagationPolicy != "Sideways" || !*o.OrphanDependents || strings.Join(o.DryRun, ",") != "Some" {
		t.Errorf("options = %+v", o)
	}
	if s.Steps[0].ExpectError != fakeapi.ReasonInvalid {
		t.Errorf("expectError = %q", s.Steps[0].ExpectError)
	}
}

func TestParseManifests(t *testing.T) {
	s := mustParse(t, `name: manifests
kinds:
  - {apiVersion: example.com/v1, kind: Widget, scope: Namespaced}
  - {apiVersion: example.com/v1, kind: Realm, scope: Cluster}
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: c
      labels: {app: web}
      finalizers: [example.com/hold]
    data: {percent: "40", enabled: "true"}
  - apiVersion: v1
    kind: Node
    metadata: {name: n1}
  - apiVersion: example.com/v1
    kind: Widget
    metadata:
      generateName: w-
      namespace: other
      ownerReferences:
        - {apiVersion: v1, kind: ConfigMap, name: c, controller: true, blockOwnerDeletion: false}
        - {apiVersion: example.com/v1, kind: Realm, name: r, uid: r-1}
    spec: {size: 3, ratio: 0.5, tags: [a, b], nothing: null}
  - {apiVersion: example.com/v1, kind: Realm, metadata: {name: r}}
`)
	if len(s.Kinds) != 2 || !s.Kinds[0].Custom || s.Kinds[1].Scope != fakeapi.Cluster {
		t.Errorf("kinds = %+v", s.Kinds)
	}
	if s.Controllers != nil {
		t.Errorf("controllers = %#v, want nil (all)", s.Controllers)
	}
	cm, node, w, realm := s.Objects[0].Object, s.Objects[1].Object, s.Objects[2].Object, s.Objects[3].Object
	if cm.Metadata.Namespace != "default" || node.Metadata.Namespace != "" || w.Metadata.Namespace != "other" || realm.Metadata.Namespace != "" {
		t.Errorf("namespaces: %q %q %q %q", cm.Metadata.Namespace, node.Metadata.Namespace, w.Metadata.Namespace, realm.Metadata.Namespace)
	}
	if got := cm.Fields.Get("data").(map[string]any)["enabled"]; got != "true" {
		t.Errorf("data.enabled = %#v, want the string", got)
	}
	spec := w.Fields.Get("spec").(map[string]any)
	if spec["size"] != float64(3) || spec["ratio"] != 0.5 || spec["nothing"] != nil || len(spec["tags"].([]any)) != 2 {
		t.Errorf("spec = %#v", spec)
	}
	refs := w.Metadata.OwnerReferences
	if len(refs) != 2 || refs[0].UID != "" || !refs[0].IsController() || refs[0].BlockOwnerDeletion == nil || refs[0].Blocks() || refs[1].UID != "r-1" {
		t.Errorf("ownerReferences = %+v", refs)
	}
	if s.Objects[2].Line != 16 || s.Objects[2].Path != "objects[2]" {
		t.Errorf("manifest position = %d %q", s.Objects[2].Line, s.Objects[2].Path)
	}
}

func TestParseSteps(t *testing.T) {
	s := mustParse(t, `name: steps
controllers: []
steps:
  - create: {apiVersion: v1, kind: Secret, metadata: {name: s, namespace: other}}
    expectError: NotFound
  - delete: deploy/other/web
    propagationPolicy: Foreground
    gracePeriodSeconds: 0
    preconditions: {uid: u-1, resourceVersion: "7"}
    dryRun: true
  - delete: uid:u-9
    dryRun: false
  - patch: po/p
    merge: {metadata: {finalizers: null, labels: {a: "1"}}}
  - step: 3
    queue: attemptToOrphan
  - settle: {}
  - settle: {maxSteps: 50}
  - advance: 1m30s
  - inject: {verb: delete, object: Pod, error: ServiceUnavailable}
  - inject: {verb: get, object: cm/kube-system/c, error: Forbidden, times: 2}
  - expect: {}
`)
	if s.Controllers == nil || len(s.Controllers) != 0 {
		t.Errorf("controllers = %#v, want empty, not nil", s.Controllers)
	}
	want := []string{
		"create Secret/other/s",
		"delete Deployment/other/web propagationPolicy=Foreground gracePeriodSeconds=0 preconditions.uid=u-1 preconditions.resourceVersion=7 dryRun=[All]",
		"delete uid:u-9",
		`patch Pod/p {"metadata":{"finalizers":null,"labels":{"a":"1"}}}`,
		"step 3 from attemptToOrphan",
		"settle",
		"settle",
		"advance 1m30s",
		"inject ServiceUnavailable on delete Pod x1",
		"inject Forbidden on get ConfigMap/kube-system/c x2",
		"expect",
	}
	for i, st := range s.Steps {
		if i < len(want) && st.Describe() != want[i] {
			t.Errorf("steps[%d] = %q, want %q", i, st.Describe(), want[i])
		}
	}
	if s.Steps[0].ExpectError != fakeapi.ReasonNotFound || s.Steps[5].MaxSteps != DefaultMaxSteps || s.Steps[6].MaxSteps != 50 {
		t.Errorf("expectError %q, maxSteps %d %d", s.Steps[0].ExpectError, s.Steps[5].MaxSteps, s.Steps[6].MaxSteps)
	}
	if f := s.Steps[8].Fault; f.Kind != "Pod" || f.Name != "" || f.Namespace != "" || f.Times != 1 {
		t.Errorf("fault = %+v", f)
	}
	if f := s.Steps[9].Fault; f.Kind != "ConfigMap" || f.Namespace != "kube-system" || f.Name != "c" {
		t.Errorf("fault = %+v", f)
	}
	if s.Steps[2].DeleteOptions.DryRun != nil {
		t.Errorf("dryRun false = %#v", s.Steps[2].DeleteOptions.DryRun)
	}
	if s.Steps[1].Line != 6 || s.Steps[1].Index != 1 {
		t.Errorf("step position %d/%d", s.Steps[1].Index, s.Steps[1].Line)
	}
}

// TestParseYAMLFeatures: anchors, aliases and merge keys work as in
// YAML, including in the scenario's own keys.
func TestParseYAMLFeatures(t *testing.T) {
	s := mustParse(t, `name: yaml
objects:
  - &base
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: a, labels: &labels {app: web}}
  - <<: *base
    metadata: {name: b, labels: *labels}
steps:
  - &settle {settle: {}}
  - *settle
`)
	if len(s.Objects) != 2 || s.Objects[1].Object.Kind != "ConfigMap" || s.Objects[1].Object.Metadata.Name != "b" ||
		s.Objects[1].Object.Metadata.Labels["app"] != "web" || len(s.Steps) != 2 {
		t.Errorf("objects %+v steps %d", s.Objects, len(s.Steps))
	}
}

// TestParseManyObjectsWithoutAliases: the node budget measures what
// aliases add, so a file with more nodes than the alias allowance loads
// when it has no aliases.
func TestParseManyObjectsWithoutAliases(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: many\nobjects:\n")
	const n = 4000
	for i := range n {
		fmt.Fprintf(&b, "  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: c%d\n      labels: {a: b, c: d}\n    data:\n", i)
		for k := range 10 {
			fmt.Fprintf(&b, "      k%d: v%d\n", k, k)
		}
	}
	s := mustParse(t, b.String())
	if len(s.Objects) != n {
		t.Fatalf("%d objects, want %d", len(s.Objects), n)
	}
	if nodes := n * 40; nodes <= maxAliasExpansion {
		t.Fatalf("the file has about %d nodes, not more than the alias allowance %d: the test proves nothing", nodes, maxAliasExpansion)
	}
}
