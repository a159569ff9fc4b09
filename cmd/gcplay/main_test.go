package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

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
		Setup: func(env *testscript.Env) error {
			// The project's shared scenarios, when present beside the repository.
			env.Setenv("SHARED", sharedScenarios())
			return nil
		},
	})
}

func sharedScenarios() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	return dir + "/../../../shared/scenarios"
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
