package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	// The time zone database, for spec.timeZone, built in as
	// kube-controller-manager builds it in: the browser has none to read,
	// and neither has every host.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

var cronJobRegistration = registration{
	name:        ControllerCronJob,
	queues:      []string{ControllerCronJob},
	restartable: true,
	new:         newCronJobController,
}

const (
	cronJobFuncPrefix = "cronjob.ControllerV2."
	// nextScheduleDelta is added to a schedule's time when the sync is
	// requeued for it, so the sync runs just after it.
	nextScheduleDelta = 100 * time.Millisecond
	// cronJobScheduledAnnotation records a Job's scheduled time.
	cronJobScheduledAnnotation = "batch.kubernetes.io/cronjob-scheduled-timestamp"
)

// cronJobController is kube-controller-manager's CronJob controller v2
// (pkg/controller/cronjob/cronjob_controllerv2.go, utils.go), made
// steppable: one step is one sync of one CronJob key. Schedules are parsed
// by github.com/robfig/cron/v3, as upstream parses them (ParseStandard:
// five fields, the @hourly/@daily/... descriptors, @every, TZ=). The wait
// until the next schedule is time passing in the cluster: it is kept in a
// queue of its own that only an advance crosses.
type cronJobController struct {
	env *env
	// q holds CronJob keys to sync now or after a retry; timers holds the
	// keys waiting for their next schedule.
	q, timers *workqueue[string]
	cronJobs  map[string]*fakeapi.Object
	jobs      map[string]*fakeapi.Object
}

func newCronJobController(e *env) controller {
	c := &cronJobController{env: e}
	c.reset()
	return c
}

func (c *cronJobController) reset() {
	c.cronJobs = map[string]*fakeapi.Object{}
	c.jobs = map[string]*fakeapi.Object{}
	c.setQueues(newWorkqueue[string](ControllerCronJob), newWorkqueue[string](ControllerCronJob))
}

func (c *cronJobController) setQueues(q, timers *workqueue[string]) {
	c.q, c.timers = q, timers
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerCronJob, keyRef("CronJob", key), d)
		}
	}
	timers.onAdd = func(key string, d time.Duration) {
		c.env.enqueued(ControllerCronJob, keyRef("CronJob", key)+" (clock)", d)
	}
}

// ---- event handlers ----

func (c *cronJobController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	switch {
	case isKind(o, "batch/v1", "CronJob"):
		key := objKey(o)
		switch ev.Type {
		case fakeapi.Deleted:
			delete(c.cronJobs, key)
			c.q.Add(key)
		case fakeapi.Modified:
			c.cronJobs[key] = o
			c.updateCronJob(ev.Old, o)
		default:
			c.cronJobs[key] = o
			c.q.Add(key)
		}
	case isKind(o, "batch/v1", "Job"):
		key := objKey(o)
		switch ev.Type {
		case fakeapi.Deleted:
			delete(c.jobs, key)
			c.enqueueOwner(o)
		case fakeapi.Modified:
			c.jobs[key] = o
			if ev.Old != nil && ev.Old.Metadata.ResourceVersion == o.Metadata.ResourceVersion {
				return
			}
			if ev.Old != nil && !sameControllerRef(controllerOf(ev.Old), controllerOf(o)) {
				c.enqueueOwner(ev.Old)
			}
			c.enqueueOwner(o)
		default:
			c.jobs[key] = o
			c.enqueueOwner(o)
		}
	}
}

// enqueueOwner queues the CronJob that controls a Job (addJob, updateJob,
// deleteJob).
func (c *cronJobController) enqueueOwner(j *fakeapi.Object) {
	ref := controllerOf(j)
	if ref == nil || ref.Kind != "CronJob" {
		return
	}
	cj := c.cronJobs[j.Metadata.Namespace+"/"+ref.Name]
	if cj == nil || cj.Metadata.UID != ref.UID {
		return
	}
	c.q.Add(objKey(cj))
}

// updateCronJob: a changed schedule or time zone waits for the new next
// schedule; anything else syncs now.
func (c *cronJobController) updateCronJob(old, cur *fakeapi.Object) {
	key := objKey(cur)
	if old != nil && (nestedString(specOf(old), "schedule") != nestedString(specOf(cur), "schedule") ||
		nestedString(specOf(old), "timeZone") != nestedString(specOf(cur), "timeZone")) {
		sched, err := cron.ParseStandard(formatSchedule(cur, nil))
		if err != nil {
			c.event(cur, "Warning", "UnParseableCronJobSchedule", "unparseable schedule for cronjob: "+nestedString(specOf(cur), "schedule"))
			return
		}
		c.timers.AddAfter(key, nextScheduleTimeDuration(cur, c.env.clock.Now(), sched), c.env.now())
		return
	}
	c.q.Add(key)
}

// ---- scheduling ----

func (c *cronJobController) promote(now time.Duration) {
	c.q.Promote(now)
	moveDueTimers(c.timers, c.q, now)
}

func (c *cronJobController) ready(string) bool                { return c.q.Len() > 0 }
func (c *cronJobController) nextDue() (time.Duration, bool)   { return c.q.NextDue() }
func (c *cronJobController) nextTimer() (time.Duration, bool) { return c.timers.NextDue() }

func (c *cronJobController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "cronjob: sync " + keyRef("CronJob", items[0])
	}
	return ""
}

func (c *cronJobController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "CronJob"), timerItems(c.timers, "CronJob", " (next schedule)")}
}

func (c *cronJobController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("CronJob", key)
	requeueAfter, err := c.sync(key, rec)
	switch {
	case err != nil:
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; the sync returns an error, so the key is retried in %s", d)
	case requeueAfter != nil:
		c.q.Forget(key)
		c.timers.AddAfter(key, *requeueAfter, c.env.now())
		rec.Note("synced again in %s, at the next schedule", *requeueAfter)
	}
}

func (c *cronJobController) restart(rec *Record) {
	c.reset()
	relist(c.env, cronJobClient, rec, c.observe, [][2]string{{"batch/v1", "CronJob"}, {"batch/v1", "Job"}})
}

func (c *cronJobController) clone(e *env) controller {
	n := &cronJobController{env: e, cronJobs: make(map[string]*fakeapi.Object, len(c.cronJobs)), jobs: make(map[string]*fakeapi.Object, len(c.jobs))}
	for k, v := range c.cronJobs {
		n.cronJobs[k] = v
	}
	for k, v := range c.jobs {
		n.jobs[k] = v
	}
	id := func(s string) string { return s }
	n.setQueues(c.q.clone(id), c.timers.clone(id))
	return n
}

func (c *cronJobController) event(o *fakeapi.Object, typ, reason, msg string) {
	c.env.recordEvent(cronJobClient, fakeapi.Event{Object: fakeapi.RefOf(o), ObjectUID: o.Metadata.UID, ObjectRV: o.Metadata.ResourceVersion,
		Type: typ, Reason: reason, Message: msg, Source: cronJobClient})
}

// ---- status ----

// cronJobStatus is batch/v1 CronJobStatus.
type cronJobStatus struct {
	Active             []activeRef `json:"active,omitempty"`
	LastScheduleTime   string      `json:"lastScheduleTime,omitempty"`
	LastSuccessfulTime string      `json:"lastSuccessfulTime,omitempty"`
}

// activeRef is the ObjectReference of a running Job.
type activeRef struct {
	APIVersion      string `json:"apiVersion,omitempty"`
	Kind            string `json:"kind,omitempty"`
	Name            string `json:"name,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	UID             string `json:"uid,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

func readCronJobStatus(o *fakeapi.Object) cronJobStatus {
	var s cronJobStatus
	if v, ok := o.Fields.Lookup("status"); ok {
		_ = fromJSONValue(v, &s)
	}
	return s
}

func (s *cronJobStatus) inActiveList(uid string) bool {
	return slices.ContainsFunc(s.Active, func(a activeRef) bool { return a.UID == uid })
}

func (s *cronJobStatus) deleteFromActiveList(uid string) {
	s.Active = slices.DeleteFunc(slices.Clone(s.Active), func(a activeRef) bool { return a.UID == uid })
}

// cronJobCtx is one sync's working copy of a CronJob.
type cronJobCtx struct {
	obj    *fakeapi.Object
	status cronJobStatus
	rec    *Record
	did    []Text
}

func (x *cronJobCtx) say(format string, args ...any) {
	x.did = append(x.did, say(format, args...))
}

// sync is the sync of one key: cleanupFinishedJobs, then syncCronJob, then
// one status update if either changed it.
func (c *cronJobController) sync(key string, rec *Record) (*time.Duration, error) {
	const fn = cronJobFuncPrefix + "sync"
	cj := c.cronJobs[key]
	if cj == nil {
		rec.Reason = Reason{Code: "CronJobGone", Func: fn}.Say("%s is no longer in the informer cache: nothing to do", rec.Item)
		return nil, nil
	}
	jobs := c.jobsToBeReconciled(cj)
	x := &cronJobCtx{obj: cj, status: readCronJobStatus(cj), rec: rec}
	cleaned := c.cleanupFinishedJobs(x, jobs)
	requeueAfter, synced, code, syncErr := c.syncCronJob(x, jobs)
	rec.Reason = Reason{Code: code, Func: fn + ", syncCronJob"}.Saying(append([]Text{say("%s: ", rec.Item)}, joinTexts(x.did, "; ")...)...)
	if cleaned {
		rec.Reason.Func = fn + ", cleanupFinishedJobs, syncCronJob"
		if code == "NoUnmetSchedule" {
			rec.Reason.Code = "DeletedOldJobs"
		}
	}
	if cleaned || synced {
		next := x.obj.DeepCopy()
		next.Fields.Set("status", toJSONValue(x.status))
		if _, err := c.env.api.Update(cronJobClient, next); err != nil {
			rec.Reason.and("; updating its status failed")
			return nil, err
		}
		rec.Note("status: %d active, lastScheduleTime %s", len(x.status.Active), orNone(x.status.LastScheduleTime))
	}
	if requeueAfter != nil {
		return requeueAfter, nil
	}
	return nil, syncErr
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// jobsToBeReconciled is every cached Job in the namespace whose controller
// reference names the CronJob (by name, as upstream compares).
func (c *cronJobController) jobsToBeReconciled(cj *fakeapi.Object) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, k := range sortedKeys(c.jobs) {
		j := c.jobs[k]
		if j.Metadata.Namespace != cj.Metadata.Namespace {
			continue
		}
		if ref := controllerOf(j); ref != nil && ref.Name == cj.Metadata.Name {
			out = append(out, j)
		}
	}
	return out
}

// cleanupFinishedJobs deletes the oldest finished Jobs beyond
// successfulJobsHistoryLimit and failedJobsHistoryLimit.
func (c *cronJobController) cleanupFinishedJobs(x *cronJobCtx, jobs []*fakeapi.Object) bool {
	spec := specOf(x.obj)
	okLimit, hasOK := nestedInt(spec, "successfulJobsHistoryLimit")
	failLimit, hasFail := nestedInt(spec, "failedJobsHistoryLimit")
	if !hasOK && !hasFail {
		return false
	}
	var succeeded, failed []*fakeapi.Object
	for _, j := range jobs {
		if cond, ok := jobFinishedCondition(j); ok {
			if cond.Type == jobComplete {
				succeeded = append(succeeded, j)
			} else {
				failed = append(failed, j)
			}
		}
	}
	updated := false
	if hasOK && c.removeOldestJobs(x, succeeded, okLimit, "successfulJobsHistoryLimit") {
		updated = true
	}
	if hasFail && c.removeOldestJobs(x, failed, failLimit, "failedJobsHistoryLimit") {
		updated = true
	}
	return updated
}

func (c *cronJobController) removeOldestJobs(x *cronJobCtx, js []*fakeapi.Object, max int64, limit string) bool {
	n := len(js) - int(max)
	if n <= 0 {
		return false
	}
	js = slices.Clone(js)
	sort.SliceStable(js, func(a, b int) bool { return byJobStartTime(js[a], js[b]) })
	var names []string
	updated := false
	for _, j := range js[:n] {
		if c.deleteJob(x, j) {
			updated = true
			names = append(names, j.String())
		}
	}
	if len(names) > 0 {
		x.say("%s %d: deleted the oldest, %s, with Background propagation (the collector deletes their Pods)", limit, max, listPhrase(names))
	}
	return updated
}

// byJobStartTime orders Jobs by status.startTime (unset last), then name.
func byJobStartTime(a, b *fakeapi.Object) bool {
	sa, sb := readJobStatus(a).StartTime, readJobStatus(b).StartTime
	switch {
	case sa == "" && sb != "":
		return false
	case sa != "" && sb == "":
		return true
	}
	ta, tb := parseTime(sa), parseTime(sb)
	if ta.Equal(tb) {
		return a.Metadata.Name < b.Metadata.Name
	}
	return ta.Before(tb)
}

// deleteJob DELETEs a Job with Background propagation (realJobControl).
func (c *cronJobController) deleteJob(x *cronJobCtx, j *fakeapi.Object) bool {
	bg := fakeapi.DeletePropagationBackground
	if _, err := c.env.api.Delete(cronJobClient, fakeapi.RefOf(j), &fakeapi.DeleteOptions{PropagationPolicy: &bg}); err != nil {
		c.event(x.obj, "Warning", "FailedDelete", "Deleted job: "+err.Error())
		return false
	}
	x.status.deleteFromActiveList(j.Metadata.UID)
	c.event(x.obj, "Normal", "SuccessfulDelete", "Deleted job "+j.Metadata.Name)
	return true
}

// formatSchedule prefixes the schedule with TZ= for spec.timeZone.
func formatSchedule(cj *fakeapi.Object, c *cronJobController) string {
	spec := specOf(cj)
	s := nestedString(spec, "schedule")
	if strings.Contains(s, "TZ") {
		if c != nil {
			c.event(cj, "Warning", "UnsupportedSchedule", fmt.Sprintf("CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", s))
		}
		return s
	}
	if tz := nestedString(spec, "timeZone"); tz != "" {
		if _, err := time.LoadLocation(tz); err != nil {
			return s
		}
		return "TZ=" + tz + " " + s
	}
	return s
}

type missedSchedules int

const (
	noneMissed missedSchedules = iota
	fewMissed
	manyMissed
)

// mostRecentScheduleTime returns the earliest time considered (creation or
// lastScheduleTime, or now less startingDeadlineSeconds when asked), the
// most recent schedule at or before now after it (nil if none), and how
// many schedules were missed.
func mostRecentScheduleTime(cj *fakeapi.Object, now time.Time, sched cron.Schedule, withDeadline bool) (time.Time, *time.Time, missedSchedules, error) {
	earliest := creationTime(cj)
	if t := readCronJobStatus(cj).LastScheduleTime; t != "" {
		earliest = parseTime(t)
	}
	if d, ok := nestedInt(specOf(cj), "startingDeadlineSeconds"); withDeadline && ok {
		if deadline := now.Add(-time.Duration(d) * time.Second); deadline.After(earliest) {
			earliest = deadline
		}
	}
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	if now.Before(t1) {
		return earliest, nil, noneMissed, nil
	}
	if now.Before(t2) {
		return earliest, &t1, noneMissed, nil
	}
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return earliest, nil, noneMissed, fmt.Errorf("time difference between two schedules is less than 1 second")
	}
	elapsed := int64(now.Sub(t1).Seconds())
	missed := elapsed/between + 1
	var recent time.Time
	potential := t1.Add(time.Duration((missed-1-1)*between) * time.Second)
	for t := sched.Next(potential); !t.After(now); t = sched.Next(t) {
		recent = t
	}
	kind := noneMissed
	switch {
	case missed > 100:
		kind = manyMissed
	case missed > 0:
		kind = fewMissed
	}
	if recent.IsZero() {
		return earliest, nil, kind, nil
	}
	return earliest, &recent, kind, nil
}

// nextScheduleTimeDuration is how long until just after the next schedule.
func nextScheduleTimeDuration(cj *fakeapi.Object, now time.Time, sched cron.Schedule) time.Duration {
	earliest, recent, missed, err := mostRecentScheduleTime(cj, now, sched, false)
	switch {
	case err != nil:
		recent = &now
	case recent == nil && missed == noneMissed:
		recent = &earliest
	case recent == nil:
		recent = &now
	}
	return sched.Next(*recent).Add(nextScheduleDelta).Sub(now)
}

// syncCronJob reconciles the active list with the Jobs, then starts the
// Job of the most recent unmet schedule, if any and if allowed. It returns
// when to sync again, whether the status changed, and a reason code.
func (c *cronJobController) syncCronJob(x *cronJobCtx, jobs []*fakeapi.Object) (*time.Duration, bool, string, error) {
	now := c.env.clock.Now()
	updated := false
	children := map[string]bool{}
	for _, j := range jobs {
		children[j.Metadata.UID] = true
		found := x.status.inActiveList(j.Metadata.UID)
		cond, finished := jobFinishedCondition(j)
		switch {
		case !found && !finished:
			fresh, err := c.env.api.Get(cronJobClient, fakeapi.RefOf(x.obj))
			if err != nil {
				x.say("reading it failed (%v)", err)
				return nil, updated, "GetFailed", err
			}
			if st := readCronJobStatus(fresh); st.inActiveList(j.Metadata.UID) {
				x.obj, x.status = fresh, st
				continue
			}
			c.event(x.obj, "Warning", "UnexpectedJob", "Saw a job that the controller did not create or forgot: "+j.Metadata.Name)
			x.say("%s is not in its active list: UnexpectedJob", j)
		case finished:
			if found {
				x.status.deleteFromActiveList(j.Metadata.UID)
				c.event(x.obj, "Normal", "SawCompletedJob", fmt.Sprintf("Saw completed job: %s, condition: %s", j.Metadata.Name, cond.Type))
				x.say("%s finished (%s): removed from the active list", j, cond.Type)
				updated = true
			}
			if cond.Type == jobComplete {
				done := readJobStatus(j).CompletionTime
				if x.status.LastSuccessfulTime == "" || (done != "" && parseTime(done).After(parseTime(x.status.LastSuccessfulTime))) {
					if x.status.LastSuccessfulTime != done {
						x.status.LastSuccessfulTime = done
						updated = true
					}
				}
			}
		}
	}
	for _, a := range slices.Clone(x.status.Active) {
		if children[a.UID] {
			continue
		}
		_, err := c.env.api.Get(cronJobClient, fakeapi.Ref{APIVersion: "batch/v1", Kind: "Job", Namespace: a.Namespace, Name: a.Name})
		switch {
		case fakeapi.IsNotFound(err):
			c.event(x.obj, "Normal", "MissingJob", "Active job went missing: "+a.Name)
			x.status.deleteFromActiveList(a.UID)
			x.say("active Job %s went missing", a.Name)
			updated = true
		case err != nil:
			return nil, updated, "GetFailed", err
		}
	}
	if x.obj.Metadata.DeletionTimestamp != nil {
		x.say("it is being deleted: no new Job")
		return nil, updated, "BeingDeleted", nil
	}
	spec := specOf(x.obj)
	if tz := nestedString(spec, "timeZone"); tz != "" {
		if _, err := time.LoadLocation(tz); err != nil {
			c.event(x.obj, "Warning", "UnknownTimeZone", fmt.Sprintf("invalid timeZone: %q: %s", tz, err))
			x.say("invalid timeZone %q: no new Job", tz)
			return nil, updated, "UnknownTimeZone", nil
		}
	}
	if nestedBool(spec, "suspend") {
		x.say("suspended: no new Job")
		return nil, updated, "Suspended", nil
	}
	sched, err := cron.ParseStandard(formatSchedule(x.obj, c))
	if err != nil {
		c.event(x.obj, "Warning", "UnparseableSchedule", fmt.Sprintf("unparseable schedule: %q : %s", nestedString(spec, "schedule"), err))
		x.say("unparseable schedule %q (%v)", nestedString(spec, "schedule"), err)
		return nil, updated, "UnparseableSchedule", nil
	}
	_, recent, missed, err := mostRecentScheduleTime(x.obj, now, sched, true)
	if err != nil {
		c.event(x.obj, "Warning", "InvalidSchedule", fmt.Sprintf("invalid schedule: %s : %s", nestedString(spec, "schedule"), err))
		x.say("invalid schedule (%v)", err)
		return nil, updated, "InvalidSchedule", nil
	}
	next := func() *time.Duration {
		d := nextScheduleTimeDuration(x.obj, now, sched)
		return &d
	}
	if recent == nil || recent.After(now) {
		d := next()
		x.say("no unmet schedule; the next is at %s", c.env.clock.Now().Add(*d-nextScheduleDelta).UTC().Format(time.RFC3339))
		return d, updated, "NoUnmetSchedule", nil
	}
	if missed == manyMissed {
		c.event(x.obj, "Warning", "TooManyMissedTimes", "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
		x.say("more than 100 schedules were missed: TooManyMissedTimes")
	}
	scheduled := *recent
	if d, ok := nestedInt(spec, "startingDeadlineSeconds"); ok && scheduled.Add(time.Duration(d)*time.Second).Before(now) {
		c.event(x.obj, "Warning", "MissSchedule", "Missed scheduled time to start a job: "+scheduled.UTC().Format(time.RFC1123Z))
		x.say("the schedule of %s is more than startingDeadlineSeconds %d ago: MissSchedule", scheduled.UTC().Format(time.RFC3339), d)
		return next(), updated, "MissSchedule", nil
	}
	name := fmt.Sprintf("%s-%d", x.obj.Metadata.Name, scheduled.Unix()/60)
	if slices.ContainsFunc(x.status.Active, func(a activeRef) bool { return a.Name == name && a.Namespace == x.obj.Metadata.Namespace }) ||
		(x.status.LastScheduleTime != "" && parseTime(x.status.LastScheduleTime).Equal(scheduled)) {
		x.say("the schedule of %s is already processed", scheduled.UTC().Format(time.RFC3339))
		return next(), updated, "AlreadyProcessed", nil
	}
	policy := nestedString(spec, "concurrencyPolicy")
	if policy == "Forbid" && len(x.status.Active) > 0 {
		c.event(x.obj, "Normal", "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
		x.say("concurrencyPolicy Forbid and %d Job(s) still active: this schedule is skipped", len(x.status.Active))
		return next(), updated, "JobAlreadyActive", nil
	}
	if policy == "Replace" {
		for _, a := range slices.Clone(x.status.Active) {
			j, err := c.env.api.Get(cronJobClient, fakeapi.Ref{APIVersion: "batch/v1", Kind: "Job", Namespace: a.Namespace, Name: a.Name})
			if err != nil {
				c.event(x.obj, "Warning", "FailedGet", "Get job: "+err.Error())
				return nil, updated, "FailedGet", err
			}
			if !c.deleteJob(x, j) {
				return nil, updated, "ReplaceFailed", fmt.Errorf("could not replace job %s", objKey(j))
			}
			x.say("concurrencyPolicy Replace: deleted the running %s with Background propagation", j)
			updated = true
		}
	}
	job := c.jobFromTemplate(x.obj, name, scheduled)
	created, err := c.env.api.Create(cronJobClient, job)
	switch {
	case err != nil && namespaceTerminating(err):
		return nil, updated, "NamespaceTerminating", err
	case fakeapi.IsAlreadyExists(err):
		existing, gerr := c.env.api.Get(cronJobClient, fakeapi.RefOf(job))
		if gerr != nil {
			return nil, updated, "GetFailed", gerr
		}
		ref := controllerOf(existing)
		if ref == nil || ref.UID != x.obj.Metadata.UID || x.status.inActiveList(existing.Metadata.UID) {
			x.say("Job %s already exists", name)
			return nil, updated, "JobExists", nil
		}
		created = existing
	case err != nil:
		c.event(x.obj, "Warning", "FailedCreate", "Error creating job: "+err.Error())
		x.say("creating Job %s failed (%v)", name, err)
		return nil, updated, "FailedCreate", err
	default:
		c.event(x.obj, "Normal", "SuccessfulCreate", "Created job "+created.Metadata.Name)
	}
	x.status.Active = append(x.status.Active, activeRef{APIVersion: "batch/v1", Kind: "Job", Name: created.Metadata.Name,
		Namespace: created.Metadata.Namespace, UID: created.Metadata.UID, ResourceVersion: created.Metadata.ResourceVersion})
	x.status.LastScheduleTime = scheduled.UTC().Format(time.RFC3339)
	x.say("created %s for the schedule of %s", created, x.status.LastScheduleTime)
	return next(), true, "CreatedJob", nil
}

// jobFromTemplate is getJobFromTemplate2: the jobTemplate's labels,
// annotations and spec, the scheduled-time annotation, the name
// <cronjob>-<minutes since the epoch>, and the CronJob as controller.
func (c *cronJobController) jobFromTemplate(cj *fakeapi.Object, name string, scheduled time.Time) *fakeapi.Object {
	tmpl := nestedMap(specOf(cj), "jobTemplate")
	meta := nestedMap(tmpl, "metadata")
	ann := stringMap(meta["annotations"])
	if ann == nil {
		ann = map[string]string{}
	}
	loc := time.UTC
	if tz := nestedString(specOf(cj), "timeZone"); tz != "" {
		if l, err := time.LoadLocation(tz); err == nil {
			loc = l
		}
	}
	ann[cronJobScheduledAnnotation] = scheduled.In(loc).Format(time.RFC3339)
	j := &fakeapi.Object{APIVersion: "batch/v1", Kind: "Job", Metadata: fakeapi.ObjectMeta{
		Name: name, Namespace: cj.Metadata.Namespace, Labels: stringMap(meta["labels"]), Annotations: ann,
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(cj)},
	}}
	spec, _ := toJSONValue(tmpl["spec"]).(map[string]any)
	if spec == nil {
		spec = map[string]any{}
	}
	j.Fields = fakeapi.FieldsOf(map[string]any{"spec": spec})
	return j
}
