package locale

import (
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestPick(t *testing.T) {
	have := []string{"en", "zh"}
	for _, c := range []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"", nil, "en"},
		{"", map[string]string{"LANG": "zh_CN.UTF-8"}, "zh"},
		{"", map[string]string{"LANG": "zh_TW.Big5"}, "zh"},
		{"", map[string]string{"LANG": "de_DE.UTF-8"}, "en"},
		{"", map[string]string{"LANG": "C"}, "en"},
		// The first variable that is set decides, as in POSIX.
		{"", map[string]string{"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"},
		{"", map[string]string{"LC_ALL": "C", "LC_MESSAGES": "zh_CN.UTF-8"}, "en"},
		{"", map[string]string{"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"},
		{"", map[string]string{"LC_ALL": "", "LANG": "zh_SG.UTF-8"}, "zh"},
		{"en", map[string]string{"LANG": "zh_CN.UTF-8"}, "en"},
		{"zh", map[string]string{"LANG": "en_US.UTF-8"}, "zh"},
		{"zh-CN", nil, "zh"},
	} {
		got, err := Pick(c.flag, env(c.env), have)
		if err != nil || got != c.want {
			t.Errorf("Pick(%q, %v) = %q, %v; want %q", c.flag, c.env, got, err, c.want)
		}
	}
	if _, err := Pick("fr", env(nil), have); err == nil || err.Error() != "--lang fr: gcplay speaks en, zh" {
		t.Errorf("Pick(fr) error = %v", err)
	}
}

func TestReflow(t *testing.T) {
	got := Reflow("删除属主时，\n垃圾收集器删除\nConfigMap/app 的附属对象。\nBackground 是：\n“默认”\n\n- 一\n- 二\nthree\nfour")
	want := "删除属主时，垃圾收集器删除 ConfigMap/app 的附属对象。Background 是：“默认”\n\n- 一\n- 二 three four"
	if got != want {
		t.Errorf("Reflow = %q, want %q", got, want)
	}
}

func TestWrap(t *testing.T) {
	para := "删除属主时，API 服务器不会触碰它的附属对象。垃圾收集器会删除它们：它是 kube-controller-manager 中的一个控制器。"
	for _, width := range []int{10, 17, 24, 31, 40, 80} {
		lines := Wrap(para, width)
		for _, l := range lines {
			if w := Width(l); w > width {
				t.Errorf("width %d: line %q is %d cells", width, l, w)
			}
			if l != "" && strings.ContainsRune(noLineStart, []rune(l)[0]) {
				t.Errorf("width %d: line %q starts with closing punctuation", width, l)
			}
		}
		if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != strings.ReplaceAll(para, " ", "") {
			t.Errorf("width %d: wrapping lost text: %q", width, lines)
		}
	}
}

func TestWrapEnglish(t *testing.T) {
	got := Wrap("the quick brown fox jumps over the lazy dog", 15)
	want := []string{"the quick brown", "fox jumps over", "the lazy dog"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q", got)
	}
	got = Wrap("删除（ConfigMap/app）之后，再看。", 12)
	for _, l := range got {
		if strings.HasSuffix(l, "（") {
			t.Errorf("a line ends with an opening mark: %q", got)
		}
	}
}

func TestWrapKeyList(t *testing.T) {
	got := Wrap("H 提示 · P 预测 · R 重新开始 · L 课程", 22)
	want := []string{"H 提示 · P 预测 ·", "R 重新开始 · L 课程"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
}

func TestTidy(t *testing.T) {
	if got, want := Tidy("它只有一个属主。 ConfigMap/app 被你删除（第 1 步）， 使用 R44(c)。  Background"), "它只有一个属主。ConfigMap/app 被你删除（第 1 步），使用 R44(c)。Background"; got != want {
		t.Errorf("Tidy = %q, want %q", got, want)
	}
}

func TestSpaced(t *testing.T) {
	if got, want := Spaced("删除2 个Pod，然后ConfigMap/app 被删除（R44(c)）"), "删除 2 个 Pod，然后 ConfigMap/app 被删除（R44(c)）"; got != want {
		t.Errorf("Spaced = %q, want %q", got, want)
	}
}

// TestTokenizeCutsAsCopied: tokens cut from the paragraph are the tokens
// written rune by rune (the way they were made before), for the catalog's
// Chinese and English text and for text that is not UTF-8.
func TestTokenizeCutsAsCopied(t *testing.T) {
	copied := func(para string) []token {
		var toks []token
		var cur strings.Builder
		space, glue := false, false
		flush := func() {
			if cur.Len() > 0 {
				toks = append(toks, token{cur.String(), space})
				cur.Reset()
				space = false
			}
		}
		for _, r := range para {
			switch {
			case r == ' ' || r == '\t':
				flush()
				space = len(toks) > 0
				glue = false
			case strings.ContainsRune(noLineStart, r):
				if cur.Len() == 0 && len(toks) > 0 && !space {
					toks[len(toks)-1].text += string(r)
				} else {
					cur.WriteRune(r)
				}
			case Wide(r):
				if !glue {
					flush()
				}
				cur.WriteRune(r)
				glue = strings.ContainsRune(noLineEnd, r)
			default:
				if cur.Len() > 0 && !glue {
					last, _ := utf8.DecodeLastRuneInString(cur.String())
					if Wide(last) {
						flush()
					}
				}
				cur.WriteRune(r)
				glue = strings.ContainsRune(noLineEnd, r)
			}
		}
		flush()
		return toks
	}
	paras := []string{"", " ", "a  b\tc ", "删除 Deployment/web（级联：前台）：2 个 Pod。", "“引号”里的字，句号。 下一句", "bad\xffbyte 中\xe4文", "（开始 end）", "，开头"}
	for _, f := range []string{"../i18n/messages/zh.yaml", "../i18n/messages/en.yaml", "../i18n/forms/zh.yaml", "../i18n/forms/zh.tui.yaml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		paras = append(paras, strings.Split(string(b), "\n")...)
	}
	for _, p := range paras {
		if got, want := tokenize(p), copied(p); !slices.Equal(got, want) {
			t.Fatalf("tokenize(%q) = %+v, want %+v", p, got, want)
		}
	}
}

// TestTwoCells: each TwoCells character is two cells and a grapheme
// cluster of its own beside itself and every printable ASCII character,
// so Width measures text of them as ansi.StringWidth does.
func TestTwoCells(t *testing.T) {
	apart := func(a, b string) bool {
		first, _ := ansi.FirstGraphemeCluster(a+b, ansi.GraphemeWidth)
		return first == a && ansi.StringWidth(a+b) == ansi.StringWidth(a)+ansi.StringWidth(b)
	}
	n := 0
	for r := rune(0x3000); r <= 0x3fffd; r++ {
		if !TwoCells(r) {
			continue
		}
		n++
		c := string(r)
		if ansi.StringWidth(c) != 2 || !apart(c, c) {
			t.Fatalf("%U is not two cells apart from itself", r)
		}
		for a := rune(0x20); a < 0x7f; a++ {
			if !apart(c, string(a)) || !apart(string(a), c) {
				t.Fatalf("%U joins %q", r, a)
			}
		}
	}
	if n < 20000 {
		t.Fatalf("only %d characters are TwoCells", n)
	}
	for _, s := range []string{"删除 Deployment/web（级联：前台）：2 个 Pod。", "中\u0301", "中\ufe0f", "a\u200db", "日本語 ✓ text", ""} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}
