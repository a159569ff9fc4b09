package scenario

import (
	"strings"
	"testing"
)

// TestYAMLErrorLines pins the file, line and message a YAML syntax error
// gets, for broken inputs of every kind the YAML reader, scanner and
// parser report: at the line where the reader met the fault (found with
// YAML v2, see YAMLError), not the line v3 names, where the enclosing
// block began. A change to how the line is found (issue 19: leaving v2 out
// of the browser's download) must keep every one of these.
func TestYAMLErrorLines(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"unclosed quote", "name: \"a\n", "t.yaml:1: invalid YAML: found unexpected end of stream"},
		{"unclosed single quote", "name: a\nsteps:\n  - create: 'x\n", "t.yaml:3: invalid YAML: found unexpected end of stream"},
		{"tab indent", "name: a\nobjects:\n\t- kind: Pod\n", "t.yaml:3: invalid YAML: found character that cannot start any token"},
		{"mapping value in plain scalar", "name: a\ndescription: b: c\n", "t.yaml:2: invalid YAML: mapping values are not allowed in this context"},
		{"bad indentation of a key", "name: a\nobjects:\n  - kind: Pod\n    name: p\n   bad: 1\n", "t.yaml:5: invalid YAML: did not find expected '-' indicator"},
		{"key without value deeper", "name: a\nobjects:\n  - kind: Pod\n    metadata:\n      name: p\n      labels\n      x: 1\n", "t.yaml:7: invalid YAML: could not find expected ':'"},
		{"sequence in mapping", "name: a\nsteps:\n- create: x\n  - delete: y\n", "t.yaml:4: invalid YAML: did not find expected key"},
		{"block end expected", "name: a\nobjects:\n  - kind: Pod\n  kind: Pod\n- kind: x\n", "t.yaml:4: invalid YAML: did not find expected '-' indicator"},
		{"unclosed flow sequence", "name: a\nsteps: [a, b\nobjects: []\n", "t.yaml:3: invalid YAML: did not find expected ',' or ']'"},
		{"unclosed flow mapping", "name: a\nlabels: {a: 1, b: 2\n\nsteps: []\n", "t.yaml:4: invalid YAML: did not find expected ',' or '}'"},
		{"flow sequence bad separator", "name: a\nsteps: [a b: c, d]]\n", "t.yaml:2: invalid YAML: did not find expected key"},
		{"stray closing bracket", "name: a\nsteps: ]\n", "t.yaml:2: invalid YAML: did not find expected node content"},
		{"unknown anchor", "name: a\nsteps: *nope\n", "t.yaml:1: invalid YAML: unknown anchor 'nope' referenced"},
		{"undefined tag handle", "name: a\nsteps: !x!y z\n", "t.yaml:2: invalid YAML: found undefined tag handle"},
		{"duplicate YAML directive", "%YAML 1.1\n%YAML 1.1\n---\nname: a\n", "t.yaml:2: invalid YAML: found duplicate %YAML directive"},
		{"directive without document start", "%YAML 1.1\nname: a\n", "t.yaml:2: invalid YAML: did not find expected <document start>"},
		{"control character", "name: a\ndescription: \"x\x01\"\n", "t.yaml:2: invalid YAML: control characters are not allowed (column 16, byte 0x01)"},
		{"invalid UTF-8", "name: a\ndescription: caf\xe9\n", "t.yaml:2: invalid YAML: incomplete UTF-8 octet sequence (column 17, byte 0xe9)"},
		{"anchor in wrong place", "name: a\nobjects:\n  - &a\n  - b\n  c: d\n", "t.yaml:5: invalid YAML: did not find expected '-' indicator"},
		{"alias as key with value", "name: a\n? [a\n: b\n", "t.yaml:3: invalid YAML: did not find expected ',' or ']'"},
		{"block scalar bad indicator", "name: a\ndescription: |x\n  text\n", "t.yaml:2: invalid YAML: did not find expected comment or line break"},
		{"second document broken", "name: a\n---\nname: \"b\n", "t.yaml:3: invalid YAML: found unexpected end of stream"},
		{"error deep in a long file", "name: a\nobjects:\n" + strings.Repeat("  - kind: ConfigMap\n    metadata: {name: c}\n", 20) + "  - kind: Pod\n    metadata:\n      name: p\n     labels: {}\n", "t.yaml:46: invalid YAML: did not find expected key"},
		{"no newline at end", "name: a\nsteps: [", "t.yaml:2: invalid YAML: did not find expected node content"},
	} {
		_, err := Parse("t.yaml", []byte(c.in))
		got := ""
		if err != nil {
			got = strings.SplitN(err.Error(), "\n", 2)[0]
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
