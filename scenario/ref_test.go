package scenario

import (
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

func TestResolveRef(t *testing.T) {
	reg := fakeapi.NewRegistry()
	if err := reg.Add(fakeapi.KindInfo{APIVersion: "example.com/v1", Kind: "Widget", Scope: fakeapi.Namespaced, Custom: true}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in      string
		want    string // String() of the result
		av, ns  string
		uid     string
		nsGiven bool
		err     string
	}{
		{in: "Pod/p", want: "Pod/p", av: "v1", ns: "default"},
		{in: "po/p", want: "Pod/p", av: "v1", ns: "default"},
		{in: "PODS/p", want: "Pod/p", av: "v1", ns: "default"},
		{in: "deploy/other/web", want: "Deployment/other/web", av: "apps/v1", ns: "other", nsGiven: true},
		{in: "rs/default/web-6d", want: "ReplicaSet/web-6d", av: "apps/v1", ns: "default", nsGiven: true},
		{in: "ns/kube-system", want: "Namespace/kube-system", av: "v1", ns: ""},
		{in: "Node/n1", want: "Node/n1", av: "v1", ns: ""},
		{in: "widgets/w", want: "Widget/w", av: "example.com/v1", ns: "default"},
		{in: "uid:owner-1", want: "uid:owner-1", uid: "owner-1"},
		{in: "ns/a/b", err: `invalid reference "ns/a/b": Namespace is cluster-scoped, write Namespace/b`},
		{in: "Pod", err: `invalid reference "Pod": write Kind/name, Kind/namespace/name or uid:<uid>`},
		{in: "Pod/", err: `invalid reference "Pod/": write Kind/name, Kind/namespace/name or uid:<uid>`},
		{in: "/p", err: `invalid reference "/p": write Kind/name, Kind/namespace/name or uid:<uid>`},
		{in: "a/b/c/d", err: `invalid reference "a/b/c/d": write Kind/name, Kind/namespace/name or uid:<uid>`},
		{in: "Pod/my pod", err: `invalid reference "Pod/my pod": write Kind/name, Kind/namespace/name or uid:<uid>`},
		{in: "uid:", err: `invalid reference "uid:": uid:<uid> needs a uid without spaces or slashes`},
		{in: "Gadget/g", err: `unknown kind "Gadget" (did you mean "Widget"?): not built in and not declared under kinds`},
	}
	for _, tc := range tests {
		r, err := ResolveRef(reg, tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ResolveRef(%q) error = %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ResolveRef(%q): %v", tc.in, err)
			continue
		}
		if r.String() != tc.want || r.APIVersion != tc.av || r.Namespace != tc.ns || r.UID != tc.uid || r.NamespaceGiven != tc.nsGiven || r.Text != tc.in {
			t.Errorf("ResolveRef(%q) = %+v (%s), want %s av=%q ns=%q uid=%q given=%t", tc.in, r, r, tc.want, tc.av, tc.ns, tc.uid, tc.nsGiven)
		}
	}
}

func TestParseRefKeepsSpelling(t *testing.T) {
	r, err := ParseRef("cm/other/x")
	if err != nil || r.Kind != "cm" || r.Namespace != "other" || r.Name != "x" || !r.NamespaceGiven {
		t.Errorf("ParseRef = %+v, %v", r, err)
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"exists", "absent", "terminating", "notTerminating"}
	for in, want := range map[string]string{
		"absnt":          ` (did you mean "absent"?)`,
		"Absent":         ` (did you mean "absent"?)`,
		"exsits":         ` (did you mean "exists"?)`,
		"nonTerminating": ` (did you mean "notTerminating"?)`,
		"color":          "",
		"abs":            "",
	} {
		if got := suggest(in, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestResolveOwnerRef: an owner in expect.ownerReferences may be of a kind
// gcplay does not know (an ownerReference may name any kind); known kinds
// resolve as everywhere, and the wrong scope is still an error.
func TestResolveOwnerRef(t *testing.T) {
	reg := fakeapi.NewRegistry()
	for _, tc := range []struct{ in, want, ns, err string }{
		{in: "rs/web", want: "ReplicaSet/web", ns: "default"},
		{in: "Gizmo/g", want: "Gizmo/g"},
		{in: "Gizmo/other/g", want: "Gizmo/other/g", ns: "other"},
		{in: "ns/a/b", err: `invalid reference "ns/a/b": Namespace is cluster-scoped, write Namespace/b`},
		{in: "Gizmo", err: `invalid reference "Gizmo": write Kind/name, Kind/namespace/name or uid:<uid>`},
	} {
		r, err := ResolveOwnerRef(reg, tc.in)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("ResolveOwnerRef(%q) error = %v, want %s", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("ResolveOwnerRef(%q): %v", tc.in, err)
		case r.String() != tc.want || r.Namespace != tc.ns:
			t.Errorf("ResolveOwnerRef(%q) = %s in %q, want %s in %q", tc.in, r, r.Namespace, tc.want, tc.ns)
		}
	}
}
