package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/cobra"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gcplay": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// fits N: every line of the last command's stdout is at most N
			// columns wide (a terminal of that width shows it unwrapped).
			"fits": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: fits COLUMNS")
				}
				n, err := strconv.Atoi(args[0])
				ts.Check(err)
				// The test's own work directory is longer than a user's path.
				out := strings.ReplaceAll(ts.ReadFile("stdout"), ts.Getenv("WORK"), "$WORK")
				for i, l := range strings.Split(out, "\n") {
					if w := utf8.RuneCountInString(l); w > n && !neg {
						ts.Fatalf("stdout line %d is %d columns wide, more than %d: %q", i+1, w, n, l)
					}
				}
			},
		},
		Setup: func(env *testscript.Env) error {
			// The repository's examples, which the README's tour runs.
			dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
			env.Setenv("EXAMPLES", dir)
			return err
		},
	})
}

// TestReadmeInstalls checks the README's way to a gcplay on the PATH: it
// names make install and go install from the module path, and the
// Makefile's install target installs this command.
func TestReadmeInstalls(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"make install", "go install github.com/gcplay/gcplay/cmd/gcplay@latest", "gcplay lessons start 1", "gcplay run examples/"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("the README does not say %q", want)
		}
	}
	target := regexp.MustCompile(`(?m)^install:\n\t\$\(GO\) install \./cmd/gcplay$`)
	if !target.Match(makefile) {
		t.Error("the Makefile has no install target running $(GO) install ./cmd/gcplay")
	}
	// make test ends with the skipped tests and their reasons: gotestsum's summary.
	for _, t2 := range []string{"unit", "race"} {
		re := regexp.MustCompile(`(?m)^` + t2 + `:.*\n(\t.*\n)*?\t.*\$\(GOTESTSUM\)`)
		if !re.Match(makefile) {
			t.Errorf("make %s does not run the tests through $(GOTESTSUM)", t2)
		}
	}
}

// TestPanicBecomesInternalError: a panic anywhere in a command ends
// gcplay with status 3 and one plain message, never a stack trace.
func TestPanicBecomesInternalError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := runWith(func() *cobra.Command {
		root := NewCmdRoot()
		root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("kaboom") }})
		return root
	}, []string{"boom"}, &stdout, &stderr)
	if code != ExitInternal {
		t.Errorf("exit status %d, want %d", code, ExitInternal)
	}
	if got := stderr.String(); !strings.HasPrefix(got, "gcplay: internal error: kaboom\n") || strings.Contains(got, "goroutine") {
		t.Errorf("stderr = %q", got)
	}
}
