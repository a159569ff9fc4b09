package tui

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"
)

// rules.txt is the text of every rule of docs/GC-RULES.md (the project's
// specification) and docs/NAMESPACE-RULES.md, one block per rule, so the explain view can show the
// rule behind a decision without a file system.
//
//go:embed rules.txt
var rulesText string

var (
	rulesOnce sync.Once
	rules     map[string]string
	ruleIDRE  = regexp.MustCompile(`[RN]\d+`)
)

// ruleText returns the text of rule id ("R44").
func ruleText(id string) (string, bool) {
	rulesOnce.Do(func() {
		rules = map[string]string{}
		for _, block := range strings.Split(rulesText, "\n\n") {
			block = strings.TrimSpace(block)
			if block == "" || strings.HasPrefix(block, "#") {
				continue
			}
			id, text, ok := strings.Cut(block, "\n")
			if ok {
				rules[id] = text
			}
		}
	})
	t, ok := rules[id]
	return t, ok
}

// ruleIDs returns the rule numbers a record's Rule field names, such as
// "R44(a)" or "R28, R48".
func ruleIDs(s string) []string { return ruleIDRE.FindAllString(s, -1) }
