package engine

import (
	"encoding/json"
	"testing"
)

// TestSelectorErrWordsValidation: an invalid matchExpressions entry is
// worded as v1.34.4's apps validation words a ReplicaSet's (texts from
// ValidateReplicaSet run on each selector): ValidateLabelSelectorRequirement's
// field errors under spec.selector, then LabelSelectorAsSelector's
// "invalid label selector" with the selector as JSON.
func TestSelectorErrWordsValidation(t *testing.T) {
	for _, tt := range []struct{ sel, want string }{
		{`{"matchExpressions":[{"key":"app","operator":"Foo","values":["web"]}]}`,
			`[spec.selector.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator, spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Foo","values":["web"]}]}: invalid label selector]`},
		{`{"matchExpressions":[{"key":"app","operator":"In"}]}`,
			"[spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\"}]}: invalid label selector]"},
		{`{"matchExpressions":[{"key":"app","operator":"Exists","values":["web"]}]}`,
			"[spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist', spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Exists\",\"values\":[\"web\"]}]}: invalid label selector]"},
		{`{"matchExpressions":[{"key":"","operator":"Exists"}]}`,
			`[spec.selector.matchExpressions[0].key: Invalid value: "": name part must be non-empty, spec.selector.matchExpressions[0].key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.selector: Invalid value: {"matchExpressions":[{"key":"","operator":"Exists"}]}: invalid label selector]`},
	} {
		var raw map[string]any
		if err := json.Unmarshal([]byte(tt.sel), &raw); err != nil {
			t.Fatal(err)
		}
		_, err := parseSelector(raw)
		if err == nil {
			t.Fatalf("%s: parsed", tt.sel)
		}
		if got := selectorErr("spec.selector", err).Error(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.sel, got, tt.want)
		}
	}
}
