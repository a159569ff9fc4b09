package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/gcplay/gcplay/conformance/internal/scriptout"
	"github.com/gcplay/gcplay/scenario"
)

// The exported scripts (gcplay export kubectl) run against the same real
// control plane as the scenarios, with upstream's kubectl of the pinned
// release: the script builds the world and replays the steps itself, and
// the runner reads back, at each expect step, gcplay's expectation and
// what the cluster has, as the script printed them.

// scriptContext is the kubeconfig context the runner gives the script. It
// is not a kind cluster, so it is not named like one: the runner passes
// --force, the script's documented way to use a cluster it did not create,
// because this cluster is a throw-away one made for the script's run.
const scriptContext = "gcplay-conformance"

// scriptSettle is GCPLAY_SETTLE, the seconds the script waits where
// gcplay settles: the runner's own settle ends after 2s in which nothing
// was written, and the in-process controllers finish a cascade well within
// that; one second more leaves room for the kubectl calls of a busy
// machine.
const scriptSettle = "3"

// scriptTimeout bounds one script's run.
const scriptTimeout = 10 * time.Minute

// scriptJob is the job that runs the exported script of a scenario file.
func scriptJob(j job) job {
	return job{Name: j.Name + "#kubectl", Known: knownName(j.Name) + "#kubectl", Data: j.Data, S: j.S, FromArchive: j.FromArchive, Script: true}
}

// runScriptJob exports the scenario as a kubectl script, runs it on a
// fresh cluster with the scenario's controllers running, and compares
// each expectation line with the cluster's line the script printed.
func runScriptJob(ctx context.Context, j job, opts options, log io.Writer, known []*knownEntry, kubectl string) *FileReport {
	rep := &FileReport{Name: j.Name, Known: j.Known, Counts: map[Status]int{}}
	s, ok := jobScenario(j, strings.TrimSuffix(j.Name, "#kubectl"), rep)
	if !ok {
		return rep
	}
	rep.Title = s.Name
	if !hasChecks(s) {
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
	for _, st := range s.Steps {
		if st.Action == scenario.ActionAdvance && st.Duration > opts.maxWait {
			rep.Verdict = VerdictNotObservable
			rep.Error = fmt.Sprintf("not run: its step at line %d advances %v, which the script waits in real time (the runner accepts %v at most)", st.Line, st.Duration, opts.maxWait)
			return rep
		}
	}
	// As gcplay export kubectl does: a dump becomes its settled world.
	s, err := scenario.AsScenario(s)
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, "gcplay export kubectl: "+err.Error()
		return rep
	}
	script, err := scenario.ExportKubectl(s)
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, "gcplay export kubectl: "+err.Error()
		return rep
	}
	dir, err := os.MkdirTemp("", "gcplay-script-")
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}
	defer os.RemoveAll(dir)
	scriptPath := filepath.Join(dir, s.Name+".sh")
	if err := os.WriteFile(scriptPath, script, 0o755); err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}

	c, stop, err := startTimed(rep, j.Name, log)
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}
	defer stop()

	ctrls := s.Controllers
	if ctrls == nil {
		ctrls = allControllers
	}
	for _, name := range ctrls {
		if err := c.ctrls.start(name); err != nil {
			rep.Verdict, rep.Error = VerdictError, err.Error()
			return rep
		}
	}
	env, err := scriptEnv(c, dir, kubectl)
	if err != nil {
		rep.Verdict, rep.Error = VerdictError, err.Error()
		return rep
	}

	// The script refuses a context it did not create unless told to.
	guard := exec.CommandContext(ctx, "bash", scriptPath, "--context", scriptContext)
	guard.Env = env
	var guardErr bytes.Buffer
	guard.Stderr = &guardErr
	gerr := guard.Run()
	var exitErr *exec.ExitError
	if !errors.As(gerr, &exitErr) || exitErr.ExitCode() != 2 || !strings.Contains(guardErr.String(), "refusing context "+scriptContext) {
		rep.Verdict = VerdictError
		rep.Error = fmt.Sprintf("the script did not refuse context %s without --force (%v): %s", scriptContext, gerr, firstLine(guardErr.String()))
		return rep
	}

	runCtx, cancel := context.WithTimeout(ctx, scriptTimeout)
	defer cancel()
	cmd := exec.CommandContext(runCtx, "bash", scriptPath, "--context", scriptContext, "--force")
	cmd.Env = env
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t2 := time.Now()
	runErr := cmd.Run()
	took := time.Since(t2).Round(100 * time.Millisecond)
	fmt.Fprintf(log, "--- script %s (%v, %v)\n%s\n--- its output\n%s\n--- its errors\n%s\n", j.Name, took, runErr, script, stdout.String(), stderr.String())

	out := scriptout.Parse(stdout.String())
	rep.Steps = scriptSteps(s, out)
	compareWithSim(rep, sim.checks)
	head := StepReport{Label: "script", Summary: fmt.Sprintf("bash %s.sh --context %s --force (GCPLAY_SETTLE=%s)", s.Name, scriptContext, scriptSettle)}
	if len(out.Unpaired) > 0 && runErr == nil {
		runErr = fmt.Errorf("%d expectation lines without their pair, first %q", len(out.Unpaired), out.Unpaired[0])
	}
	if runErr != nil {
		head.Failed = true
		head.Outcome = fmt.Sprintf("exited after %v: %v; its last errors: %s", took, runErr, lastLines(stderr.String(), 3))
		rep.Error = "the script failed: " + lastLines(stderr.String(), 3)
	} else {
		head.Outcome = fmt.Sprintf("ran in %v: %s", took, out.Summary)
	}
	rep.Steps = append([]StepReport{head}, rep.Steps...)
	rep.Verdict = verdictOf(rep, known)
	if runErr != nil {
		rep.Verdict = VerdictError
	}
	return rep
}

// scriptEnv writes a kubeconfig for the cluster, with the one context
// scriptContext, and returns the script's environment: kubectl of the
// pinned release first on PATH, a HOME of its own (kubectl's discovery
// cache), GCPLAY_SETTLE.
func scriptEnv(c *Cluster, dir, kubectl string) ([]string, error) {
	abs, err := filepath.Abs(kubectl)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("kubectl: %w (make conformance builds it into bin/)", err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	if err := os.Symlink(abs, filepath.Join(bin, "kubectl")); err != nil {
		return nil, err
	}
	cfg := c.config
	kc := clientcmdapi.NewConfig()
	kc.Clusters[scriptContext] = &clientcmdapi.Cluster{
		Server:                   cfg.Host,
		CertificateAuthorityData: cfg.TLSClientConfig.CAData,
		CertificateAuthority:     cfg.TLSClientConfig.CAFile,
		TLSServerName:            cfg.TLSClientConfig.ServerName,
		InsecureSkipTLSVerify:    cfg.TLSClientConfig.Insecure,
	}
	kc.AuthInfos[scriptContext] = &clientcmdapi.AuthInfo{
		Token:                 cfg.BearerToken,
		ClientCertificateData: cfg.TLSClientConfig.CertData,
		ClientKeyData:         cfg.TLSClientConfig.KeyData,
		ClientCertificate:     cfg.TLSClientConfig.CertFile,
		ClientKey:             cfg.TLSClientConfig.KeyFile,
	}
	kc.Contexts[scriptContext] = &clientcmdapi.Context{Cluster: scriptContext, AuthInfo: scriptContext}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	return []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"KUBECONFIG=" + kubeconfig,
		"GCPLAY_SETTLE=" + scriptSettle,
		"LC_ALL=C",
	}, nil
}

// scriptSteps turns the script's expectation lines into one report per
// step that has any, with the runner's check keys: the step is the last
// one that starts at or before the line.
func scriptSteps(s *scenario.Scenario, out scriptout.Output) []StepReport {
	var reps []StepReport
	index := map[int]int{} // step index in s.Steps -> index in reps
	stepAt := func(line int) int {
		at := -1
		for i, st := range s.Steps {
			if st.Line <= line {
				at = i
			}
		}
		return at
	}
	st := stepState(s)
	for _, l := range out.Lines {
		i := stepAt(l.Line)
		if i < 0 {
			continue
		}
		step := &s.Steps[i]
		k, ok := index[i]
		if !ok {
			k = len(reps)
			index[i] = k
			reps = append(reps, StepReport{Label: fmt.Sprintf("step %d", step.Index), Line: step.Line, Summary: step.Describe()})
		}
		label := reps[k].Label
		c := CheckResult{Step: label, Line: l.Line, Subject: l.Subject, Expected: l.Expected, Real: l.Real}
		switch {
		case !l.Checked:
			c.Key, c.Status, c.Real = "script", Skipped, "-"
			c.Reason = "not checked by the script: " + l.Why
		default:
			c.Key = scriptKey(step, l)
			if c.Key == "count" {
				// As the runner reports a count: no subject, what it counts
				// beside the number.
				what := strings.TrimPrefix(l.Subject, "count ")
				c.Subject, c.Expected, c.Real = "", l.Expected+" ("+what+")", l.Real+" ("+what+")"
			}
			c.Status = status(scriptout.Same(l.Expected, l.Real)) // the script's two sides, before any rewording
			if (c.Status == Agree) != (l.Mark == "same") {
				c.Status = Disagree
				c.Reason = "the script marked it " + l.Mark
			} else if c.Status == Disagree {
				// A request's own result is never excused by a race, only
				// by what the script could not replay before it.
				why := st[i].race
				if c.Key == "expectError" || st[i].taint != "" {
					why = st[i].taint
				}
				if why != "" {
					c.Status, c.Reason = Skipped, why
				}
			}
		}
		reps[k].Checks = append(reps[k].Checks, c)
	}
	for i := range reps {
		agree := 0
		for _, c := range reps[i].Checks {
			if c.Status == Agree {
				agree++
			}
		}
		reps[i].Outcome = fmt.Sprintf("%d of %d lines agree", agree, len(reps[i].Checks))
	}
	return reps
}

// scriptKey is the runner's key of an expectation line: what the
// scenario calls the check at that line.
func scriptKey(st *scenario.Step, l scriptout.Line) string {
	if st.Action != scenario.ActionExpect {
		return "expectError"
	}
	if d := st.Expect.DeletionOrder; d != nil && d.Line == l.Line {
		return "deletionOrder"
	}
	switch {
	case strings.HasPrefix(l.Subject, "count "):
		return "count"
	case strings.Contains(l.Expected, " = "):
		path, _, _ := strings.Cut(l.Expected, " = ")
		return "fields." + path
	case l.Expected == "exists":
		return "exists"
	case l.Expected == "absent":
		return "absent"
	case l.Expected == "terminating":
		return "terminating"
	case l.Expected == "not terminating":
		return "notTerminating"
	case strings.HasPrefix(l.Expected, "finalizers "):
		return "finalizers"
	case strings.HasPrefix(l.Expected, "owners "):
		return "ownerReferences"
	}
	return "script"
}

// stepCond is why a disagreement at a step is not a verdict: race while
// the controllers may still be working, taint after a step the script
// cannot replay.
type stepCond struct{ race, taint string }

// stepState says, for each step, why a line that disagrees there is a race
// rather than a verdict, or "" when it is a verdict: the script cannot hold
// the controllers as gcplay holds them.
func stepState(s *scenario.Scenario) map[int]stepCond {
	out := map[int]stepCond{}
	why := "a race, not a verdict: the cluster's controllers run from the start, while gcplay's wait for the first settle"
	taint := ""
	for i, st := range s.Steps {
		out[i] = stepCond{race: why, taint: taint}
		switch st.Action {
		case scenario.ActionSettle:
			if taint == "" {
				why = ""
			}
		case scenario.ActionStep:
			why = "not observable: gcplay stepped its controllers one work item at a time; the cluster's do not stop"
		case scenario.ActionInject:
			taint = "not observable: it follows a fault injection, which a real cluster cannot do"
		case scenario.ActionExit:
			taint = "not observable: it follows an exit step, which the script does not replay (a container exits on a real node, not on cue)"
		case scenario.ActionRestart:
			taint = "not observable: it follows a controller restart, which the script does by deleting kube-controller-manager's Pod, and the runner's control plane runs its controllers in process"
		case scenario.ActionExpect:
		default:
			if why == "" {
				why = "a race, not a verdict: no settle since the last action, and the cluster's controllers never wait"
			}
		}
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
