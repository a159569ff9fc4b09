package tui

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateRules = flag.Bool("update-rules", false, "regenerate rules.txt from docs/GC-RULES.md")

// specPath is the project's specification.
var specPath = filepath.Join("..", "docs", "GC-RULES.md")

// nsSpecPath holds the namespace rules (N1-N14), appended to rules.txt.
var nsSpecPath = filepath.Join("..", "docs", "NAMESPACE-RULES.md")

// TestRulesText checks that the rules the explain view shows are the
// specification's own words: rules.txt must be what extractRules makes of
// docs/GC-RULES.md.
func TestRulesText(t *testing.T) {
	spec, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	nsSpec, err := os.ReadFile(nsSpecPath)
	if err != nil {
		t.Fatal(err)
	}
	want := extractRules(string(spec) + "\n" + string(nsSpec))
	if *updateRules {
		if err := os.WriteFile("rules.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if rulesText != want {
		t.Fatalf("rules.txt is out of date with %s: run go test ./tui -run TestRulesText -update-rules", specPath)
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
	for i := 1; i <= 14; i++ {
		if text, ok := ruleText("N" + strconv.Itoa(i)); !ok || strings.TrimSpace(text) == "" {
			t.Errorf("namespace rule N%d has no text", i)
		}
	}
	if _, ok := ruleText("R70"); ok {
		t.Error("rules.txt has a rule R70, which the specification does not")
	}
}
