package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// RunOptions are the options of gcplay run.
type RunOptions struct {
	Files []string
	// Dump is the file of -f: a cluster dump (or a scenario file) that
	// the command line adds steps to; "-" is stdin.
	Dump string
	// Delete is --delete TYPE/NAME, in Namespace (-n), with Cascade.
	Delete    string
	Namespace string
	Cascade   string
	stdin     io.Reader
	// Trace prints every controller step with its reason.
	Trace bool
	// Output is "text" or "json".
	Output string
}

// NewCmdRun returns the run command.
func NewCmdRun() *cobra.Command {
	o := &RunOptions{Output: "text", Namespace: "default", Cascade: "background"}
	cmd := &cobra.Command{
		Use:   "run FILE... | run -f DUMP [--delete TYPE/NAME]",
		Short: "Run scenario files and check their expectations, or run a cluster dump",
		Long: `Run each scenario file from a fresh world: create its objects, run its steps,
check its expectations, and print a short trace and the result.

With -f, run one cluster dump, as kubectl get -o yaml or -o json prints it
(FILE - reads stdin): restore its objects as they are, start the
controllers as after a kube-controller-manager restart and let them
settle; with --delete, then delete TYPE/NAME (in the namespace of -n) with
--cascade's policy and settle again. gcplay what-if says what such a
delete does to every object; run gives the trace (--trace, every
controller step) and takes a scenario file with -f as well.

Exit status: 0 when every step and expectation held, 1 when one failed,
2 when a file is not a valid scenario, 3 when gcplay itself broke.`,
		Example: `  gcplay run scenarios/two-owners.yaml
  gcplay run --trace scenarios/*.yaml
  gcplay run --output json two-owners.yaml
  gcplay run -f dump.yaml --delete deployment/web --cascade=foreground`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Files = args
			o.stdin = cmd.InOrStdin()
			if err := o.Validate(cmd); err != nil {
				return err
			}
			return o.Run(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&o.Trace, "trace", false, "print every controller step with its reason")
	cmd.Flags().StringVarP(&o.Output, "output", "o", o.Output, "output format: text or json")
	cmd.Flags().StringVarP(&o.Dump, "filename", "f", "", "a cluster dump as kubectl get -o yaml|json prints it, or a scenario file, to run with the steps of the flags below (- reads stdin)")
	cmd.Flags().StringVar(&o.Delete, "delete", "", "with -f: once the world is at rest, delete TYPE/NAME (kubectl's form: deployment/web, rs/x) and settle")
	cmd.Flags().StringVarP(&o.Namespace, "namespace", "n", o.Namespace, "with --delete: the namespace of TYPE/NAME")
	cmd.Flags().StringVar(&o.Cascade, "cascade", o.Cascade, "with --delete: background, foreground or orphan, as kubectl delete --cascade")
	return cmd
}

// Validate checks the options.
func (o *RunOptions) Validate(cmd *cobra.Command) error {
	invalid := func(format string, a ...any) error {
		return &ExitError{Code: ExitInvalid, Err: fmt.Errorf(format, a...)}
	}
	if o.Output != "text" && o.Output != "json" {
		return invalid("--output must be text or json, not %q", o.Output)
	}
	switch {
	case o.Dump != "" && len(o.Files) > 0:
		return invalid("give scenario files, or one file with -f, not both")
	case o.Dump == "":
		for _, f := range []string{"delete", "namespace", "cascade"} {
			if cmd.Flags().Changed(f) {
				return invalid("--%s goes with -f DUMP: a scenario file says its own steps", f)
			}
		}
		if len(o.Files) == 0 {
			return invalid("run needs a scenario file (gcplay run FILE...) or a cluster dump (gcplay run -f DUMP [--delete TYPE/NAME])")
		}
	case o.Delete == "":
		for _, f := range []string{"namespace", "cascade"} {
			if cmd.Flags().Changed(f) {
				return invalid("--%s goes with --delete TYPE/NAME", f)
			}
		}
	}
	if _, ok := cascades[o.Cascade]; !ok {
		return invalid("--cascade must be background, foreground or orphan, not %q", o.Cascade)
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
	// Notes say what an import made of a dump that the dump did not say
	// itself (kinds taken as custom kinds, namespaces added).
	Notes []string `json:"notes,omitempty"`
	// Result is the run of a valid file.
	Result *scenario.Result `json:"result,omitempty"`
	code   int
	// restored counts the objects of a dump.
	restored int
}

// addCommandSteps adds the steps of -f's flags to s: settle, and with
// --delete the delete and a settle.
func (o *RunOptions) addCommandSteps(s *scenario.Scenario) error {
	if o.Delete == "" {
		s.AddCommandSteps(nil, "")
		return nil
	}
	reg := fakeapi.NewRegistry()
	for _, k := range s.Kinds {
		if err := reg.Add(k); err != nil {
			return err
		}
	}
	ref, err := resolveTarget(reg, o.Delete, o.Namespace)
	if err != nil {
		var ee *ExitError
		if errors.As(err, &ee) {
			err = ee.Err
		}
		return fmt.Errorf("--delete %w", err)
	}
	s.AddCommandSteps(&ref, cascades[o.Cascade])
	return nil
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
	files := o.Files
	if o.Dump != "" {
		files = []string{o.Dump}
	}
	for _, f := range files {
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
	} else if len(files) > 1 {
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
	var t dumpText
	var err error
	switch {
	case o.Dump == "-":
		t.data, err = io.ReadAll(o.stdin)
		file, r.File = "stdin", "stdin"
	case o.Dump != "":
		t, err = readDumpText(file)
	default:
		t.data, err = os.ReadFile(file)
	}
	data := t.data
	if err != nil {
		r.Status, r.code = "invalid", ExitInvalid
		r.Errors = []*scenario.Error{{File: file, Message: readError(err)}}
		return r
	}
	var s *scenario.Scenario
	if o.Dump != "" {
		t.deferCollection()
		s, err = t.parse(file)
		if err == nil {
			err = o.addCommandSteps(s)
		}
	} else {
		s, err = scenario.Parse(file, data)
	}
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
	r.restored, r.Notes = len(s.Restore), s.Notes
	data = nil // a dump's text is not needed once it is read
	t.parsedDump(s)
	var released func()
	if o.Dump != "" {
		pace := liveFactor
		if o.Trace {
			pace = 0
		}
		released = func() { collectAfterRelease(pace) }
	}
	// The text reads the steps; only JSON prints the final objects,
	// removals and events.
	res := scenario.Run(s, scenario.RunOptions{Records: o.Trace, ReleaseRestore: true, Released: released, WorldOnly: o.Output == "text"})
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

// collectAfterRead starts a collection once a dump is read, while the
// world is built. The read's last collection finds the decoder's scratch
// still live beside the objects read, and Go's collector lets the heap
// grow to twice what it found: without a collection of its own, the
// world's restore and relists would fill that headroom before the next
// one, and the process's peak would be set by the read rather than by the
// world. The parsed scenario keeps nothing of the text
// (TestParsedDumpKeepsNoText). It runs beside the caller, on the core the
// single-threaded world leaves idle, and then, with a factor of what is
// live (grow: growFactor), paces a large world's collector (worldPacer),
// unless the user set GOMEMLIMIT or GOGC. The playground (play -f) calls
// it; gcplay run and what-if call collectAfterRelease instead.
func collectAfterRead(grow float64) {
	go func() {
		runtime.GC()
		if paced(grow) {
			startPacer(liveHeap(), peakRSS(), readFactor, grow)
		}
	}()
}

// collectAfterRelease is collectAfterRead for gcplay run and what-if,
// called once the scenario has let go of the dump's list
// (scenario.RunOptions.Released, scenario.StartReleased),
// with a measure of the objects read that does not depend on the machine's
// load: what the collection finds live less what was allocated while it
// ran (the world's start, which Go's collector counts live as it goes).
// The collection after the read raced with the release, and found the
// list in some runs and not in others; with what the world's start
// allocated while it marked, the least limit took one of two values
// between runs of one dump (docs/BENCHMARKS.md, "Seventeenth session
// (2026-11-27): the collector and the build"). What
// the collection allocated after its marking is taken off too, so the
// measure errs low, by at most a quarter (liveBefore): a lower limit,
// never a higher peak, and a large world is never left unpaced.
func collectAfterRelease(grow float64) {
	go func() {
		read := liveBefore(runtime.GC)
		if paced(grow) {
			startPacer(read, peakRSS(), releasedFactor, grow)
		}
	}()
}

// liveBefore runs collect, a collection, and returns what it found live
// less what was allocated meanwhile, and at least three quarters of what
// it found: a collection that had to wait for another one (runtime.GC
// finishes a cycle under way first) counts the wait's allocations too.
func liveBefore(collect func()) uint64 {
	before := allocatedBytes()
	collect()
	live := liveHeap()
	return live - min(allocatedBytes()-before, live/4)
}

// paced says whether a world read from a dump is paced: not (0) for a run
// that records every step, nor when the user set GOMEMLIMIT or GOGC.
func paced(grow float64) bool {
	return grow > 0 && os.Getenv("GOMEMLIMIT") == "" && os.Getenv("GOGC") == ""
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
	for _, n := range r.Notes {
		fmt.Fprintln(out, "  note: "+n)
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
		if r.restored > 0 {
			steps-- // the restore is not a step
			fmt.Fprintf(out, "--- PASS %s (%s restored, %s, %s held)\n", r.File, count(r.restored+objects, "object"), count(steps, "step"), count(checks, "check"))
			return
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
