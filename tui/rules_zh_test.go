package tui

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ruleHash is the short hash of an English rule's text that its
// translation records. Only the tests read it: in the package, it would
// link crypto/sha256 (and the FIPS module's AES and DRBG behind it) into
// the browser's main.wasm.
func ruleHash(english string) string {
	sum := sha256.Sum256([]byte(english))
	return hex.EncodeToString(sum[:4])
}

// rulesZhPending lists, one id a line, the rules whose Chinese text is
// not written yet; the explain view shows them in English with a note.
const rulesZhPending = "rules.zh.pending"

// pendingZhRules reads rules.zh.pending (absent: nothing is pending).
func pendingZhRules(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(rulesZhPending)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			ids = append(ids, l)
		}
	}
	return ids
}

// TestRulesZhCoversEnglish: rules.zh.txt has a block for every rule of
// rules.txt (or lists it in rules.zh.pending), and none that rules.txt
// lacks.
func TestRulesZhCoversEnglish(t *testing.T) {
	en := parseRules(rulesText)
	zh := parseRules(rulesZhText)
	pending := pendingZhRules(t)
	for id := range zh {
		if _, ok := en[id]; !ok {
			t.Errorf("rules.zh.txt has %s, which rules.txt does not: remove it", id)
		}
		if slices.Contains(pending, id) {
			t.Errorf("%s is translated in rules.zh.txt: remove it from %s", id, rulesZhPending)
		}
	}
	for id := range en {
		if _, ok := zh[id]; !ok && !slices.Contains(pending, id) {
			t.Errorf("rules.zh.txt has no %s: translate it (id line %q) or list it in %s", id, id+" "+ruleHash(en[id].text), rulesZhPending)
		}
	}
	for _, id := range pending {
		if _, ok := en[id]; !ok {
			t.Errorf("%s lists %s, which rules.txt does not have", rulesZhPending, id)
		}
	}
}

// TestRulesZhNotStale: each Chinese block records the hash of the English
// block it renders; when the English changes, the translation must be
// looked at again.
func TestRulesZhNotStale(t *testing.T) {
	en := parseRules(rulesText)
	for id, r := range parseRules(rulesZhText) {
		e, ok := en[id]
		if !ok {
			continue // TestRulesZhCoversEnglish says so
		}
		if want := ruleHash(e.text); r.hash != want {
			t.Errorf("%s: the English rule changed since it was translated (hash %q, now %q): bring the Chinese block in rules.zh.txt up to date with rules.txt, then put %q on its id line", id, r.hash, want, id+" "+want)
		}
	}
}

var (
	// The names and texts a translation keeps as they are.
	backtickRE = regexp.MustCompile("`[^`]*`")
	quotedRE   = regexp.MustCompile(`"[^"\n]*"`)
	citationRE = regexp.MustCompile(`\[[^\[\]\n]*\]`)
	ruleRefRE  = regexp.MustCompile(`\b[RN]\d+\b`)
)

// keptTokens is the sorted set of what re finds in s.
func keptTokens(re *regexp.Regexp, s string) []string {
	out := re.FindAllString(s, -1)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestRulesZhFidelity is a cheap check that a translation did not drop or
// change what stays English: backticked names, quoted strings (error
// texts), rule references and bracketed upstream citations are the same
// set in the Chinese block as in the English one.
func TestRulesZhFidelity(t *testing.T) {
	en := parseRules(rulesText)
	for id, r := range parseRules(rulesZhText) {
		e, ok := en[id]
		if !ok {
			continue
		}
		for _, c := range []struct {
			what string
			re   *regexp.Regexp
		}{
			{"backticked names", backtickRE},
			{"quoted strings", quotedRE},
			{"rule references", ruleRefRE},
			{"bracketed citations", citationRE},
		} {
			want, got := keptTokens(c.re, e.text), keptTokens(c.re, r.text)
			if !slices.Equal(want, got) {
				t.Errorf("%s: the Chinese block's %s differ from the English:\n  en: %q\n  zh: %q", id, c.what, want, got)
			}
		}
	}
}

// TestRuleTextIn: the explain view's choice of text by language.
func TestRuleTextIn(t *testing.T) {
	en, _ := ruleText("R1")
	if got, tr, ok := ruleTextIn("", "R1"); !ok || !tr || got != en {
		t.Errorf("English R1: %q %v %v", got, tr, ok)
	}
	zh := parseRules(rulesZhText)
	for id, r := range zh {
		if got, tr, ok := ruleTextIn("zh", id); !ok || !tr || got != r.text {
			t.Errorf("zh %s: %q %v %v", id, got, tr, ok)
		}
	}
	for _, id := range pendingZhRules(t) {
		if got, tr, ok := ruleTextIn("zh", id); !ok || tr || got != parseRules(rulesText)[id].text {
			t.Errorf("pending zh %s: want the English, untranslated; got %q %v %v", id, got, tr, ok)
		}
	}
}

// TestExplainZhPendingRule: a rule without its Chinese text yet is shown
// in English in the zh explain view, under a note that says so; with its
// text the note is gone and the Chinese shows.
func TestExplainZhPendingRule(t *testing.T) {
	explain := func() string {
		m, err := New(Options{Width: 120, Height: 40, NoColor: true, Theme: ThemeDark, Lang: "zh"})
		if err != nil {
			t.Fatal(err)
		}
		press(t, m, "d", "2", "s", "s", "e") // the ReplicaSet's verdict, R44(c)
		return screen(m)
	}
	got := explain()
	if strings.Contains(got, "尚未完成") || !strings.Contains(got, "决定：") {
		t.Errorf("R44 has its Chinese text, the view should show it without a note:\n%s", got)
	}
	loadRules()
	saved := rulesZh["R44"]
	delete(rulesZh, "R44")
	defer func() { rulesZh["R44"] = saved }()
	got = explain()
	if !strings.Contains(got, "（这条规则的中文译文尚未完成，下面是英文原文）") || !strings.Contains(got, "The decision:") {
		t.Errorf("an untranslated R44 should show its English under the pending note:\n%s", got)
	}
}
