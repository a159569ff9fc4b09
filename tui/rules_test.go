package tui

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

// rulesFrom is the specification to regenerate rules.txt from. The tests
// never read it on their own: nothing in the repository depends on files
// outside it, and rules.txt is the project's copy of the rules' words.
var rulesFrom = flag.String("rules-from", "", "regenerate rules.txt from this GC-RULES.md (e.g. ../../shared/docs/GC-RULES.md)")

// TestRulesText regenerates rules.txt from the specification and checks
// that the explain view's words are the specification's own, when
// -rules-from names it: go test ./tui -run TestRulesText -rules-from=PATH.
func TestRulesText(t *testing.T) {
	if *rulesFrom == "" {
		t.Skip("a maintainer's aid: run it with -rules-from=PATH/GC-RULES.md to regenerate rules.txt")
	}
	spec, err := os.ReadFile(*rulesFrom)
	if err != nil {
		t.Fatal(err)
	}
	want := extractRules(string(spec))
	if rulesText != want {
		if err := os.WriteFile("rules.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rules.txt rewritten from %s", *rulesFrom)
	}
}

// TestRulesTextComplete checks that the explain view has words for every
// rule of the specification, R1 to R69, wherever the tests run.
func TestRulesTextComplete(t *testing.T) {
	for i := 1; i <= 69; i++ {
		id := "R" + strconv.Itoa(i)
		if text, ok := ruleText(id); !ok || strings.TrimSpace(text) == "" {
			t.Errorf("rule %s has no text", id)
		}
	}
	if text, _ := ruleText("R44"); !strings.Contains(text, "cycle breaker") {
		t.Errorf("R44 lost its words: %q", text)
	}
	if _, ok := ruleText("R70"); ok {
		t.Error("rules.txt has a rule R70, which the specification does not")
	}
}
