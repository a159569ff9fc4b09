package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/i18n"
)

// TestEveryMessageHasWords: every error form of the playground (errorf,
// usagef), every message form (sayMsg) and every command's usage has words in every language, with
// the values the form has; and no language keeps words for a form the
// playground no longer writes. The forms are read from the source.
func TestEveryMessageHasWords(t *testing.T) {
	fset := token.NewFileSet()
	forms := map[string]string{}
	names, _ := filepath.Glob("*.go")
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(x ast.Node) bool {
			var lit ast.Expr
			switch x := x.(type) {
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && (id.Name == "errorf" || id.Name == "usagef") && len(x.Args) > 0 {
					lit = x.Args[0]
				}
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "sayMsg" && len(x.Args) > 1 {
					lit = x.Args[1]
				}
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "sayText" && len(x.Args) > 0 {
					lit = x.Args[0]
				}
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok && id.Name == "usage" {
					lit = x.Value
				}
			}
			if lit == nil {
				return true
			}
			b, ok := lit.(*ast.BasicLit)
			if !ok || b.Kind != token.STRING {
				if id, ok := lit.(*ast.Ident); ok && (id.Name == "form" || id.Name == "true") {
					return true // errorf and usagef themselves, textError.usage
				}
				t.Errorf("%s: a message form that is not a string literal: the languages cannot be checked for it", fset.Position(lit.Pos()))
				return true
			}
			s, _ := strconv.Unquote(b.Value)
			forms[s] = fset.Position(lit.Pos()).String()
			return true
		})
	}
	if len(forms) < 60 {
		t.Fatalf("read %d forms from the source: the reading is broken", len(forms))
	}
	for _, lang := range i18n.Langs() {
		if lang == "en" {
			continue
		}
		c := i18n.For(lang)
		for _, form := range slices.Sorted(func(yield func(string) bool) {
			for k := range forms {
				if !yield(k) {
					return
				}
			}
		}) {
			w, ok := c.Form(form)
			if !ok {
				if os.Getenv("GCPLAY_LIST_TEXTS") != "" {
					t.Logf("missing %s", strconv.Quote(form))
				}
				t.Errorf("%s: the form %q (%s) has no words in %s", lang, form, forms[form], lang)
				continue
			}
			if want, got := strings.Count(form, "%")-2*strings.Count(form, "%%"), highest(w); want != got {
				t.Errorf("%s: the form %q has %d values, its words %q have %d", lang, form, want, w, got)
			}
		}
		for _, form := range i18n.Forms(lang + ".tui") {
			if _, ok := forms[form]; !ok {
				t.Errorf("%s: forms/%s.tui.yaml has words for %q, which the playground no longer writes", lang, lang, form)
			}
		}
	}
}

// highest is the highest {n} of w.
func highest(w string) int {
	n := 0
	for i := 1; i <= 9; i++ {
		if strings.Contains(w, "{"+strconv.Itoa(i)+"}") {
			n = i
		}
	}
	return n
}
