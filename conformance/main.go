// Command conformance runs gcplay scenario files against real Kubernetes:
// for each file, a fresh etcd (embedded, on 127.0.0.1, in a temporary
// directory) and kube-apiserver (upstream's test-server helper) in this
// process, kube-controller-manager's real garbage collector set up as
// upstream's integration test does, and the real ReplicaSet and
// Deployment controllers when the scenario runs them. It performs the
// scenario's steps on that cluster and checks the same expect blocks, and
// reports per file: agree, disagree, or not observable. With -lessons it
// also runs each lesson of gcplay's course: its solution, its wrong
// answers and its prediction.
//
// Usage:
//
//	conformance [flags] FILE|DIR...
//	conformance -lessons [flags] [FILE|DIR...]
//	conformance -random N [-seed S] [flags]
//
// The Kubernetes release is pinned in VERSION (see gomod.sh) and printed
// in the report. docs/CONFORMANCE.md explains the mapping from scenario
// steps to a real cluster.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"k8s.io/klog/v2"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Verdict is a file's result.
type Verdict string

const (
	VerdictAgree         Verdict = "AGREE"
	VerdictDisagree      Verdict = "DISAGREE"
	VerdictKnown         Verdict = "AGREE*" // agrees except for documented disagreements
	VerdictNotObservable Verdict = "NOT OBSERVABLE"
	VerdictError         Verdict = "ERROR"
	VerdictExcluded      Verdict = "EXCLUDED"
	// VerdictFlaky: the file disagreed (or could not run) once and agreed
	// on a second, fresh cluster. The real cluster's outcome depended on
	// timing there; both runs are printed, and the summary counts it apart.
	VerdictFlaky Verdict = "FLAKY"
)

// FileReport is the outcome of one input.
type FileReport struct {
	Name string
	// Known is what known-disagreements.txt calls it.
	Known   string
	Title   string
	Verdict Verdict
	// Sim is gcplay's own result for the file.
	Sim    string
	Error  string
	Steps  []StepReport
	Notes  []string
	Start  time.Duration
	Run    time.Duration
	Stop   time.Duration
	Counts map[Status]int
	// First is the failed first run of a file that was run again.
	First *FileReport
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout))
}

func run(args []string, stdout io.Writer) int {
	fl := flag.NewFlagSet("conformance", flag.ContinueOnError)
	quiet := fl.Duration("quiet", 2*time.Second, "a settle ends once nothing was written for this long")
	settleTimeout := fl.Duration("settle-timeout", 2*time.Minute, "the longest one settle waits")
	maxWait := fl.Duration("max-wait", time.Minute, "the longest real-time wait accepted for an advance step or a Pod's grace period")
	logPath := fl.String("log", "", "write the apiserver's, etcd's and the controllers' logs here (default: a temporary file)")
	klogV := fl.Int("klog-v", 1, "log verbosity of the Kubernetes components (into the log file)")
	knownPath := fl.String("known", "known-disagreements.txt", "the documented disagreements")
	withLessons := fl.Bool("lessons", false, "also run every lesson of gcplay's built-in course: its solution, its wrong answers and its prediction")
	only := fl.String("run", "", "run only the files and lesson runs whose name matches this regular expression")
	verbose := fl.Bool("v", false, "print every check, not only the ones that do not agree")
	retries := fl.Int("retries", 1, "run a file that disagrees or cannot run this many more times, each on a fresh cluster, to tell a timing race from a real disagreement")
	randomN := fl.Uint64("random", 0, "instead of files, run this many generated worlds (internal/randworld) on gcplay and on the real cluster")
	seed := fl.Uint64("seed", 1, "with -random: the first world's seed; worlds seed, seed+1, ... are generated")
	randomRuns := fl.Int("random-runs", 3, "with -random: how many times in all a world that disagrees is run, to recognise one whose real outcome varies")
	budget := fl.Int("minimise-budget", 20, "with -random: the most real-cluster runs spent minimising one disagreement")
	randomOut := fl.String("random-out", "../bin/random", "with -random: where disagreeing and undecided worlds are written")
	kubectl := fl.String("kubectl", "", "also run each scenario file's script of gcplay export kubectl with this kubectl (make conformance builds the release's into bin/), each on a fresh cluster, and compare its expectation lines with the cluster's")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: conformance [flags] FILE|DIR...\n\nRuns gcplay scenarios against a real kube-apiserver, etcd and garbage collector.\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 && !*withLessons && *randomN == 0 {
		fl.Usage()
		return 2
	}

	logFile, err := openLog(*logPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	defer logFile.Close()
	quietKlog(logFile, *klogV)

	known, err := loadKnown(*knownPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	inputs, missing, err := collect(fl.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 2
	}
	if *kubectl != "" {
		// Every script job would start a cluster and then fail to run it:
		// say so once, before any cluster starts.
		if _, err := exec.LookPath(*kubectl); err != nil {
			fmt.Fprintf(os.Stderr, "conformance: -kubectl %s: %v (make conformance builds it into bin/kubectl)\n", *kubectl, err)
			return 2
		}
		var scripts []job
		for _, j := range inputs {
			if j.Predict == nil {
				scripts = append(scripts, scriptJob(j))
			}
		}
		inputs = append(inputs, scripts...)
	}
	if *withLessons {
		lj, err := lessonJobs()
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			return 2
		}
		inputs = append(inputs, lj...)
	}

	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conformance: -run:", err)
			return 2
		}
		var kept []job
		for _, j := range inputs {
			if re.MatchString(j.Name) {
				kept = append(kept, j)
			}
		}
		inputs = kept
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt)
	go func() {
		<-interrupted
		fmt.Fprintln(os.Stderr, "conformance: interrupted, stopping the cluster")
		cancel()
		<-interrupted
		os.Exit(130)
	}()

	opts := options{quiet: *quiet, settleTimeout: *settleTimeout, maxWait: *maxWait, kubectl: *kubectl}
	k8s, etcd := versions()
	fmt.Fprintf(stdout, "gcplay conformance: scenarios against real Kubernetes %s (k8s.io/kubernetes %s, etcd %s, %s)\n", k8s, k8s, etcd, goVersion())
	fmt.Fprintf(stdout, "one fresh etcd + kube-apiserver per file, in process; garbage collector set up as upstream's integration test; logs in %s\n", logFile.Name())
	fmt.Fprintf(stdout, "kubelet: none runs; when a scenario runs gcplay's kubelet, the runner plays its part as gcplay's does (controller-made Pods bound to node-1, a DaemonSet's to the node its node affinity names, bound Pods made Running and Ready, terminating bound Pods deleted with grace 0 once their grace period ends)\n")
	for _, m := range missing {
		fmt.Fprintf(stdout, "note: %s does not exist, skipped\n", m)
	}

	if *randomN > 0 {
		ro := randomOptions{n: *randomN, first: *seed, runs: max(*randomRuns, 1), budget: *budget, out: *randomOut}
		return runRandom(ctx, stdout, ro, opts, logFile, known)
	}

	total := time.Now()
	var reports []*FileReport
	for _, in := range inputs {
		if ctx.Err() != nil {
			break
		}
		rep := runJob(ctx, in, opts, logFile, known)
		for try := 0; try < *retries && failedVerdict(rep.Verdict) && ctx.Err() == nil; try++ {
			printReport(stdout, rep, *verbose)
			fmt.Fprintf(stdout, "... %s %s: running it again on a fresh cluster, to tell a timing race from a disagreement\n", rep.Verdict, rep.Name)
			again := runJob(ctx, in, opts, logFile, known)
			first := rep
			if rep.First != nil {
				first = rep.First
			}
			again.First = first
			if !failedVerdict(again.Verdict) {
				again.Verdict = VerdictFlaky
			}
			rep = again
		}
		reports = append(reports, rep)
		printReport(stdout, rep, *verbose)
	}
	return summarize(stdout, reports, known, time.Since(total))
}

func openLog(path string) (*os.File, error) {
	if path == "" {
		return os.CreateTemp("", "gcplay-conformance-*.log")
	}
	return os.Create(path)
}

// quietKlog sends the Kubernetes components' logs to the log file.
// Importing upstream's test utilities raises klog's verbosity to 5 and
// logs to stderr; a report on stdout needs neither.
func quietKlog(w io.Writer, v int) {
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	_ = fs.Set("stderrthreshold", "FATAL")
	_ = fs.Set("v", fmt.Sprint(v))
	if f := flag.CommandLine.Lookup("v"); f != nil {
		_ = f.Value.Set(fmt.Sprint(v))
	}
	klog.SetOutput(&lockedWriter{w: w})
	klog.LogToStderr(false)
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// versions returns the Kubernetes and etcd module versions linked in.
func versions() (k8s, etcd string) {
	k8s, etcd = "(unknown)", "(unknown)"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		switch d.Path {
		case "k8s.io/kubernetes":
			k8s = v
		case "go.etcd.io/etcd/server/v3":
			etcd = v
		}
	}
	return
}

func goVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.GoVersion
	}
	return "go"
}

// simRun runs the scenario in gcplay and returns its verdict, the UID
// gcplay gave each object it created (by step label), and its result per
// check, by checkKey.
func simRun(s *scenario.Scenario) (verdict string, passed bool, sim *simInfo) {
	res := scenario.Run(s, scenario.RunOptions{Records: true})
	sim = &simInfo{uids: map[string]string{}, checks: map[string]bool{}, generated: map[string]string{}, made: simCreations(res)}
	uids, checks := sim.uids, sim.checks
	for _, st := range res.Steps {
		if st.Action == scenario.ActionCreate && st.Passed {
			if m := simUIDRE.FindStringSubmatch(st.Outcome); m != nil {
				uids[st.Step] = m[1]
			}
			if m := simGeneratedRE.FindStringSubmatch(st.Outcome); m != nil {
				sim.generated[st.Step] = m[1]
			}
		}
		if st.Action == scenario.ActionExpect {
			for _, c := range st.Checks {
				checks[checkKey(st.Step, c.Line, c.Key, c.Subject)] = c.Passed
			}
		} else {
			checks[checkKey(st.Step, st.Line, "action", "")] = st.Passed
		}
	}
	if res.InternalError != "" {
		return "INTERNAL ERROR: " + res.InternalError, false, sim
	}
	if err := res.Err(); err != nil {
		return "FAIL: " + firstLine(err.Error()), false, sim
	}
	return "PASS", true, sim
}

// simInfo is what the runner takes from gcplay's own run of a scenario.
type simInfo struct {
	// uids are the UIDs gcplay gave the objects the steps created, by
	// step label; generated the names it gave generateName objects.
	uids      map[string]string
	generated map[string]string
	// checks is gcplay's result per check, by checkKey.
	checks map[string]bool
	// made are the objects gcplay's controllers created.
	made []simCreation
}

var simGeneratedRE = regexp.MustCompile(`^created (\S+), uid \S+$`)

// checkKey identifies a check across gcplay's run and the real one.
func checkKey(step string, line int, key, subject string) string {
	return fmt.Sprintf("%s|%d|%s|%s", step, line, key, subject)
}

// job is one run on a fresh cluster: a scenario file, or one of a
// lesson's runs (its solution, a wrong answer, its prediction).
type job struct {
	Name string
	// Known is what known-disagreements.txt calls it (default: knownName).
	Known string
	Data  []byte
	// S is the scenario when it is not parsed from Data (lessons).
	S           *scenario.Scenario
	FromArchive bool
	// Predict compares a lesson's predict-then-run outcomes.
	Predict *predictJob
	// Script runs the file's script of gcplay export kubectl instead
	// (scripts.go).
	Script bool
}

func runJob(ctx context.Context, j job, opts options, log io.Writer, known []*knownEntry) *FileReport {
	if j.Script {
		return runScriptJob(ctx, j, opts, log, known, opts.kubectl)
	}
	rep := &FileReport{Name: j.Name, Known: j.Known, Counts: map[Status]int{}}
	if rep.Known == "" {
		rep.Known = knownName(j.Name)
	}
	s, ok := jobScenario(j, j.Name, rep)
	if !ok {
		return rep
	}
	rep.Title = s.Name
	if !hasChecks(s) && j.Predict == nil {
		rep.Verdict, rep.Error = VerdictNotObservable, "nothing to compare: no expect and no expectError (not run)"
		return rep
	}
	simVerdict, simPassed, sim := simRun(s)
	rep.Sim = simVerdict
	if j.FromArchive && !simPassed {
		rep.Verdict = VerdictExcluded
		rep.Error = "a test fixture gcplay fails on purpose (gcplay: " + rep.Sim + ")"
		return rep
	}

	c, stop, err := startTimed(rep, j.Name, log)
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}
	defer stop()

	reg := fakeapi.NewRegistry()
	var kinds []fakeapi.KindInfo
	for _, k := range s.Kinds {
		_ = reg.Add(k)
		if info, ok := reg.Lookup(k.APIVersion, k.Kind); ok {
			kinds = append(kinds, info) // with its resource name filled in
		}
	}
	x := &executor{s: s, c: c, reg: reg, customKinds: kinds, opts: opts, uids: map[string]string{}, simUIDs: sim.uids, controllers: s.Controllers,
		simMade: sim.made, simGenerated: sim.generated, userNames: map[string]string{}, createdUIDs: map[string]bool{},
		laterUIDs: map[string]bool{}}
	for _, m := range s.Objects {
		if m.Object.Metadata.UID != "" {
			x.laterUIDs[m.Object.Metadata.UID] = true
		}
	}
	if x.controllers == nil {
		x.controllers = allControllers
	}
	if err := x.prepare(ctx); err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}
	defer x.rec.stop()

	type entry struct {
		label string
		st    *scenario.Step
		index int // index in s.Steps, -1 for objects
	}
	var steps []entry
	for i := range s.Objects {
		m := &s.Objects[i]
		steps = append(steps, entry{fmt.Sprintf("object %d", i), &scenario.Step{Index: i, Line: m.Line, Action: scenario.ActionCreate, Create: m}, -1})
	}
	for i := range s.Steps {
		steps = append(steps, entry{fmt.Sprintf("step %d", s.Steps[i].Index), &s.Steps[i], i})
	}
	var snap *predictSnapshot
	stopped := false
	for _, e := range steps {
		if j.Predict != nil && e.index == j.Predict.After && snap == nil && !stopped {
			snap = x.snapshot(ctx, j.Predict)
		}
		if stopped {
			rep.Steps = append(rep.Steps, StepReport{Label: e.label, Line: e.st.Line, Summary: e.st.Describe(), Outcome: "not run: an earlier step went another way on the real cluster"})
			continue
		}
		if ctx.Err() != nil {
			rep.Verdict, rep.Error = VerdictError, "interrupted"
			return rep
		}
		sr, err := x.runStep(ctx, e.label, e.st)
		rep.Steps = append(rep.Steps, sr)
		if err != nil {
			stopped = true
		}
	}
	if j.Predict != nil && !stopped {
		if snap == nil {
			snap = x.snapshot(ctx, j.Predict)
		}
		rep.Steps = append(rep.Steps, x.comparePrediction(ctx, j.Predict, snap))
	}
	compareWithSim(rep, sim.checks)
	x.refreshNames()
	if r := x.renamed(); len(r) > 0 {
		x.note("names that controllers generate differ; gcplay's paired with the real cluster's: %s", strings.Join(r, ", "))
	}
	rep.Notes = x.notes
	rep.Verdict = verdictOf(rep, known)
	return rep
}

// compareWithSim makes each check say whether the real cluster does what
// gcplay does: where gcplay itself misses an expectation (a lesson's
// wrong answer is meant to), the real cluster must miss it too.
// jobScenario is the job's scenario, parsed from its file (named name) when
// the job does not carry it parsed. A file gcplay rejects is recorded in
// rep: excluded when it is one of upstream's archived fixtures, an error
// when it is one of gcplay's own.
func jobScenario(j job, name string, rep *FileReport) (*scenario.Scenario, bool) {
	if j.S != nil {
		return j.S, true
	}
	s, err := scenario.Parse(name, j.Data)
	if err != nil {
		rep.Verdict = VerdictExcluded
		rep.Error = "not a valid scenario (gcplay rejects it too): " + firstLine(err.Error())
		if !j.FromArchive {
			rep.Verdict = VerdictError
		}
		return nil, false
	}
	return s, true
}

func compareWithSim(rep *FileReport, sim map[string]bool) {
	for i := range rep.Steps {
		sr := &rep.Steps[i]
		for j := range sr.Checks {
			c := &sr.Checks[j]
			if c.Status != Agree && c.Status != Disagree {
				continue
			}
			k := checkKey(sr.Label, c.Line, c.Key, c.Subject)
			if c.Key == "expectError" || c.Key == "action" {
				k = checkKey(sr.Label, sr.Line, "action", "")
			}
			simPassed, ok := sim[k]
			if !ok || simPassed {
				continue
			}
			if c.Status == Agree {
				c.Status, c.Reason = Disagree, "gcplay misses this expectation; the real cluster meets it"
			} else {
				c.Status, c.Reason = Agree, "missed, as in gcplay"
			}
		}
	}
}

// hasChecks reports whether a scenario checks anything.
func hasChecks(s *scenario.Scenario) bool {
	for _, st := range s.Steps {
		if st.Action == scenario.ActionExpect || st.ExpectsError() {
			return true
		}
	}
	return false
}

// verdictOf marks documented disagreements and decides the file's verdict.
func verdictOf(rep *FileReport, known []*knownEntry) Verdict {
	for i := range rep.Steps {
		for j := range rep.Steps[i].Checks {
			c := &rep.Steps[i].Checks[j]
			if c.Status == Disagree {
				if e := match(known, rep.Known, *c); e != nil {
					e.used = true
					c.Status, c.Reason = Known, "documented: "+e.Reason
				}
			}
			rep.Counts[c.Status]++
		}
	}
	switch {
	case rep.Counts[Disagree] > 0:
		return VerdictDisagree
	case rep.Counts[Known] > 0:
		return VerdictKnown
	case rep.Counts[Agree] > 0:
		return VerdictAgree
	}
	return VerdictNotObservable
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
