// Package labelsel is the one Kubernetes label selector of gcplay: a
// meta/v1 LabelSelector made a selector as apimachinery's
// LabelSelectorAsSelector makes it, matched against an object's labels,
// with its requirements' field errors worded as
// ValidateLabelSelectorRequirement words them. The engine's controllers
// and the fake apiserver's validation both use it, as upstream's have one
// LabelSelectorAsSelector.
package labelsel

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// Requirement is a LabelSelectorRequirement, in its JSON form.
type Requirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Selector is a parsed meta/v1 LabelSelector: matchLabels plus
// matchExpressions (In, NotIn, Exists, DoesNotExist), all ANDed. A missing
// selector selects nothing; an empty one selects everything, as
// LabelSelectorAsSelector says.
type Selector struct {
	nothing     bool
	matchLabels map[string]string
	exprs       []Requirement
}

// Nothing is the selector of a missing (nil) LabelSelector.
func Nothing() Selector { return Selector{nothing: true} }

// New is the selector of matchLabels and exprs, whose requirements have
// passed Errors. It keeps both and sorts each requirement's values.
func New(matchLabels map[string]string, exprs []Requirement) Selector {
	for _, r := range exprs {
		slices.Sort(r.Values)
	}
	return Selector{matchLabels: matchLabels, exprs: exprs}
}

// SelectsNothing reports whether the selector is a missing one's.
func (s Selector) SelectsNothing() bool { return s.nothing }

// Empty reports whether the selector selects everything.
func (s Selector) Empty() bool {
	return !s.nothing && len(s.matchLabels) == 0 && len(s.exprs) == 0
}

// Matches reports whether labels satisfy the selector.
func (s Selector) Matches(labels map[string]string) bool {
	return matches(s, labels, func(v string) (string, bool) { return v, true })
}

// MatchesAny is Matches over unstructured labels: a value that is not a
// string is no label.
func (s Selector) MatchesAny(labels map[string]any) bool {
	return matches(s, labels, func(v any) (string, bool) { s, ok := v.(string); return s, ok })
}

// matches is labels.Selector.Matches; str reads a label's value.
func matches[V any](s Selector, labels map[string]V, str func(V) (string, bool)) bool {
	if s.nothing {
		return false
	}
	label := func(k string) (string, bool) {
		v, ok := labels[k]
		if !ok {
			return "", false
		}
		return str(v)
	}
	for k, v := range s.matchLabels {
		if got, ok := label(k); !ok || got != v {
			return false
		}
	}
	for _, r := range s.exprs {
		v, has := label(r.Key)
		switch r.Operator {
		case "In":
			if !has || !slices.Contains(r.Values, v) {
				return false
			}
		case "NotIn":
			if has && slices.Contains(r.Values, v) {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		}
	}
	return true
}

// String writes the selector in kubectl's syntax, requirements sorted by
// key as labels.Selector.String does.
func (s Selector) String() string {
	if s.nothing {
		return "<none>"
	}
	type req struct{ key, text string }
	var reqs []req
	for k, v := range s.matchLabels {
		reqs = append(reqs, req{k, k + "=" + v})
	}
	for _, r := range s.exprs {
		var t string
		switch r.Operator {
		case "In":
			t = r.Key + " in (" + strings.Join(r.Values, ",") + ")"
		case "NotIn":
			t = r.Key + " notin (" + strings.Join(r.Values, ",") + ")"
		case "Exists":
			t = r.Key
		case "DoesNotExist":
			t = "!" + r.Key
		}
		reqs = append(reqs, req{r.Key, t})
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].key < reqs[j].key })
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = r.text
	}
	if len(parts) == 0 {
		return "<everything>"
	}
	return strings.Join(parts, ",")
}

// OperatorErrors are ValidateLabelSelectorRequirement's errors of the
// operator and its values, under path (the requirement's field path).
func (r Requirement) OperatorErrors(path string) []string {
	switch r.Operator {
	case "In", "NotIn":
		if len(r.Values) == 0 {
			return []string{path + ".values: Required value: must be specified when `operator` is 'In' or 'NotIn'"}
		}
	case "Exists", "DoesNotExist":
		if len(r.Values) > 0 {
			return []string{path + ".values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"}
		}
	default:
		op, _ := json.Marshal(r.Operator)
		return []string{path + ".operator: Invalid value: " + string(op) + ": not a valid selector operator"}
	}
	return nil
}

// Errors are ValidateLabelSelectorRequirement's errors under path: the
// operator and its values, then the key (ValidateLabelName; of its rules
// only the empty key is checked here).
func (r Requirement) Errors(path string) []string {
	errs := r.OperatorErrors(path)
	if r.Key == "" {
		errs = append(errs,
			path+`.key: Invalid value: "": name part must be non-empty`,
			path+`.key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`)
	}
	return errs
}
