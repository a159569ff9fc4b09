package tui

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/gcplay/gcplay/internal/lazyre"
)

// rules.txt is the text of every rule of docs/GC-RULES.md (the project's
// specification) and docs/NAMESPACE-RULES.md, one block per rule, so the explain view can show the
// rule behind a decision without a file system.
//
//go:embed rules.txt
var rulesText string

// rules.zh.txt is the Simplified Chinese text of the rules, in the same
// block form; each block's id line also carries the hash (ruleHash) of the
// English block it translates, so a test can tell when the English moved
// on. A rule missing here is listed in rules.zh.pending and shown in
// English, with a note.
//
//go:embed rules.zh.txt
var rulesZhText string

var (
	rulesOnce sync.Once
	rules     map[string]string
	rulesZh   map[string]zhRule
	ruleIDRE  = lazyre.New(`[RN]\d+`)
)

// zhRule is a rule's Chinese text and the hash of the English it renders.
type zhRule struct {
	hash, text string
}

// parseRules reads the blocks of a rules file: id line (the id, then for
// a translation the English block's hash), then the text.
func parseRules(s string) map[string]zhRule {
	out := map[string]zhRule{}
	for _, block := range strings.Split(s, "\n\n") {
		block = strings.TrimSpace(block)
		if block == "" || strings.HasPrefix(block, "#") {
			continue
		}
		head, text, ok := strings.Cut(block, "\n")
		if ok {
			id, hash, _ := strings.Cut(head, " ")
			out[id] = zhRule{hash: strings.TrimSpace(hash), text: text}
		}
	}
	return out
}

func loadRules() {
	rulesOnce.Do(func() {
		rules = map[string]string{}
		for id, r := range parseRules(rulesText) {
			rules[id] = r.text
		}
		rulesZh = parseRules(rulesZhText)
	})
}

// ruleText returns the text of rule id ("R44").
func ruleText(id string) (string, bool) {
	loadRules()
	t, ok := rules[id]
	return t, ok
}

// ruleTextIn returns the text of rule id in lang: the translation when
// there is one (translated true), else the English.
func ruleTextIn(lang, id string) (text string, translated, ok bool) {
	loadRules()
	if lang == "zh" {
		if r, ok := rulesZh[id]; ok {
			return r.text, true, true
		}
	}
	t, ok := rules[id]
	return t, lang == "" || lang == "en", ok
}

// ruleIDs returns the rule numbers a record's Rule field names, such as
// "R44(a)" or "R28, R48".
func ruleIDs(s string) []string { return ruleIDRE.Get().FindAllString(s, -1) }
