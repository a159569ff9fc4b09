package fakeapi

import (
	"fmt"
	"slices"
	"testing"
)

// dependent creates ConfigMap "dep" owned by the given refs.
func (w *world) dependent(refs ...OwnerReference) *Object {
	w.t.Helper()
	o := configMap("dep")
	o.Metadata.OwnerReferences = refs
	return w.create(o)
}

func owner(n int, block *bool) OwnerReference {
	return OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: fmt.Sprintf("rs-%d", n),
		UID: fmt.Sprintf("owner-%d", n), BlockOwnerDeletion: block}
}

func ownerUIDs(o *Object) []string {
	var out []string
	for _, r := range o.Metadata.OwnerReferences {
		out = append(out, r.UID)
	}
	return out
}

func TestPatch_R54_DeleteOwnerRefStrategicMerge(t *testing.T) {
	w := newWorld(t)
	dep := w.dependent(owner(1, nil), owner(2, nil), owner(3, nil))
	body := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"$patch":"delete","uid":"owner-2"},{"$patch":"delete","uid":"owner-9"}],"uid":%q}}`, dep.Metadata.UID)
	out, err := w.s.Patch("garbagecollector", cmRef("dep"), StrategicMergePatch, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := ownerUIDs(out); !slices.Equal(got, []string{"owner-1", "owner-3"}) {
		t.Errorf("owners = %q, want owner-1, owner-3 (owner-9 was absent: silent)", got)
	}

	// The same patch against a recreated object (another uid) fails: uid is
	// immutable.
	w.delete(cmRef("dep"), nil)
	w.dependent(owner(1, nil), owner(2, nil))
	n := len(w.events)
	_, err = w.s.Patch("garbagecollector", cmRef("dep"), StrategicMergePatch, []byte(body))
	wantStatus(t, err, ReasonInvalid, 422, `ConfigMap "dep" is invalid: metadata.uid: Invalid value: "`+dep.Metadata.UID+`": field is immutable`)
	wantEvents(t, w.since(n))
}

func TestPatch_R55_UnblockStrategicMerge(t *testing.T) {
	w := newWorld(t)
	dep := w.dependent(owner(1, Bool(true)), owner(2, Bool(false)), owner(3, nil))
	body := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs-1","uid":"owner-1","blockOwnerDeletion":false}],"uid":%q}}`, dep.Metadata.UID)
	out, err := w.s.Patch("garbagecollector", cmRef("dep"), StrategicMergePatch, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []OwnerReference{owner(1, Bool(false)), owner(2, Bool(false)), owner(3, nil)}
	if !slices.EqualFunc(out.Metadata.OwnerReferences, want, OwnerReference.Equal) {
		t.Errorf("owners = %+v\nwant %+v", out.Metadata.OwnerReferences, want)
	}
}

func TestPatch_StrategicMergeOrdersLikeTheApiserver(t *testing.T) {
	w := newWorld(t)
	w.create(withFinalizers(configMap("x"), "example.com/a", "example.com/b"))
	w.dependent(owner(1, nil), owner(2, nil))
	tests := []struct {
		name, ref, body string
		check           func(*Object) []string
		want            []string
	}{
		{"a new finalizer goes before the server-only ones", "x", `{"metadata":{"finalizers":["example.com/c"]}}`,
			func(o *Object) []string { return o.Metadata.Finalizers }, []string{"example.com/c", "example.com/a", "example.com/b"}},
		{"finalizers already there keep their place", "x", `{"metadata":{"finalizers":["example.com/b"]}}`,
			func(o *Object) []string { return o.Metadata.Finalizers }, []string{"example.com/c", "example.com/a", "example.com/b"}},
		{"$deleteFromPrimitiveList removes", "x", `{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/a"]}}`,
			func(o *Object) []string { return o.Metadata.Finalizers }, []string{"example.com/c", "example.com/b"}},
		{"a new owner goes first", "dep", `{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"n","uid":"owner-0"}]}}`,
			ownerUIDs, []string{"owner-0", "owner-1", "owner-2"}},
		{"$patch replace", "dep", `{"metadata":{"ownerReferences":[{"$patch":"replace"},{"apiVersion":"v1","kind":"ConfigMap","name":"n","uid":"owner-5"}]}}`,
			ownerUIDs, []string{"owner-5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := w.s.Patch("test", cmRef(tt.ref), StrategicMergePatch, []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if got := tt.check(out); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPatch_StrategicMergeErrors(t *testing.T) {
	w := newWorld(t)
	w.dependent(owner(1, nil))
	tests := []struct {
		body   string
		reason Reason
		msg    string
	}{
		// The errors of strategicpatch that the patch handler passes on
		// as they are: a 500 with no reason (texts from apimachinery
		// v0.34.4's StrategicMergeMapPatch).
		{`{"metadata":{"ownerReferences":[{"$patch":"delete"}]}}`, "",
			`map: map[$patch:delete] does not contain declared merge key: uid`},
		{`{"metadata":{"ownerReferences":[{"name":"x"}]}}`, "",
			`map: map[name:x] does not contain declared merge key: uid`},
		{`{"metadata":{"ownerReferences":[{"$patch":"explode","uid":"owner-1"}]}}`, "",
			`unknown patch type: explode in map: map[$patch:explode uid:owner-1]`},
		{`{"metadata":{"ownerReferences":[{"$patch":"merge","uid":"owner-1"}]}}`, "",
			`merging lists cannot yet be specified in the patch`},
		{`{"metadata":{"ownerReferences":["x"]}}`, "",
			`list element types are not identical: [[map[apiVersion:apps/v1 kind:ReplicaSet name:rs-1 uid:owner-1]] [x]]`},
		{`{"metadata":{"ownerReferences":[{"uid":"a"},["x"]]}}`, "",
			`list element types are not identical: [[map[apiVersion:apps/v1 kind:ReplicaSet name:rs-1 uid:owner-1]] [map[uid:a] [x]]]`},
		{`{"metadata":{"ownerReferences":[{"uid":{"nested":true}}]}}`, ReasonBadRequest, ""},
		{`{"$retainKeys":["metadata"]}`, ReasonBadRequest, "gcplay does not model the strategic merge patch directive $retainKeys"},
		{`[1,2]`, ReasonBadRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			_, err := w.s.Patch("test", cmRef("dep"), StrategicMergePatch, []byte(tt.body))
			code := 500
			if tt.reason != "" {
				code = reasonCodes[tt.reason]
			}
			wantStatus(t, err, tt.reason, code, tt.msg)
		})
	}
}

func TestPatch_R53_CustomKindRejectsStrategicMerge(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Add(KindInfo{APIVersion: "example.com/v1", Kind: "Widget", Scope: Namespaced, Custom: true}); err != nil {
		t.Fatal(err)
	}
	w := newWorldWith(t, reg)
	wd := w.create(obj("example.com/v1", "Widget", "default", "w"))
	wref := Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w"}
	_, err := w.s.Patch("garbagecollector", wref, StrategicMergePatch, []byte(`{"metadata":{"labels":{"a":"b"}}}`))
	wantStatus(t, err, ReasonUnsupportedMediaType, 415,
		"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml")
	// A built-in kind's list has the strategic type, third.
	_, err = w.s.Patch("test", cmRef("x"), PatchType("application/yaml"), []byte(`{}`))
	wantStatus(t, err, ReasonUnsupportedMediaType, 415,
		"the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml")
	// The JSON merge fallback works, with the resourceVersion as a lock.
	body := fmt.Sprintf(`{"metadata":{"resourceVersion":%q,"labels":{"patched":"yes"}}}`, wd.Metadata.ResourceVersion)
	if _, err := w.s.Patch("garbagecollector", wref, MergePatch, []byte(body)); err != nil {
		t.Fatalf("merge fallback: %v", err)
	}
	_, err = w.s.Patch("garbagecollector", wref, MergePatch, []byte(body))
	wantStatus(t, err, ReasonConflict, 409, `Operation cannot be fulfilled on widgets.example.com "w": the object has been modified; please apply your changes to the latest version and try again`)
}

func TestPatch_R56_RemoveFinalizerWithResourceVersionLock(t *testing.T) {
	w := newWorld(t)
	w.create(withFinalizers(configMap("x"), "example.com/a"))
	res := w.delete(cmRef("x"), policy(DeletePropagationForeground))
	rv := res.Object.Metadata.ResourceVersion
	w.mergePatch(cmRef("x"), fmt.Sprintf(`{"metadata":{"resourceVersion":%q,"finalizers":["example.com/a"]}}`, rv))
	wantFinalizers(t, w.stored(cmRef("x")), "example.com/a")
	_, err := w.s.Patch("garbagecollector", cmRef("x"), MergePatch, []byte(fmt.Sprintf(`{"metadata":{"resourceVersion":%q,"finalizers":null}}`, rv)))
	wantStatus(t, err, ReasonConflict, 409, `Operation cannot be fulfilled on configmaps "x": the object has been modified...`)
}

func TestPatch_MergePatch(t *testing.T) {
	w := newWorld(t)
	w.create(obj("v1", "ConfigMap", "default", "x", "data", map[string]any{"a": "1", "b": "2"}))
	out := w.mergePatch(cmRef("x"), `{"data":{"a":null,"c":"3"},"metadata":{"labels":{"app":"web"},"unknownField":1}}`)
	if got := out.Fields.Get("data"); fmt.Sprint(got) != "map[b:2 c:3]" || out.Metadata.Labels["app"] != "web" {
		t.Errorf("patched = %s", describe(out))
	}
	for _, tt := range []struct {
		body, reason, msg string
	}{
		{`not json`, string(ReasonBadRequest), "Invalid JSON Patch"},
		{`null`, string(ReasonBadRequest), "Invalid JSON Patch"},
		{`{"metadata":{"name":"y"}}`, string(ReasonBadRequest), "the name of the object (y) does not match the name on the URL (x)"},
		{`{"metadata":{"namespace":"kube-system"}}`, string(ReasonBadRequest), "the namespace of the object (kube-system) does not match the namespace on the URL (default)"},
		{`{"metadata":{"finalizers":"orphan"}}`, string(ReasonInvalid), ` "" is invalid: patch: Invalid value: ...`},
	} {
		_, err := w.s.Patch("test", cmRef("x"), MergePatch, []byte(tt.body))
		wantStatus(t, err, Reason(tt.reason), reasonCodes[Reason(tt.reason)], tt.msg)
	}
	_, err := w.s.Patch("test", cmRef("x"), PatchType("application/json-patch+json"), []byte(`[]`))
	wantStatus(t, err, ReasonUnsupportedMediaType, 415, "gcplay does not model application/json-patch+json patches")
	_, err = w.s.Patch("test", cmRef("nope"), MergePatch, []byte(`{}`))
	wantStatus(t, err, ReasonNotFound, 404, `configmaps "nope" not found`)
}

// With no ownerReferences to merge into, mergeMap takes the patch's list
// less every entry holding a $patch directive, whatever the directive
// (strategicpatch's removeDirectives): no error.
func TestPatch_StrategicMergeDirectivesWithoutAList(t *testing.T) {
	w := newWorld(t)
	w.create(configMap("plain"))
	for _, d := range []string{`"delete"`, `"explode"`, `"merge"`, `null`} {
		body := `{"metadata":{"ownerReferences":[{"$patch":` + d + `,"uid":"owner-1"}]}}`
		out, err := w.s.Patch("test", cmRef("plain"), StrategicMergePatch, []byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if len(out.Metadata.OwnerReferences) != 0 {
			t.Errorf("%s: ownerReferences = %v, want none", body, out.Metadata.OwnerReferences)
		}
	}
}
