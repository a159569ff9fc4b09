package engine

import (
	"fmt"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

var ttlRegistration = registration{
	name:        ControllerTTLAfterFinished,
	queues:      []string{ControllerTTLAfterFinished},
	restartable: true,
	new:         newTTLController,
}

const ttlFuncPrefix = "ttlafterfinished.Controller."

// ttlController is kube-controller-manager's TTL-after-finished controller
// (pkg/controller/ttlafterfinished): it deletes a finished Job
// ttlSecondsAfterFinished after its Complete or Failed condition was set.
// v1.34 deletes with Foreground propagation and a UID precondition, so the
// Job stays, terminating, until the collector has deleted its Pods.
//
// The wait until a Job expires is time passing in the cluster: it is kept
// in a queue of its own that only an advance crosses; a Job whose TTL is 0
// is deleted as soon as it finishes, which settle does reach.
type ttlController struct {
	env *env
	q   *workqueue[string]
	// timers holds the keys of Jobs waiting to expire.
	timers *workqueue[string]
	jobs   map[string]*fakeapi.Object
}

func newTTLController(e *env) controller {
	c := &ttlController{env: e, jobs: map[string]*fakeapi.Object{}}
	c.setQueues(newWorkqueue[string](ControllerTTLAfterFinished), newWorkqueue[string](ControllerTTLAfterFinished))
	return c
}

func (c *ttlController) setQueues(q, timers *workqueue[string]) {
	c.q, c.timers = q, timers
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerTTLAfterFinished, keyRef("Job", key), d)
		}
	}
	timers.onAdd = func(key string, d time.Duration) {
		c.env.enqueued(ControllerTTLAfterFinished, keyRef("Job", key)+" (clock)", d)
	}
}

// needsCleanup: ttlSecondsAfterFinished is set and the Job is finished.
func needsCleanup(j *fakeapi.Object) bool {
	_, ok := nestedInt(specOf(j), "ttlSecondsAfterFinished")
	return ok && jobFinished(j)
}

// observe is addJob/updateJob: a finished Job with a TTL that is not being
// deleted is queued.
func (c *ttlController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	if !isKind(o, "batch/v1", "Job") {
		return
	}
	key := objKey(o)
	if ev.Type == fakeapi.Deleted {
		delete(c.jobs, key)
		return
	}
	c.jobs[key] = o
	if o.Metadata.DeletionTimestamp == nil && needsCleanup(o) {
		c.q.Add(key)
	}
}

func (c *ttlController) promote(now time.Duration) {
	c.q.Promote(now)
	moveDueTimers(c.timers, c.q, now)
}

func (c *ttlController) ready(string) bool                { return c.q.Len() > 0 }
func (c *ttlController) nextDue() (time.Duration, bool)   { return c.q.NextDue() }
func (c *ttlController) nextTimer() (time.Duration, bool) { return c.timers.NextDue() }

func (c *ttlController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "ttlafterfinished: check whether " + keyRef("Job", items[0]) + " has expired"
	}
	return ""
}

func (c *ttlController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "Job"), timerItems(c.timers, "Job", " (clock)")}
}

func (c *ttlController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("Job", key)
	if err := c.processJob(key, rec); err != nil {
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; retried in %s", d)
		return
	}
	c.q.Forget(key)
}

// processJob checks the cached Job, then a fresh read, and deletes an
// expired Job in the foreground with a UID precondition.
func (c *ttlController) processJob(key string, rec *Record) error {
	const fn = ttlFuncPrefix + "processJob"
	j := c.jobs[key]
	if j == nil {
		rec.Reason = Reason{Code: "JobGone", Func: fn}.Say("%s is no longer in the informer cache: nothing to do", rec.Item)
		return nil
	}
	expired, err := c.processTTL(j, rec)
	if err != nil || !expired {
		return err
	}
	fresh, err := c.env.api.Get(ttlClient, fakeapi.RefOf(j))
	if fakeapi.IsNotFound(err) {
		rec.Reason = Reason{Code: "JobGone", Func: fn}.Say("%s is already gone", rec.Item)
		return nil
	}
	if err != nil {
		rec.Reason = Reason{Code: "GetFailed", Func: fn}.Say("reading %s failed (%v)", rec.Item, err)
		return err
	}
	if expired, err = c.processTTL(fresh, rec); err != nil || !expired {
		return err
	}
	policy := fakeapi.DeletePropagationForeground
	uid := fresh.Metadata.UID
	_, err = c.env.api.Delete(ttlClient, fakeapi.RefOf(fresh), &fakeapi.DeleteOptions{PropagationPolicy: &policy,
		Preconditions: &fakeapi.Preconditions{UID: &uid}})
	ttl, _ := nestedInt(specOf(fresh), "ttlSecondsAfterFinished")
	if err != nil {
		rec.Reason = Reason{Code: "DeleteFailed", Func: fn}.Say("deleting %s failed (%v)", rec.Item, err)
		return err
	}
	rec.Reason = Reason{Code: "JobExpired", Func: fn}.
		Say("%s finished %ds ago or more (ttlSecondsAfterFinished %d): deleted with propagationPolicy Foreground, so the collector deletes its Pods before it goes", rec.Item, ttl, ttl)
	return nil
}

// processTTL reports whether a Job has expired; when it has not, it sets a
// wake-up for when it will.
func (c *ttlController) processTTL(j *fakeapi.Object, rec *Record) (bool, error) {
	const fn = ttlFuncPrefix + "processTTL"
	if j.Metadata.DeletionTimestamp != nil || !needsCleanup(j) {
		rec.Reason = Reason{Code: "NoCleanup", Func: fn}.Say("%s is being deleted, unfinished, or has no ttlSecondsAfterFinished: nothing to do", rec.Item)
		return false, nil
	}
	cond, _ := jobFinishedCondition(j)
	finishAt := parseTime(cond.LastTransitionTime)
	if finishAt.IsZero() {
		rec.Reason = Reason{Code: "NoFinishTime", Func: fn}.Say("unable to find the time when %s finished", rec.Item)
		return false, fmt.Errorf("unable to find the time when the Job %s finished", objKey(j))
	}
	ttl, _ := nestedInt(specOf(j), "ttlSecondsAfterFinished")
	now := c.env.clock.Now()
	if finishAt.After(now) {
		rec.Note("found Job finished in the future: cleanup deferred")
	}
	left := finishAt.Add(time.Duration(ttl) * time.Second).Sub(now)
	if left <= 0 {
		return true, nil
	}
	c.timers.AddAfter(objKey(j), left, c.env.now())
	rec.Reason = Reason{Code: "WaitingForTTL", Func: fn}.
		Say("%s finished (%s) at %s; ttlSecondsAfterFinished %d: it expires in %s", rec.Item, cond.Type, cond.LastTransitionTime, ttl, left)
	return false, nil
}

func (c *ttlController) restart(rec *Record) {
	c.jobs = map[string]*fakeapi.Object{}
	c.setQueues(newWorkqueue[string](ControllerTTLAfterFinished), newWorkqueue[string](ControllerTTLAfterFinished))
	relist(c.env, ttlClient, rec, c.observe, [][2]string{{"batch/v1", "Job"}})
}

func (c *ttlController) clone(e *env) controller {
	n := &ttlController{env: e, jobs: make(map[string]*fakeapi.Object, len(c.jobs))}
	for k, v := range c.jobs {
		n.jobs[k] = v
	}
	id := func(s string) string { return s }
	n.setQueues(c.q.clone(id), c.timers.clone(id))
	return n
}
