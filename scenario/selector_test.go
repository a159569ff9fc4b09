package scenario

import "testing"

func TestSelector(t *testing.T) {
	web := map[string]string{"app": "web", "tier": "frontend"}
	db := map[string]string{"app": "db", "tier": "backend", "env": "prod"}
	none := map[string]string{}
	tests := []struct {
		sel          string
		str          string
		web, db, nil bool
	}{
		{"", "", true, true, true},
		{"app=web", "app=web", true, false, false},
		{"app==web", "app=web", true, false, false},
		{"app!=web", "app!=web", false, true, true},
		{"app", "app", true, true, false},
		{"!env", "!env", true, false, true},
		{"app=web,tier!=backend", "app=web,tier!=backend", true, false, false},
		{" app = db , env ", "app=db,env", false, true, false},
		{"tier in (frontend, backend)", "tier in (frontend,backend)", true, true, false},
		{"env notin (prod)", "env notin (prod)", true, false, true},
		{"env in (prod),app", "env in (prod),app", false, true, false},
		{"example.com/team=x", "example.com/team=x", false, false, false},
		{"app=", "app=", false, false, false},
	}
	for _, tc := range tests {
		s, err := ParseSelector(tc.sel)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", tc.sel, err)
			continue
		}
		if s.String() != tc.str {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", tc.sel, s.String(), tc.str)
		}
		for _, c := range []struct {
			labels map[string]string
			want   bool
		}{{web, tc.web}, {db, tc.db}, {none, tc.nil}} {
			if got := s.Matches(c.labels); got != c.want {
				t.Errorf("%q matches %v = %t, want %t", tc.sel, c.labels, got, c.want)
			}
		}
	}
}

func TestSelectorErrors(t *testing.T) {
	for in, want := range map[string]string{
		"app in ()":      `invalid selector "app in ()": a set needs values, none of them empty`,
		"app=web,,x":     `invalid selector "app=web,,x": "": empty requirement`,
		"tier>1":         `invalid selector "tier>1": unsupported operator (use =, ==, !=, in, notin, key or !key)`,
		"-app=x":         `invalid selector "-app=x": invalid label key "-app"`,
		"app=we b":       `invalid selector "app=we b": invalid label value "we b"`,
		"app=a=b":        `invalid selector "app=a=b": unexpected operator in the value "a=b"`,
		"Bad_/x=1":       `invalid selector "Bad_/x=1": invalid label key "Bad_/x": the prefix must be a DNS subdomain`,
		"!":              `invalid selector "!": invalid label key ""`,
		"env notin (a,)": `invalid selector "env notin (a,)": a set needs values, none of them empty`,
	} {
		_, err := ParseSelector(in)
		if err == nil || err.Error() != want {
			t.Errorf("ParseSelector(%q) error = %v, want %s", in, err, want)
		}
	}
}
