package locale

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width returns the number of terminal cells s takes (a CJK character is
// two), as ansi.StringWidth measures it, the terminal renderer's grapheme
// rules. Text of printable ASCII, of runes below narrowLimit that join
// nothing beside them (box drawing, arrows, Latin letters) and of TwoCells
// characters is measured a rune at a time, without segmenting it into
// grapheme clusters per call: most text a frame draws is such, and a
// Chinese sentence is wrapped a character at a time, each measured. Any
// other text (escape codes, marks, joiners, emoji) goes to ansi.StringWidth.
func Width(s string) int {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf || s[i] < 0x20 {
			ascii = false
			break
		}
	}
	if ascii {
		return len(s)
	}
	n := 0
	for _, r := range s {
		w, ok := runeWidth(r)
		if !ok {
			return ansi.StringWidth(s)
		}
		n += w
	}
	return n
}

// Truncate cuts plain text s to at most n cells, as ansi.Truncate(s, n, "")
// does (a wide character that would cross the edge is left out), a rune
// at a time when each of its runes is a grapheme cluster of its own (see
// Width); other text goes to ansi.Truncate.
func Truncate(s string, n int) string {
	for _, r := range s {
		if _, ok := runeWidth(r); !ok {
			return ansi.Truncate(s, n, "")
		}
	}
	w := 0
	for i, r := range s {
		rw, _ := runeWidth(r)
		if w+rw > n {
			return s[:i]
		}
		w += rw
	}
	return s
}

// runeWidth returns the cells r takes, and false when r may join a rune
// beside it into one grapheme cluster, or takes none: then only the
// renderer's rules measure text holding it.
func runeWidth(r rune) (int, bool) {
	switch {
	case r >= 0x20 && r < 0x7f:
		return 1, true
	case r >= narrowLimit:
		return 2, TwoCells(r)
	case r < 0x20 || (r >= 0x300 && r < 0x370) || (r >= 0x200b && r <= 0x200f):
		// Controls and escape codes, combining marks, joiners.
		return 0, false
	}
	w, joins := narrowRune(r)
	return w, !joins && w > 0
}

// TwoCells reports whether r is a CJK character two cells wide that never
// joins its neighbours into one grapheme cluster: ideographs, CJK
// punctuation and fullwidth forms (the Chinese page's text is made of
// them; framelines writes them as two columns too). TestTwoCells checks
// each against x/ansi's grapheme rules.
func TwoCells(r rune) bool {
	switch {
	case r >= 0x3000 && r <= 0x3029: // CJK symbols and punctuation: 、。「」《》【】
	case r >= 0x3031 && r <= 0x303c: // (U+302A-U+302F combine, U+3030 is an emoji)
	case r == 0x303e: // (U+303D is an emoji)
	case r >= 0x3400 && r <= 0x4dbf: // CJK Unified Ideographs Extension A
	case r >= 0x4e00 && r <= 0x9fff: // CJK Unified Ideographs
	case r >= 0xf900 && r <= 0xfaff: // CJK Compatibility Ideographs
	case r >= 0xff01 && r <= 0xff60: // fullwidth forms: ，：；（）！？
	case r >= 0xffe0 && r <= 0xffe6: // fullwidth signs: ￥
	case r >= 0x20000 && r <= 0x2fffd, r >= 0x30000 && r <= 0x3fffd: // CJK Extensions B-H
	default:
		return false
	}
	return true
}

// Widths of the runes below narrowLimit, from the same grapheme rules the
// terminal renderer uses, each worked out the first time it is measured
// (measuring all of them up front costs the browser page's first frame
// most of what it saves). An entry holds the width plus one, 0 for not
// measured yet, and joins when the rune does not measure beside a CJK
// character or itself as the two apart; atomic, as models may be drawn on
// several goroutines.
const (
	narrowLimit = 0x3000
	joins       = 1 << 8
)

var runeWidths [narrowLimit]atomic.Int32

// narrowRune returns the width of r, which is below narrowLimit, and
// whether it may join a rune beside it: a mark, a format character, or a
// rune the renderer's rules cluster or measure otherwise beside 中 or
// itself than apart (a Hangul jamo).
func narrowRune(r rune) (int, bool) {
	e := runeWidths[r].Load()
	if e == 0 {
		c := string(r)
		e = int32(ansi.StringWidth(c)) + 1
		if unicode.In(r, unicode.M, unicode.Cf) || !apart("中", c) || !apart(c, "中") || !apart(c, c) {
			e |= joins
		}
		runeWidths[r].Store(e)
	}
	return int(e&^joins - 1), e&joins != 0
}

// apart reports whether the renderer's rules measure a and b, one
// grapheme cluster each, written together as they measure them apart.
func apart(a, b string) bool {
	first, _ := ansi.FirstGraphemeCluster(a+b, ansi.GraphemeWidth)
	return first == a && ansi.StringWidth(a+b) == ansi.StringWidth(a)+ansi.StringWidth(b)
}
