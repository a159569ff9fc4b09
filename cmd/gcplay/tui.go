package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gcplay/gcplay/internal/i18n"
	"github.com/gcplay/gcplay/internal/locale"
	"github.com/gcplay/gcplay/scenario"
	"github.com/gcplay/gcplay/tui"
)

// PlayOptions are the options of gcplay play, and of the bare gcplay,
// which opens the same playground.
type PlayOptions struct {
	// File is a scenario file to open instead of the starter world.
	File string
	// Theme is auto, dark, light or high-contrast.
	Theme string
	// Lang is the language of the playground's words: --lang, else
	// LC_ALL / LC_MESSAGES / LANG, else English.
	Lang string
}

// NewCmdPlay returns the play command.
func NewCmdPlay() *cobra.Command {
	o := &PlayOptions{}
	cmd := &cobra.Command{
		Use:   "play [FILE]",
		Short: "Open the playground (the terminal UI), on the starter world or a scenario file",
		Long: `Open the playground: the world as a tree of owners and dependents, the
collector's queues, the selected object, and a timeline you can step through
and rewind. Press ? inside for every key, : for commands.

Without FILE it opens on a built-in starter world. NO_COLOR is honoured.`,
		Example: `  gcplay play
  gcplay play examples/two-owners.yaml
  gcplay play --theme high-contrast`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if o.File != "" {
					return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("give the file once: as FILE or with -f, not both")}
				}
				o.File = args[0]
			}
			return o.Run(cmd)
		},
	}
	o.AddFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.File, "filename", "f", "", "a scenario file, or a cluster dump as kubectl get -o yaml|json prints it (- reads stdin)")
	o.AddLangFlag(cmd.Flags())
	return cmd
}

// AddFlags adds the playground's flags to a command.
func (o *PlayOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Theme, "theme", tui.ThemeAuto, "colours: "+strings.Join(tui.Themes, ", "))
}

// AddLangFlag adds --lang (gcplay lessons has its own, which the lesson
// playground follows).
func (o *PlayOptions) AddLangFlag(fs *pflag.FlagSet) {
	fs.StringVar(&o.Lang, "lang", "", "language of the playground's words: "+strings.Join(i18n.Langs(), " or ")+" (default: from LC_ALL, LC_MESSAGES or LANG, else en)")
}

// lang picks the playground's language: --lang, else the locale
// variables, else English.
func (o *PlayOptions) lang() (string, error) {
	l, err := locale.Pick(o.Lang, os.Getenv, i18n.Langs())
	if err != nil {
		return "", &ExitError{Code: ExitInvalid, Err: err}
	}
	return l, nil
}

// Validate checks the options.
func (o *PlayOptions) Validate() error {
	if _, err := o.lang(); err != nil {
		return err
	}
	for _, t := range tui.Themes {
		if o.Theme == t {
			return nil
		}
	}
	return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("--theme must be one of %s, not %q", strings.Join(tui.Themes, ", "), o.Theme)}
}

// Run opens the playground, or, when the output is not a terminal,
// prints the help instead (scripts want gcplay run).
func (o *PlayOptions) Run(cmd *cobra.Command) error {
	if err := o.Validate(); err != nil {
		return err
	}
	out, in := cmd.OutOrStdout(), cmd.InOrStdin()
	files := tui.Files(osFiles{})
	// The file is parsed once, here, and the playground opens on what was
	// parsed: a cluster dump's 100,000 objects are not read twice.
	var parsed *scenario.Scenario
	if o.File == "-" {
		// The dump comes on stdin; the keys then come from the terminal.
		data, err := io.ReadAll(in)
		if err != nil {
			return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("stdin: %v", err)}
		}
		if parsed, err = scenario.ParseFile("stdin", data); err != nil {
			return &ExitError{Code: ExitInvalid, Err: err}
		}
		files = stdinFiles{osFiles{}, data}
		if tty, err := os.Open("/dev/tty"); err == nil {
			defer tty.Close()
			in = tty
		}
	} else if o.File != "" {
		// A file that cannot be opened or read is an error wherever gcplay
		// runs, before any word about terminals. A large dump's text is
		// held off Go's heap and given back once parsed, as gcplay run
		// does.
		t, err := readDumpText(o.File)
		if err != nil {
			return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("%s: %s", o.File, readError(err))}
		}
		t.deferCollection()
		if parsed, err = t.parse(o.File); err != nil {
			return &ExitError{Code: ExitInvalid, Err: err}
		}
		t.parsedDump(parsed)
	}
	if !isTerminal(out) {
		fmt.Fprintln(out, "gcplay opens its playground only in a terminal; for scripts use gcplay run FILE.")
		fmt.Fprintln(out)
		return cmd.Help()
	}
	lang, _ := o.lang() // checked by Validate
	// The world left last time with q, offered back on a bare gcplay.
	path, perr := keptPath()
	var resume *tui.Resume
	if perr == nil && o.File == "" {
		r, err := kept(path)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "gcplay: warning: the world kept from last time cannot be resumed: %v\n", err)
		}
		resume = r
	}
	m, err := tui.New(tui.Options{Theme: o.Theme, NoColor: os.Getenv("NO_COLOR") != "", Files: files, File: o.File, Parsed: parsed, StepThrough: true, Resume: resume, Lang: lang})
	if err != nil {
		return &ExitError{Code: ExitInvalid, Err: err}
	}
	if parsed != nil && len(parsed.Restore) > 0 {
		// A cluster dump: its world's collector is paced, as gcplay run
		// paces it (worldPacer), so that the timeline's growth as r runs
		// is not doubled again by Go's collector headroom.
		collectAfterRead(growFactor)
	}
	err = runProgram(m, in, out)
	switch {
	case perr != nil:
	case m.Built():
		// Keeping a large world's timeline takes seconds (a dump's world
		// after a delete of thousands of steps): say so on the line that
		// the outcome then replaces, rather than leave the terminal blank.
		fmt.Fprint(out, "Keeping your world and its timeline for next time…")
		kerr := keep(m, path)
		fmt.Fprint(out, "\r\x1b[K")
		if kerr != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "gcplay: warning: your world could not be kept for next time: %v\n", kerr)
			break
		}
		fmt.Fprintf(out, "Your world and its timeline are kept (%s): the next gcplay offers to resume them.\n", path)
	case m.Declined():
		_ = os.Remove(path)
	}
	return err
}

// runProgram runs a playground model on the terminal until it quits. Bubble
// Tea restores the terminal on every way out, a panic included; a panic is
// reported as an internal error.
func runProgram(m tea.Model, in io.Reader, out io.Writer) error {
	opts := []tea.ProgramOption{tea.WithOutput(out)}
	if in != os.Stdin {
		opts = append(opts, tea.WithInput(in))
	}
	_, err := tea.NewProgram(m, opts...).Run()
	switch {
	case err == nil, errors.Is(err, tea.ErrInterrupted):
		return nil
	case errors.Is(err, tea.ErrProgramPanic):
		return &ExitError{Code: ExitInternal, Err: fmt.Errorf("the playground stopped on an internal error (the terminal was restored): %w", err)}
	}
	return &ExitError{Code: ExitFailed, Err: err}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// osFiles gives the playground the real file system for save, load and
// export.
type osFiles struct{}

func (osFiles) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

func (osFiles) WriteFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }

// stdinFiles serves "-" (a dump read from stdin) besides the real files.
type stdinFiles struct {
	osFiles
	stdin []byte
}

func (f stdinFiles) ReadFile(name string) ([]byte, error) {
	if name == "-" {
		return f.stdin, nil
	}
	return f.osFiles.ReadFile(name)
}
