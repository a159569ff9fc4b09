package i18n

import (
	"maps"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestCatalogsMatchEnglish: every language has every English message,
// with the same placeholders.
func TestCatalogsMatchEnglish(t *testing.T) {
	if !slices.Contains(Langs(), "zh") || Langs()[0] != "en" {
		t.Fatalf("languages %v: want en first, and zh", Langs())
	}
	for _, p := range Problems() {
		t.Error(p)
	}
}

func TestT(t *testing.T) {
	en, zh := For("en"), For("zh")
	if got := en.T("picker-title", "name", "ConfigMap/app"); got != "Delete ConfigMap/app" {
		t.Errorf("en = %q", got)
	}
	if got := zh.T("picker-title", "name", "ConfigMap/app"); got != "删除 ConfigMap/app" {
		t.Errorf("zh = %q", got)
	}
	if got := For("xx").Lang(); got != "en" {
		t.Errorf("an unknown language gives %q", got)
	}
	if got := en.T("no-such-message"); got != "[no-such-message]" {
		t.Errorf("a missing message gives %q", got)
	}
	if got := en.N("picker-kept", 1); got != " (1 with another owner only loses the reference)" {
		t.Errorf("N(1) = %q", got)
	}
	if got := en.N("picker-kept", 2); got != " (2 with another owner only lose the reference)" {
		t.Errorf("N(2) = %q", got)
	}
}

func TestEngine(t *testing.T) {
	zh := For("zh")
	for in, want := range map[string]string{
		"idle: every queue is empty":                                              "空闲：每个队列都是空的",
		"graphChanges: process delete ConfigMap/app":                              "graphChanges：处理 ConfigMap/app 的 delete 事件",
		"ConfigMap/app removed from storage at once (HTTP 200)":                   "ConfigMap/app 立即从存储中移除（HTTP 200）",
		"something the catalog has no form for":                                   "something the catalog has no form for",
		"statefulset: sync StatefulSet/db":                                        "statefulset：同步 StatefulSet/db",
		"namespace: sync Namespace/team-a (delete its content, then finalize it)": "namespace：同步 Namespace/team-a（删除它的内容，然后 finalize 它）",
		"ttlafterfinished: check whether Job/pi has expired":                      "ttlafterfinished：检查 Job/pi 是否已到期",
		"attemptToDelete: decide the fate of Secret/team-a/token":                 "attemptToDelete：决定 Secret/team-a/token 的去留",
	} {
		if got := zh.Engine(in); got != want {
			t.Errorf("Engine(%q) = %q, want %q", in, got, want)
		}
		if got := For("en").Engine(in); got != in {
			t.Errorf("English Engine(%q) = %q", in, got)
		}
	}
}

// TestCatalogParsedOnFirstUse: a program in English never parses the other
// languages' catalogs; another language's is parsed when asked for.
func TestCatalogParsedOnFirstUse(t *testing.T) {
	catalogMu.Lock()
	saved := catalogs
	catalogs = map[string]map[string]string{}
	catalogMu.Unlock()
	defer func() {
		catalogMu.Lock()
		catalogs = saved
		catalogMu.Unlock()
	}()
	parsed := func() []string {
		catalogMu.Lock()
		defer catalogMu.Unlock()
		var l []string
		for k := range catalogs {
			l = append(l, k)
		}
		slices.Sort(l)
		return l
	}
	if got := For("en").T("msg-opened-starter", "select", "↑", "delete", "x", "step", "s", "help", "?"); got == "" || got[0] == '[' {
		t.Fatalf("English: %q", got)
	}
	_ = Langs()
	For("fr") // not spoken: English
	if got := parsed(); !slices.Equal(got, []string{"en"}) {
		t.Fatalf("after English alone, parsed %v; want [en]", got)
	}
	if For("zh").Lang() != "zh" {
		t.Fatal("For(zh) is not Chinese")
	}
	if got := parsed(); !slices.Equal(got, []string{"en", "zh"}) {
		t.Fatalf("after Chinese, parsed %v; want [en zh]", got)
	}
}

// TestPlainCatalogIsYAML: each catalog file, read by plainCatalog, is
// what YAML reads; lines of other shapes make it give up (the file is then
// read as YAML).
func TestPlainCatalogIsYAML(t *testing.T) {
	for _, lang := range Langs() {
		data, err := files.ReadFile("messages/" + lang + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := plainCatalog(data)
		if !ok {
			t.Errorf("messages/%s.yaml: not read by plainCatalog (every start would then parse it as YAML)", lang)
			continue
		}
		want := map[string]string{}
		if err := yaml.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			for k, v := range want {
				if got[k] != v {
					t.Errorf("messages/%s.yaml: %s: plainCatalog read %q, YAML %q", lang, k, got[k], v)
				}
			}
			t.Errorf("messages/%s.yaml: %d messages read, YAML has %d", lang, len(got), len(want))
		}
	}
	for _, text := range []string{
		"a: \"x\\ny\"\n",       // an escape
		"a: \"x\" # note\n",    // a comment after the value
		"a: 'x'\n",             // single quotes
		"a: yes\n",             // a bool
		"a: 12\n",              // a number
		"a: |\n  x\n",          // a block scalar
		"a: x\na: y\n",         // a duplicate key
		"  a: x\n",             // indented
		"a: \"\n",              // an unclosed quote
		"true: x\n",            // a key YAML reads as a bool
		"a: x: y\n",            // a colon in a plain value
		"a: \"x\"\r\nb: y\r\n", // CRLF
		"\"a\\\"b\": x\n",      // an escape in a quoted key
	} {
		if m, ok := plainCatalog([]byte(text)); ok {
			t.Errorf("plainCatalog(%q) = %v, want it to leave the text to YAML", text, m)
		}
	}
}
