package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// jobStatus is batch/v1 JobStatus (the fields gcplay writes).
type jobStatus struct {
	Conditions              []jobCondition `json:"conditions,omitempty"`
	StartTime               string         `json:"startTime,omitempty"`
	CompletionTime          string         `json:"completionTime,omitempty"`
	Active                  int64          `json:"active,omitempty"`
	Succeeded               int64          `json:"succeeded,omitempty"`
	Failed                  int64          `json:"failed,omitempty"`
	Terminating             *int64         `json:"terminating,omitempty"`
	CompletedIndexes        string         `json:"completedIndexes,omitempty"`
	UncountedTerminatedPods *uncountedPods `json:"uncountedTerminatedPods,omitempty"`
	Ready                   *int64         `json:"ready,omitempty"`
}

type uncountedPods struct {
	Succeeded []string `json:"succeeded,omitempty"`
	Failed    []string `json:"failed,omitempty"`
}

type jobCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastProbeTime      string `json:"lastProbeTime,omitempty"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// Job condition types and reasons, as v1.34 writes them.
const (
	jobComplete           = "Complete"
	jobFailed             = "Failed"
	jobSuspended          = "Suspended"
	jobFailureTarget      = "FailureTarget"
	jobSuccessCriteriaMet = "SuccessCriteriaMet"
)

// readJobStatus reads a Job's status field by field (it is read for every
// Job at every CronJob sync, so without a JSON round trip).
func readJobStatus(o *fakeapi.Object) jobStatus {
	var s jobStatus
	v, ok := o.Fields.Lookup("status")
	if !ok {
		return s
	}
	s.StartTime = nestedString(v, "startTime")
	s.CompletionTime = nestedString(v, "completionTime")
	s.Active, _ = nestedInt(v, "active")
	s.Succeeded, _ = nestedInt(v, "succeeded")
	s.Failed, _ = nestedInt(v, "failed")
	if n, ok := nestedInt(v, "terminating"); ok {
		s.Terminating = &n
	}
	if n, ok := nestedInt(v, "ready"); ok {
		s.Ready = &n
	}
	s.CompletedIndexes = nestedString(v, "completedIndexes")
	if u, ok := nested(v, "uncountedTerminatedPods"); ok && u != nil {
		s.UncountedTerminatedPods = &uncountedPods{Succeeded: nestedStrings(u, "succeeded"), Failed: nestedStrings(u, "failed")}
	}
	if conds, ok := nestedSlice(v, "conditions"); ok {
		for _, c := range conds {
			s.Conditions = append(s.Conditions, jobCondition{Type: nestedString(c, "type"), Status: nestedString(c, "status"),
				LastProbeTime: nestedString(c, "lastProbeTime"), LastTransitionTime: nestedString(c, "lastTransitionTime"),
				Reason: nestedString(c, "reason"), Message: nestedString(c, "message")})
		}
	}
	return s
}

func nestedStrings(v any, path ...string) []string {
	l, _ := nestedSlice(v, path...)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func findJobCondition(list []jobCondition, typ string) *jobCondition {
	for i := range list {
		if list[i].Type == typ {
			return &list[i]
		}
	}
	return nil
}

// jobFinished is IsJobFinished: a Complete or Failed condition that is True.
func jobFinished(o *fakeapi.Object) bool {
	_, ok := jobFinishedCondition(o)
	return ok
}

// jobFinishedCondition returns the type of a Job's True Complete or Failed
// condition, and when it was set.
func jobFinishedCondition(o *fakeapi.Object) (jobCondition, bool) {
	conds, _ := nestedSlice(o.Fields, "status", "conditions")
	for _, c := range conds {
		if t := nestedString(c, "type"); (t == jobComplete || t == jobFailed) && nestedString(c, "status") == "True" {
			return jobCondition{Type: t, Status: "True", LastTransitionTime: nestedString(c, "lastTransitionTime"),
				Reason: nestedString(c, "reason"), Message: nestedString(c, "message")}, true
		}
	}
	return jobCondition{}, false
}

// jobView is a Job's spec, as the apiserver defaulted it.
type jobView struct {
	obj                   *fakeapi.Object
	completions           *int64
	parallelism           int64
	backoffLimit          int64
	activeDeadlineSeconds *int64
	suspend               bool
	indexed               bool
	onlyReplaceFailed     bool
	restartOnFailure      bool
	selector              labelsel.Selector
	template              map[string]any
}

func readJob(o *fakeapi.Object) (jobView, error) {
	spec := specOf(o)
	v := jobView{obj: o, parallelism: 1, backoffLimit: 6}
	if n, ok := nestedInt(spec, "completions"); ok {
		v.completions = &n
	}
	if n, ok := nestedInt(spec, "parallelism"); ok {
		v.parallelism = n
	}
	if n, ok := nestedInt(spec, "backoffLimit"); ok {
		v.backoffLimit = n
	}
	if n, ok := nestedInt(spec, "activeDeadlineSeconds"); ok {
		v.activeDeadlineSeconds = &n
	}
	v.suspend = nestedBool(spec, "suspend")
	v.onlyReplaceFailed = nestedString(spec, "podReplacementPolicy") == "Failed"
	v.template = nestedMap(spec, "template")
	v.restartOnFailure = nestedString(v.template, "spec", "restartPolicy") == "OnFailure"
	switch mode := nestedString(spec, "completionMode"); mode {
	case "", "NonIndexed":
	case "Indexed":
		v.indexed = true
		if v.completions == nil {
			return v, fmt.Errorf("spec.completions: Required value: when completion mode is Indexed")
		}
	default:
		return v, errUnknownCompletionMode
	}
	sel, err := parseSelector(spec["selector"])
	if err != nil {
		return v, selectorErr("spec.selector", err)
	}
	if sel.SelectsNothing() {
		return v, fmt.Errorf("spec.selector: Required value")
	}
	v.selector = sel
	return v, nil
}

var errUnknownCompletionMode = fmt.Errorf("unknown completion mode")

// jobPod is one Pod as a sync sees it.
type jobPod struct {
	*podInfo
	finalizer bool
	index     int // completion index, -1 when none
}

func (p jobPod) uid() string { return p.obj.Metadata.UID }

// syncJobCtx is what one syncJob works with.
type syncJobCtx struct {
	key                  string
	job                  jobView
	status               jobStatus
	pods                 []jobPod
	active               []jobPod
	succeeded, failed    int64
	ready, terminating   int64
	uncountedSucceeded   map[string]bool
	uncountedFailed      map[string]bool
	expectedRmFinalizers map[string]bool
	finishedCondition    *jobCondition
	prevSucceeded        []int
	succeededIndexes     []int
	newBackoff           backoffRecord
	rec                  *Record
	// cur is the stored Job the next status update writes over.
	cur *fakeapi.Object
}

// syncJob is the sync of one Job key; it fills rec.Reason.
func (c *jobController) syncJob(key string, rec *Record) error {
	const fn = jobFuncPrefix + "syncJob"
	shared := c.jobs[key]
	if shared == nil {
		c.exp.drop(key)
		delete(c.finalizerExp, key)
		delete(c.backoff, key)
		rec.Reason = Reason{Code: "JobGone", Func: fn}.
			Say("%s is no longer in the informer cache: its expectations and backoff record are dropped", rec.Item)
		return nil
	}
	if cond, ok := jobFinishedCondition(shared); ok {
		delete(c.backoff, key)
		delete(c.finished, shared.Metadata.UID)
		rec.Reason = Reason{Code: "JobFinished", Func: fn}.
			Say("%s already has condition %s: nothing more to do", rec.Item, cond.Type)
		return nil
	}
	if c.finished[shared.Metadata.UID] {
		rec.Reason = Reason{Code: "FinishedNotSeen", Func: fn}.
			Say("%s was marked finished and the update is not yet seen: skipped", rec.Item)
		return nil
	}
	v, err := readJob(shared)
	if err == errUnknownCompletionMode {
		c.event(shared, "Warning", "UnknownCompletionMode", "Skipped Job sync because completion mode is unknown")
		rec.Reason = Reason{Code: "UnknownCompletionMode", Func: fn}.Say("the completion mode is neither NonIndexed nor Indexed: skipped")
		return nil
	}
	if err != nil {
		rec.Reason = Reason{Code: "InvalidSpec", Func: fn}.
			Say("the apiserver would have refused %s (%v): gcplay's Job controller leaves it alone", rec.Item, err)
		return nil
	}
	for _, f := range []string{"podFailurePolicy", "successPolicy", "backoffLimitPerIndex", "managedBy"} {
		if _, ok := specOf(shared)[f]; ok {
			rec.Note("spec.%s is not modelled by gcplay: the Job runs as if it were not set", f)
		}
	}
	now := c.env.clock.Now()
	satisfied, why := c.exp.satisfied(key, c.env.now())
	x := &syncJobCtx{key: key, job: v, status: readJobStatus(shared), rec: rec, cur: shared,
		expectedRmFinalizers: c.finalizerExp[key]}
	if x.status.UncountedTerminatedPods == nil {
		x.status.UncountedTerminatedPods = &uncountedPods{}
	}
	x.uncountedSucceeded = setOf(x.status.UncountedTerminatedPods.Succeeded)
	x.uncountedFailed = setOf(x.status.UncountedTerminatedPods.Failed)

	pods, claimNote, err := c.getPodsForJob(v, rec)
	if err != nil {
		rec.Reason = Reason{Code: "ClaimFailed", Func: fn + ", getPodsForJob"}.Say("claiming Pods for %s failed (%v)", rec.Item, err)
		return err
	}
	x.pods = pods
	for _, p := range pods {
		if p.active() {
			x.active = append(x.active, p)
			if p.ready {
				x.ready++
			}
		}
		if p.terminating && p.phase() != podSucceeded && p.phase() != podFailed {
			x.terminating++
		}
	}
	active := int64(len(x.active))
	newSucceeded, newFailed := x.newFinishedPods()
	x.succeeded = x.status.Succeeded + int64(len(newSucceeded)) + int64(len(x.uncountedSucceeded))
	x.failed = x.status.Failed + int64(len(newFailed)) + int64(len(x.uncountedFailed))

	if x.status.StartTime == "" && !v.suspend {
		x.status.StartTime = c.env.vtime()
	}
	x.newBackoff = newBackoffRecord(c.backoff[key], newSucceeded, newFailed)

	// The end state, in upstream's order: an earlier sync's
	// SuccessCriteriaMet or FailureTarget first, then failure, then success.
	var notes []string
	if cond := findJobCondition(x.status.Conditions, jobSuccessCriteriaMet); cond != nil && cond.Status == "True" {
		x.finishedCondition = cond
	} else if cond := findJobCondition(x.status.Conditions, jobFailureTarget); cond != nil && cond.Status == "True" {
		x.finishedCondition = c.newCondition(jobFailed, cond.Reason, cond.Message)
	}
	if x.finishedCondition == nil {
		switch {
		case x.failed > v.backoffLimit || pastBackoffLimitOnFailure(v, pods):
			x.finishedCondition = c.newCondition(jobFailureTarget, "BackoffLimitExceeded", "Job has reached the specified backoff limit")
			notes = append(notes, fmt.Sprintf("%d failed Pods exceed backoffLimit %d", x.failed, v.backoffLimit))
		case c.pastActiveDeadline(v, x.status):
			x.finishedCondition = c.newCondition(jobFailureTarget, "DeadlineExceeded", "Job was active longer than specified deadline")
			notes = append(notes, fmt.Sprintf("activeDeadlineSeconds %d have passed since startTime", *v.activeDeadlineSeconds))
		case v.activeDeadlineSeconds != nil && !v.suspend:
			left := time.Duration(*v.activeDeadlineSeconds)*time.Second - now.Sub(parseTime(x.status.StartTime))
			c.timers.AddAfter(key, left, c.env.now())
			rec.Note("activeDeadlineSeconds %d: synced again in %s, when it passes", *v.activeDeadlineSeconds, left)
		}
	}
	if v.indexed {
		x.prevSucceeded, x.succeededIndexes = calculateSucceededIndexes(x)
		x.succeeded = int64(len(x.succeededIndexes))
	}

	suspendChanged := false
	var manageErr error
	res := manageResult{code: "Tracking", text: []Text{say("nothing to create or delete")}}
	if x.finishedCondition != nil {
		deletedReady, deleted, err := c.deleteActivePods(v.obj, x.active)
		if deleted != active || !satisfied {
			x.finishedCondition = nil // not finished while Pods or expectations remain
		}
		active -= deleted
		x.terminating += deleted
		x.ready -= deletedReady
		manageErr = err
		res = manageResult{code: "Failing", text: say1("the Job fails (%s): deleted its %d active Pod(s)", strings.Join(notes, "; "), deleted)}
		if len(notes) == 0 {
			res.text = say1("the Job is finishing: deleted %d active Pod(s)", deleted)
		}
	} else {
		manageCalled := false
		if satisfied && v.obj.Metadata.DeletionTimestamp == nil {
			rec.Note("%s", English(why))
			active, res, manageErr = c.manageJob(x)
			manageCalled = true
		} else if !satisfied {
			res = manageResult{code: "ExpectationsPending", text: append(say1("not managing Pods: "), why...)}
		} else {
			res = manageResult{code: "BeingDeleted", text: []Text{say("the Job is being deleted, so Pods are neither created nor deleted")}}
		}
		complete := false
		if v.completions == nil {
			complete = x.succeeded > 0 && active == 0
		} else {
			complete = x.succeeded >= *v.completions && active == 0
		}
		switch {
		case complete:
			x.finishedCondition = c.newCondition(jobSuccessCriteriaMet, "CompletionsReached", "Reached expected number of succeeded pods")
		case manageCalled && v.suspend:
			var changed bool
			x.status.Conditions, changed = c.ensureCondition(x.status.Conditions, jobSuspended, "True", "JobSuspended", "Job suspended")
			if changed {
				suspendChanged = true
				c.event(v.obj, "Normal", "Suspended", "Job suspended")
			}
		case manageCalled:
			var changed bool
			x.status.Conditions, changed = c.ensureCondition(x.status.Conditions, jobSuspended, "False", "JobResumed", "Job resumed")
			if changed {
				suspendChanged = true
				c.event(v.obj, "Normal", "Resumed", "Job resumed")
				// activeDeadlineSeconds counts from the resume.
				x.status.StartTime = c.env.vtime()
			}
		}
	}

	needsUpdate := suspendChanged || active != x.status.Active || x.status.Ready == nil || *x.status.Ready != x.ready ||
		x.status.Terminating == nil || *x.status.Terminating != x.terminating
	x.status.Active = active
	x.status.Ready = ptrTo(x.ready)
	x.status.Terminating = ptrTo(x.terminating)
	finishedBefore := x.finishedCondition
	err = c.trackJobStatusAndRemoveFinalizers(x, needsUpdate)

	told := Reason{}.Say("%d active, %d succeeded, %d failed", active, x.succeeded, x.failed)
	if v.completions != nil {
		told.and(" of %d completions", *v.completions)
	}
	told.also(claimNote...)
	told.and(": ")
	told = told.Saying(append(told.Texts, res.text...)...)
	if finishedBefore != nil && res.code != "Failing" && finishedBefore.Type == jobSuccessCriteriaMet {
		res.code = "Succeeding"
		told.and("; enough Pods succeeded")
	}
	rec.Reason = Reason{Code: res.code, Func: fn + res.fn, Message: told.Message, Texts: told.Texts}
	if err != nil {
		rec.Reason.Code = "StatusUpdateFailed"
		rec.Reason.and("; tracking its status failed")
		return fmt.Errorf("tracking status: %w", err)
	}
	return manageErr
}

func ptrTo(n int64) *int64 { return &n }

func setOf(l []string) map[string]bool {
	m := make(map[string]bool, len(l))
	for _, s := range l {
		m[s] = true
	}
	return m
}

func (c *jobController) newCondition(typ, reason, message string) *jobCondition {
	now := c.env.vtime()
	return &jobCondition{Type: typ, Status: "True", LastProbeTime: now, LastTransitionTime: now, Reason: reason, Message: message}
}

// ensureCondition is ensureJobConditionStatus: it sets a condition's
// status, reason and message, appending it unless it would be False.
func (c *jobController) ensureCondition(list []jobCondition, typ, status, reason, message string) ([]jobCondition, bool) {
	if cond := findJobCondition(list, typ); cond != nil {
		if cond.Status != status || cond.Reason != reason || cond.Message != message {
			n := *c.newCondition(typ, reason, message)
			n.Status = status
			*cond = n
			return list, true
		}
		return list, false
	}
	if status != "False" {
		n := *c.newCondition(typ, reason, message)
		n.Status = status
		return append(list, n), true
	}
	return list, false
}

// pastActiveDeadline reports whether activeDeadlineSeconds have passed
// since startTime (never while suspended).
func (c *jobController) pastActiveDeadline(v jobView, st jobStatus) bool {
	if v.activeDeadlineSeconds == nil || st.StartTime == "" || v.suspend {
		return false
	}
	return c.env.clock.Now().Sub(parseTime(st.StartTime)) >= time.Duration(*v.activeDeadlineSeconds)*time.Second
}

// pastBackoffLimitOnFailure adds up the restartCount of every init and
// regular container of the running and pending Pods, for restartPolicy
// OnFailure. (The Pod's restarts field is the largest one container's,
// which is what the ActivePods ranking reads, not this sum.)
func pastBackoffLimitOnFailure(v jobView, pods []jobPod) bool {
	if !v.restartOnFailure {
		return false
	}
	var n int64
	for _, p := range pods {
		if p.phase() == podRunning || p.phase() == podPending {
			n += containerRestartsSum(p.obj)
		}
	}
	if v.backoffLimit == 0 {
		return n > 0
	}
	return n >= v.backoffLimit
}

// containerRestartsSum is the sum of the restartCount of a Pod's
// status.initContainerStatuses and status.containerStatuses.
func containerRestartsSum(o *fakeapi.Object) int64 {
	var n int64
	for _, list := range []string{"initContainerStatuses", "containerStatuses"} {
		cs, _ := nestedSlice(o.Fields, "status", list)
		for _, c := range cs {
			if r, ok := nestedInt(c, "restartCount"); ok {
				n += r
			}
		}
	}
	return n
}

// getPodsForJob returns the Pods the Job owns or adopts (ClaimPods, with
// the tracking finalizer added to adopted Pods), by name.
func (c *jobController) getPodsForJob(v jobView, rec *Record) ([]jobPod, []Text, error) {
	j := v.obj
	ns, uid := j.Metadata.Namespace, j.Metadata.UID
	cands := c.pods.ownedBy(ns, "Job", j.Metadata.Name, uid) // FilterPodsByOwner
	cands = append(cands, c.pods.orphansIn(ns)...)
	slices.SortFunc(cands, func(a, b *podInfo) int { return strings.Compare(a.obj.Metadata.Name, b.obj.Metadata.Name) })
	m := &refManager{env: c.env, client: jobClient, owner: j, selector: v.selector, rec: rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, jobClient, j), finalizers: []string{jobTrackingFinalizer}}
	match := func(o *fakeapi.Object) bool { return v.selector.Matches(o.Metadata.Labels) }
	var out []jobPod
	var errs []error
	for _, p := range cands {
		ok, err := m.claim(p.obj, match)
		if err != nil {
			errs = append(errs, err)
		}
		if !ok {
			continue
		}
		jp := jobPod{podInfo: p, finalizer: hasTrackingFinalizer(p.obj), index: completionIndex(p.obj)}
		if controllerOf(p.obj) == nil {
			jp.finalizer = true // adopted: the patch added it
		}
		out = append(out, jp)
	}
	return out, m.bracketed(), aggregate(errs)
}

func completionIndex(o *fakeapi.Object) int {
	s, ok := o.Metadata.Annotations[jobCompletionIndexAnnotation]
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 {
		return -1
	}
	return i
}

// isPodFailed: Failed, or (unless only failed Pods are replaced)
// terminating without having succeeded.
func (x *syncJobCtx) isPodFailed(p jobPod) bool {
	if p.phase() == podFailed {
		return true
	}
	if x.job.onlyReplaceFailed {
		return false
	}
	return p.terminating && p.phase() != podSucceeded
}

// validPod: has the finalizer, is not yet counted, and (Indexed) has a
// valid index.
func (x *syncJobCtx) validPod(p jobPod, uncounted map[string]bool) bool {
	if !p.finalizer || uncounted[p.uid()] || x.expectedRmFinalizers[p.uid()] {
		return false
	}
	if x.job.indexed && (p.index < 0 || int64(p.index) >= *x.job.completions) {
		return false
	}
	return true
}

// newFinishedPods is getNewFinishedPods.
func (x *syncJobCtx) newFinishedPods() (succeeded, failed []jobPod) {
	for _, p := range x.pods {
		if x.validPod(p, x.uncountedSucceeded) && p.phase() == podSucceeded {
			succeeded = append(succeeded, p)
		}
		if x.validPod(p, x.uncountedFailed) && x.isPodFailed(p) {
			failed = append(failed, p)
		}
	}
	return succeeded, failed
}

// finishedTime is getFinishedTime: the latest finishedAt of the
// containers, else the Ready=False transition, else the deletion time less
// the grace period, else creation.
func finishedTime(p jobPod) time.Time {
	st := p.obj.Fields.Get("status")
	if t, ok := containersFinishedAt(p.obj); ok {
		return t
	}
	if conds, ok := nestedSlice(st, "conditions"); ok {
		// getFinishTimeFromPodReadyFalseCondition: the first Ready
		// condition only (GetPodCondition).
		if i := slices.IndexFunc(conds, func(cd any) bool { return nestedString(cd, "type") == "Ready" }); i >= 0 &&
			nestedString(conds[i], "status") == "False" {
			if t := parseTime(nestedString(conds[i], "lastTransitionTime")); !t.IsZero() {
				return t
			}
		}
	}
	if dt := p.obj.Metadata.DeletionTimestamp; dt != nil {
		var grace int64
		if g := p.obj.Metadata.DeletionGracePeriodSeconds; g != nil {
			grace = *g
		}
		return dt.Add(-time.Duration(grace) * time.Second)
	}
	return creationTime(p.obj)
}

// containersFinishedAt is getFinishTimeFromContainers: the latest
// state.terminated.finishedAt of the regular containers, then of the
// sidecars (init containers with restartPolicy Always), which finish
// after them; none when any of those it looks at has not terminated.
func containersFinishedAt(o *fakeapi.Object) (time.Time, bool) {
	latest := func(prev time.Time, found bool, cs []any, check func(any) bool) (time.Time, bool) {
		for _, c := range cs {
			if check != nil && !check(c) {
				continue
			}
			t := parseTime(nestedString(c, "state", "terminated", "finishedAt"))
			if t.IsZero() {
				return time.Time{}, false
			}
			if !found || prev.Before(t) {
				prev, found = t, true
			}
		}
		return prev, found
	}
	regular, _ := nestedSlice(o.Fields, "status", "containerStatuses")
	t, ok := latest(time.Time{}, false, regular, nil)
	sidecars := map[string]bool{}
	inits, _ := nestedSlice(o.Fields, "spec", "initContainers")
	for _, c := range inits {
		if nestedString(c, "restartPolicy") == "Always" {
			sidecars[nestedString(c, "name")] = true
		}
	}
	initStatuses, _ := nestedSlice(o.Fields, "status", "initContainerStatuses")
	return latest(t, ok, initStatuses, func(c any) bool { return sidecars[nestedString(c, "name")] })
}

// newBackoffRecord is backoffStore.newBackoffRecord: failures since the
// last success, and the time of the last one.
func newBackoffRecord(old backoffRecord, succeeded, failed []jobPod) backoffRecord {
	byTime := func(ps []jobPod) []jobPod {
		ps = slices.Clone(ps)
		sort.SliceStable(ps, func(i, j int) bool { return finishedTime(ps[i]).Before(finishedTime(ps[j])) })
		return ps
	}
	succeeded, failed = byTime(succeeded), byTime(failed)
	b := old
	switch {
	case len(succeeded) == 0 && len(failed) == 0:
	case len(succeeded) == 0:
		b.failuresAfterLastSuccess += len(failed)
		b.lastFailureTime = finishedTime(failed[len(failed)-1])
	default:
		b = backoffRecord{}
		last := finishedTime(succeeded[len(succeeded)-1])
		for i := len(failed) - 1; i >= 0; i-- {
			t := finishedTime(failed[i])
			if !t.After(last) {
				break
			}
			if b.lastFailureTime.IsZero() {
				b.lastFailureTime = t
			}
			b.failuresAfterLastSuccess++
		}
	}
	return b
}

// remaining is getRemainingTime: how long pod creation still waits.
func (b backoffRecord) remaining(now time.Time) time.Duration {
	if b.failuresAfterLastSuccess == 0 {
		return 0
	}
	d := defaultJobPodFailureBackOff
	for i := 1; i < b.failuresAfterLastSuccess; i++ {
		d *= 2
		if d >= maxJobPodFailureBackOff {
			d = maxJobPodFailureBackOff
			break
		}
	}
	elapsed := now.Sub(b.lastFailureTime)
	if d < elapsed {
		return 0
	}
	return d - elapsed
}

// calculateSucceededIndexes returns the indexes status.completedIndexes
// lists and those plus the indexes of newly succeeded Pods.
func calculateSucceededIndexes(x *syncJobCtx) (prev, all []int) {
	prev = parseIndexes(x.status.CompletedIndexes, int(*x.job.completions))
	set := setOfInts(prev)
	for _, p := range x.pods {
		if p.phase() == podSucceeded && p.index >= 0 && int64(p.index) < *x.job.completions && p.finalizer {
			set[p.index] = true
		}
	}
	return prev, sortedInts(set)
}

func setOfInts(l []int) map[int]bool {
	m := make(map[int]bool, len(l))
	for _, i := range l {
		m[i] = true
	}
	return m
}

func sortedInts(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for i := range m {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// parseIndexes reads "0-2,5" (indexes at or above completions dropped).
func parseIndexes(s string, completions int) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for i := a; i <= b && i < completions; i++ {
			out = append(out, i)
		}
	}
	return out
}

// formatIndexes writes sorted indexes as intervals: "0-2,5".
func formatIndexes(ix []int) string {
	var parts []string
	for i := 0; i < len(ix); {
		j := i
		for j+1 < len(ix) && ix[j+1] == ix[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ix[i], ix[j]))
		} else {
			parts = append(parts, strconv.Itoa(ix[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// manageJob creates or deletes Pods towards parallelism and the remaining
// completions, respecting the pod-failure backoff; a suspended Job's
// active Pods are deleted.
func (c *jobController) manageJob(x *syncJobCtx) (int64, manageResult, error) {
	v, key := x.job, x.key
	active := int64(len(x.active))
	if v.suspend {
		rm := activePodsForRemoval(v, x.active, len(x.active))
		c.exp.set(key, 0, len(rm), c.env.now())
		removedReady, removed, err := c.deleteJobPods(v.obj, key, rm)
		x.terminating += removed
		x.ready -= removedReady
		return active - removed, manageResult{code: "Suspended", fn: ", manageJob", text: say1("the Job is suspended: deleted its %d active Pod(s)", removed)}, err
	}
	var want int64
	if v.completions == nil {
		if x.succeeded > 0 {
			want = active
		} else {
			want = v.parallelism
		}
	} else {
		want = min(*v.completions-x.succeeded, v.parallelism)
		want = max(want, 0)
	}
	rmAtLeast := max(active-want, 0)
	rm := activePodsForRemoval(v, x.active, int(rmAtLeast))
	if len(rm) > maxPodCreateDeletePerSync {
		rm = rm[:maxPodCreateDeletePerSync]
	}
	if len(rm) > 0 {
		c.exp.set(key, 0, len(rm), c.env.now())
		removedReady, removed, err := c.deleteJobPods(v.obj, key, rm)
		x.terminating += removed
		x.ready -= removedReady
		return active - removed, manageResult{code: "DeletedPods", fn: ", manageJob", text: say1("%d active, %d wanted: deleted %d", active, want, removed)}, err
	}
	var terminating int64
	if v.onlyReplaceFailed {
		terminating = x.terminating
	}
	diff := want - terminating - active
	if diff <= 0 {
		return active, manageResult{code: "InSync", fn: ", manageJob", text: say1("%d active Pod(s), %d wanted: nothing to create or delete", active, want)}, nil
	}
	if left := x.newBackoff.remaining(c.env.clock.Now()); left > 0 {
		c.timers.AddAfter(key, max(left, syncJobBatchPeriod), c.env.now())
		return 0, manageResult{code: "BackoffWaiting", fn: ", manageJob",
			text: say1("%d Pod(s) to create, but %d failure(s) since the last success mean a pod-failure backoff: synced again in %s (status.active reads 0 meanwhile, as upstream writes it)",
				diff, x.newBackoff.failuresAfterLastSuccess, left)}, nil
	}
	diff = min(diff, maxPodCreateDeletePerSync)
	var indexes []int
	if v.indexed {
		indexes = firstPendingIndexes(x, int(diff))
		diff = int64(len(indexes))
	}
	c.exp.expectCreations(key, int(diff), c.env.now())
	next := 0
	batches, created, err := slowStartBatch(int(diff), slowStartInitialBatchSize, func() error {
		ix := -1
		if indexes != nil {
			ix = indexes[next]
		}
		next++
		return c.createPod(v, ix)
	})
	if skipped := int(diff) - created; skipped > 0 {
		for range skipped {
			c.exp.creationObserved(key)
		}
	}
	active += int64(created)
	text := []Text{say("%d wanted: created %d in slow-start batches of %s", want, created, intsPhrase(batches))}
	if indexes != nil {
		text = append(text, say(" for index(es) %s", formatIndexes(indexes[:created])))
	}
	res := manageResult{code: "CreatedPods", fn: ", manageJob", text: text}
	if err != nil {
		res.code = "CreateFailed"
		res.text = append(res.text, say("; a create failed (%v)", err))
	}
	return active, res, err
}

// firstPendingIndexes returns up to count indexes below completions that
// no active Pod holds and that have not succeeded.
func firstPendingIndexes(x *syncJobCtx, count int) []int {
	taken := setOfInts(x.succeededIndexes)
	for _, p := range x.active {
		if p.index >= 0 {
			taken[p.index] = true
		}
	}
	if x.job.onlyReplaceFailed {
		for _, p := range x.pods {
			if p.terminating && p.phase() != podSucceeded && p.phase() != podFailed && p.index >= 0 {
				taken[p.index] = true
			}
		}
	}
	var out []int
	for i := 0; i < int(*x.job.completions) && len(out) < count; i++ {
		if !taken[i] {
			out = append(out, i)
		}
	}
	return out
}

// activePodsForRemoval picks at least rmAtLeast active Pods to delete: for
// an Indexed Job first those without a valid index and the duplicates of
// an index (appendDuplicatedIndexPodsForRemoval: of the Pods sharing an
// index, the one last in the ActivePods order, the furthest in its life,
// is kept), then by the ActivePods order (earlier in their life first).
func activePodsForRemoval(v jobView, pods []jobPod, rmAtLeast int) []jobPod {
	var rm, left []jobPod
	if v.indexed {
		sorted := slices.Clone(pods)
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].index < sorted[j].index })
		for i := 0; i < len(sorted); {
			p := sorted[i]
			if p.index < 0 || int64(p.index) >= *v.completions {
				rm = append(rm, p)
				i++
				continue
			}
			j := i + 1
			for j < len(sorted) && sorted[j].index == p.index {
				j++
			}
			same := sorted[i:j]
			if len(same) > 1 {
				sort.SliceStable(same, func(a, b int) bool { return activePodLess(same[a].podInfo, same[b].podInfo) })
			}
			rm = append(rm, same[:len(same)-1]...)
			left = append(left, same[len(same)-1])
			i = j
		}
	} else {
		left = slices.Clone(pods)
	}
	if len(rm) < rmAtLeast {
		sort.SliceStable(left, func(i, j int) bool { return activePodLess(left[i].podInfo, left[j].podInfo) })
		rm = append(rm, left[:rmAtLeast-len(rm)]...)
	}
	return rm
}

// activePodLess is controller.ActivePods' order: unassigned, then Pending
// before Unknown before Running, not ready, ready for less time (an
// unknown ready time first), more restarts of one regular container, then
// of one sidecar, newer (an unknown creation time first).
func activePodLess(a, b *podInfo) bool {
	if na, nb := a.node(), b.node(); (na == "") != (nb == "") {
		return na == ""
	}
	if pa, pb := podPhaseOrdinal[a.phase()], podPhaseOrdinal[b.phase()]; pa != pb {
		return pa < pb
	}
	if a.ready != b.ready {
		return !a.ready
	}
	if ta, tb := a.readyTime(), b.readyTime(); a.ready && b.ready && !ta.Equal(tb) {
		return afterOrZero(ta, tb)
	}
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if sa, sb := sidecarRestarts(a.obj), sidecarRestarts(b.obj); sa != sb {
		return sa > sb
	}
	ca, cb := creationTime(a.obj), creationTime(b.obj)
	if !ca.Equal(cb) {
		return afterOrZero(ca, cb)
	}
	return false
}

// afterOrZero is upstream's: a zero time comes first, else the later one.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// sidecarRestarts is the sidecar half of maxContainerRestarts: the
// largest restartCount of an init container with restartPolicy Always.
func sidecarRestarts(o *fakeapi.Object) int64 {
	inits, _ := nestedSlice(o.Fields, "spec", "initContainers")
	if len(inits) == 0 {
		return 0
	}
	sidecars := map[string]bool{}
	for _, c := range inits {
		if nestedString(c, "restartPolicy") == "Always" {
			sidecars[nestedString(c, "name")] = true
		}
	}
	var n int64
	statuses, _ := nestedSlice(o.Fields, "status", "initContainerStatuses")
	for _, c := range statuses {
		if r, ok := nestedInt(c, "restartCount"); ok && sidecars[nestedString(c, "name")] && r > n {
			n = r
		}
	}
	return n
}

// createPod is CreatePodsWithGenerateName: a Pod from the template, with
// the tracking finalizer and the Job as controller; for an Indexed Job the
// completion index as annotation, label, hostname and environment.
func (c *jobController) createPod(v jobView, index int) error {
	j := v.obj
	meta := nestedMap(v.template, "metadata")
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		GenerateName:    j.Metadata.Name + "-",
		Namespace:       j.Metadata.Namespace,
		Labels:          stringMap(meta["labels"]),
		Annotations:     stringMap(meta["annotations"]),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(j)},
	}}
	if fins, ok := meta["finalizers"].([]any); ok {
		for _, f := range fins {
			if s, ok := f.(string); ok {
				pod.Metadata.Finalizers = append(pod.Metadata.Finalizers, s)
			}
		}
	}
	if !pod.Metadata.HasFinalizer(jobTrackingFinalizer) {
		pod.Metadata.Finalizers = append(pod.Metadata.Finalizers, jobTrackingFinalizer)
	}
	var spec map[string]any
	if s, ok := v.template["spec"].(map[string]any); ok {
		spec, _ = toJSONValue(s).(map[string]any) // a copy this Pod may change
	}
	if index >= 0 {
		ix := strconv.Itoa(index)
		if pod.Metadata.Annotations == nil {
			pod.Metadata.Annotations = map[string]string{}
		}
		if pod.Metadata.Labels == nil {
			pod.Metadata.Labels = map[string]string{}
		}
		pod.Metadata.Annotations[jobCompletionIndexAnnotation] = ix
		pod.Metadata.Labels[jobCompletionIndexAnnotation] = ix
		pod.Metadata.GenerateName = j.Metadata.Name + "-" + ix + "-"
		if spec == nil {
			spec = map[string]any{}
		}
		spec["hostname"] = j.Metadata.Name + "-" + ix
		addCompletionIndexEnv(spec)
	}
	if spec != nil {
		pod.Fields = fakeapi.FieldsOf(map[string]any{"spec": spec})
	}
	out, err := c.env.api.Create(jobClient, pod)
	if err != nil {
		if namespaceTerminating(err) {
			return nil
		}
		c.event(j, "Warning", "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	c.event(j, "Normal", "SuccessfulCreate", "Created pod: "+out.Metadata.Name)
	return nil
}

// addCompletionIndexEnv gives every container JOB_COMPLETION_INDEX, read
// from the Pod's annotation, unless it sets it already.
func addCompletionIndexEnv(spec map[string]any) {
	for _, list := range []string{"initContainers", "containers"} {
		cs, _ := spec[list].([]any)
		for _, ct := range cs {
			m, ok := ct.(map[string]any)
			if !ok {
				continue
			}
			env, _ := m["env"].([]any)
			found := false
			for _, e := range env {
				if nestedString(e, "name") == "JOB_COMPLETION_INDEX" {
					found = true
				}
			}
			if !found {
				m["env"] = append(env, map[string]any{"name": "JOB_COMPLETION_INDEX", "valueFrom": map[string]any{
					"fieldRef": map[string]any{"fieldPath": "metadata.annotations['" + jobCompletionIndexAnnotation + "']"}}})
			}
		}
	}
}

// deleteActivePods DELETEs the active Pods of a failing Job, keeping their
// finalizers (trackJobStatusAndRemoveFinalizers removes them).
func (c *jobController) deleteActivePods(j *fakeapi.Object, pods []jobPod) (int64, int64, error) {
	var ready, deleted int64
	var firstErr error
	for _, p := range pods {
		err := c.deletePodNow(j, p.obj)
		if err != nil && !fakeapi.IsNotFound(err) {
			if firstErr == nil {
				firstErr = err
			}
		} else {
			deleted++
		}
		if p.ready {
			ready++
		}
	}
	return ready, deleted, firstErr
}

// deleteJobPods removes the tracking finalizer from each Pod and DELETEs
// it (a Pod the Job no longer wants is not counted). As upstream's, it
// counts a ready Pod among the deleted ready ones once its finalizer is
// off, even when the DELETE then fails.
func (c *jobController) deleteJobPods(j *fakeapi.Object, key string, pods []jobPod) (int64, int64, error) {
	var ready, deleted int64
	var firstErr error
	for _, p := range pods {
		fail := func(err error) {
			c.exp.lower(key, 0, 1)
			if !fakeapi.IsNotFound(err) && firstErr == nil {
				firstErr = err
			}
		}
		if p.finalizer {
			if _, err := c.env.api.Patch(jobClient, fakeapi.RefOf(p.obj), fakeapi.StrategicMergePatch, removeTrackingFinalizerPatch()); err != nil {
				fail(fmt.Errorf("removing completion finalizer: %w", err))
				continue
			}
		}
		if p.ready {
			ready++
		}
		if err := c.deletePodNow(j, p.obj); err != nil {
			fail(err)
			if !fakeapi.IsNotFound(err) {
				continue
			}
		}
		deleted++
	}
	return ready, deleted, firstErr
}

func (c *jobController) deletePodNow(j, pod *fakeapi.Object) error {
	_, err := c.env.api.Delete(jobClient, fakeapi.RefOf(pod), &fakeapi.DeleteOptions{})
	if err != nil {
		if !fakeapi.IsNotFound(err) {
			c.event(j, "Warning", "FailedDelete", "Error deleting: "+err.Error())
		}
		return err
	}
	c.event(j, "Normal", "SuccessfulDelete", "Deleted pod: "+pod.Metadata.Name)
	return nil
}

func (c *jobController) event(o *fakeapi.Object, typ, reason, msg string) {
	c.env.recordEvent(jobClient, fakeapi.Event{Object: fakeapi.RefOf(o), ObjectUID: o.Metadata.UID, ObjectRV: o.Metadata.ResourceVersion,
		Type: typ, Reason: reason, Message: msg, Source: jobClient})
}

// trackJobStatusAndRemoveFinalizers puts finished Pods in
// status.uncountedTerminatedPods, removes their tracking finalizers, moves
// them to the counters once the finalizers are gone, and finishes the Job
// (Complete or Failed) once nothing is uncounted or terminating.
func (c *jobController) trackJobStatusAndRemoveFinalizers(x *syncJobCtx, needsFlush bool) error {
	if x.job.indexed {
		sort.SliceStable(x.pods, func(i, j int) bool { return x.pods[i].index < x.pods[j].index })
	}
	withFinalizer := map[string]bool{}
	for _, p := range x.pods {
		if p.finalizer && !x.expectedRmFinalizers[p.uid()] {
			withFinalizer[p.uid()] = true
		}
	}
	if cleanUncounted(&x.status, withFinalizer) {
		needsFlush = true
	}
	unc := x.status.UncountedTerminatedPods
	prev := setOfInts(x.prevSucceeded)
	var toRemove []jobPod
	var newIndexes []int
	reachedMax := false
	for _, p := range x.pods {
		if !p.finalizer || x.expectedRmFinalizers[p.uid()] {
			continue
		}
		failed := x.isPodFailed(p)
		if !(x.job.obj.Metadata.DeletionTimestamp != nil || x.finishedCondition != nil || p.phase() == podSucceeded || failed) {
			continue
		}
		toRemove = append(toRemove, p)
		switch {
		case p.phase() == podSucceeded && !x.uncountedFailed[p.uid()]:
			if x.job.indexed {
				if p.index >= 0 && int64(p.index) < *x.job.completions && !prev[p.index] {
					newIndexes = append(newIndexes, p.index)
					needsFlush = true
				}
			} else if !x.uncountedSucceeded[p.uid()] {
				needsFlush = true
				unc.Succeeded = append(unc.Succeeded, p.uid())
			}
		case failed || (x.finishedCondition != nil && x.finishedCondition.Type != jobSuccessCriteriaMet):
			if !x.uncountedFailed[p.uid()] && (!x.job.indexed || (p.index >= 0 && int64(p.index) < *x.job.completions)) {
				needsFlush = true
				unc.Failed = append(unc.Failed, p.uid())
			}
		}
		if len(newIndexes)+len(unc.Succeeded)+len(unc.Failed) >= maxUncountedPods {
			reachedMax = true
			break
		}
	}
	if x.job.indexed {
		set := setOfInts(x.succeededIndexes)
		for _, i := range newIndexes {
			set[i] = true
		}
		x.succeededIndexes = sortedInts(set)
		s := formatIndexes(x.succeededIndexes)
		if s != x.status.CompletedIndexes {
			needsFlush = true
		}
		x.status.Succeeded = int64(len(x.succeededIndexes))
		x.status.CompletedIndexes = s
	}
	if fc := x.finishedCondition; fc != nil && fc.Type == jobFailureTarget {
		x.status.Conditions = append(x.status.Conditions, *fc)
		needsFlush = true
		x.finishedCondition = c.newCondition(jobFailed, fc.Reason, fc.Message)
	}
	if fc := x.finishedCondition; fc != nil && fc.Type == jobSuccessCriteriaMet {
		if findJobCondition(x.status.Conditions, jobSuccessCriteriaMet) == nil {
			x.status.Conditions = append(x.status.Conditions, *fc)
			needsFlush = true
		}
		x.finishedCondition = c.newCondition(jobComplete, fc.Reason, fc.Message)
	}

	// flushUncountedAndRemoveFinalizers
	if needsFlush {
		if err := c.updateStatus(x); err != nil {
			return fmt.Errorf("adding uncounted pods to status: %w", err)
		}
		c.backoff[x.key] = x.newBackoff
		needsFlush = false
	}
	var rmErr error
	if len(toRemove) > 0 {
		set := c.finalizerExp[x.key]
		if set == nil {
			set = map[string]bool{}
			c.finalizerExp[x.key] = set
		}
		for _, p := range toRemove {
			set[p.uid()] = true
		}
		var names []string
		for _, p := range toRemove {
			_, err := c.env.api.Patch(jobClient, fakeapi.RefOf(p.obj), fakeapi.StrategicMergePatch, removeTrackingFinalizerPatch())
			if err != nil {
				c.finalizerRemovalObserved(x.key, p.uid())
				if !fakeapi.IsNotFound(err) {
					if rmErr == nil {
						rmErr = err
					}
					continue
				}
			}
			delete(withFinalizer, p.uid())
			names = append(names, p.obj.String())
		}
		if len(names) > 0 {
			x.rec.Note("removed %s from %s", jobTrackingFinalizer, listPhrase(names))
		}
	}
	if cleanUncounted(&x.status, withFinalizer) {
		needsFlush = true
	}
	if rmErr != nil && needsFlush {
		if err := c.updateStatus(x); err != nil {
			return fmt.Errorf("removing uncounted pods from status: %w", err)
		}
	}
	if rmErr != nil {
		return rmErr
	}
	finished := !reachedMax && c.enactJobFinished(x)
	if finished {
		needsFlush = true
	}
	if needsFlush {
		if err := c.updateStatus(x); err != nil {
			return fmt.Errorf("removing uncounted pods from status: %w", err)
		}
		if finished {
			c.recordJobFinished(x)
			c.finished[x.cur.Metadata.UID] = true
		}
	}
	return nil
}

// cleanUncounted moves the uncounted Pods whose finalizer is gone to the
// counters (cleanUncountedPodsWithoutFinalizers).
func cleanUncounted(st *jobStatus, withFinalizer map[string]bool) bool {
	unc := st.UncountedTerminatedPods
	keep := func(l []string) []string {
		var out []string
		for _, u := range l {
			if withFinalizer[u] {
				out = append(out, u)
			}
		}
		return out
	}
	updated := false
	if n := keep(unc.Succeeded); len(n) != len(unc.Succeeded) {
		st.Succeeded += int64(len(unc.Succeeded) - len(n))
		unc.Succeeded = n
		updated = true
	}
	if n := keep(unc.Failed); len(n) != len(unc.Failed) {
		st.Failed += int64(len(unc.Failed) - len(n))
		unc.Failed = n
		updated = true
	}
	return updated
}

// enactJobFinished adds the Complete or Failed condition once no Pod is
// uncounted or terminating.
func (c *jobController) enactJobFinished(x *syncJobCtx) bool {
	fc := x.finishedCondition
	if fc == nil {
		return false
	}
	if n := len(x.status.UncountedTerminatedPods.Succeeded) + len(x.status.UncountedTerminatedPods.Failed); n > 0 {
		x.rec.Note("not finished yet: %d Pod(s) still uncounted", n)
		return false
	}
	if x.terminating > 0 {
		x.rec.Note("not %s yet: %d Pod(s) still terminating", strings.ToLower(fc.Type), x.terminating)
		return false
	}
	x.status.Conditions, _ = c.ensureCondition(x.status.Conditions, fc.Type, fc.Status, fc.Reason, fc.Message)
	if fc.Type == jobComplete {
		x.status.CompletionTime = fc.LastTransitionTime
	}
	return true
}

func (c *jobController) recordJobFinished(x *syncJobCtx) {
	fc := x.finishedCondition
	j := x.cur
	if fc.Type == jobComplete {
		if x.job.completions != nil && x.status.Succeeded > *x.job.completions {
			c.event(j, "Warning", "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
		}
		c.event(j, "Normal", "Completed", "Job completed")
		x.rec.Note("the Job is Complete")
		return
	}
	c.event(j, "Warning", fc.Reason, fc.Message)
	x.rec.Note("the Job is Failed (%s)", fc.Reason)
}

// updateStatus writes x.status over the last stored Job (UpdateStatus; a
// plain update in gcplay). A conflict fails the sync, which is retried.
func (c *jobController) updateStatus(x *syncJobCtx) error {
	next := x.cur.DeepCopy()
	st := x.status
	next.Fields.Set("status", toJSONValue(st))
	out, err := c.env.api.Update(jobClient, next)
	if err != nil {
		return err
	}
	x.cur = out
	return nil
}
