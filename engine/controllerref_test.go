package engine

import (
	"errors"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestRecheckDeletionTimestampText: the live recheck before an adoption
// refuses an owner that is being deleted or was replaced, with upstream's
// words: RecheckDeletionTimestamp prints the deletionTimestamp with %v, so
// as time.Time's String writes it (the controller-manager runs in UTC),
// not in RFC 3339.
func TestRecheckDeletionTimestampText(t *testing.T) {
	store := fakeapi.NewStore(fakeapi.NewRegistry(), &virtualClock{})
	e := newEnv(store, &virtualClock{})
	rs := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Metadata: fakeapi.ObjectMeta{Namespace: "default", Name: "web",
		Finalizers: []string{"example.com/hold"}}}
	cached, err := store.Create("test", rs)
	if err != nil {
		t.Fatal(err)
	}
	if err := recheckDeletionTimestamp(e, "test", cached)(); err != nil {
		t.Fatalf("recheck of a live owner: %v", err)
	}
	if _, err := store.Delete("test", fakeapi.RefOf(cached), nil); err != nil {
		t.Fatal(err)
	}
	want := "default/web has just been deleted at " + fakeapi.Epoch.UTC().String()
	if err := recheckDeletionTimestamp(e, "test", cached)(); err == nil || err.Error() != want {
		t.Errorf("recheck of a deleted owner: %v, want %q", err, want)
	}
	other := *cached
	other.Metadata.UID = "old-uid"
	want = "can't recheck DeletionTimestamp: original ReplicaSet default/web is gone: got uid " + cached.Metadata.UID + ", wanted old-uid"
	if err := recheckDeletionTimestamp(e, "test", &other)(); err == nil || err.Error() != want {
		t.Errorf("recheck of a replaced owner: %v, want %q", err, want)
	}
}

// TestAggregate: claim and sync errors are joined as
// utilerrors.NewAggregate joins them: nil errors dropped, each distinct
// message once (nested aggregates flattened), in brackets only when more
// than one message is left.
func TestAggregate(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	if err := aggregate([]error{nil, nil}); err != nil {
		t.Errorf("only nils: %v, want nil", err)
	}
	if err := aggregate([]error{nil, a}); err != a {
		t.Errorf("one error: %v, want it alone", err)
	}
	for _, c := range []struct {
		errs []error
		want string
	}{
		{[]error{a, b}, "[a, b]"},
		{[]error{a, a}, "a"},
		{[]error{a, nil, b, a}, "[a, b]"},
		{[]error{aggregate([]error{a, b}), b, errors.New("c")}, "[a, b, c]"},
		{[]error{aggregate([]error{a, a}), a}, "a"},
	} {
		if err := aggregate(c.errs); err == nil || err.Error() != c.want {
			t.Errorf("aggregate(%v) = %v, want %q", c.errs, err, c.want)
		}
	}
}

// TestTemplateSelectorErrors: a StatefulSet's or DaemonSet's selector is
// refused with the field errors of ValidateStatefulSetSpec and
// ValidateDaemonSetSpec: Required (a StatefulSet's only), "empty selector
// is invalid for ..." for {}, and the template's labels as JSON when the
// selector does not select them.
func TestTemplateSelectorErrors(t *testing.T) {
	tmpl := map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web", "tier": "x"}}}
	mismatch := "spec.template.metadata.labels: Invalid value: {\"app\":\"web\",\"tier\":\"x\"}: `selector` does not match template `labels`"
	for _, c := range []struct {
		kind     string
		selector any
		template map[string]any
		want     string
	}{
		{"StatefulSet", nil, tmpl, "[spec.selector: Required value, " + mismatch + "]"},
		{"DaemonSet", nil, tmpl, mismatch},
		{"StatefulSet", map[string]any{}, tmpl, "spec.selector: Invalid value: {}: empty selector is invalid for statefulset"},
		{"DaemonSet", map[string]any{"matchLabels": map[string]any{}}, tmpl, "spec.selector: Invalid value: {}: empty selector is invalid for daemonset"},
		{"StatefulSet", map[string]any{"matchLabels": map[string]any{"app": "db"}}, tmpl, mismatch},
		{"DaemonSet", map[string]any{"matchLabels": map[string]any{"app": "db"}}, map[string]any{},
			"spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`"},
		{"StatefulSet", map[string]any{"matchLabels": map[string]any{"app": "web"}}, tmpl, ""},
	} {
		spec := map[string]any{"template": c.template}
		if c.selector != nil {
			spec["selector"] = c.selector
		}
		_, err := templateSelector(c.kind, spec, c.template)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s with selector %v: %q, want %q", c.kind, c.selector, got, c.want)
		}
	}
}
