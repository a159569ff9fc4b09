package lazyre

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// sameAsRegexp fails t where re answers s otherwise than regexp's std:
// every match FindAll finds with its groups' positions, the first match's
// groups, MatchString, and a literal replacement of every match.
func sameAsRegexp(t *testing.T, re *Regexp, std *regexp.Regexp, s string) bool {
	t.Helper()
	var got [][]int
	re.allMatches(s, -1, func(a []int) { got = append(got, a) })
	want := std.FindAllStringSubmatchIndex(s, -1)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("`%s` on %q: FindAll's positions %v, regexp's %v", re, s, got, want)
		return false
	}
	if g, w := re.FindStringSubmatch(s), std.FindStringSubmatch(s); !slices.Equal(g, w) || (g == nil) != (w == nil) {
		t.Errorf("`%s` on %q: FindStringSubmatch %q, regexp's %q", re, s, g, w)
		return false
	}
	if g, w := re.FindAllString(s, 2), std.FindAllString(s, 2); !slices.Equal(g, w) || (g == nil) != (w == nil) {
		t.Errorf("`%s` on %q: FindAllString(2) %q, regexp's %q", re, s, g, w)
		return false
	}
	if g, w := re.FindAllStringSubmatch(s, -1), std.FindAllStringSubmatch(s, -1); !slices.EqualFunc(g, w, slices.Equal) || (g == nil) != (w == nil) {
		t.Errorf("`%s` on %q: FindAllStringSubmatch %q, regexp's %q", re, s, g, w)
		return false
	}
	if g, w := re.MatchString(s), std.MatchString(s); g != w {
		t.Errorf("`%s` on %q: MatchString %v, regexp's %v", re, s, g, w)
		return false
	}
	if g, w := re.ReplaceAllLiteralString(s, "<$1>"), std.ReplaceAllLiteralString(s, "<$1>"); g != w {
		t.Errorf("`%s` on %q: ReplaceAllLiteralString %q, regexp's %q", re, s, g, w)
		return false
	}
	return true
}

// pieces returns strings to build texts of for expr: each character its
// syntax names, each class's bounds and their neighbours, and some the
// expression may not name (a newline, an invalid byte, a two-byte
// character, word and non-word characters).
func pieces(n *node) []string {
	set := map[string]bool{}
	add := func(r rune) {
		if r >= 0 && utf8.ValidRune(r) {
			set[string(r)] = true
		}
	}
	var walk func(n *node)
	walk = func(n *node) {
		switch n.kind {
		case kRune:
			add(n.r)
		case kClass:
			for i := 0; i < len(n.ranges); i += 2 {
				lo, hi := n.ranges[i], n.ranges[i+1]
				add(lo - 1)
				add(lo)
				add((lo + hi) / 2)
				add(hi)
				add(hi + 1)
			}
		}
		for _, s := range n.subs {
			walk(s)
		}
	}
	walk(n)
	for _, s := range []string{" ", "\n", "\t", "\xff", "é", "µ", "a", "Z", "0", "_", "-", ".", "/"} {
		set[s] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// generate writes a text n may match (random choices and repetitions),
// sometimes with a piece put in, left out or changed.
func generate(r *rand.Rand, n *node, pcs []string, b *strings.Builder) {
	pick := func() string { return pcs[r.Intn(len(pcs))] }
	if r.Intn(40) == 0 {
		switch r.Intn(3) {
		case 0:
			b.WriteString(pick())
		case 1:
			return
		default:
			b.WriteString(pick())
			return
		}
	}
	switch n.kind {
	case kRune:
		if n.r == utf8.RuneError && r.Intn(2) == 0 {
			b.WriteString("\xff") // an invalid byte, which U+FFFD matches
			return
		}
		b.WriteRune(n.r)
	case kAny:
		b.WriteString(pick())
	case kClass:
		if n.neg || r.Intn(4) == 0 {
			b.WriteString(pick())
			return
		}
		i := 2 * r.Intn(len(n.ranges)/2)
		lo, hi := n.ranges[i], n.ranges[i+1]
		b.WriteRune(lo + rune(r.Intn(int(hi-lo)+1)))
	case kCat, kGroup:
		for _, s := range n.subs {
			generate(r, s, pcs, b)
		}
	case kAlt:
		generate(r, n.subs[r.Intn(len(n.subs))], pcs, b)
	case kStar, kPlus, kQuest:
		k := r.Intn(4)
		if n.kind == kQuest {
			k = r.Intn(2)
		}
		if n.kind == kPlus {
			k++
		}
		for range k {
			generate(r, n.subs[0], pcs, b)
		}
	}
}

// holdToRegexp compares expr with regexp on every text of up to two
// pieces, every text of up to depth of its first eight pieces, and count
// generated texts (each alone and between random pieces).
func holdToRegexp(t *testing.T, expr string, r *rand.Rand, depth, count int) {
	t.Helper()
	std := regexp.MustCompile(expr)
	re := MustCompile(expr)
	if re.ncap != 2*(std.NumSubexp()+1) {
		t.Fatalf("`%s`: %d groups, regexp's %d", expr, re.ncap/2-1, std.NumSubexp())
	}
	root, _ := parse(expr)
	pcs := pieces(root)
	var all func(prefix string, pcs []string, depth int) bool
	all = func(prefix string, pcs []string, depth int) bool {
		if !sameAsRegexp(t, re, std, prefix) {
			return false
		}
		if depth == 0 {
			return true
		}
		for _, p := range pcs {
			if !all(prefix+p, pcs, depth-1) {
				return false
			}
		}
		return true
	}
	if !all("", pcs, 2) || !all("", pcs[:min(8, len(pcs))], depth) {
		return
	}
	for range count {
		var b strings.Builder
		if r.Intn(3) == 0 {
			b.WriteString(pcs[r.Intn(len(pcs))])
		}
		generate(r, root, pcs, &b)
		if r.Intn(3) == 0 {
			b.WriteString(pcs[r.Intn(len(pcs))])
		}
		if r.Intn(5) == 0 {
			generate(r, root, pcs, &b)
		}
		if !sameAsRegexp(t, re, std, b.String()) {
			return
		}
	}
}

// repositoryExpressions returns the expressions gcplay's code gives
// New and MustCompile as literals, by file.
func repositoryExpressions(t *testing.T) map[string][]string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel, _ := filepath.Rel(root, path); rel == "build/wasm" || rel == "web/node_modules" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "New" && sel.Sel.Name != "MustCompile") {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "lazyre" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, path)
			found[rel] = append(found[rel], s)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestRepositoryExpressionsAreRegexp holds every expression gcplay's
// code compiles with this package to regexp's answers on texts made of
// the characters it names and others.
func TestRepositoryExpressionsAreRegexp(t *testing.T) {
	found := repositoryExpressions(t)
	n := 0
	for _, file := range []string{"scenario/selector.go", "internal/i18n/engine.go", "lessons/lint.go", "tui/rules.go"} {
		if len(found[file]) == 0 {
			t.Fatalf("no expressions found in %s: the test's search is broken", file)
		}
	}
	r := rand.New(rand.NewSource(1))
	depth, count := 4, 4000
	if testing.Short() || raceEnabled {
		depth, count = 3, 400
	}
	for file, exprs := range found {
		for _, expr := range exprs {
			n++
			t.Run(file+"/"+expr, func(t *testing.T) { holdToRegexp(t, expr, r, depth, count) })
		}
	}
	t.Logf("%d expressions", n)
}

// randomExpr writes a random expression of the package's syntax over a
// small alphabet.
func randomExpr(r *rand.Rand, depth int) string {
	atoms := []string{"a", "b", "é", "\uFFFD", "-", " ", ".", `\.`, "[ab]", "[^a]", "[a-c]", "[-a]", "[é-]", `\s`, `\S`, `\w`, `\W`, `\d`, `[^\s]`}
	anchors := []string{"^", "$", `\b`}
	var alt func(depth int) string
	var cat func(depth int) string
	alt = func(depth int) string {
		s := cat(depth)
		for r.Intn(4) == 0 {
			s += "|" + cat(depth)
		}
		return s
	}
	cat = func(depth int) string {
		var b strings.Builder
		for k := 1 + r.Intn(3); k > 0; k-- {
			var a string
			nullable := false
			switch x := r.Intn(10); {
			case x == 0:
				a = anchors[r.Intn(len(anchors))]
				nullable = true
			case x <= 2 && depth > 0:
				inner := alt(depth - 1)
				if r.Intn(2) == 0 {
					a = "(" + inner + ")"
				} else {
					a = "(?:" + inner + ")"
				}
				root, _ := parse(inner)
				nullable = root.nullable()
			default:
				a = atoms[r.Intn(len(atoms))]
			}
			if !nullable && r.Intn(3) == 0 {
				a += []string{"*", "+", "?"}[r.Intn(3)]
				if r.Intn(3) == 0 {
					a += "?"
				}
			}
			b.WriteString(a)
		}
		return b.String()
	}
	return alt(depth)
}

// TestRandomExpressionsAreRegexp holds random expressions of the
// package's syntax to regexp's answers.
func TestRandomExpressionsAreRegexp(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	n := 300
	if testing.Short() || raceEnabled {
		n = 30
	}
	for range n {
		expr := randomExpr(r, 2)
		holdToRegexp(t, expr, r, 3, 300)
		if t.Failed() {
			return
		}
	}
}

// TestOutsideTheSyntaxPanics checks that what the package does not read
// panics rather than meaning something else than it means to regexp.
func TestOutsideTheSyntaxPanics(t *testing.T) {
	for _, expr := range []string{
		`(`, `)`, `a**`, `*a`, `a{2}`, `a}`, `]`, `(?i)a`, `(?P<x>a)`, `\1`, `\pL`, `\n`, `\x41`, `\A`, `\z`,
		`[a`, `[]`, `[^]`, `[z-a]`, `[a-b-c]`, `[[:alpha:]]`, `[\D]`, `(a*)*`, `(?:a|)+`, `\b+`, `^*`, "\xff", `\`,
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("`%s` did not panic", expr)
				}
			}()
			MustCompile(expr)
		}()
	}
}

func TestQuoteMetaIsRegexps(t *testing.T) {
	var b strings.Builder
	for c := 0; c < 256; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString("é{1}%s")
	s := b.String()
	if got, want := QuoteMeta(s), regexp.QuoteMeta(s); got != want {
		t.Fatalf("QuoteMeta %q, regexp's %q", got, want)
	}
	r := rand.New(rand.NewSource(3))
	holdToRegexp(t, "^"+QuoteMeta("a.b*c(d)[e]{f}|g?h+i^j$k\\l")+"(.+?)"+QuoteMeta(" (x)")+"$", r, 4, 2000)
	// U+FFFD in the literals: an invalid byte of the text matches it.
	holdToRegexp(t, "^a\uFFFDb(.+?)c\uFFFDd$", r, 4, 2000)
}
