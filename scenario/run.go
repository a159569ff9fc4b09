package scenario

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// RunOptions tunes Run.
type RunOptions struct {
	// Records keeps every engine record in the step results, for --trace
	// and machine-readable output.
	Records bool
	// CheckInvariants verifies the collector's graph invariant (R35) after
	// every engine action; a broken invariant fails the step.
	CheckInvariants bool
	// ReleaseRestore says the caller is done with s.Restore: Run empties
	// it once the world has the objects, as Start does, so that the
	// world holds a dump's objects alone and frees those the run removes
	// (else every object a delete removes stays in memory to the end).
	ReleaseRestore bool
	// Released, with ReleaseRestore, is called once Run has let go of
	// s.Restore and before it builds the world: of the dump, only its
	// objects are then live. gcplay run measures the objects read there
	// (its collector's pace), where a measure that raced with the release
	// found the list or not (cmd/gcplay, collectAfterRelease).
	Released func()
	// WorldOnly says the caller reads only the Result's World, its steps
	// and whether the run failed (a playground opening a file, a share
	// link, run's text output): the final objects, deletion order and
	// events are not gathered into it, work the browser's start, or the
	// end of a run of a large dump, would otherwise do for nothing.
	WorldOnly bool
}

// Result is the outcome of running one scenario. Every list in it is in
// a fixed order, so the same scenario always gives the same Result.
type Result struct {
	File   string `json:"file"`
	Name   string `json:"name"`
	Passed bool   `json:"passed"`
	// Failure describes the step that failed; nil when the run passed.
	Failure *Failure `json:"failure,omitempty"`
	// InternalError is set when gcplay itself broke (a panic in the
	// engine): the run says nothing about the scenario.
	InternalError string `json:"internalError,omitempty"`
	// Stack is the goroutine stack of an internal error, for debugging.
	Stack string `json:"-"`
	// Steps has one entry per object created and per step run, in order;
	// it ends at the first failing step.
	Steps []StepResult `json:"steps"`
	// Objects is the final contents of storage, sorted by kind, namespace
	// and name: storage's own objects (stored objects are never modified,
	// so the result shares them), which must not be modified.
	Objects []*fakeapi.Object `json:"objects"`
	// DeletionOrder lists removals from storage, in order.
	DeletionOrder []Removal `json:"deletionOrder"`
	// Events are the Kubernetes Events recorded, in order.
	Events []Event `json:"events"`
	// World is the world as the run left it, for callers that go on with
	// it (the TUI's load).
	World *engine.World `json:"-"`
}

// Failure is the first step that did not hold.
type Failure struct {
	// Step is "step N" or "object N".
	Step   string `json:"step"`
	Action Action `json:"action"`
	Line   int    `json:"line"`
	// Messages are complete, file:line-prefixed messages, one per failed
	// expectation (or one for a failed action).
	Messages []string `json:"messages"`
}

// StepResult is what one object creation or step did.
type StepResult struct {
	// Step is "object N" for entries of objects, "step N" for steps[N].
	Step    string `json:"step"`
	Line    int    `json:"line"`
	Action  Action `json:"action"`
	Summary string `json:"summary"`
	Passed  bool   `json:"passed"`
	// Outcome says in a few words what happened ("removed from storage",
	// "settled after 12 controller steps", "5 checks held").
	Outcome string `json:"outcome"`
	// Errors are the failure messages of this step.
	Errors []string `json:"errors,omitempty"`
	// Checks are the expectations of an expect step, each with its
	// outcome.
	Checks []Check `json:"checks,omitempty"`
	// Records are the engine's records of the step (with
	// RunOptions.Records).
	Records []engine.Record `json:"records,omitempty"`
}

// Removal is one removal from storage.
type Removal struct {
	Object string `json:"object"`
	UID    string `json:"uid"`
}

// Event is a recorded Kubernetes Event, in the result's form.
type Event struct {
	Object  string `json:"object"`
	UID     string `json:"uid,omitempty"`
	Type    string `json:"type"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
	// At is the virtual time since the world started (firstTimestamp).
	At string `json:"at"`
	// Count is the Event's count when the recorder saw it more than once.
	Count int32 `json:"count,omitempty"`
}

// String is the step's line in the short trace.
func (s StepResult) String() string {
	status := "ok"
	if !s.Passed {
		status = "FAIL"
	}
	line := fmt.Sprintf("%s: %s: %s", s.Step, s.Summary, status)
	if s.Outcome != "" {
		line += ": " + s.Outcome
	}
	return line
}

// Err returns nil when the run passed, and otherwise an error whose text
// is every failure message, one a line.
func (r *Result) Err() error {
	switch {
	case r.InternalError != "":
		return fmt.Errorf("%s: internal error: %s", r.File, r.InternalError)
	case r.Failure != nil:
		return fmt.Errorf("%s", strings.Join(r.Failure.Messages, "\n"))
	}
	return nil
}

// Trace returns the run's trace: a line per step, and with records the
// engine's record lines under each step, indented.
func (r *Result) Trace(records bool) []string {
	var out []string
	for _, s := range r.Steps {
		out = append(out, s.String())
		if records {
			for _, rec := range s.Records {
				out = append(out, "    "+rec.String())
			}
		}
	}
	return out
}

// Run executes a scenario in a fresh world: it creates the objects in
// order, then runs the steps, and stops at the first step that fails.
// It never panics: a panic inside gcplay becomes Result.InternalError.
func Run(s *Scenario, opts RunOptions) (res *Result) {
	res = &Result{File: s.File, Name: s.Name, Steps: []StepResult{}, Objects: []*fakeapi.Object{},
		DeletionOrder: []Removal{}, Events: []Event{}}
	defer func() {
		if p := recover(); p != nil {
			res.Passed = false
			res.InternalError = fmt.Sprint(p)
			res.Stack = string(debug.Stack())
		}
	}()
	restore := make([]*fakeapi.Object, len(s.Restore))
	for i := range s.Restore {
		restore[i] = s.Restore[i].Object
	}
	restored, restoreLine := len(s.Restore), 0
	if restored > 0 {
		restoreLine = s.Restore[0].Line
	}
	if opts.ReleaseRestore {
		s.Restore = nil
		if opts.Released != nil {
			opts.Released()
		}
	}
	w, err := engine.NewWorld(engine.Config{Kinds: s.Kinds, Controllers: s.Controllers, CheckInvariants: opts.CheckInvariants, Restore: restore})
	if err != nil {
		res.Failure = &Failure{Step: "world", Messages: []string{fmt.Sprintf("%s: cannot start the world: %v", s.File, err)}}
		return res
	}
	res.World = w
	r := &runner{s: s, w: w, opts: opts}
	ok := true
	if restored > 0 {
		res.Steps = append(res.Steps, StepResult{Step: "restore", Line: restoreLine, Action: "restore",
			Summary: "restore " + plural(restored, "object") + " as the dump has them", Passed: true,
			Outcome: "the controllers start from a fresh list, as after a restart"})
	}
	for i := range s.Objects {
		m := &s.Objects[i]
		st := &Step{Index: i, Line: m.Line, Action: ActionCreate, Create: m}
		if ok = r.record(res, fmt.Sprintf("object %d", i), st); !ok {
			break
		}
	}
	for i := 0; ok && i < len(s.Steps); i++ {
		label := s.Steps[i].Label
		if label == "" {
			label = fmt.Sprintf("step %d", s.Steps[i].Index)
		}
		ok = r.record(res, label, &s.Steps[i])
	}
	res.Passed = ok
	if !opts.WorldOnly {
		r.finish(res)
	}
	return res
}

type runner struct {
	s    *Scenario
	w    *engine.World
	opts RunOptions
}

// record runs one step, appends its result and reports whether it held.
func (r *runner) record(res *Result, label string, st *Step) bool {
	sr := r.step(st, label)
	res.Steps = append(res.Steps, sr)
	if !sr.Passed {
		res.Failure = &Failure{Step: label, Action: st.Action, Line: st.Line, Messages: sr.Errors}
	}
	return sr.Passed
}

func (r *runner) finish(res *Result) {
	store := r.w.Store()
	// Storage's objects themselves: a copy of each would hold the whole
	// world a second time at the run's end.
	res.Objects = append(res.Objects, store.Objects()...)
	removals := store.Removals()
	if len(removals) > 0 {
		res.DeletionOrder = make([]Removal, 0, len(removals))
	}
	for _, rm := range removals {
		res.DeletionOrder = append(res.DeletionOrder, Removal{Object: rm.Ref.String(), UID: rm.UID})
	}
	for _, ev := range store.Events() {
		res.Events = append(res.Events, Event{Object: ev.Object.String(), UID: ev.ObjectUID, Type: ev.Type,
			Reason: ev.Reason, Message: ev.Message, Source: ev.Source, At: ev.Time.Sub(r.w.Epoch()).String()})
		if ev.Count > 1 {
			res.Events[len(res.Events)-1].Count = ev.Count
		}
	}
}

// failure formats a failure message of a step.
func (r *runner) failure(line int, label string, act Action, msg string) string {
	if line == 0 { // a step of the command line, not of the file
		return fmt.Sprintf("%s: %s (%s): %s", r.s.File, label, act, msg)
	}
	return fmt.Sprintf("%s:%d: %s (%s): %s", r.s.File, line, label, act, msg)
}

func (r *runner) step(st *Step, label string) StepResult {
	sr := StepResult{Step: label, Line: st.Line, Action: st.Action, Summary: st.Describe()}
	fail := func(line int, msg string) {
		sr.Errors = append(sr.Errors, r.failure(line, label, st.Action, msg))
	}
	keep := func(recs ...engine.Record) {
		if r.opts.Records {
			sr.Records = append(sr.Records, recs...)
		}
	}
	if st.Action == ActionExpect {
		sr.Checks = st.Expect.evaluate(worldView{r.w})
		held := 0
		for _, c := range sr.Checks {
			if c.Passed {
				held++
			} else {
				fail(c.Line, c.Message())
			}
		}
		sr.Passed = len(sr.Errors) == 0
		if sr.Passed {
			sr.Outcome = plural(held, "check") + " held"
		} else {
			sr.Outcome = fmt.Sprintf("%d of %s failed", len(sr.Checks)-held, plural(len(sr.Checks), "check"))
		}
		return sr
	}

	outcome, err := r.act(st, keep)
	switch {
	case st.ExpectsError() && err == nil:
		fail(st.Line, fmt.Sprintf("expected the request to fail with %s, but it succeeded", st.ExpectedError()))
	case st.ExpectsError() && !st.ErrorExpected(err):
		fail(st.Line, fmt.Sprintf("expected error %s, found %s", st.ExpectedError(), describeErr(err)))
	case st.ExpectsError():
		outcome = "failed as expected: " + describeErr(err)
	case err != nil:
		fail(st.Line, describeErr(err))
	}
	sr.Outcome = outcome
	sr.Passed = len(sr.Errors) == 0
	return sr
}

// describeErr words an error with its reason; an answer of the apiserver
// with no reason says so.
func describeErr(err error) string {
	if reason := fakeapi.ReasonOf(err); reason != "" {
		return fmt.Sprintf("%s: %v", reason, err)
	}
	var se *fakeapi.StatusError
	if errors.As(err, &se) {
		return fmt.Sprintf("no reason (code %d): %v", se.Code, err)
	}
	return err.Error()
}

// act performs a step's action and returns its outcome in a few words.
func (r *runner) act(st *Step, keep func(...engine.Record)) (string, error) {
	w := r.w
	store := w.Store()
	var recs []engine.Record
	var err error
	steps := -1
	if st.Action == ActionSettle && !r.opts.Records {
		// Nobody reads the records: a dump's settle runs hundreds of
		// thousands of steps, which are not kept.
		var res engine.SettleResult
		res, err = engine.SettleQuietly(w, st.MaxSteps)
		steps, err = res.Steps, settleError(st, err)
	} else {
		recs, err = Apply(w, st)
		keep(recs...)
	}
	if err != nil {
		return "", err
	}
	switch st.Action {
	case ActionCreate:
		ref := fakeapi.RefOf(st.Create.Object)
		for _, c := range recs[0].Calls() {
			if c.Verb == "create" && c.Code < 300 {
				ref = c.Ref // the name the apiserver generated
			}
		}
		o := store.Lookup(ref)
		switch {
		case o == nil:
			return "created", nil
		case st.Create.Object.Metadata.Name == "":
			return "created " + o.String() + ", uid " + o.Metadata.UID, nil
		}
		return "created, uid " + o.Metadata.UID, nil
	case ActionDelete:
		var o *fakeapi.Object
		if calls := recs[0].Calls(); len(calls) > 0 {
			o = store.Lookup(calls[0].Ref)
		}
		return afterDelete(o), nil
	case ActionPatch:
		return "patched", nil
	case ActionStep:
		return "processed " + plural(st.Count, "work item"), nil
	case ActionSettle:
		if steps < 0 {
			steps = countSteps(recs)
		}
		if w.Idle() {
			if _, pending := w.NextDue(); pending {
				return fmt.Sprintf("stopped after %s at +%v: only retries at the maximum backoff, or re-checks that would find nothing new, are left", plural(steps, "controller step"), w.Elapsed()), nil
			}
		}
		return fmt.Sprintf("settled after %s at +%v", plural(steps, "controller step"), w.Elapsed()), nil
	case ActionAdvance:
		return fmt.Sprintf("now +%v, %s ran", w.Elapsed(), plural(countSteps(recs), "controller step")), nil
	case ActionRestart:
		return "restarted", nil
	case ActionInject:
		return "armed", nil
	case ActionExit:
		return "reported", nil
	case ActionRolloutUndo:
		return recs[0].Reason.Message, nil
	}
	return "", fmt.Errorf("unknown action %q", st.Action)
}

// countSteps counts the controller steps among records (clock moves are
// not steps).
func countSteps(recs []engine.Record) int {
	n := 0
	for _, r := range recs {
		if r.Actor != "clock" {
			n++
		}
	}
	return n
}

// ResolveOwners returns a copy of obj whose ownerReferences without uid
// carry the UID of the object they name, looked up now in store, in the
// dependent's namespace (or cluster scope for cluster-scoped owner kinds),
// as the scenario format says a create step does. It fails when no such
// object exists.
func ResolveOwners(store *fakeapi.Store, obj *fakeapi.Object) (*fakeapi.Object, error) {
	obj = obj.DeepCopy()
	for i := range obj.Metadata.OwnerReferences {
		or := &obj.Metadata.OwnerReferences[i]
		if or.UID != "" {
			continue
		}
		info, _ := store.Registry().Lookup(or.APIVersion, or.Kind)
		ns := ""
		if info.Namespaced() {
			ns = obj.Metadata.Namespace
		}
		owner := store.Lookup(fakeapi.Ref{APIVersion: or.APIVersion, Kind: or.Kind, Namespace: ns, Name: or.Name})
		if owner == nil {
			where := "at cluster scope"
			if info.Namespaced() {
				where = fmt.Sprintf("in namespace %q", ns)
				if ns == "" {
					where = "for a cluster-scoped dependent (a namespaced owner cannot be found from it)"
				}
			}
			return nil, fmt.Errorf("%s: ownerReferences[%d]: no %s %q exists %s to take the uid from (give an explicit uid to create a dangling reference)",
				obj.String(), i, or.Kind, or.Name, where)
		}
		or.UID = owner.Metadata.UID
	}
	return obj, nil
}

// afterDelete says how a deleted object stands.
func afterDelete(o *fakeapi.Object) string {
	switch {
	case o == nil:
		return "removed from storage"
	case o.Metadata.DeletionTimestamp != nil:
		return "terminating, finalizers " + list(o.Metadata.Finalizers)
	default:
		return "still in storage, not terminating"
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func itoa(n int) string { return strconv.Itoa(n) }

func describeDeleteOptions(o *fakeapi.DeleteOptions) string {
	if o == nil {
		return ""
	}
	var parts []string
	if o.PropagationPolicy != nil {
		parts = append(parts, "propagationPolicy="+string(*o.PropagationPolicy))
	}
	if o.OrphanDependents != nil {
		parts = append(parts, fmt.Sprintf("orphanDependents=%t", *o.OrphanDependents))
	}
	if o.GracePeriodSeconds != nil {
		parts = append(parts, fmt.Sprintf("gracePeriodSeconds=%d", *o.GracePeriodSeconds))
	}
	if o.Preconditions != nil {
		if o.Preconditions.UID != nil {
			parts = append(parts, "preconditions.uid="+*o.Preconditions.UID)
		}
		if o.Preconditions.ResourceVersion != nil {
			parts = append(parts, "preconditions.resourceVersion="+*o.Preconditions.ResourceVersion)
		}
	}
	if o.DryRun != nil {
		parts = append(parts, "dryRun=["+strings.Join(o.DryRun, ",")+"]")
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}
