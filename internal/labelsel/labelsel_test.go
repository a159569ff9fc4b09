package labelsel

import (
	"slices"
	"testing"
)

// TestMatches: a selector matches typed and unstructured labels alike, as
// labels.Selector.Matches does; a missing selector matches nothing and an
// empty one everything; a label that is not a string is no label.
func TestMatches(t *testing.T) {
	web := New(map[string]string{"app": "web"}, []Requirement{
		{Key: "tier", Operator: "In", Values: []string{"b", "a"}},
		{Key: "env", Operator: "NotIn", Values: []string{"prod"}},
		{Key: "team", Operator: "Exists"},
		{Key: "canary", Operator: "DoesNotExist"},
	})
	for _, tt := range []struct {
		sel    Selector
		labels map[string]string
		want   bool
	}{
		{web, map[string]string{"app": "web", "tier": "a", "team": "x"}, true},
		{web, map[string]string{"app": "web", "tier": "a", "team": "x", "env": "dev"}, true},
		{web, map[string]string{"app": "web", "tier": "a", "team": "x", "env": "prod"}, false},
		{web, map[string]string{"app": "web", "tier": "c", "team": "x"}, false},
		{web, map[string]string{"app": "web", "team": "x"}, false},
		{web, map[string]string{"app": "web", "tier": "a"}, false},
		{web, map[string]string{"app": "web", "tier": "a", "team": "x", "canary": ""}, false},
		{web, map[string]string{"app": "db", "tier": "a", "team": "x"}, false},
		{Nothing(), map[string]string{}, false},
		{New(nil, nil), map[string]string{"any": "x"}, true},
	} {
		if got := tt.sel.Matches(tt.labels); got != tt.want {
			t.Errorf("%s Matches %v = %v, want %v", tt.sel, tt.labels, got, tt.want)
		}
		untyped := map[string]any{}
		for k, v := range tt.labels {
			untyped[k] = v
		}
		if got := tt.sel.MatchesAny(untyped); got != tt.want {
			t.Errorf("%s MatchesAny %v = %v, want %v", tt.sel, untyped, got, tt.want)
		}
	}
	if web.MatchesAny(map[string]any{"app": "web", "tier": "a", "team": 1}) {
		t.Error("a label that is not a string satisfied Exists")
	}
}

// TestString: kubectl's syntax, requirements sorted by key, values sorted.
func TestString(t *testing.T) {
	for _, tt := range []struct {
		sel  Selector
		want string
	}{
		{Nothing(), "<none>"},
		{New(nil, nil), "<everything>"},
		{New(map[string]string{"b": "1"}, []Requirement{{Key: "c", Operator: "NotIn", Values: []string{"y", "x"}}, {Key: "a", Operator: "DoesNotExist"}, {Key: "d", Operator: "Exists"}, {Key: "b2", Operator: "In", Values: []string{"q"}}}),
			"!a,b=1,b2 in (q),c notin (x,y),d"},
	} {
		if got := tt.sel.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

// TestErrors: ValidateLabelSelectorRequirement's errors, the operator's
// before the key's; OperatorErrors leaves the key out.
func TestErrors(t *testing.T) {
	r := Requirement{Key: "", Operator: "Foo"}
	got := r.Errors("m[0]")
	if len(got) != 3 || got[0] != `m[0].operator: Invalid value: "Foo": not a valid selector operator` ||
		got[1] != `m[0].key: Invalid value: "": name part must be non-empty` {
		t.Errorf("Errors = %q", got)
	}
	if got := r.OperatorErrors("m[0]"); len(got) != 1 {
		t.Errorf("OperatorErrors = %q", got)
	}
	for _, r := range []Requirement{{Key: "k", Operator: "In"}, {Key: "k", Operator: "NotIn"}, {Key: "k", Operator: "Exists", Values: []string{"v"}}, {Key: "k", Operator: "DoesNotExist", Values: []string{"v"}}} {
		if got := r.Errors("p"); len(got) != 1 || !slices.Contains([]string{"p.values: Required value: must be specified when `operator` is 'In' or 'NotIn'", "p.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"}, got[0]) {
			t.Errorf("%+v: Errors = %q", r, got)
		}
	}
	for _, r := range []Requirement{{Key: "k", Operator: "In", Values: []string{"v"}}, {Key: "k", Operator: "Exists"}} {
		if got := r.Errors("p"); got != nil {
			t.Errorf("%+v: Errors = %q", r, got)
		}
	}
}
