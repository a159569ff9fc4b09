package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gcplay/gcplay/internal/locale"
	"github.com/gcplay/gcplay/lessons"
	"github.com/gcplay/gcplay/scenario"
	"github.com/gcplay/gcplay/tui"
)

// LessonsOptions are the options every lessons subcommand shares.
type LessonsOptions struct {
	// Progress is the progress file; "" means the user's config
	// directory (os.UserConfigDir()/gcplay/progress.json).
	Progress string
	// Lang is the locale of the lessons' words.
	Lang string

	course *lessons.Course
}

// NewCmdLessons returns the lessons command and its subcommands.
func NewCmdLessons() *cobra.Command {
	o := &LessonsOptions{}
	cmd := &cobra.Command{
		Use:   "lessons",
		Short: "The course: list the lessons, start one, check a hand-in",
		Long: `gcplay's course: lessons that take you from "what is an ownerReference" to the
collector's corner cases. Each lesson is a world, a goal, hints, a solution
and an explanation; the playground checks the goal as you go and keeps your
progress in your config directory.

Without a subcommand it lists the lessons with your progress.`,
		Example: `  gcplay lessons
  gcplay lessons start 1
  gcplay lessons check two-owners my-hand-in.yaml
  gcplay lessons export > progress.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return o.List(cmd) },
	}
	o.AddFlags(cmd.PersistentFlags())
	cmd.AddCommand(
		&cobra.Command{Use: "list", Short: "List the lessons with your progress", Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error { return o.List(cmd) }},
		o.newCmdStart(), o.newCmdShow(), o.newCmdWorld(), o.newCmdCheck(), o.newCmdLint(), o.newCmdExport(), o.newCmdImport(),
	)
	return cmd
}

// AddFlags adds the shared flags.
func (o *LessonsOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Progress, "progress", "", "progress file (default: your config directory's gcplay/progress.json)")
	fs.StringVar(&o.Lang, "lang", "", "language of the lessons' words: en or zh (default: from LC_ALL, LC_MESSAGES or LANG when the course has it, else en)")
}

func (o *LessonsOptions) load() *lessons.Course {
	if o.course == nil {
		o.course = lessons.Builtin()
	}
	return o.course
}

// locale resolves --lang, else LC_ALL / LC_MESSAGES / LANG when the
// course has that language, else English.
func (o *LessonsOptions) locale() (string, error) {
	loc, err := locale.Pick(o.Lang, os.Getenv, o.load().Locales)
	if err != nil {
		return "", &ExitError{Code: ExitInvalid, Err: err}
	}
	return loc, nil
}

func (o *LessonsOptions) store() (*lessons.FileStore, error) {
	path := o.Progress
	if path == "" {
		p, err := lessons.DefaultProgressPath()
		if err != nil {
			return nil, &ExitError{Code: ExitFailed, Err: err}
		}
		path = p
	}
	return &lessons.FileStore{Path: path}, nil
}

// progress loads the progress; damaged progress is reported on stderr
// (it has been set aside) and the command goes on.
func (o *LessonsOptions) progress(cmd *cobra.Command) (*lessons.FileStore, *lessons.Progress, error) {
	s, err := o.store()
	if err != nil {
		return nil, nil, err
	}
	p, err := s.Load()
	var sa *lessons.SetAsideError
	switch {
	case errors.As(err, &sa):
		fmt.Fprintf(cmd.ErrOrStderr(), "gcplay: warning: %v\n", err)
	case errors.Is(err, lessons.ErrNewerProgress):
		fmt.Fprintf(cmd.ErrOrStderr(), "gcplay: warning: %v\n", err)
	case err != nil:
		fmt.Fprintf(cmd.ErrOrStderr(), "gcplay: warning: %v\n", err)
		if p == nil {
			p = lessons.NewProgress()
		}
	}
	return s, p, nil
}

// findIn returns the named lesson and the locale to show it in.
func (o *LessonsOptions) findIn(name string) (*lessons.Lesson, string, error) {
	l, err := o.find(name)
	if err != nil {
		return nil, "", err
	}
	loc, err := o.locale()
	return l, loc, err
}

func (o *LessonsOptions) find(name string) (*lessons.Lesson, error) {
	l, err := o.load().Find(name)
	if err != nil {
		return nil, &ExitError{Code: ExitInvalid, Err: err}
	}
	return l, nil
}

// List prints the lessons with the learner's progress.
func (o *LessonsOptions) List(cmd *cobra.Command) error {
	loc, err := o.locale()
	if err != nil {
		return err
	}
	s, p, err := o.progress(cmd)
	if err != nil {
		return err
	}
	c := o.load()
	say := func(key string, pairs ...string) string { return c.Say(loc, key, pairs...) }
	out := cmd.OutOrStdout()
	var ids []string
	for _, l := range c.Lessons {
		ids = append(ids, l.ID)
	}
	// Every line fits an 80-column terminal: the progress file on a line of
	// its own, a lesson's progress under it.
	fmt.Fprintln(out, say("cli-list-head", "n", fmt.Sprint(len(c.Lessons)), "done", fmt.Sprint(p.Done(ids))))
	fmt.Fprintln(out, say("cli-list-where", "where", s.Where()))
	fmt.Fprintln(out)
	next := ""
	width, minutes := 0, 0
	for _, l := range c.Lessons {
		width = max(width, locale.Width(l.T(loc).Title))
		minutes = max(minutes, locale.Width(say("cli-minutes", "n", fmt.Sprint(l.Minutes))))
	}
	for _, l := range c.Lessons {
		lp := p.Of(l.ID)
		mark := " "
		if lp.Done {
			mark = "✓"
		} else if next == "" {
			next = fmt.Sprint(l.Number)
		}
		var extra []string
		if lp.Hints == 1 {
			extra = append(extra, say("cli-one-hint"))
		} else if lp.Hints > 1 {
			extra = append(extra, say("cli-hints", "n", fmt.Sprint(lp.Hints)))
		}
		if lp.SolutionSeen {
			extra = append(extra, say("cli-solution-seen"))
		}
		if lp.Prediction != "" {
			extra = append(extra, say("cli-predicted", "score", lp.Prediction))
		}
		mins := say("cli-minutes", "n", fmt.Sprint(l.Minutes))
		fmt.Fprintf(out, " %s %2d  %s %s\n", mark, l.Number, locale.Pad(l.T(loc).Title, width),
			strings.Repeat(" ", minutes-locale.Width(mins))+mins)
		if len(extra) > 0 {
			fmt.Fprintf(out, "        (%s)\n", strings.Join(extra, ", "))
		}
	}
	fmt.Fprintln(out)
	if next == "" {
		fmt.Fprintln(out, say("cli-list-all-done"))
	} else {
		fmt.Fprintln(out, say("cli-list-next", "n", next))
		fmt.Fprintln(out, say("cli-list-by-number"))
	}
	return nil
}

func plural(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}

func (o *LessonsOptions) newCmdStart() *cobra.Command {
	play := &PlayOptions{}
	cmd := &cobra.Command{
		Use:   "start [NAME]",
		Short: "Open the playground on a lesson (by name or number; without one, the lesson picker)",
		Long: `Open the playground on a lesson: the lesson pane beside the world, the goal
checked as you go. Inside: H shows a hint, P predicts, A shows the answer,
R restarts the lesson, L lists the lessons, N goes to the next, ? every key.`,
		Example: `  gcplay lessons start 1
  gcplay lessons start two-owners`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var l *lessons.Lesson
			if len(args) == 1 {
				var err error
				if l, err = o.find(args[0]); err != nil {
					return err
				}
			}
			return o.start(cmd, play, l)
		},
	}
	play.AddFlags(cmd.Flags())
	return cmd
}

func (o *LessonsOptions) start(cmd *cobra.Command, play *PlayOptions, l *lessons.Lesson) error {
	if err := play.Validate(); err != nil {
		return err
	}
	loc, err := o.locale()
	if err != nil {
		return err
	}
	out, in := cmd.OutOrStdout(), cmd.InOrStdin()
	if !isTerminal(out) {
		if l == nil {
			return o.List(cmd)
		}
		fmt.Fprintf(out, "%s\n\n", o.load().Say(loc, "cli-not-terminal", "n", fmt.Sprint(l.Number), "id", l.ID))
		return o.show(out, l, loc, false, false, false)
	}
	s, _, err := o.progress(cmd)
	if err != nil {
		return err
	}
	m, err := tui.NewLesson(tui.Options{Theme: play.Theme, NoColor: os.Getenv("NO_COLOR") != "", Files: osFiles{}, Lang: loc},
		tui.LessonOptions{Course: o.load(), Lesson: l, Progress: s, Locale: loc, Now: time.Now})
	if err != nil {
		return &ExitError{Code: ExitInvalid, Err: err}
	}
	return runProgram(m, in, out)
}

func (o *LessonsOptions) newCmdShow() *cobra.Command {
	var hints, solution, notes bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print a lesson's words: introduction, goal, and on request hints, solution and instructor notes",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, loc, err := o.findIn(args[0])
			if err != nil {
				return err
			}
			return o.show(cmd.OutOrStdout(), l, loc, hints, solution, notes)
		},
	}
	cmd.Flags().BoolVar(&hints, "hints", false, "print the hints too")
	cmd.Flags().BoolVar(&solution, "solution", false, "print the solution and the explanation too")
	cmd.Flags().BoolVar(&notes, "notes", false, "print the instructor notes and the wrong answers the lesson is tested with")
	return cmd
}

func (o *LessonsOptions) show(out io.Writer, l *lessons.Lesson, loc string, hints, solution, notes bool) error {
	t := l.T(loc)
	say := func(key string, pairs ...string) string { return o.load().Say(loc, key, pairs...) }
	fmt.Fprintf(out, "%s\n\n", say("cli-show-head", "n", fmt.Sprint(l.Number), "title", t.Title, "id", l.ID, "minutes", fmt.Sprint(l.Minutes)))
	section := func(title, body string) {
		if strings.TrimSpace(body) == "" {
			return
		}
		var paras []string
		for _, para := range strings.Split(strings.TrimSpace(body), "\n\n") {
			if strings.HasPrefix(para, "- ") {
				paras = append(paras, para) // a list: keep its lines
				continue
			}
			paras = append(paras, wrapText(para, 76))
		}
		fmt.Fprintf(out, "%s\n%s\n\n", title, indent(strings.Join(paras, "\n\n")))
	}
	section(say("cli-intro"), t.Intro)
	section(say("cli-goal"), t.Goal)
	if l.Predict != nil {
		section(say("cli-predict"), t.Predict)
	}
	if hints {
		for i, h := range t.Hints {
			section(say("cli-hint", "n", fmt.Sprint(i+1)), h)
		}
	}
	if solution {
		var steps []string
		for _, st := range l.Solution {
			steps = append(steps, "- "+st.Describe())
		}
		section(say("cli-solution"), t.Solution+"\n\n"+strings.Join(steps, "\n"))
		section(say("tui-why"), t.Explanation)
		section(say("tui-simplified"), t.Simplified)
	}
	if notes {
		section(say("cli-notes"), t.Notes)
		var wrong []string
		for _, w := range l.Wrong {
			var steps []string
			for _, st := range w.Steps {
				steps = append(steps, st.Describe())
			}
			wrong = append(wrong, fmt.Sprintf("- %s: %s", w.ID, strings.Join(steps, "; ")))
		}
		section(say("cli-wrong"), strings.Join(wrong, "\n"))
	}
	return nil
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n")
}

func (o *LessonsOptions) newCmdWorld() *cobra.Command {
	return &cobra.Command{
		Use:   "world NAME",
		Short: "Print a lesson's starting world as a scenario file, to add your steps to and hand in",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, err := o.find(args[0])
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(l.WorldFile())
			return err
		},
	}
}

func (o *LessonsOptions) newCmdCheck() *cobra.Command {
	return &cobra.Command{
		Use:   "check NAME FILE",
		Short: "Grade a hand-in: a scenario file that starts from the lesson's world",
		Long: `Grade a hand-in: a scenario file that starts from the lesson's world (as
gcplay lessons world NAME prints it, or as the playground writes it with W)
followed by your steps. The grader runs it and compares the world it leaves
with the lesson's goal, saying what differs and why.

Exit status: 0 when the goal is reached, 1 when it is not, 2 when the file
is not a valid scenario or the lesson does not exist.`,
		Example: `  gcplay lessons check two-owners two-owners.handin.yaml`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, loc, err := o.findIn(args[0])
			if err != nil {
				return err
			}
			data, err := os.ReadFile(args[1])
			if err != nil {
				return &ExitError{Code: ExitInvalid, Err: err}
			}
			res, err := o.load().Grader(loc).Check(l, args[1], data)
			if err != nil {
				var list scenario.ErrorList
				if errors.As(err, &list) {
					fmt.Fprintln(cmd.ErrOrStderr(), list.Error())
					return &ExitError{Code: ExitInvalid}
				}
				return &ExitError{Code: ExitInvalid, Err: err}
			}
			return printCheck(cmd.OutOrStdout(), o.load(), loc, args[1], l, res)
		},
	}
}

func printCheck(out io.Writer, c *lessons.Course, loc, file string, l *lessons.Lesson, res *lessons.CheckResult) error {
	say := func(key string, pairs ...string) string { return c.Say(loc, key, pairs...) }
	fmt.Fprintln(out, say("cli-check-head", "file", file, "n", fmt.Sprint(l.Number), "id", l.ID))
	if res.NotTheLesson != "" {
		fmt.Fprintln(out, say("cli-check-not-the-lesson", "id", l.ID, "why", res.NotTheLesson))
		fmt.Fprintln(out, say("cli-check-start-from", "id", l.ID))
		return &ExitError{Code: ExitFailed}
	}
	if res.RunError != nil {
		fmt.Fprintf(out, "%s\n%s\n", say("cli-check-step-failed"), indent(res.RunError.Error()))
	}
	g := res.Grade
	for _, c := range g.Checks {
		mark := "✓"
		if !c.Passed {
			mark = "✗"
		}
		subject := c.Subject
		if subject != "" {
			subject += ": "
		}
		line := fmt.Sprintf("  %s %s %s%s", mark, c.Key, subject, c.Got)
		if !c.Passed {
			line += "  " + say("cli-check-goal", "want", c.Want)
		}
		fmt.Fprintln(out, line)
	}
	if res.Passed() {
		key := "cli-check-pass"
		if len(g.Checks) == 1 {
			key = "cli-check-pass-one"
		}
		fmt.Fprintln(out, say(key, "n", fmt.Sprint(len(g.Checks))))
		return nil
	}
	key := "cli-check-fail"
	if len(g.Checks) == 1 {
		key = "cli-check-fail-one"
	}
	fmt.Fprintln(out, say(key, "held", fmt.Sprint(g.Held()), "n", fmt.Sprint(len(g.Checks))))
	for _, p := range g.Problems() {
		fmt.Fprintf(out, "\n%s\n", wrapText(p, 78))
	}
	return &ExitError{Code: ExitFailed}
}

// wrapText wraps a paragraph at width columns (a CJK character takes
// two); its lines are joined first, without a space between CJK lines.
func wrapText(s string, width int) string {
	return strings.Join(locale.Wrap(locale.Reflow(s), width), "\n")
}

func (o *LessonsOptions) newCmdLint() *cobra.Command {
	var texts []string
	var verbose, trace bool
	cmd := &cobra.Command{
		Use:   "lint [FILE...]",
		Short: "Check lesson files: the built-in course, or course files of your own",
		Long: `Check lessons the way gcplay's tests do: each course file parses as a
scenario plus lesson keys, its solution reaches the goal, each wrong answer
misses it with the words it lists, its prediction runs, and its English text
has every field and cites only rules that exist.

A course file's texts are found beside it, in the course layout
(course/NN-ID.yaml, text/LOCALE/ID.yaml), or given with --text.
Without FILE, the built-in course is checked.

With -v it also shows why, lesson by lesson: the grade of the solution and
of each wrong answer check by check (wanted and live state, and the
grader's explanation of each miss), and what happens to each object of the
prediction; --trace adds every step of every run.

Exit status: 0 when nothing is wrong, 1 when something is.`,
		Example: `  gcplay lessons lint
  gcplay lessons lint my-course/course/01-my-lesson.yaml
  gcplay lessons lint lesson.yaml --text en=lesson.en.yaml
  gcplay lessons lint -v my-course/course/01-my-lesson.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := o.locale()
			if err != nil {
				return err
			}
			// A wrong answer's explains are the English grader's words;
			// -v reports in the reader's language.
			en, g := o.load().Grader(lessons.DefaultLocale), o.load().Grader(loc)
			out := cmd.OutOrStdout()
			var problems []lessons.Problem
			checked := 0
			note := ""
			if len(args) == 0 {
				for _, l := range o.load().Lessons {
					problems = append(problems, lessons.Lint(en, l)...)
					checked++
					if verbose || trace {
						lessons.Report(out, g, l, trace)
					}
				}
				problems = append(problems, o.load().LintLocales()...)
				note = o.load().PendingNote()
			}
			extra, err := parseTexts(texts)
			if err != nil {
				return err
			}
			for _, f := range args {
				data, err := os.ReadFile(f)
				if err != nil {
					return &ExitError{Code: ExitInvalid, Err: err}
				}
				ts := findTexts(f)
				for loc, b := range extra {
					ts[loc] = b
				}
				problems = append(problems, lessons.LintFile(en, f, data, ts)...)
				checked++
				if verbose || trace {
					if l, err := lessons.ParseLesson(f, data); err == nil {
						lessons.Report(out, g, l, trace)
					}
				}
			}
			for _, p := range problems {
				fmt.Fprintln(out, p)
			}
			if note != "" {
				fmt.Fprintln(out, note)
			}
			if len(problems) > 0 {
				fmt.Fprintf(out, "--- FAIL: %d %s in %d %s\n", len(problems), plural(len(problems), "problem"), checked, plural(checked, "lesson"))
				return &ExitError{Code: ExitFailed}
			}
			fmt.Fprintf(out, "--- OK: %d %s, nothing wrong\n", checked, plural(checked, "lesson"))
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&texts, "text", nil, "a text file, as LOCALE=FILE (repeatable)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "show each run's grade check by check, and the prediction's outcomes")
	cmd.Flags().BoolVar(&trace, "trace", false, "with -v, also print every step of every run")
	return cmd
}

func parseTexts(specs []string) (map[string]lessons.TextFile, error) {
	out := map[string]lessons.TextFile{}
	for _, s := range specs {
		loc, file, ok := strings.Cut(s, "=")
		if !ok || loc == "" || file == "" {
			return nil, &ExitError{Code: ExitInvalid, Err: fmt.Errorf("--text %q: write LOCALE=FILE, as en=lesson.en.yaml", s)}
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, &ExitError{Code: ExitInvalid, Err: err}
		}
		out[loc] = lessons.TextFile{Name: file, Data: b}
	}
	return out, nil
}

// findTexts finds a course file's texts in the course layout:
// ../text/LOCALE/ID.yaml, ID being the file name without its NN- prefix.
func findTexts(course string) map[string]lessons.TextFile {
	out := map[string]lessons.TextFile{}
	base := strings.TrimSuffix(filepath.Base(course), filepath.Ext(course))
	if i := strings.IndexByte(base, '-'); i > 0 && strings.Trim(base[:i], "0123456789") == "" {
		base = base[i+1:]
	}
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(course), "..", "text", "*"))
	for _, d := range dirs {
		name := filepath.Join(d, base+".yaml")
		if b, err := os.ReadFile(name); err == nil {
			out[filepath.Base(d)] = lessons.TextFile{Name: filepath.Clean(name), Data: b}
		}
	}
	return out
}

func (o *LessonsOptions) newCmdExport() *cobra.Command {
	return &cobra.Command{
		Use:   "export [FILE]",
		Short: "Write your progress as JSON, to FILE or standard output",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, p, err := o.progress(cmd)
			if err != nil {
				return err
			}
			data, err := p.Marshal()
			if err != nil {
				return err
			}
			if len(args) == 0 || args[0] == "-" {
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			dst := &lessons.FileStore{Path: args[0]}
			if err := dst.Save(p); err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "exported the progress of %d %s to %s\n", len(p.Lessons), plural(len(p.Lessons), "lesson"), args[0])
			return nil
		},
	}
}

func (o *LessonsOptions) newCmdImport() *cobra.Command {
	var replace bool
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Read progress exported by gcplay lessons export, and merge it with yours",
		Long: `Read progress exported by gcplay lessons export (or a progress file) and
merge it with yours: a lesson done in either stays done. --replace replaces
your progress instead.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var data []byte
			var err error
			if args[0] == "-" {
				data, err = io.ReadAll(cmd.InOrStdin())
			} else {
				data, err = os.ReadFile(args[0])
			}
			if err != nil {
				return &ExitError{Code: ExitInvalid, Err: err}
			}
			in, err := lessons.ParseProgress(data)
			if err != nil {
				return &ExitError{Code: ExitInvalid, Err: fmt.Errorf("%s: %w", args[0], err)}
			}
			s, p, err := o.progress(cmd)
			if err != nil {
				return err
			}
			if replace {
				p = in
			} else {
				p.Merge(in)
			}
			if err := s.Save(p); err != nil {
				return &ExitError{Code: ExitFailed, Err: err}
			}
			how := "merged into"
			if replace {
				how = "replaced"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported the progress of %d %s from %s (%s %s)\n", len(in.Lessons), plural(len(in.Lessons), "lesson"), args[0], how, s.Where())
			return nil
		},
	}
	cmd.Flags().BoolVar(&replace, "replace", false, "replace your progress instead of merging")
	return cmd
}
