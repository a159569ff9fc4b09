package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/internal/lazyre"
)

// Selector is a parsed label selector in kubectl's syntax: requirements
// joined by commas, all of which must hold.
type Selector []Requirement

// Requirement is one term of a label selector.
type Requirement struct {
	Key string
	// Op is one of "=", "!=", "in", "notin", "exists", "!" (does not exist).
	// "==" is read as "=".
	Op     string
	Values []string
}

var (
	labelNameRE  = lazyre.New(`^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$`)
	dnsSubRE     = lazyre.New(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	setTermRE    = lazyre.New(`^(\S+)\s+(in|notin)\s*\((.*)\)$`)
	operatorRuns = []string{"!=", "==", "="}
)

// ParseSelector parses a label selector such as "app=web,tier!=db",
// "env in (prod,staging)", "release notin (canary)", "app" or "!app".
// The empty string selects everything.
func ParseSelector(s string) (Selector, error) {
	var sel Selector
	if strings.TrimSpace(s) == "" {
		return sel, nil
	}
	terms := splitTerms(s)
	for _, term := range terms {
		term = strings.TrimSpace(term)
		r, err := parseRequirement(term)
		if err != nil && len(terms) > 1 {
			return nil, fmt.Errorf("invalid selector %q: %q: %v", s, term, err)
		}
		if err != nil {
			return nil, fmt.Errorf("invalid selector %q: %v", s, err)
		}
		sel = append(sel, r)
	}
	return sel, nil
}

// splitTerms splits at commas outside parentheses.
func splitTerms(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func parseRequirement(term string) (Requirement, error) {
	if term == "" {
		return Requirement{}, fmt.Errorf("empty requirement")
	}
	if m := setTermRE.Get().FindStringSubmatch(term); m != nil {
		r := Requirement{Key: m[1], Op: m[2]}
		if err := validKey(r.Key); err != nil {
			return r, err
		}
		for _, v := range strings.Split(m[3], ",") {
			v = strings.TrimSpace(v)
			if err := validValue(v); err != nil {
				return r, err
			}
			if v == "" {
				return r, fmt.Errorf("a set needs values, none of them empty")
			}
			if !slices.Contains(r.Values, v) {
				r.Values = append(r.Values, v)
			}
		}
		return r, nil
	}
	if key, ok := strings.CutPrefix(term, "!"); ok {
		key = strings.TrimSpace(key)
		return Requirement{Key: key, Op: "!"}, validKey(key)
	}
	for _, op := range operatorRuns {
		if i := strings.Index(term, op); i >= 0 {
			key, val := strings.TrimSpace(term[:i]), strings.TrimSpace(term[i+len(op):])
			if op == "==" {
				op = "="
			}
			if err := validKey(key); err != nil {
				return Requirement{}, err
			}
			if strings.ContainsAny(val, "=!") {
				return Requirement{}, fmt.Errorf("unexpected operator in the value %q", val)
			}
			if err := validValue(val); err != nil {
				return Requirement{}, err
			}
			return Requirement{Key: key, Op: op, Values: []string{val}}, nil
		}
	}
	if strings.ContainsAny(term, "<>() \t") {
		return Requirement{}, fmt.Errorf("unsupported operator (use =, ==, !=, in, notin, key or !key)")
	}
	return Requirement{Key: term, Op: "exists"}, validKey(term)
}

// validKey checks a label key: an optional DNS-subdomain prefix and a
// name of at most 63 characters.
func validKey(k string) error {
	name := k
	if i := strings.LastIndex(k, "/"); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if prefix == "" || len(prefix) > 253 || !dnsSubRE.Get().MatchString(prefix) {
			return fmt.Errorf("invalid label key %q: the prefix must be a DNS subdomain", k)
		}
	}
	if name == "" || len(name) > 63 || !labelNameRE.Get().MatchString(name) {
		return fmt.Errorf("invalid label key %q", k)
	}
	return nil
}

// validValue checks a label value: empty, or at most 63 characters of
// alphanumerics, '-', '_' and '.', starting and ending alphanumeric.
func validValue(v string) error {
	if v == "" {
		return nil
	}
	if len(v) > 63 || !labelNameRE.Get().MatchString(v) {
		return fmt.Errorf("invalid label value %q", v)
	}
	return nil
}

// Matches reports whether labels satisfy every requirement. As in
// Kubernetes, != and notin also match objects without the key.
func (s Selector) Matches(labels map[string]string) bool {
	for _, r := range s {
		v, has := labels[r.Key]
		var ok bool
		switch r.Op {
		case "=":
			ok = has && v == r.Values[0]
		case "!=":
			ok = !has || v != r.Values[0]
		case "in":
			ok = has && slices.Contains(r.Values, v)
		case "notin":
			ok = !has || !slices.Contains(r.Values, v)
		case "exists":
			ok = has
		case "!":
			ok = !has
		}
		if !ok {
			return false
		}
	}
	return true
}

// String returns the selector in kubectl syntax.
func (s Selector) String() string {
	terms := make([]string, len(s))
	for i, r := range s {
		switch r.Op {
		case "=", "!=":
			terms[i] = r.Key + r.Op + r.Values[0]
		case "in", "notin":
			terms[i] = r.Key + " " + r.Op + " (" + strings.Join(r.Values, ",") + ")"
		case "exists":
			terms[i] = r.Key
		case "!":
			terms[i] = "!" + r.Key
		}
	}
	return strings.Join(terms, ",")
}
