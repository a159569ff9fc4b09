package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/i18n"
)

// formArg names the calls that take a reason's sentence form, and which
// argument it is: the engine's sentences are found by reading its
// source, so a new one without words in a language fails the test
// below.
var formArg = map[string]int{
	"say": 0, "say1": 0, "said": 0, "Say": 0, "and": 0, // say.go (said: textSlab.said)
	"errSay":      0, // say.go: kubectl's errors
	"act":         1, // syncLog.act, stsSync.act (code, form, ...)
	"waitFor":     0, // stsSync.waitFor
	"Because":     1, // Record.Because (reason, form, ...)
	"BecauseItem": 1, // Record.BecauseItem (reason, form)
}

// sourceTexts reads the engine's source for the reason codes it can give
// and the sentence forms of its reasons. bad lists the forms it cannot
// read (not a constant), by position.
func sourceTexts(t *testing.T) (codes, forms map[string]string, bad []string) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	names, _ := filepath.Glob("*.go")
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	consts := map[string]ast.Expr{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	codes, forms = map[string]string{}, map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			params := map[string]bool{}
			for _, p := range fd.Type.Params.List {
				for _, n := range p.Names {
					params[n.Name] = true
				}
			}
			// values gives the constant strings e may be: itself, or
			// what the function assigns to the variable it names.
			var values func(e ast.Expr) ([]string, bool)
			values = func(e ast.Expr) ([]string, bool) {
				switch e := e.(type) {
				case *ast.BasicLit:
					if e.Kind == token.STRING {
						s, err := strconv.Unquote(e.Value)
						return []string{s}, err == nil
					}
				case *ast.ParenExpr:
					return values(e.X)
				case *ast.BinaryExpr:
					if e.Op != token.ADD {
						return nil, false
					}
					l, ok1 := values(e.X)
					r, ok2 := values(e.Y)
					var out []string
					for _, a := range l {
						for _, b := range r {
							out = append(out, a+b)
						}
					}
					return out, ok1 && ok2
				case *ast.Ident:
					if c, ok := consts[e.Name]; ok {
						return values(c)
					}
					var out []string
					found := true
					ast.Inspect(fd.Body, func(n ast.Node) bool {
						as, ok := n.(*ast.AssignStmt)
						if !ok || len(as.Lhs) != len(as.Rhs) {
							return true
						}
						for i, l := range as.Lhs {
							if id, ok := l.(*ast.Ident); ok && id.Name == e.Name {
								v, ok := values(as.Rhs[i])
								found = found && ok
								out = append(out, v...)
							}
						}
						return true
					})
					return out, found && len(out) > 0
				}
				return nil, false
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.KeyValueExpr:
					k, ok := n.Key.(*ast.Ident)
					if !ok {
						return true
					}
					switch k.Name {
					case "Code", "code":
						if v, ok := values(n.Value); ok {
							for _, s := range v {
								codes[s] = fset.Position(n.Pos()).String()
							}
						}
					case "Form":
						if v, ok := values(n.Value); ok {
							for _, s := range v {
								forms[s] = fset.Position(n.Pos()).String()
							}
						}
					}
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						name := ""
						switch l := l.(type) {
						case *ast.Ident:
							name = l.Name
						case *ast.SelectorExpr:
							name = l.Sel.Name
						}
						if (name == "Code" || name == "code") && i < len(n.Rhs) {
							if v, ok := values(n.Rhs[i]); ok {
								for _, s := range v {
									codes[s] = fset.Position(n.Pos()).String()
								}
							}
						}
					}
				case *ast.ReturnStmt:
					if fd.Name.Name == "deleteCode" {
						for _, r := range n.Results {
							if v, ok := values(r); ok {
								for _, s := range v {
									codes[s] = fset.Position(n.Pos()).String()
								}
							}
						}
					}
				case *ast.CallExpr:
					name := ""
					switch f := n.Fun.(type) {
					case *ast.Ident:
						name = f.Name
					case *ast.SelectorExpr:
						name = f.Sel.Name
					}
					i, ok := formArg[name]
					if !ok || i >= len(n.Args) {
						return true
					}
					if name == "act" {
						if v, ok := values(n.Args[0]); ok {
							for _, s := range v {
								codes[s] = fset.Position(n.Pos()).String()
							}
						}
					}
					if id, ok := n.Args[i].(*ast.Ident); ok && params[id.Name] {
						return true // a helper passing its caller's form on
					}
					v, ok := values(n.Args[i])
					if !ok {
						bad = append(bad, fset.Position(n.Pos()).String())
					}
					for _, s := range v {
						forms[s] = fset.Position(n.Pos()).String()
					}
				}
				return true
			})
		}
	}
	// The apiserver's refusals reach a user's request as its reason code.
	src, err := os.ReadFile(filepath.Join("..", "fakeapi", "errors.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if f := strings.Fields(line); len(f) == 4 && f[1] == "Reason" && f[2] == "=" && strings.HasPrefix(f[0], "Reason") {
			s, _ := strconv.Unquote(f[3])
			codes[s] = "fakeapi/errors.go"
		}
	}
	delete(codes, "")
	return codes, forms, bad
}

// TestEveryReasonHasWords: every reason code the engine can give and
// every sentence form of its reasons has words in every language gcplay
// speaks, with the values the form has.
func TestEveryReasonHasWords(t *testing.T) {
	codes, forms, bad := sourceTexts(t)
	for _, p := range bad {
		t.Errorf("%s: a reason's form that is not a constant: the languages cannot be checked for it", p)
	}
	if len(codes) < 50 || len(forms) < 100 {
		t.Fatalf("read %d codes and %d forms from the source: the reading is broken", len(codes), len(forms))
	}
	if os.Getenv("GCPLAY_LIST_TEXTS") != "" {
		for _, k := range slices.Sorted(mapKeys(codes)) {
			t.Logf("code %s", k)
		}
		for _, k := range slices.Sorted(mapKeys(forms)) {
			t.Logf("form %q", k)
		}
	}
	for _, lang := range i18n.Langs() {
		if lang == "en" {
			continue
		}
		c := i18n.For(lang)
		for _, code := range slices.Sorted(mapKeys(codes)) {
			if c.Reason(code) == "" {
				t.Errorf("%s: reason code %s (%s) has no words in %s", lang, code, codes[code], lang)
			}
		}
		for _, form := range slices.Sorted(mapKeys(forms)) {
			w, ok := c.Form(form)
			if !ok {
				t.Errorf("%s: the form %q (%s) has no words in %s", lang, form, forms[form], lang)
				continue
			}
			if want, got := len(verbs(form)), placeholderCount(w); want != got {
				t.Errorf("%s: the form %q has %d values, its words %q have %d", lang, form, want, w, got)
			}
		}
		for _, form := range i18n.Forms(lang) {
			if _, ok := forms[form]; !ok {
				t.Errorf("%s: forms/%s.yaml has words for %q, which the engine no longer writes", lang, lang, form)
			}
		}
	}
}

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// placeholderCount is the highest {n} of w.
func placeholderCount(w string) int {
	n := 0
	for i := 1; i <= 9; i++ {
		if strings.Contains(w, "{"+strconv.Itoa(i)+"}") {
			n = i
		}
	}
	return n
}

// noteValues are the phrases that reach a note as a value ("%s" notes and
// the values of some note forms), each with a fragment of the source that
// writes it: the note words of a language word them too, and a phrase the
// engine no longer writes must lose its words.
var noteValues = map[string]string{
	"no expectations recorded":                           `"no expectations recorded"`,
	"expectations fulfilled":                             `"expectations fulfilled"`,
	"expectations (%s) expired after %s":                 `say(") expired after %s"`,
	"still expecting %s (set %s ago, expiring after %s)": `say(" (set %s ago, expiring after %s)"`,
	"%d creations and %d deletions":                      `say("%d creations and %d deletions"`,
	"complete":                                           `jobComplete           = "Complete"`,
	"failed":                                             `jobFailed             = "Failed"`,
	"none":                                               `return "none"`,
	"nothing":                                            `say("nothing")`,
	"1 creation":                                         `say("1 creation")`,
	"%d creations":                                       `say("%d creations"`,
	"1 deletion":                                         `say("1 deletion")`,
	"%d deletions":                                       `say("%d deletions"`,
	"status: replicas %d, readyReplicas %d, availableReplicas %d, observedGeneration %d": `"status: replicas %d, readyReplicas %d, availableReplicas %d, observedGeneration %d"`,
	"%s (update failed)":                       `" (update failed)"`,
	"adopted %s":                               `say("adopted %s", listPhrase(m.adopted))`,
	"released %s":                              `say("released %s", listPhrase(m.released))`,
	"adopted %s, released %s":                  `say("adopted %s, released %s",`,
	"%s, %s and %d more":                       `"%s, %s and %d more"`,
	"every Pod goes":                           `"every Pod goes"`,
	"ranked before %s, the first Pod kept: %s": `", the first Pod kept"`,
	"ranked before %s: %s":                     `"ranked before " + next.obj.String()`,
	"ranks equal to":                           `"ranks equal to"`,
	"unassigned before assigned":               `"unassigned before assigned"`,
	"Pending before Unknown before Running":    `"Pending before Unknown before Running"`,
	"not ready before ready":                   `"not ready before ready"`,
	"lower controller.kubernetes.io/pod-deletion-cost first": `"lower "+podDeletionCostAnnotation+" first"`,
	"more Pods of the same owner on its node first":          `"more Pods of the same owner on its node first"`,
	"ready for less time first":                              `"ready for less time first"`,
	"more container restarts first":                          `"more container restarts first"`,
	"more sidecar container restarts first":                  `"more sidecar container restarts first"`,
	"newer first":                                            `"newer first"`,
	"%s (same log2 age bucket: by UID)":                      `" (same log2 age bucket: by UID)"`,
}

// TestEveryNoteHasWords: every note form the engine writes (rec.Note's
// first argument, read from the engine's source) and every phrase that
// reaches a note as a value (noteValues) has words in each language's
// forms/<lang>.notes.yaml, with the same values; and the words are of
// notes the engine still writes, so they do not outlive them.
func TestEveryNoteHasWords(t *testing.T) {
	written := map[string]bool{}
	names, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`\.Note\(("(?:[^"\\]|\\.)*")`)
	var src strings.Builder
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			s, err := strconv.Unquote(m[1])
			if err != nil {
				t.Fatal(err)
			}
			if s != "%s" { // a phrase of noteValues
				written[s] = true
			}
		}
	}
	if len(written) < 30 {
		t.Fatalf("read only %d note forms from the engine's source", len(written))
	}
	for v, frag := range noteValues {
		if !strings.Contains(src.String(), frag) {
			t.Errorf("noteValues: %q is no longer in the engine's source (%s): remove its words", v, frag)
			continue
		}
		written[v] = true
	}
	for _, lang := range i18n.Langs() {
		if lang == "en" {
			continue
		}
		have := map[string]bool{}
		for _, f := range i18n.NoteForms(lang) {
			have[f] = true
			if !written[f] {
				t.Errorf("forms/%s.notes.yaml words %q, a note the engine no longer writes", lang, f)
			}
		}
		c := i18n.For(lang)
		for f := range written {
			if !have[f] {
				t.Errorf("forms/%s.notes.yaml has no words for the note %q", lang, f)
				continue
			}
			w, _ := c.Form(f)
			if got, want := placeholderCount(w), strings.Count(f, "%")-2*strings.Count(f, "%%"); got != want {
				t.Errorf("forms/%s.notes.yaml: %q has %d values, its words %q %d", lang, f, want, w, got)
			}
		}
	}
	zh := i18n.For("zh")
	for _, c := range []struct{ en, zh string }{
		{"owner ConfigMap/app is in absentOwnerCache: dangling, no lookup", "属主 ConfigMap/app 在 absentOwnerCache 中：悬空，不再查找"},
		{"deleting Pod/default/web-b: ranked before Pod/default/web-a, the first Pod kept: not ready before ready",
			"删除 Pod/default/web-b：排在 Pod/default/web-a（第一个保留的 Pod）之前：未就绪的先于已就绪的"},
		{"still expecting 2 deletions (set 1s ago, expiring after 5m0s)", "仍在等待 2 次删除（1s 前设置，5m0s 后过期）"},
		{"claim: adopted Pod/a, released Pod/b", "认领：收养了 Pod/a，释放了 Pod/b"},
		{"not complete yet: 2 Pod(s) still terminating", "尚未完成（Complete）：还有 2 个 Pod 正在终止"},
		{"status: 0 active, lastScheduleTime none", "状态：0 个活跃，lastScheduleTime 无"},
		{"a note no form matches", "a note no form matches"},
	} {
		if got := zh.Note(c.en); got != c.zh {
			t.Errorf("the note %q in Chinese: %q, want %q", c.en, got, c.zh)
		}
	}
}
