package locale

import (
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width's per-rune cache gives what the terminal renderer's own rules
// give, for every rune it caches and for text that mixes them.
func TestTextWidthMatchesANSI(t *testing.T) {
	for r := rune(utf8.RuneSelf); r < narrowLimit; r++ { // ASCII alone is len(s)
		if r >= 0x300 && r < 0x370 || r >= 0x200b && r <= 0x200f {
			continue // measured with their neighbours, never cached
		}
		if got, want := Width(string(r)), ansi.StringWidth(string(r)); got != want {
			t.Fatalf("Width(%U) = %d, want %d", r, got, want)
		}
	}
	// A CJK character (TwoCells, checked by TestTwoCells) beside every rune
	// Width measures alone; when a rune beside it joins it, the text
	// is measured by the rules.
	for r := rune(0x20); r < narrowLimit; r++ {
		c := string(r)
		for _, s := range []string{"中" + c, c + "中", "中" + c + "中", "。" + c + "（" + c + c + "a中"} {
			if got, want := Width(s), ansi.StringWidth(s); got != want {
				t.Fatalf("Width(%q) = %d, want %d", s, got, want)
			}
		}
	}
	for _, s := range []string{"├─ Pod/web-1 ✓", "日本語 text", "e\u0301 combined", "plain",
		"删除 Deployment/web（级联：前台）· 2 个 Pod ✓", "中\u0600中", "中\u0d4e中", "中\u093f", "中\u0301", "中\u200d中", "中\ufe0f"} {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestTruncateMatchesANSI: Truncate cuts text where ansi.Truncate does, at
// every width, for text it cuts by runes and text it leaves to the rules.
func TestTruncateMatchesANSI(t *testing.T) {
	texts := []string{"", "plain", "├─ Pod/web-1 ✓", "删除 Deployment/web（级联：前台）：2 个 Pod。", "中文中文", "a中b文c",
		"e\u0301 combined", "中\u0301文", "中\ufe0f", "ᄀᄀ中", "a\u200db中", "\x7f中", "bad\xff中"}
	for r := rune(0x20); r < narrowLimit; r++ {
		texts = append(texts, "中"+string(r)+"文"+string(r)+"a")
	}
	for _, s := range texts {
		for n := -1; n <= ansi.StringWidth(s)+1; n++ {
			if got, want := Truncate(s, n), ansi.Truncate(s, n, ""); got != want {
				t.Fatalf("Truncate(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}
