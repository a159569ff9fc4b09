package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// runFile parses and runs one scenario file, failing the test on a parse
// error or an internal error.
func runFile(t *testing.T, file string, opts RunOptions) *Result {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(filepath.Base(file), data)
	if err != nil {
		t.Fatalf("Parse:\n%v", err)
	}
	res := Run(s, opts)
	if res.InternalError != "" {
		t.Fatalf("internal error: %s\n%s", res.InternalError, res.Stack)
	}
	return res
}

func runSource(t *testing.T, src string) *Result {
	t.Helper()
	res := Run(mustParse(t, src), RunOptions{Records: true, CheckInvariants: true})
	if res.InternalError != "" {
		t.Fatalf("internal error: %s\n%s", res.InternalError, res.Stack)
	}
	return res
}

// TestExamples runs every example scenario of the project (examples/):
// make conformance checks each against a real cluster, so each must pass.
func TestExamples(t *testing.T) {
	for _, file := range exampleScenarios(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			res := runFile(t, file, RunOptions{Records: true, CheckInvariants: true})
			if !res.Passed {
				t.Errorf("%v\ntrace:\n%s", res.Err(), strings.Join(res.Trace(true), "\n"))
			}
		})
	}
}

// TestTestdataScenarios runs this package's own scenarios, which exercise
// what the examples do not (queues, graph, backoff, events, counts,
// restarts, custom kinds).
func TestTestdataScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			res := runFile(t, file, RunOptions{Records: true, CheckInvariants: true})
			if !res.Passed {
				t.Errorf("%v\ntrace:\n%s", res.Err(), strings.Join(res.Trace(true), "\n"))
			}
		})
	}
}

// TestRunIsDeterministic runs each scenario twice and compares the full
// trace and the JSON result byte for byte.
func TestRunIsDeterministic(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	files = append(files, exampleScenarios(t)...)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			render := func() string {
				res := runFile(t, file, RunOptions{Records: true, CheckInvariants: true})
				b, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				return strings.Join(res.Trace(true), "\n") + "\n" + string(b)
			}
			first, second := render(), render()
			if first != second {
				t.Errorf("two runs differ:\n%s\n---\n%s", first, second)
			}
		})
	}
}

func TestRunFailures(t *testing.T) {
	const world = `name: t
controllers: [garbagecollector]
objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: owner}}
  - apiVersion: v1
    kind: Secret
    metadata:
      name: child
      ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner}]
steps:
`
	tests := []struct {
		name  string
		steps string
		want  string // the failure messages, or "" when the run passes
		after string // the outcome of the last step run
	}{
		{"expectation", `  - settle: {}
  - expect:
      exists: [Secret/child]
      ownerReferences:
        Secret/child: [ConfigMap/other]
      absent: [ConfigMap/owner]
  - delete: cm/owner
`, "t.yaml:15: step 1 (expect): Secret/child: ownerReferences: expected [ConfigMap/other], found [ConfigMap/owner]\n" +
			"t.yaml:16: step 1 (expect): ConfigMap/owner: absent: expected absent, found in storage, not terminating", "2 of 3 checks failed"},
		{"owner to resolve does not exist", `  - create:
      apiVersion: v1
      kind: Secret
      metadata:
        name: orphan
        namespace: kube-system
        ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner}]
`, `t.yaml:11: step 0 (create): Secret/kube-system/orphan: ownerReferences[0]: no ConfigMap "owner" exists in namespace "kube-system" to take the uid from (give an explicit uid to create a dangling reference)`, ""},
		{"expected error happens", `  - delete: cm/missing
    expectError: NotFound
`, "", "failed as expected: NotFound: configmaps \"missing\" not found"},
		{"expected error does not happen", `  - delete: cm/owner
    expectError: NotFound
`, "t.yaml:11: step 0 (delete): expected the request to fail with NotFound, but it succeeded", ""},
		{"another error happens", `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: owner}}
    expectError: Conflict
`, `t.yaml:11: step 0 (create): expected error Conflict, found AlreadyExists: configmaps "owner" already exists`, ""},
		{"an unexpected API error fails the step", `  - delete: cm/owner
    propagationPolicy: Sideways
  - settle: {}
`, `t.yaml:11: step 0 (delete): Invalid: DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`, ""},
		{"an answer with no reason is expected with the empty string", `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, resourceVersion: "5"}}
    expectError: ""
`, "", "failed as expected: no reason (code 500): resourceVersion should not be set on objects to be created"},
		{"the empty reason is not any other reason", `  - delete: cm/missing
    expectError: ""
`, `t.yaml:11: step 0 (delete): expected error "" (no reason), found NotFound: configmaps "missing" not found`, ""},
		{"the empty reason is not success", `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
    expectError: ""
`, `t.yaml:11: step 0 (create): expected the request to fail with "" (no reason), but it succeeded`, ""},
		{"an answer with no reason is not InternalError", `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, resourceVersion: "5"}}
    expectError: InternalError
`, `t.yaml:11: step 0 (create): expected error InternalError, found no reason (code 500): resourceVersion should not be set on objects to be created`, ""},
		{"an error of gcplay's own does not have the empty reason", `  - settle: {maxSteps: 2}
    expectError: ""
`, `t.yaml:11: step 0 (settle): expected error "" (no reason), found did not settle`, ""},
		{"unknown policy is Invalid", `  - delete: cm/owner
    propagationPolicy: Sideways
    expectError: Invalid
`, "", ""},
		{"uid reference to nothing", `  - delete: uid:nobody
`, `t.yaml:11: step 0 (delete): NotFound: no object with uid "nobody"`, ""},
		{"settle past maxSteps", `  - settle: {maxSteps: 2}
`, "t.yaml:11: step 0 (settle): did not settle within maxSteps 2: still not settled after 2 steps", ""},
		{"step with nothing to do", `  - settle: {}
  - step: 1
`, "t.yaml:12: step 1 (step): after 0 of 1 work item: nothing to do: every queue is empty or waiting", ""},
		{"step from a queue", `  - step: 3
    queue: graphChanges
`, "", "processed 3 work items"},
		{"namespace must exist", `  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: nowhere}}
`, "t.yaml:11: step 0 (create): NotFound: ", ""},
		{"inject makes a request fail", `  - inject: {verb: create, object: ConfigMap, error: ServiceUnavailable}
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
    expectError: ServiceUnavailable
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
`, "", "created, uid "},
		{"restart and advance", `  - settle: {}
  - restart: garbagecollector
  - advance: 90s
  - expect:
      graph:
        Secret/child: {beingDeleted: false}
`, "", "1 check held"},
		{"count generated names", `  - create: {apiVersion: v1, kind: Pod, metadata: {generateName: web-, labels: {app: web}}}
  - create: {apiVersion: v1, kind: Pod, metadata: {generateName: web-, labels: {app: web}}}
  - expect:
      count:
        - {kind: Pod, selector: app=web, equals: 2}
        - {kind: Pod, selector: app!=web, equals: 1}
`, "t.yaml:16: step 2 (expect): count: expected 1 (Pod in default with app!=web), found 0 []", "1 of 2 checks failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := runSource(t, world+tc.steps)
			got := ""
			if err := res.Err(); err != nil {
				got = err.Error()
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
				t.Errorf("failure:\n%s\nwant:\n%s\ntrace:\n%s", got, tc.want, strings.Join(res.Trace(true), "\n"))
			}
			if res.Passed != (tc.want == "") {
				t.Errorf("Passed = %t", res.Passed)
			}
			last := res.Steps[len(res.Steps)-1]
			if !strings.Contains(last.Outcome, tc.after) {
				t.Errorf("last step outcome %q, want it to contain %q", last.Outcome, tc.after)
			}
		})
	}
}

// TestRunStopsAtFirstFailure: the steps after a failing one do not run.
func TestRunStopsAtFirstFailure(t *testing.T) {
	res := runSource(t, `name: t
steps:
  - expect: {exists: [ConfigMap/none]}
  - create: {apiVersion: v1, kind: ConfigMap, metadata: {name: none}}
`)
	if res.Passed || len(res.Steps) != 1 || res.Failure.Step != "step 0" || res.Failure.Line != 3 {
		t.Errorf("passed %t, %d steps, failure %+v", res.Passed, len(res.Steps), res.Failure)
	}
	if len(res.Objects) == 0 || res.World == nil {
		t.Errorf("the result has no final world")
	}
	for _, o := range res.Objects {
		if o.Kind == "ConfigMap" {
			t.Errorf("the step after the failure ran: %s exists", o)
		}
	}
}

// TestRunResult: the result carries the final objects, the removals in
// order, and the events.
func TestRunResult(t *testing.T) {
	res := runSource(t, `name: t
controllers: [garbagecollector]
objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
  - {apiVersion: v1, kind: Secret, metadata: {name: b, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: a}]}}
  - {apiVersion: v1, kind: Secret, metadata: {name: c}}
steps:
  - settle: {}
  - delete: cm/a
  - settle: {}
`)
	if !res.Passed {
		t.Fatal(res.Err())
	}
	var removed []string
	for _, r := range res.DeletionOrder {
		removed = append(removed, r.Object)
	}
	if got := strings.Join(removed, " "); got != "ConfigMap/a Secret/b" {
		t.Errorf("deletion order = %s", got)
	}
	var names []string
	for _, o := range res.Objects {
		if o.Kind != "Namespace" {
			names = append(names, o.String())
		}
	}
	if got := strings.Join(names, " "); got != "Secret/c" {
		t.Errorf("final objects = %s", got)
	}
	if len(res.Steps) != 6 || len(res.Steps[3].Records) == 0 {
		t.Errorf("steps %d, records of the settle %d", len(res.Steps), len(res.Steps[3].Records))
	}
}

// TestSaveRoundTrip saves a world with custom kinds, a namespace, owners
// and terminating objects, and checks that the saved file recreates the
// same stored objects.
func TestSaveRoundTrip(t *testing.T) {
	res := runSource(t, `name: t
kinds:
  - {apiVersion: example.com/v1, kind: Widget, scope: Namespaced}
controllers: [garbagecollector]
objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}, spec: {replicas: 0}}
  - apiVersion: example.com/v1
    kind: Widget
    metadata:
      name: w
      namespace: shop
      labels: {app: web}
      finalizers: [example.com/hold]
      ownerReferences:
        - {apiVersion: apps/v1, kind: Deployment, name: web, controller: true, blockOwnerDeletion: true}
    spec: {size: 3}
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: dangling
      namespace: shop
      ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: gone, uid: never-existed}]
  - {apiVersion: v1, kind: Secret, metadata: {name: held, finalizers: [example.com/a, example.com/b]}}
steps:
  - delete: deploy/shop/web
    propagationPolicy: Foreground
  - delete: Secret/held
`)
	if !res.Passed {
		t.Fatal(res.Err())
	}
	data, err := Save(res.World, "saved-world")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("saved-world.yaml", data)
	if err != nil {
		t.Fatalf("Parse of the saved file:\n%v\n%s", err, data)
	}
	again := Run(s, RunOptions{})
	if !again.Passed {
		t.Fatalf("run of the saved file: %v %s\n%s", again.Err(), again.InternalError, data)
	}
	if got, want := snapshot(t, again.Objects), snapshot(t, res.Objects); got != want {
		t.Errorf("saved world differs:\n got %s\nwant %s\nfile:\n%s", got, want, data)
	}
	if _, err := Save(res.World, "Not Valid"); err == nil {
		t.Errorf("Save accepted an invalid name")
	}
}

// snapshot renders objects without the fields a re-creation cannot keep
// (resourceVersion, timestamps).
func snapshot(t *testing.T, objs []*fakeapi.Object) string {
	var lines []string
	for _, o := range objs {
		c := o.DeepCopy()
		terminating := c.Metadata.DeletionTimestamp != nil
		c.Metadata.ResourceVersion, c.Metadata.Generation = "", 0
		c.Metadata.CreationTimestamp, c.Metadata.DeletionTimestamp = nil, nil
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if terminating {
			lines = append(lines, "terminating "+string(b))
		} else {
			lines = append(lines, string(b))
		}
	}
	return strings.Join(lines, "\n")
}

// TestRunReleaseRestore: with ReleaseRestore, Run lets go of the dump's
// objects (the world holds them alone) and reports the same run.
func TestRunReleaseRestore(t *testing.T) {
	data, err := os.ReadFile("../examples/dumps/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var results [2]*Result
	for i, release := range []bool{false, true} {
		s, err := ParseDump("web.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		n := len(s.Restore)
		s.AddCommandSteps(nil, "")
		results[i] = Run(s, RunOptions{ReleaseRestore: release})
		if kept := len(s.Restore); release && kept != 0 || !release && kept != n {
			t.Errorf("ReleaseRestore %v: the scenario keeps %d of its %d restored objects", release, kept, n)
		}
		if !results[i].Passed || results[i].Steps[0].Summary != fmt.Sprintf("restore %d objects as the dump has them", n) {
			t.Errorf("ReleaseRestore %v: %+v", release, results[i].Steps[0])
		}
	}
	if a, b := strings.Join(results[0].Trace(false), "\n"), strings.Join(results[1].Trace(false), "\n"); a != b {
		t.Errorf("the traces differ:\n%s\n---\n%s", a, b)
	}
}

// TestRunReleased: Released is called once, with ReleaseRestore only, when
// the scenario no longer holds the dump's list.
func TestRunReleased(t *testing.T) {
	data, err := os.ReadFile("../examples/dumps/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, release := range []bool{false, true} {
		s, err := ParseDump("web.yaml", data)
		if err != nil {
			t.Fatal(err)
		}
		calls, held := 0, -1
		res := Run(s, RunOptions{ReleaseRestore: release, Released: func() { calls++; held = len(s.Restore) }})
		if !res.Passed {
			t.Fatalf("ReleaseRestore %v: %+v", release, res.Failure)
		}
		switch {
		case release && (calls != 1 || held != 0):
			t.Errorf("ReleaseRestore: Released called %d times, the scenario holding %d objects", calls, held)
		case !release && calls != 0:
			t.Errorf("without ReleaseRestore, Released called %d times", calls)
		}
	}
}

// TestStartReleased: StartReleased calls released once, when the scenario
// no longer holds the dump's list.
func TestStartReleased(t *testing.T) {
	data, err := os.ReadFile("../examples/dumps/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseDump("web.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	n, calls, held := len(s.Restore), 0, -1
	im, err := StartReleased(s, func() { calls++; held = len(s.Restore) })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || held != 0 || im.Objects != n {
		t.Errorf("released called %d times, the scenario holding %d objects; %d objects started, want %d", calls, held, im.Objects, n)
	}
}

// TestRunWorldOnly checks that WorldOnly leaves the world and the outcome
// as they are and only skips copying the final objects, the deletion order
// and the events into the Result.
func TestRunWorldOnly(t *testing.T) {
	full := runFile(t, "../examples/foreground.yaml", RunOptions{})
	only := runFile(t, "../examples/foreground.yaml", RunOptions{WorldOnly: true})
	if len(full.Objects) == 0 || len(full.DeletionOrder) == 0 {
		t.Fatalf("the example should leave objects and removals: %d, %d", len(full.Objects), len(full.DeletionOrder))
	}
	if len(only.Objects) != 0 || len(only.DeletionOrder) != 0 || len(only.Events) != 0 {
		t.Errorf("WorldOnly copied %d objects, %d removals and %d events", len(only.Objects), len(only.DeletionOrder), len(only.Events))
	}
	if full.Passed != only.Passed || strings.Join(full.Trace(false), "\n") != strings.Join(only.Trace(false), "\n") {
		t.Errorf("WorldOnly changed the run: passed %v/%v\n%s\n---\n%s", full.Passed, only.Passed,
			strings.Join(full.Trace(false), "\n"), strings.Join(only.Trace(false), "\n"))
	}
	world := func(r *Result) string {
		b, err := json.Marshal(r.World.Store().Objects())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := world(full), world(only); a != b {
		t.Errorf("the worlds differ:\n%s\n---\n%s", a, b)
	}
}

// TestRunResultSharesStorage: the result's final objects are storage's
// own (stored objects are never modified), not copies, so that a run's
// end does not hold a large world twice.
func TestRunResultSharesStorage(t *testing.T) {
	res := runSource(t, `name: t
controllers: [garbagecollector]
objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
  - {apiVersion: v1, kind: Secret, metadata: {name: b, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: a}]}}
steps:
  - settle: {}
`)
	store := res.World.Store()
	if len(res.Objects) != store.Len() {
		t.Fatalf("%d objects in the result, %d in storage", len(res.Objects), store.Len())
	}
	for _, o := range res.Objects {
		if s := store.Lookup(fakeapi.RefOf(o)); s != o {
			t.Errorf("%s: the result holds a copy, not storage's object", o)
		}
	}
}
