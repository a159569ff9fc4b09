package locale

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Wide reports whether r belongs to a script written without spaces
// between words (Han, kana, Hangul, and the full-width punctuation that
// goes with them): text may break before or after it, and lines of such
// text join without a space.
func Wide(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		unicode.Is(unicode.Hangul, r) || (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef)
}

// JoinLines joins two lines of one paragraph: with a space, unless both
// sides of the join are CJK (Chinese puts no space between its words).
func JoinLines(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	if (tight(last) && tight(first)) || fullWidthPunct(last) || fullWidthPunct(first) {
		return a + b
	}
	return a + " " + b
}

// tight reports whether r sits against a CJK neighbour without a space.
func tight(r rune) bool { return Wide(r) || strings.ContainsRune("“”‘’", r) }

// fullWidthPunct reports whether r is CJK punctuation, which carries its
// own space.
func fullWidthPunct(r rune) bool {
	return (r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xff0f) || (r >= 0xff1a && r <= 0xff20) ||
		(r >= 0xff3b && r <= 0xff40) || (r >= 0xff5b && r <= 0xff65)
}

// Reflow joins the lines of each paragraph of s (paragraphs are separated
// by blank lines; lines starting with "- " stay lines), so the text can be
// wrapped to any width.
func Reflow(s string) string {
	var paras []string
	for _, p := range strings.Split(strings.TrimSpace(s), "\n\n") {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			l = strings.TrimSpace(l)
			if len(lines) > 0 && !strings.HasPrefix(l, "- ") {
				lines[len(lines)-1] = JoinLines(lines[len(lines)-1], l)
			} else {
				lines = append(lines, l)
			}
		}
		paras = append(paras, strings.Join(lines, "\n"))
	}
	return strings.Join(paras, "\n\n")
}

// noLineStart are the punctuation marks a line may not begin with
// (Chinese line-breaking rules: a closing mark stays with the word before
// it); noLineEnd are those a line may not end with.
const (
	noLineStart = "，。、；：！？）》」』】〕”’…·%,.;:!?)]}"
	noLineEnd   = "（《「『【〔“‘([{"
)

// token is a piece of text no line breaks inside: a word of Latin script,
// or one CJK character with the punctuation that clings to it.
type token struct {
	text  string
	space bool // a space comes before it
}

func tokenize(para string) []token {
	if !utf8.ValidString(para) {
		para = string([]rune(para)) // each bad byte a U+FFFD, as ranging over it reads it
	}
	var toks []token
	// The token being read is para[start:end], none when start < 0: a
	// token is a run of para (spaces end one), so it is cut, not copied.
	start, end := -1, 0
	space, glue := false, false
	flush := func() {
		if start >= 0 {
			toks = append(toks, token{para[start:end], space})
			start = -1
			space = false
		}
	}
	for i, r := range para {
		next := i + utf8.RuneLen(r)
		switch {
		case r == ' ' || r == '\t':
			flush()
			space = len(toks) > 0
			glue = false
		case strings.ContainsRune(noLineStart, r):
			if start < 0 && len(toks) > 0 && !space {
				toks[len(toks)-1].text += string(r)
			} else {
				if start < 0 {
					start = i
				}
				end = next
			}
		case Wide(r):
			if !glue {
				flush()
			}
			if start < 0 {
				start = i
			}
			end = next
			glue = strings.ContainsRune(noLineEnd, r)
		default:
			if start >= 0 && !glue {
				last, _ := utf8.DecodeLastRuneInString(para[start:end])
				if Wide(last) {
					flush()
				}
			}
			if start < 0 {
				start = i
			}
			end = next
			glue = strings.ContainsRune(noLineEnd, r)
		}
	}
	flush()
	return toks
}

// Wrap breaks one paragraph of plain text into lines of at most width
// terminal cells (a CJK character is two): at spaces, and between CJK
// characters. A line never starts with a closing punctuation mark nor
// ends with an opening one; a word longer than a line is cut.
//
// A list of keys ("H 提示 · P 预测 · A 答案") breaks only between its
// items, where each item fits a line.
func Wrap(para string, width int) []string {
	if width <= 0 {
		return nil
	}
	if items := strings.Split(para, " · "); len(items) > 1 {
		fits := true
		for _, it := range items {
			fits = fits && Width(it)+2 <= width
		}
		if fits {
			var lines []string
			cur := items[0]
			for _, it := range items[1:] {
				if Width(cur)+3+Width(it) > width {
					lines = append(lines, cur+" ·")
					cur = it
					continue
				}
				cur += " · " + it
			}
			return append(lines, cur)
		}
	}
	return wrapWords(para, width)
}

// wrapWords is Wrap without the key-list rule.
func wrapWords(para string, width int) []string {
	var lines []string
	var line strings.Builder
	lw := 0
	for _, t := range tokenize(para) {
		tw := Width(t.text)
		sep := 0
		if t.space && lw > 0 {
			sep = 1
		}
		if lw > 0 && lw+sep+tw > width {
			lines = append(lines, line.String())
			line.Reset()
			lw, sep = 0, 0
		}
		if sep == 1 {
			line.WriteByte(' ')
			lw++
		}
		for tw > width-lw {
			// a word longer than the line: cut it
			cut := ansi.Truncate(t.text, width-lw, "")
			if cut == "" && lw == 0 {
				cut = string([]rune(t.text)[:1])
			}
			line.WriteString(cut)
			lines = append(lines, line.String())
			line.Reset()
			lw = 0
			t.text = t.text[len(cut):]
			tw = Width(t.text)
		}
		line.WriteString(t.text)
		lw += tw
	}
	if line.Len() > 0 || len(lines) == 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// Pad pads s with spaces to width cells.
func Pad(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// Tidy removes the spaces that joining sentences with " " leaves after
// CJK punctuation ("。 它" → "。它"): the punctuation carries its own space.
func Tidy(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	prevPunct := false
	for _, r := range s {
		if r == ' ' && prevPunct {
			continue
		}
		prevPunct = fullWidthPunct(r)
		b.WriteRune(r)
	}
	return b.String()
}

// Spaced puts a space between a CJK character and a Latin letter or
// digit written against it ("删除2 个Pod" → "删除 2 个 Pod"), as Chinese
// text sets words of Latin script apart. Full-width punctuation needs no
// space.
func Spaced(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	var prev rune
	for i, r := range s {
		if i > 0 && ((cjkWord(prev) && latin(r)) || (latin(prev) && cjkWord(r))) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

func cjkWord(r rune) bool { return Wide(r) && !fullWidthPunct(r) }

func latin(r rune) bool {
	return r < 0x2000 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
