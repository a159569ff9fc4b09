// Command conformance runs gcplay scenario files against real Kubernetes:
// for each file, a fresh etcd (embedded, on 127.0.0.1, in a temporary
// directory) and kube-apiserver (upstream's test-server helper) in this
// process, kube-controller-manager's real garbage collector set up as
// upstream's integration test does, and the real ReplicaSet and
// Deployment controllers when the scenario runs them. It performs the
// scenario's steps on that cluster and checks the same expect blocks, and
// reports per file: agree, disagree, or not observable.
//
// Usage:
//
//	conformance [flags] FILE|DIR...
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
	"os/signal"
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
)

// FileReport is the outcome of one input.
type FileReport struct {
	Name    string
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
	verbose := fl.Bool("v", false, "print every check, not only the ones that do not agree")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: conformance [flags] FILE|DIR...\n\nRuns gcplay scenarios against a real kube-apiserver, etcd and garbage collector.\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
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

	opts := options{quiet: *quiet, settleTimeout: *settleTimeout, maxWait: *maxWait}
	k8s, etcd := versions()
	fmt.Fprintf(stdout, "gcplay conformance: scenarios against real Kubernetes %s (k8s.io/kubernetes %s, etcd %s, %s)\n", k8s, k8s, etcd, goVersion())
	fmt.Fprintf(stdout, "one fresh etcd + kube-apiserver per file, in process; garbage collector set up as upstream's integration test; logs in %s\n", logFile.Name())
	fmt.Fprintf(stdout, "kubelet: none runs; when a scenario runs gcplay's kubelet, the runner plays its part (scheduled Pods made Running and Ready, terminating scheduled Pods deleted with grace 0 once their grace period ends)\n")
	for _, m := range missing {
		fmt.Fprintf(stdout, "note: %s does not exist, skipped\n", m)
	}

	total := time.Now()
	var reports []*FileReport
	for _, in := range inputs {
		if ctx.Err() != nil {
			break
		}
		rep := runInput(ctx, in, opts, logFile, known)
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

// simUIDs runs the scenario in gcplay and returns its verdict and the UID
// gcplay gave each object it created, by step label.
func simRun(s *scenario.Scenario) (verdict string, passed bool, uids map[string]string) {
	res := scenario.Run(s, scenario.RunOptions{})
	uids = map[string]string{}
	for _, st := range res.Steps {
		if st.Action == scenario.ActionCreate && st.Passed {
			if m := simUIDRE.FindStringSubmatch(st.Outcome); m != nil {
				uids[st.Step] = m[1]
			}
		}
	}
	if err := res.Err(); err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		return "FAIL: " + first, false, uids
	}
	return "PASS", true, uids
}

func runInput(ctx context.Context, in input, opts options, log io.Writer, known []*knownEntry) *FileReport {
	rep := &FileReport{Name: in.Name, Counts: map[Status]int{}}
	s, err := scenario.Parse(in.Name, in.Data)
	if err != nil {
		rep.Verdict = VerdictExcluded
		rep.Error = "not a valid scenario (gcplay rejects it too): " + firstLine(err.Error())
		if !in.FromArchive {
			rep.Verdict = VerdictError
		}
		return rep
	}
	rep.Title = s.Name
	var simPassed bool
	var uids map[string]string
	rep.Sim, simPassed, uids = simRun(s)
	if in.FromArchive && !simPassed {
		rep.Verdict = VerdictExcluded
		rep.Error = "a test fixture gcplay fails on purpose (gcplay: " + rep.Sim + ")"
		return rep
	}

	fmt.Fprintf(log, "\n===== %s =====\n", in.Name)
	t0 := time.Now()
	c, err := StartCluster(in.Name, log)
	rep.Start = time.Since(t0)
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}
	defer func() {
		t := time.Now()
		c.Stop()
		rep.Stop = time.Since(t)
	}()

	t1 := time.Now()
	defer func() { rep.Run = time.Since(t1) }()
	reg := fakeapi.NewRegistry()
	var kinds []fakeapi.KindInfo
	for _, k := range s.Kinds {
		_ = reg.Add(k)
		if info, ok := reg.Lookup(k.APIVersion, k.Kind); ok {
			kinds = append(kinds, info) // with its resource name filled in
		}
	}
	x := &executor{s: s, c: c, reg: reg, customKinds: kinds, opts: opts, uids: map[string]string{}, simUIDs: uids, controllers: s.Controllers}
	if x.controllers == nil {
		x.controllers = allControllers
	}
	if err := x.prepare(ctx); err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}
	defer x.rec.stop()

	steps := make([]struct {
		label string
		st    *scenario.Step
	}, 0, len(s.Objects)+len(s.Steps))
	for i := range s.Objects {
		m := &s.Objects[i]
		steps = append(steps, struct {
			label string
			st    *scenario.Step
		}{fmt.Sprintf("object %d", i), &scenario.Step{Index: i, Line: m.Line, Action: scenario.ActionCreate, Create: m}})
	}
	for i := range s.Steps {
		steps = append(steps, struct {
			label string
			st    *scenario.Step
		}{fmt.Sprintf("step %d", s.Steps[i].Index), &s.Steps[i]})
	}
	stopped := false
	for _, e := range steps {
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
	rep.Notes = x.notes
	rep.Verdict = verdictOf(rep, known)
	return rep
}

// verdictOf marks documented disagreements and decides the file's verdict.
func verdictOf(rep *FileReport, known []*knownEntry) Verdict {
	for i := range rep.Steps {
		for j := range rep.Steps[i].Checks {
			c := &rep.Steps[i].Checks[j]
			if c.Status == Disagree {
				if e := match(known, rep.Name, *c); e != nil {
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
