package fakeapi

import (
	"strings"
	"testing"
	"time"
)

func TestConstants_R1_FinalizerAndPolicyNames(t *testing.T) {
	for got, want := range map[string]string{
		FinalizerOrphanDependents:           "orphan",
		FinalizerDeleteDependents:           "foregroundDeletion",
		string(DeletePropagationOrphan):     "Orphan",
		string(DeletePropagationBackground): "Background",
		string(DeletePropagationForeground): "Foreground",
	} {
		if got != want {
			t.Errorf("constant = %q, want %q", got, want)
		}
	}
}

func TestCreate_R2_OrphanAndForegroundCannotBothBeSet(t *testing.T) {
	w := newWorld(t)
	_, err := w.s.Create("test", withFinalizers(configMap("x"), "orphan", "foregroundDeletion"))
	wantStatus(t, err, ReasonInvalid, 422,
		`ConfigMap "x" is invalid: metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set`)
	if w.stored(cmRef("x")) != nil || len(w.events) != 0 {
		t.Error("a refused create stored something")
	}
}

func TestCreate_R2_FinalizersMustBeQualifiedNames(t *testing.T) {
	tests := []struct {
		finalizer string
		wantMsg   string // "" means accepted
	}{
		{"example.com/cleanup", ""},
		{"kubernetes", ""}, // no domain: upstream only warns
		{"orphan", ""},
		{"foregroundDeletion", ""},
		{"", `ConfigMap "x" is invalid: [metadata.finalizers: Invalid value: "": name part must be non-empty, ` +
			`metadata.finalizers: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]`},
		{"/cleanup", `ConfigMap "x" is invalid: metadata.finalizers: Invalid value: "/cleanup": prefix part must be non-empty`},
		{"a/b/c", `ConfigMap "x" is invalid: metadata.finalizers: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{"Example.com/x", `ConfigMap "x" is invalid: metadata.finalizers: Invalid value: "Example.com/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
	}
	for _, tt := range tests {
		t.Run(tt.finalizer, func(t *testing.T) {
			w := newWorld(t)
			_, err := w.s.Create("test", withFinalizers(configMap("x"), tt.finalizer))
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("create with finalizer %q: %v", tt.finalizer, err)
				}
				return
			}
			wantStatus(t, err, ReasonInvalid, 422, tt.wantMsg)
		})
	}
}

func TestCreate_R3_OwnerReferenceValidation(t *testing.T) {
	rs := func(name, uid string, controller bool) OwnerReference {
		return OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: uid, Controller: Bool(controller)}
	}
	tests := []struct {
		name    string
		refs    []OwnerReference
		wantMsg string
	}{
		{"valid", []OwnerReference{rs("a", "u1", true), rs("b", "u2", false)}, ""},
		{"owner need not exist or be served", []OwnerReference{{APIVersion: "nope.example/v9", Kind: "Ghost", Name: "g", UID: "u9"}}, ""},
		{"events.k8s.io Event may own", []OwnerReference{{APIVersion: "events.k8s.io/v1", Kind: "Event", Name: "e", UID: "u1"}}, ""},
		{"duplicate uids are not checked", []OwnerReference{rs("a", "u1", false), rs("b", "u1", false)}, ""},
		{"no version", []OwnerReference{{APIVersion: "apps/", Kind: "ReplicaSet", Name: "a", UID: "u1"}},
			`ConfigMap "x" is invalid: metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty`},
		{"no kind, name or uid", []OwnerReference{{APIVersion: "v1"}},
			`ConfigMap "x" is invalid: [metadata.ownerReferences.kind: Invalid value: "": must not be empty, metadata.ownerReferences.name: Invalid value: "": must not be empty, metadata.ownerReferences.uid: Invalid value: "": must not be empty]`},
		{"v1 Event cannot own", []OwnerReference{{APIVersion: "v1", Kind: "Event", Name: "e", UID: "u1"}},
			`ConfigMap "x" is invalid: metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u1"}: /v1, Kind=Event is disallowed from being an owner`},
		{"two controllers", []OwnerReference{rs("a", "u1", true), rs("b", "u2", true)},
			`ConfigMap "x" is invalid: metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"u1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"u2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			o := configMap("x")
			o.Metadata.OwnerReferences = tt.refs
			_, err := w.s.Create("test", o)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("create: %v", err)
				}
				return
			}
			if before, after, ok := strings.Cut(tt.wantMsg, "{...}"); ok {
				wantStatus(t, err, ReasonInvalid, 422, "")
				if msg := err.Error(); !strings.HasPrefix(msg, before) || !strings.HasSuffix(msg, after) {
					t.Errorf("message = %q\nwant %q", msg, tt.wantMsg)
				}
				return
			}
			wantStatus(t, err, ReasonInvalid, 422, tt.wantMsg)
		})
	}
}

func TestCreate_R6_BlockOwnerDeletionNeedsNoPermission(t *testing.T) {
	// The OwnerReferencesPermissionEnforcement admission plugin is not
	// modelled: any client may set blockOwnerDeletion, and delete the owner.
	w := newWorld(t)
	owner := w.create(configMap("owner"))
	dep := configMap("dep")
	dep.Metadata.OwnerReferences = []OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "owner",
		UID: owner.Metadata.UID, BlockOwnerDeletion: Bool(true)}}
	w.create(dep)
	if _, err := w.s.Delete("anyone", cmRef("owner"), policy(DeletePropagationForeground)); err != nil {
		t.Fatalf("foreground delete of an owner with a blocking dependent: %v", err)
	}
}

// TestCreate_GenerationStartsAtOneForSomeKinds: only the strategies that
// set it in PrepareForCreate start generation at 1; a Service, a
// PersistentVolumeClaim or a Node with a spec keeps 0 (a v1.34.4
// apiserver gave a Service generation 0), and a custom resource gets 1
// even without a spec.
func TestCreate_GenerationStartsAtOneForSomeKinds(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Add(KindInfo{APIVersion: "example.com/v1", Kind: "Widget", Scope: Namespaced, Custom: true}); err != nil {
		t.Fatal(err)
	}
	w := newWorldWith(t, reg)
	spec := map[string]any{"x": 1}
	for _, tt := range []struct {
		o    *Object
		want int64
	}{
		{obj("v1", "Pod", "default", "p", "spec", spec), 1},
		{obj("apps/v1", "ReplicaSet", "default", "rs", "spec", spec), 1},
		{obj("batch/v1", "CronJob", "default", "cj", "spec", spec), 1},
		{obj("v1", "Service", "default", "s", "spec", spec), 0},
		{obj("v1", "PersistentVolumeClaim", "default", "c", "spec", spec), 0},
		{obj("v1", "Node", "", "n", "spec", spec), 0},
		{obj("coordination.k8s.io/v1", "Lease", "default", "l", "spec", spec), 0},
		{obj("example.com/v1", "Widget", "default", "w"), 1},
	} {
		if got := w.create(tt.o).Metadata.Generation; got != tt.want {
			t.Errorf("%s: generation %d, want %d", RefOf(tt.o), got, tt.want)
		}
	}
	// A custom resource's generation follows every change outside
	// metadata (it has no status subresource), a Service's stays 0.
	wd := w.mergePatch(Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w"}, `{"status":{"ready":true}}`)
	svc := w.mergePatch(Ref{APIVersion: "v1", Kind: "Service", Namespace: "default", Name: "s"}, `{"spec":{"x":2}}`)
	if wd.Metadata.Generation != 2 || svc.Metadata.Generation != 0 {
		t.Errorf("after updates: widget generation %d, service %d; want 2 and 0", wd.Metadata.Generation, svc.Metadata.Generation)
	}
}

func TestCreate_R7_ServerFillsSystemFields(t *testing.T) {
	w := newWorld(t)
	w.clock.Advance(90*time.Second + 300*time.Millisecond)
	in := withFinalizers(obj("apps/v1", "Deployment", "default", "web", "spec", map[string]any{"replicas": 3}), "foregroundDeletion")
	in.Metadata.DeletionTimestamp = &Time{Epoch}
	in.Metadata.DeletionGracePeriodSeconds = Int64(30)
	in.Metadata.Generation = 7
	in.Metadata.OwnerReferences = []OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "missing", UID: "nobody"}}
	out := w.create(in)
	m := out.Metadata
	if m.DeletionTimestamp != nil || m.DeletionGracePeriodSeconds != nil {
		t.Errorf("deletionTimestamp %v, deletionGracePeriodSeconds %v survived create", m.DeletionTimestamp, m.DeletionGracePeriodSeconds)
	}
	if m.UID != "uid-0005" {
		t.Errorf("uid = %q, want uid-0005 (after the four namespaces)", m.UID)
	}
	if want := Epoch.Add(90 * time.Second); !m.CreationTimestamp.Equal(want) {
		t.Errorf("creationTimestamp = %v, want %v (whole seconds)", m.CreationTimestamp, want)
	}
	if m.Generation != 1 || m.ResourceVersion != "5" {
		t.Errorf("generation %d, resourceVersion %q, want 1 and 5", m.Generation, m.ResourceVersion)
	}
	wantFinalizers(t, out, "foregroundDeletion")

	// A cluster-scoped kind's namespace is cleared.
	node := w.create(obj("v1", "Node", "default", "node-1"))
	if node.Metadata.Namespace != "" {
		t.Errorf("node namespace = %q, want cleared", node.Metadata.Namespace)
	}
	// A given uid is kept; one held by a stored object is refused.
	given := configMap("fixed")
	given.Metadata.UID = "owner-1"
	if out := w.create(given); out.Metadata.UID != "owner-1" {
		t.Errorf("uid = %q, want the given owner-1", out.Metadata.UID)
	}
	dup := configMap("dup")
	dup.Metadata.UID = "owner-1"
	_, err := w.s.Create("test", dup)
	wantStatus(t, err, ReasonInvalid, 422, `ConfigMap "dup" is invalid: metadata.uid: Duplicate value: "owner-1"`)
	// A resourceVersion on create is refused as the storage layer refuses
	// it: a plain error, so a 500 with no reason.
	withRV := configMap("rv")
	withRV.Metadata.ResourceVersion = "3"
	_, err = w.s.Create("test", withRV)
	wantStatus(t, err, "", 500, "resourceVersion should not be set on objects to be created")
	if msg, _ := FromServer(err); msg != "Error from server: resourceVersion should not be set on objects to be created" {
		t.Errorf("kubectl's words = %q", msg)
	}
	// One the versioner cannot read as a number, or reads as 0, is let
	// through and replaced.
	for _, rv := range []string{"0", "abc"} {
		o := configMap("rv-" + rv)
		o.Metadata.ResourceVersion = rv
		out := w.create(o)
		if out.Metadata.ResourceVersion == rv || out.Metadata.ResourceVersion == "" {
			t.Errorf("resourceVersion %q: stored %q, want the store's own", rv, out.Metadata.ResourceVersion)
		}
	}
}

func TestCreate_R7_NamespaceIsRequiredForNamespacedKinds(t *testing.T) {
	w := newWorld(t)
	_, err := w.s.Create("test", obj("v1", "ConfigMap", "", "x"))
	wantStatus(t, err, ReasonInvalid, 422, `ConfigMap "x" is invalid: metadata.namespace: Required value`)
	_, err = w.s.Create("test", obj("v1", "ConfigMap", "default", ""))
	wantStatus(t, err, ReasonInvalid, 422, `ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required`)
	_, err = w.s.Create("test", obj("v1", "ConfigMap", "default", "Web"))
	wantStatus(t, err, ReasonInvalid, 422, `ConfigMap "Web" is invalid: metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`)
}

func TestCreate_R8_NameInUseIsAlreadyExists(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("x"))
	_, err := w.s.Create("test", configMap("x"))
	wantStatus(t, err, ReasonAlreadyExists, 409, `configmaps "x" already exists`)

	w.create(withFinalizers(obj("apps/v1", "ReplicaSet", "default", "web"), "example.com/hold"))
	w.delete(Ref{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "web"}, policy(DeletePropagationForeground))
	_, err = w.s.Create("test", obj("apps/v1", "ReplicaSet", "default", "web"))
	wantStatus(t, err, ReasonAlreadyExists, 409, `object is being deleted: replicasets.apps "web" already exists`)
}

func TestCreate_GenerateNameIsDeterministic(t *testing.T) {
	names := func() []string {
		w := newWorld(t)
		var out []string
		for range 3 {
			o := obj("v1", "Pod", "default", "")
			o.Metadata.GenerateName = "web-6d-"
			out = append(out, w.create(o).Metadata.Name)
		}
		return out
	}
	a, b := names(), names()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("generated names differ between runs: %q and %q", a, b)
		}
		suffix, ok := strings.CutPrefix(a[i], "web-6d-")
		if !ok || len(suffix) != 5 || strings.Trim(suffix, nameAlphabet) != "" {
			t.Errorf("generated name %q is not the prefix and 5 letters of %q", a[i], nameAlphabet)
		}
	}
	if a[0] == a[1] || a[1] == a[2] {
		t.Errorf("generated names repeat: %q", a)
	}
}

func TestCreate_NamespaceMustExistAndNotBeTerminating(t *testing.T) {
	w := newWorld(t)
	_, err := w.s.Create("test", obj("v1", "ConfigMap", "other", "x"))
	wantStatus(t, err, ReasonNotFound, 404, `namespaces "other" not found`)

	w.create(withFinalizers(obj("v1", "Namespace", "", "other"), "example.com/hold"))
	w.create(obj("v1", "ConfigMap", "other", "x"))
	w.delete(Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "other", Name: "x"}, nil)
	w.delete(Ref{APIVersion: "v1", Kind: "Namespace", Name: "other"}, nil)
	_, err = w.s.Create("test", obj("v1", "ConfigMap", "other", "y"))
	wantStatus(t, err, ReasonForbidden, 403, `configmaps "y" is forbidden: unable to create new content in namespace other because it is being terminated`)

	// Admission runs before a name is generated: it names the object by
	// its generateName, or "Unknown" (checked on a v1.34.4 apiserver).
	gen := obj("v1", "ConfigMap", "other", "")
	gen.Metadata.GenerateName = "gen-"
	_, err = w.s.Create("test", gen)
	wantStatus(t, err, ReasonForbidden, 403, `configmaps "gen-" is forbidden: unable to create new content in namespace other because it is being terminated`)
	_, err = w.s.Create("test", obj("v1", "ConfigMap", "other", ""))
	wantStatus(t, err, ReasonForbidden, 403, `configmaps "Unknown" is forbidden: unable to create new content in namespace other because it is being terminated`)
}

func TestCreate_UnknownKindHasNoRoute(t *testing.T) {
	w := newWorld(t)
	for _, o := range []*Object{obj("apps/v1beta1", "Deployment", "default", "x"), obj("example.com/v1", "Widget", "default", "x")} {
		_, err := w.s.Create("test", o)
		wantStatus(t, err, ReasonNotFound, 404, "the server could not find the requested resource")
	}
}

// TestCreate_R8_GeneratedNameClashes: a generated name held by another
// object is tried again (createWithGenerateNameRetry, 8 attempts in all),
// whether its holder is terminating or not; when every attempt clashes,
// the last one's AlreadyExists is returned, worded by
// NewGenerateNameConflict and prefixed "object is being deleted: " when
// that holder is terminating (Store.create).
func TestCreate_R8_GeneratedNameClashes(t *testing.T) {
	for _, terminating := range []bool{false, true} {
		w := newWorld(t)
		saved := w.s.nameState
		var names []string
		for range maxNameGenerationAttempts {
			names = append(names, w.s.generateName("web-"))
		}
		w.s.nameState = saved
		for _, n := range names {
			w.create(withFinalizers(configMap(n), "example.com/hold"))
			if terminating {
				w.delete(cmRef(n), nil)
			}
		}
		gen := configMap("")
		gen.Metadata.GenerateName = "web-"
		_, err := w.s.Create("test", gen)
		want := `configmaps "` + names[len(names)-1] + `" already exists, the server was not able to generate a unique name for the object`
		if terminating {
			want = "object is being deleted: " + want
		}
		wantStatus(t, err, ReasonAlreadyExists, 409, want)
		// One name free among them: a later attempt takes it.
		w.s.nameState = saved
		if _, err := w.s.Patch("test", cmRef(names[3]), MergePatch, []byte(`{"metadata":{"finalizers":null}}`)); err != nil {
			t.Fatal(err)
		}
		if !terminating {
			w.delete(cmRef(names[3]), nil)
		}
		if out := w.create(gen); out.Metadata.Name != names[3] {
			t.Errorf("terminating %t: created %s, want the free name %s", terminating, out.Metadata.Name, names[3])
		}
	}
}
