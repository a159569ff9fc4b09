package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gcplay/gcplay/scenario"
)

// RunOptions are the options of gcplay run.
type RunOptions struct {
	Files []string
	// Trace prints every controller step with its reason.
	Trace bool
	// Output is "text" or "json".
	Output string
}

// NewCmdRun returns the run command.
func NewCmdRun() *cobra.Command {
	o := &RunOptions{Output: "text"}
	cmd := &cobra.Command{
		Use:   "run FILE...",
		Short: "Run scenario files and check their expectations",
		Long: `Run each scenario file from a fresh world: create its objects, run its steps,
check its expectations, and print a short trace and the result.

Exit status: 0 when every step and expectation held, 1 when one failed,
2 when a file is not a valid scenario, 3 when gcplay itself broke.`,
		Example: `  gcplay run scenarios/two-owners.yaml
  gcplay run --trace scenarios/*.yaml
  gcplay run --output json two-owners.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Files = args
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.Trace, "trace", false, "print every controller step with its reason")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: text or json")
	return cmd
}

// Validate checks the options.
func (o *RunOptions) Validate() error {
	if o.Output != "text" && o.Output != "json" {
		return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("--output must be text or json, not %q", o.Output)}
	}
	return nil
}

// fileReport is the outcome of one file, as --output json prints it.
type fileReport struct {
	File string `json:"file"`
	// Status is pass, fail, invalid or internal-error.
	Status string `json:"status"`
	// Errors are the problems of an invalid file.
	Errors []*scenario.Error `json:"errors,omitempty"`
	// Result is the run of a valid file.
	Result *scenario.Result `json:"result,omitempty"`
	code   int
}

// summary counts files by status.
type summary struct {
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Invalid  int `json:"invalid"`
	Internal int `json:"internalErrors"`
}

// Run runs every file and writes the report to out. It returns an
// ExitError carrying the worst status of all files.
func (o *RunOptions) Run(out io.Writer) error {
	var reports []*fileReport
	var sum summary
	code := ExitOK
	for _, f := range o.Files {
		r := o.runFile(f)
		switch r.Status {
		case "pass":
			sum.Passed++
		case "fail":
			sum.Failed++
		case "invalid":
			sum.Invalid++
		default:
			sum.Internal++
		}
		code = max(code, r.code)
		reports = append(reports, r)
		if o.Output == "text" {
			o.writeText(out, r)
		}
	}
	if o.Output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(struct {
			Files   []*fileReport `json:"files"`
			Summary summary       `json:"summary"`
		}{reports, sum}); err != nil {
			return &ExitError{Code: ExitInternal, Err: err}
		}
	} else if len(o.Files) > 1 {
		fmt.Fprintf(out, "%d passed, %d failed, %d invalid", sum.Passed, sum.Failed, sum.Invalid)
		if sum.Internal > 0 {
			fmt.Fprintf(out, ", %d internal errors", sum.Internal)
		}
		fmt.Fprintln(out)
	}
	if code == ExitOK {
		return nil
	}
	return &ExitError{Code: code}
}

// runFile reads, parses and runs one file.
func (o *RunOptions) runFile(file string) *fileReport {
	r := &fileReport{File: file}
	data, err := os.ReadFile(file)
	if err != nil {
		r.Status, r.code = "invalid", ExitInvalid
		r.Errors = []*scenario.Error{{File: file, Message: readError(err)}}
		return r
	}
	s, err := scenario.Parse(file, data)
	if err != nil {
		r.Status, r.code = "invalid", ExitInvalid
		var list scenario.ErrorList
		if errors.As(err, &list) {
			r.Errors = list
		} else {
			r.Errors = []*scenario.Error{{File: file, Message: err.Error()}}
		}
		return r
	}
	res := scenario.Run(s, scenario.RunOptions{Records: o.Trace})
	r.Result = res
	switch {
	case res.InternalError != "":
		r.Status, r.code = "internal-error", ExitInternal
	case !res.Passed:
		r.Status, r.code = "fail", ExitFailed
	default:
		r.Status, r.code = "pass", ExitOK
	}
	return r
}

func readError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "cannot read the file: " + pe.Err.Error()
	}
	return "cannot read the file: " + err.Error()
}

// writeText prints one file's short trace and result.
func (o *RunOptions) writeText(out io.Writer, r *fileReport) {
	if r.Result != nil {
		fmt.Fprintf(out, "=== %s (%s)\n", r.File, r.Result.Name)
	} else {
		fmt.Fprintf(out, "=== %s\n", r.File)
	}
	switch r.Status {
	case "invalid":
		for _, e := range r.Errors {
			fmt.Fprintln(out, e.Error())
		}
		fmt.Fprintf(out, "--- INVALID %s: not a valid scenario (%s)\n", r.File, count(len(r.Errors), "error"))
		return
	}
	for _, line := range r.Result.Trace(o.Trace) {
		fmt.Fprintln(out, "  "+line)
	}
	switch r.Status {
	case "internal-error":
		fmt.Fprintf(out, "%s: internal error: %s\nThis is a bug in gcplay, not a problem with the scenario; please report it with this file.\n", r.File, r.Result.InternalError)
		fmt.Fprintf(out, "--- ERROR %s\n", r.File)
	case "fail":
		for _, m := range r.Result.Failure.Messages {
			fmt.Fprintln(out, m)
		}
		fmt.Fprintf(out, "--- FAIL %s\n", r.File)
	default:
		objects, steps, checks := 0, 0, 0
		for _, s := range r.Result.Steps {
			if strings.HasPrefix(s.Step, "object ") {
				objects++
			} else {
				steps++
			}
			checks += len(s.Checks)
		}
		fmt.Fprintf(out, "--- PASS %s (%s, %s, %s held)\n", r.File, count(objects, "object"), count(steps, "step"), count(checks, "check"))
	}
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
