package locale

import (
	"strings"
	"testing"
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
