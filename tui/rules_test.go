package tui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateRules = flag.Bool("update-rules", false, "regenerate rules.txt from ../shared/docs/GC-RULES.md")

// specPath is the specification, in the shared folder beside the project.
var specPath = filepath.Join("..", "..", "shared", "docs", "GC-RULES.md")

// TestRulesText checks that the rules the explain view shows are the
// specification's own words: rules.txt must be what extractRules makes of
// GC-RULES.md. It needs the shared folder beside the project (CI has it).
func TestRulesText(t *testing.T) {
	spec, err := os.ReadFile(specPath)
	if os.IsNotExist(err) {
		t.Skipf("the specification is not at %s (the shared folder is not beside this checkout)", specPath)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := extractRules(string(spec))
	if *updateRules {
		if err := os.WriteFile("rules.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if rulesText != want {
		t.Fatalf("rules.txt is out of date with %s: run go test ./tui -run TestRulesText -update-rules", specPath)
	}
	for _, id := range []string{"R1", "R29", "R44", "R69"} {
		if text, ok := ruleText(id); !ok || text == "" {
			t.Fatalf("rule %s has no text", id)
		}
	}
	if text, _ := ruleText("R44"); !strings.Contains(text, "cycle breaker") {
		t.Fatalf("R44 lost its words: %q", text)
	}
}
