// Package lazyre holds gcplay's own regular expressions: compiled on
// their first use rather than at package initialization (a program that
// never matches one, and most never see a lesson's lint or a YAML error,
// does not pay for compiling it when it starts; in the browser build
// every package's initialization runs before the first frame), and
// matched by a small matcher of its own instead of the standard library's
// regexp, which the browser page then does not link, nor the Unicode
// tables regexp/syntax pulls in (docs/BENCHMARKS.md has the size).
//
// The matcher reads the part of regexp's syntax gcplay's expressions use
// and panics on anything else: literals (a backslash before ASCII
// punctuation quotes it), `.`, classes `[a-z0-9._-]` and `[^...]`, the
// Perl classes \d \s \w and \D \S \W, `^` and `$` (of the whole text),
// \b, groups `(...)` and `(?:...)`, `|`, and `*`, `+`, `?` and their lazy
// forms `*?`, `+?`, `??` (not on an expression that can match the empty
// string). It matches as regexp does, leftmost-first, with the same
// submatches: it tries the choices in regexp's order of preference and
// takes the first that matches (a backtracker that visits each program
// position at each text position once, as regexp's own backtracker
// does), decoding the text's runes as regexp does (an invalid byte is
// U+FFFD, one byte wide). The tests hold every expression in the
// repository and randomly made ones to regexp's answers.
package lazyre

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// RE is a regular expression compiled on its first use.
type RE struct {
	expr string
	once sync.Once
	re   *Regexp
}

// New returns expr, to be compiled by the first Get. An invalid
// expression panics there, as regexp.MustCompile does.
func New(expr string) *RE { return &RE{expr: expr} }

// Get returns the compiled expression.
func (r *RE) Get() *Regexp {
	r.once.Do(func() { r.re = MustCompile(r.expr) })
	return r.re
}

// Regexp is a compiled expression. It is safe for concurrent use.
type Regexp struct {
	expr   string
	prog   []inst
	ncap   int    // capture slots: 2 per group, the whole match's first
	begin  bool   // every match starts at the text's start (^)
	prefix string // with begin: the literal text every match starts with
	suffix string // the literal text before a $ that ends every match
	start  int    // the first instruction
	pool   sync.Pool
}

// String returns the source text of the expression.
func (re *Regexp) String() string { return re.expr }

type opcode uint8

const (
	opRune  opcode = iota // one rune, r
	opAny                 // any rune but \n
	opClass               // a rune in ranges (or not, with neg)
	opBegin               // the text's start
	opEnd                 // the text's end
	opWord                // an ASCII word boundary (\b)
	opSplit               // out first, then alt
	opSave                // capture slot n = the position
	opMatch
)

type inst struct {
	op     opcode
	neg    bool
	r      rune
	n      int
	out    int
	alt    int
	ranges []rune // lo, hi pairs
}

func (in *inst) matches(r rune) bool {
	switch in.op {
	case opRune:
		return r == in.r
	case opAny:
		return r != '\n'
	}
	for i := 0; i < len(in.ranges); i += 2 {
		if in.ranges[i] <= r && r <= in.ranges[i+1] {
			return !in.neg
		}
	}
	return in.neg
}

// MustCompile compiles expr; it panics if expr is not in the syntax the
// package reads (see the package comment).
func MustCompile(expr string) *Regexp {
	root, groups := parse(expr)
	re := &Regexp{expr: expr, ncap: 2 * (groups + 1)}
	re.prog = append(re.prog, inst{op: opMatch})
	re.start = re.compile(&node{kind: kGroup, subs: []*node{root}}, 0)
	// The top's first and last pieces: ^ and a literal after it, a literal
	// and $ before it, make the search cheap. A literal is compared with
	// the text's bytes, so it stops at U+FFFD, which an invalid byte of
	// the text also matches.
	top := []*node{root}
	if root.kind == kCat {
		top = root.subs
	}
	literal := func(nodes []*node, step int) string {
		var rs []rune
		for i := 0; i < len(nodes); i++ {
			n := nodes[i]
			if step < 0 {
				n = nodes[len(nodes)-1-i]
			}
			if n.kind != kRune || n.r == utf8.RuneError {
				break
			}
			rs = append(rs, n.r)
		}
		if step < 0 {
			slices.Reverse(rs)
		}
		return string(rs)
	}
	if len(top) > 0 && top[0].kind == kBegin {
		re.begin = true
		re.prefix = literal(top[1:], 1)
	}
	if len(top) > 0 && top[len(top)-1].kind == kEnd {
		re.suffix = literal(top[:len(top)-1], -1)
	}
	return re
}

// QuoteMeta quotes every character of s that the syntax reads as an
// operator, as regexp.QuoteMeta does.
func QuoteMeta(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`\.+*?()|[]{}^$`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// parse returns expr's syntax tree and its number of capturing groups.
func parse(expr string) (*node, int) {
	p := &exprParser{src: expr}
	root := p.alternation()
	if p.pos < len(p.src) {
		p.fail("unexpected )")
	}
	return root, p.groups
}

type nodeKind uint8

const (
	kRune nodeKind = iota
	kAny
	kClass
	kBegin
	kEnd
	kWord
	kCat
	kAlt
	kStar
	kPlus
	kQuest
	kGroup // capturing group n; n < 0: not capturing; n = 0: the whole match
)

type node struct {
	kind   nodeKind
	lazy   bool
	neg    bool
	r      rune
	n      int
	ranges []rune
	subs   []*node
}

// nullable reports whether n can match the empty string.
func (n *node) nullable() bool {
	switch n.kind {
	case kBegin, kEnd, kWord, kStar, kQuest:
		return true
	case kCat:
		for _, s := range n.subs {
			if !s.nullable() {
				return false
			}
		}
		return true
	case kAlt:
		for _, s := range n.subs {
			if s.nullable() {
				return true
			}
		}
		return false
	case kPlus, kGroup:
		return n.subs[0].nullable()
	}
	return false
}

type exprParser struct {
	src    string
	pos    int
	groups int
}

func (p *exprParser) fail(msg string) {
	panic("lazyre: " + msg + " at offset " + itoa(p.pos) + " in `" + p.src + "`")
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func (p *exprParser) alternation() *node {
	alts := []*node{p.concatenation()}
	for p.pos < len(p.src) && p.src[p.pos] == '|' {
		p.pos++
		alts = append(alts, p.concatenation())
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &node{kind: kAlt, subs: alts}
}

func (p *exprParser) concatenation() *node {
	var subs []*node
	for p.pos < len(p.src) && p.src[p.pos] != '|' && p.src[p.pos] != ')' {
		c := p.src[p.pos]
		if c == '*' || c == '+' || c == '?' {
			if len(subs) == 0 {
				p.fail("missing argument to repetition operator")
			}
			last := subs[len(subs)-1]
			switch last.kind {
			case kStar, kPlus, kQuest:
				p.fail("nested repetition operator")
			}
			if last.nullable() {
				p.fail("repetition of an expression that can match the empty string")
			}
			p.pos++
			k := kStar
			if c == '+' {
				k = kPlus
			} else if c == '?' {
				k = kQuest
			}
			rep := &node{kind: k, subs: []*node{last}}
			if p.pos < len(p.src) && p.src[p.pos] == '?' {
				rep.lazy = true
				p.pos++
			}
			subs[len(subs)-1] = rep
			continue
		}
		subs = append(subs, p.atom())
	}
	if len(subs) == 1 {
		return subs[0]
	}
	return &node{kind: kCat, subs: subs}
}

func (p *exprParser) atom() *node {
	c := p.src[p.pos]
	switch c {
	case '(':
		p.pos++
		n := &node{kind: kGroup, n: -1}
		if strings.HasPrefix(p.src[p.pos:], "?:") {
			p.pos += 2
		} else if p.pos < len(p.src) && p.src[p.pos] == '?' {
			p.fail("unsupported group flags")
		} else {
			p.groups++
			n.n = p.groups
		}
		n.subs = []*node{p.alternation()}
		if p.pos >= len(p.src) || p.src[p.pos] != ')' {
			p.fail("missing )")
		}
		p.pos++
		return n
	case '.':
		p.pos++
		return &node{kind: kAny}
	case '^':
		p.pos++
		return &node{kind: kBegin}
	case '$':
		p.pos++
		return &node{kind: kEnd}
	case '[':
		return p.class()
	case '\\':
		if p.pos+1 < len(p.src) && p.src[p.pos+1] == 'b' {
			p.pos += 2
			return &node{kind: kWord}
		}
		r, ranges, neg := p.escape()
		if ranges != nil {
			return &node{kind: kClass, ranges: ranges, neg: neg}
		}
		return &node{kind: kRune, r: r}
	case '{', '}', ']':
		p.fail("unsupported " + string(c))
	}
	r, w := utf8.DecodeRuneInString(p.src[p.pos:])
	if r == utf8.RuneError && w == 1 {
		p.fail("invalid UTF-8")
	}
	p.pos += w
	return &node{kind: kRune, r: r}
}

var (
	digitRanges = []rune{'0', '9'}
	spaceRanges = []rune{'\t', '\n', '\f', '\r', ' ', ' '}
	wordRanges  = []rune{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'}
)

// escape reads a backslash and what follows: a quoted punctuation
// character (r), or a Perl class (its ranges, negated or not).
func (p *exprParser) escape() (r rune, ranges []rune, neg bool) {
	if p.pos+1 >= len(p.src) {
		p.fail("trailing backslash")
	}
	c := p.src[p.pos+1]
	p.pos += 2
	switch c {
	case 'd', 'D':
		return 0, digitRanges, c == 'D'
	case 's', 'S':
		return 0, spaceRanges, c == 'S'
	case 'w', 'W':
		return 0, wordRanges, c == 'W'
	}
	if c < utf8.RuneSelf && !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return rune(c), nil, false
	}
	p.pos -= 2
	p.fail("unsupported escape")
	return
}

// class reads [...]: single characters, ranges a-z, Perl classes, and a
// - first or last taken as itself.
func (p *exprParser) class() *node {
	p.pos++ // [
	n := &node{kind: kClass}
	if p.pos < len(p.src) && p.src[p.pos] == '^' {
		n.neg = true
		p.pos++
	}
	first := true
	for {
		if p.pos >= len(p.src) {
			p.fail("missing ]")
		}
		c := p.src[p.pos]
		if c == ']' && !first {
			p.pos++
			break
		}
		first = false
		lo, ok := p.classChar(&n.ranges)
		if !ok {
			continue
		}
		hi := lo
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			p.pos++
			if hi, ok = p.classChar(nil); !ok || hi < lo {
				p.fail("bad class range")
			}
		}
		n.ranges = append(n.ranges, lo, hi)
	}
	if n.neg && len(n.ranges) == 0 {
		p.fail("empty class")
	}
	return n
}

// classChar reads one character of a class; a Perl class is added to
// ranges (false: no single character; nil ranges: not allowed here).
func (p *exprParser) classChar(ranges *[]rune) (rune, bool) {
	c := p.src[p.pos]
	switch c {
	case '\\':
		r, rs, neg := p.escape()
		if rs == nil {
			return r, true
		}
		if ranges == nil || neg {
			p.fail("unsupported class in a class")
		}
		*ranges = append(*ranges, rs...)
		return 0, false
	case '[':
		p.fail("unsupported [ in a class")
	case '-':
		if p.src[p.pos-1] != '[' && p.src[p.pos-1] != '^' && (p.pos+1 >= len(p.src) || p.src[p.pos+1] != ']') {
			p.fail("- inside a class")
		}
	}
	r, w := utf8.DecodeRuneInString(p.src[p.pos:])
	if r == utf8.RuneError && w == 1 {
		p.fail("invalid UTF-8")
	}
	p.pos += w
	return r, true
}

// compile adds n's instructions, which continue at next, and returns the
// first.
func (re *Regexp) compile(n *node, next int) int {
	add := func(in inst) int {
		re.prog = append(re.prog, in)
		return len(re.prog) - 1
	}
	switch n.kind {
	case kRune:
		return add(inst{op: opRune, r: n.r, out: next})
	case kAny:
		return add(inst{op: opAny, out: next})
	case kClass:
		return add(inst{op: opClass, ranges: n.ranges, neg: n.neg, out: next})
	case kBegin:
		return add(inst{op: opBegin, out: next})
	case kEnd:
		return add(inst{op: opEnd, out: next})
	case kWord:
		return add(inst{op: opWord, out: next})
	case kCat:
		for i := len(n.subs) - 1; i >= 0; i-- {
			next = re.compile(n.subs[i], next)
		}
		return next
	case kAlt:
		last := re.compile(n.subs[len(n.subs)-1], next)
		for i := len(n.subs) - 2; i >= 0; i-- {
			first := re.compile(n.subs[i], next)
			last = add(inst{op: opSplit, out: first, alt: last})
		}
		return last
	case kQuest:
		body := re.compile(n.subs[0], next)
		return add(re.split(body, next, n.lazy))
	case kStar, kPlus:
		loop := add(inst{})
		body := re.compile(n.subs[0], loop)
		re.prog[loop] = re.split(body, next, n.lazy)
		if n.kind == kPlus {
			return body
		}
		return loop
	case kGroup:
		if n.n < 0 {
			return re.compile(n.subs[0], next)
		}
		end := add(inst{op: opSave, n: 2*n.n + 1, out: next})
		return add(inst{op: opSave, n: 2 * n.n, out: re.compile(n.subs[0], end)})
	}
	panic("lazyre: unknown node")
}

func (re *Regexp) split(more, less int, lazy bool) inst {
	if lazy {
		more, less = less, more
	}
	return inst{op: opSplit, out: more, alt: less}
}

// machine is one match's state: the positions visited and the captures.
type machine struct {
	re      *Regexp
	s       string
	width   int
	visited []uint32
	cap     []int
	matched []int
}

func (re *Regexp) get() *machine {
	if m, ok := re.pool.Get().(*machine); ok {
		return m
	}
	return &machine{re: re, cap: make([]int, re.ncap), matched: make([]int, re.ncap)}
}

// execute finds the leftmost-first match in s at or after pos; its
// capture positions (-1 for a group that took no part), or nil.
func (re *Regexp) execute(s string, pos int) []int {
	if re.begin && (pos > 0 || !strings.HasPrefix(s, re.prefix)) || !strings.HasSuffix(s, re.suffix) {
		return nil
	}
	m := re.get()
	defer re.pool.Put(m)
	m.s = s
	m.width = len(s) + 1
	n := (len(re.prog)*m.width + 31) / 32
	if cap(m.visited) < n {
		m.visited = make([]uint32, n)
	} else {
		m.visited = m.visited[:n]
		clear(m.visited)
	}
	for {
		for i := range m.cap {
			m.cap[i] = -1
		}
		if m.try(re.start, pos) {
			return append([]int(nil), m.matched...)
		}
		if pos >= len(s) || re.begin {
			return nil
		}
		if s[pos] < utf8.RuneSelf {
			pos++
		} else {
			_, w := utf8.DecodeRuneInString(s[pos:])
			pos += w
		}
	}
}

func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// try reports whether the program matches from instruction pc at pos,
// trying each choice in order of preference; a position tried before
// failed then and fails now.
func (m *machine) try(pc, pos int) bool {
	s := m.s
	for {
		k := pc*m.width + pos
		if m.visited[k/32]&(1<<(k%32)) != 0 {
			return false
		}
		m.visited[k/32] |= 1 << (k % 32)
		in := &m.re.prog[pc]
		switch in.op {
		case opMatch:
			copy(m.matched, m.cap)
			return true
		case opRune, opAny, opClass:
			if pos >= len(s) {
				return false
			}
			r, w := rune(s[pos]), 1
			if r >= utf8.RuneSelf {
				r, w = utf8.DecodeRuneInString(s[pos:])
			}
			if !in.matches(r) {
				return false
			}
			pos += w
		case opBegin:
			if pos != 0 {
				return false
			}
		case opEnd:
			if pos != len(s) {
				return false
			}
		case opWord:
			before := pos > 0 && isWordByte(s[pos-1])
			after := pos < len(s) && isWordByte(s[pos])
			if before == after {
				return false
			}
		case opSplit:
			if m.try(in.out, pos) {
				return true
			}
			pc = in.alt
			continue
		case opSave:
			old := m.cap[in.n]
			m.cap[in.n] = pos
			if m.try(in.out, pos) {
				return true
			}
			m.cap[in.n] = old
			return false
		}
		pc = in.out
	}
}

// MatchString reports whether s contains a match.
func (re *Regexp) MatchString(s string) bool { return re.execute(s, 0) != nil }

// FindStringSubmatch returns the leftmost match and its groups' text
// ("" for a group that took no part), or nil.
func (re *Regexp) FindStringSubmatch(s string) []string {
	a := re.execute(s, 0)
	if a == nil {
		return nil
	}
	return submatches(s, a)
}

func submatches(s string, a []int) []string {
	out := make([]string, len(a)/2)
	for i := range out {
		if a[2*i] >= 0 {
			out[i] = s[a[2*i]:a[2*i+1]]
		}
	}
	return out
}

// allMatches calls deliver with each successive match, as regexp's
// FindAll functions find them: after an empty match the search moves on
// a rune, and an empty match right after a match does not count.
func (re *Regexp) allMatches(s string, n int, deliver func([]int)) {
	if n < 0 {
		n = len(s) + 1
	}
	for pos, i, prevEnd := 0, 0, -1; i < n && pos <= len(s); {
		a := re.execute(s, pos)
		if a == nil {
			break
		}
		accept := true
		if a[1] == pos {
			if a[0] == prevEnd {
				accept = false
			}
			if pos < len(s) {
				_, w := utf8.DecodeRuneInString(s[pos:])
				pos += w
			} else {
				pos++
			}
		} else {
			pos = a[1]
		}
		prevEnd = a[1]
		if accept {
			deliver(a)
			i++
		}
	}
}

// FindAllString returns up to n successive matches (all if n < 0), or nil.
func (re *Regexp) FindAllString(s string, n int) []string {
	var out []string
	re.allMatches(s, n, func(a []int) { out = append(out, s[a[0]:a[1]]) })
	return out
}

// FindAllStringSubmatch returns up to n successive matches with their
// groups (all if n < 0), or nil.
func (re *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	var out [][]string
	re.allMatches(s, n, func(a []int) { out = append(out, submatches(s, a)) })
	return out
}

// ReplaceAllLiteralString returns s with each match replaced by repl, as
// is (no $ expansion).
func (re *Regexp) ReplaceAllLiteralString(s, repl string) string {
	var b strings.Builder
	last, pos := 0, 0
	for pos <= len(s) {
		a := re.execute(s, pos)
		if a == nil {
			break
		}
		b.WriteString(s[last:a[0]])
		// No replacement for an empty match right after a match.
		if a[1] > last || a[0] == 0 {
			b.WriteString(repl)
		}
		last = a[1]
		// On by at least a rune.
		w := 1
		if pos < len(s) {
			_, w = utf8.DecodeRuneInString(s[pos:])
		}
		switch {
		case pos+w > a[1]:
			pos += w
		case pos+1 > a[1]:
			pos++
		default:
			pos = a[1]
		}
	}
	if last == 0 && pos == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
