// Command gcplay is an interactive playground that teaches the Kubernetes
// garbage collector. `gcplay run FILE...` runs scenario files; `gcplay`
// alone opens the terminal UI.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the process exit status. It
// never lets a panic through: a bug in gcplay is reported in one plain
// message with status 3, never as a Go stack trace.
func run(args []string, stdout, stderr io.Writer) int {
	return runWith(NewCmdRoot, args, stdout, stderr)
}

// runWith is run with the root command's constructor as a parameter, so
// tests can add commands.
func runWith(newRoot func() *cobra.Command, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "gcplay: internal error: %v\nThis is a bug in gcplay, not a problem with your input; please report it with the command and files you used.\n", p)
			code = ExitInternal
		}
	}()
	cmd := newRoot()
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	return exitStatus(cmd.Execute(), stderr)
}
