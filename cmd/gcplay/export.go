package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/gcplay/gcplay/scenario"
)

// NewCmdExport returns the export command.
func NewCmdExport() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "export kubectl FILE",
		Short: "Write a script that builds a scenario's world on a real cluster and replays its steps with kubectl",
		Long: `Write a bash script that builds the world of a scenario (or a cluster dump) on
a real cluster and replays its steps with kubectl, printing at each expect
step what gcplay expects beside what the cluster shows.

The script uses a kind cluster named gcplay-NAME, which it creates when
missing, or the context given with --context; it refuses a context it did
not create unless --force is given, since it creates and deletes objects.
What kubectl cannot do (step the collector one item at a time, inject
faults) is said in the script where it would have been.`,
		Example: `  gcplay export kubectl examples/foreground.yaml > foreground.sh
  bash foreground.sh                      # on a kind cluster it creates
  bash foreground.sh --context kind-test --force
  gcplay run --trace examples/foreground.yaml   # what to compare with`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] != "kubectl" {
				return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("export writes kubectl scripts: gcplay export kubectl FILE, not %q", args[0])}
			}
			t, name, err := readInput(args[1], cmd.InOrStdin())
			if err != nil {
				return &ExitError{Code: ExitInvalid, Err: err}
			}
			s, err := t.parse(name)
			if err != nil {
				return &ExitError{Code: ExitInvalid, Err: err}
			}
			t.parsedDump(s)
			// A dump: its world once settled, as objects and deletes.
			if s, err = scenario.AsScenario(s); err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			script, err := scenario.ExportKubectl(s)
			if err != nil {
				return &ExitError{Code: ExitInvalid, Err: err}
			}
			var w io.Writer = cmd.OutOrStdout()
			if out != "" && out != "-" {
				if err := os.WriteFile(out, script, 0o755); err != nil {
					return &ExitError{Code: ExitFailed, Err: err}
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: run it with bash %s (--help for its options)\n", out, out)
				return nil
			}
			_, err = w.Write(script)
			return err
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the script to this file (made executable) instead of stdout")
	return cmd
}
