package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// WhatIfOptions are the options of gcplay what-if and its subcommands.
type WhatIfOptions struct {
	// File is the dump (or scenario) to read; "-" is stdin.
	File      string
	Namespace string
	// Cascade is kubectl delete's --cascade: background, foreground or
	// orphan.
	Cascade string
	// Output is text or json.
	Output string
	stdin  io.Reader
}

// NewCmdWhatIf returns the what-if command.
func NewCmdWhatIf() *cobra.Command {
	o := &WhatIfOptions{Namespace: "default", Cascade: "background", Output: "text"}
	cmd := &cobra.Command{
		Use:   "what-if -f FILE (delete|why) TYPE/NAME",
		Short: "Ask a cluster dump what a delete would take with it, or why an object is not gone",
		Long: `Read a cluster dump, as kubectl get -o yaml or -o json prints it (a v1 List,
several YAML documents, or plain manifests; FILE - reads stdin), restore its
objects as they are (UIDs, owner references, finalizers, deletionTimestamp,
status), start the controllers as after a kube-controller-manager restart,
let them settle, and answer:

  delete TYPE/NAME   what happens to every object: deleted (and by whom),
                     orphaned (which references were removed), kept, or
                     stuck (what holds it, and who would have to act)
  why TYPE/NAME      why an object that is terminating is not gone

Kinds gcplay does not know become custom kinds with the scope the dump
implies; it says so. Exit status: 0 answered, 1 the delete or the object
failed (NotFound, ...), 2 the file or the command line is wrong.`,
		Example: `  kubectl get deploy,rs,pods -o yaml > dump.yaml
  gcplay what-if -f dump.yaml delete deployment/web
  gcplay what-if -f dump.yaml delete rs/web-5d8c7f -n shop --cascade=orphan -o json
  kubectl get all -A -o json | gcplay what-if -f - why pod/db-0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return &ExitError{Code: ExitInvalid, Err: errors.New("what-if needs a question: delete TYPE/NAME or why TYPE/NAME (see gcplay what-if --help)")}
		},
	}
	cmd.PersistentFlags().StringVarP(&o.File, "filename", "f", "", "the dump to read (- for stdin)")
	cmd.PersistentFlags().StringVarP(&o.Namespace, "namespace", "n", o.Namespace, "the namespace of TYPE/NAME")
	cmd.PersistentFlags().StringVarP(&o.Output, "output", "o", o.Output, "output format: text or json")

	del := &cobra.Command{
		Use:   "delete TYPE/NAME",
		Short: "What a delete of TYPE/NAME would do to every object of the dump",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.stdin = cmd.InOrStdin()
			return o.RunDelete(cmd.OutOrStdout(), args[0])
		},
	}
	del.Flags().StringVar(&o.Cascade, "cascade", o.Cascade, "background, foreground or orphan, as kubectl delete --cascade")
	why := &cobra.Command{
		Use:   "why TYPE/NAME",
		Short: "Why an object of the dump that is terminating is not gone",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.stdin = cmd.InOrStdin()
			return o.RunWhy(cmd.OutOrStdout(), args[0])
		},
	}
	cmd.AddCommand(del, why)
	return cmd
}

var cascades = map[string]string{"background": "Background", "foreground": "Foreground", "orphan": "Orphan"}

func (o *WhatIfOptions) validate() error {
	if o.File == "" {
		return &ExitError{Code: ExitInvalid, Err: errors.New("-f FILE is required: the dump to read (kubectl get ... -o yaml > FILE), or - for stdin")}
	}
	if o.Output != "text" && o.Output != "json" {
		return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("--output must be text or json, not %q", o.Output)}
	}
	if _, ok := cascades[o.Cascade]; !ok {
		return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("--cascade must be background, foreground or orphan, not %q", o.Cascade)}
	}
	return nil
}

// load reads and starts the dump. Problems with the file are ExitInvalid.
func (o *WhatIfOptions) load(out io.Writer) (*scenario.Scenario, *scenario.Imported, error) {
	if err := o.validate(); err != nil {
		return nil, nil, err
	}
	t, name, err := readInput(o.File, o.stdin)
	if err != nil {
		return nil, nil, &ExitError{Code: ExitInvalid, Err: err}
	}
	t.deferCollection()
	s, err := t.parse(name)
	if err != nil {
		return nil, nil, &ExitError{Code: ExitInvalid, Err: err}
	}
	t.parsedDump(s)
	im, err := scenario.StartReleased(s, func() { collectAfterRelease(liveFactor) })
	if err != nil {
		return nil, nil, &ExitError{Code: ExitFailed, Err: err}
	}
	if o.Output == "text" {
		for _, n := range s.Notes {
			fmt.Fprintln(out, "note: "+n)
		}
	}
	return s, im, nil
}

// readInput reads a file, or stdin for "-" (named "stdin" in messages);
// a large file's text is held outside Go's heap (readDumpText).
func readInput(file string, stdin io.Reader) (dumpText, string, error) {
	if file == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return dumpText{}, "stdin", fmt.Errorf("stdin: %v", err)
		}
		return dumpText{data: data, free: func() {}}, "stdin", nil
	}
	t, err := readDumpText(file)
	if err != nil {
		return dumpText{}, file, fmt.Errorf("%s: %s", file, readError(err))
	}
	return t, file, nil
}

// target resolves TYPE/NAME (kubectl's form: deployment/web, rs/x) in the
// namespace given with -n.
func (o *WhatIfOptions) target(im *scenario.Imported, arg string) (scenario.Ref, error) {
	return resolveTarget(im.World.Store().Registry(), arg, o.Namespace)
}

// resolveTarget resolves TYPE/NAME as kubectl writes it, with the kinds of
// reg, in namespace (-n) when the kind is namespaced.
func resolveTarget(reg *fakeapi.Registry, arg, namespace string) (scenario.Ref, error) {
	typ, name, ok := strings.Cut(arg, "/")
	if !ok || typ == "" || name == "" || strings.Contains(name, "/") {
		return scenario.Ref{}, &ExitError{Code: ExitInvalid, Err: fmt.Errorf("%q: write TYPE/NAME, such as deployment/web or pod/db-0", arg)}
	}
	ref, err := scenario.ResolveRef(reg, typ+"/"+name)
	if err != nil {
		return scenario.Ref{}, &ExitError{Code: ExitInvalid, Err: fmt.Errorf("%q: %v", arg, err)}
	}
	if info, ok := reg.Lookup(ref.APIVersion, ref.Kind); ok && info.Namespaced() {
		ref.Namespace = namespace
	}
	return ref, nil
}

// RunDelete answers what-if delete.
func (o *WhatIfOptions) RunDelete(out io.Writer, arg string) error {
	s, im, err := o.load(out)
	if err != nil {
		return err
	}
	ref, err := o.target(im, arg)
	if err != nil {
		return err
	}
	w, err := im.Delete(ref, cascades[o.Cascade])
	if err != nil {
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("delete %s: %s", arg, describeAPIError(err))}
	}
	if o.Output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(w.JSON())
	}
	fmt.Fprintf(out, "what if: kubectl delete %s%s --cascade=%s, on %s (%s)\n", arg, nsArg(ref), o.Cascade, s.File, count(im.Objects, "object"))
	fmt.Fprintf(out, "before: %s\n", w.Before)
	fmt.Fprintf(out, "after the delete the controllers took %s to settle\n", count(w.Steps, "step"))
	section(out, "deleted", len(w.Deleted), func(i int) string { return w.Deleted[i].Object + "  by " + scenario.Actor(w.Deleted[i].By) })
	section(out, "orphaned", len(w.Orphaned), func(i int) string {
		return w.Orphaned[i].Object + "  stays; references removed: " + strings.Join(w.Orphaned[i].Removed, ", ")
	})
	section(out, "stuck", len(w.Stuck), func(i int) string {
		return w.Stuck[i].Object + "  held by " + w.Stuck[i].HeldBy + ": " + w.Stuck[i].Reason
	})
	section(out, "created", len(w.Created), func(i int) string { return w.Created[i].Object + "  by the " + w.Created[i].By })
	section(out, "kept", len(w.Kept), func(i int) string { return w.Kept[i] })
	return nil
}

func nsArg(ref scenario.Ref) string {
	if ref.Namespace == "" {
		return ""
	}
	return " -n " + ref.Namespace
}

// sectionLines is how many objects a text section lists before it counts
// the rest; -o json lists them all.
const sectionLines = 20

func section(out io.Writer, title string, n int, line func(int) string) {
	if n == 0 {
		return
	}
	fmt.Fprintf(out, "%s (%d):\n", title, n)
	for i := 0; i < n && i < sectionLines; i++ {
		fmt.Fprintln(out, "  "+line(i))
	}
	if n > sectionLines {
		fmt.Fprintf(out, "  ... and %d more (-o json lists every object)\n", n-sectionLines)
	}
}

func describeAPIError(err error) string {
	if s, ok := fakeapi.FromServer(err); ok {
		return s
	}
	return err.Error()
}

// RunWhy answers what-if why.
func (o *WhatIfOptions) RunWhy(out io.Writer, arg string) error {
	_, im, err := o.load(out)
	if err != nil {
		return err
	}
	ref, err := o.target(im, arg)
	if err != nil {
		return err
	}
	lines, err := im.Why(ref)
	if err != nil {
		return &ExitError{Code: ExitFailed, Err: fmt.Errorf("why %s: %s", arg, describeAPIError(err))}
	}
	if o.Output == "json" {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(map[string]any{"object": arg, "answer": lines})
	}
	fmt.Fprintf(out, "before: %s\n", im.Before)
	for _, l := range lines {
		fmt.Fprintln(out, l)
	}
	return nil
}
