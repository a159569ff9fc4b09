package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// Settings and names of kube-controller-manager's Job controller
// (pkg/controller/job/job_controller.go, v1.34).
const (
	jobClient = "job-controller"
	// The clients of the CronJob and TTL-after-finished controllers.
	cronJobClient = "cronjob-controller"
	ttlClient     = "ttl-after-finished-controller"
	// ControllerJob is the Job controller's name in `controllers:`.
	ControllerJob = "job"
	// ControllerCronJob is the CronJob controller's (v2) name.
	ControllerCronJob = "cronjob"
	// ControllerTTLAfterFinished is the TTL-after-finished controller's.
	ControllerTTLAfterFinished = "ttlafterfinished"

	jobTrackingFinalizer         = "batch.kubernetes.io/job-tracking"
	jobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index"

	// syncJobBatchPeriod batches the syncs that Pod events and status
	// updates ask for (SyncJobBatchPeriod).
	syncJobBatchPeriod = time.Second
	// The pod-failure backoff: 10 s after the first failure, doubling per
	// further failure since the last success, at most 10 minutes.
	defaultJobPodFailureBackOff = 10 * time.Second
	maxJobPodFailureBackOff     = 10 * time.Minute
	// maxUncountedPods caps status.uncountedTerminatedPods.
	maxUncountedPods = 500
	// maxPodCreateDeletePerSync caps the Pods one sync creates or deletes.
	maxPodCreateDeletePerSync = 500
)

// QueueOrphanPod is the Job controller's second queue (upstream's
// orphanQueue): Pods whose tracking finalizer may have to go.
const QueueOrphanPod = "orphanPod"

var jobRegistration = registration{
	name:        ControllerJob,
	queues:      []string{ControllerJob, QueueOrphanPod},
	restartable: true,
	new:         newJobController,
}

const jobFuncPrefix = "JobController."

// jobController is kube-controller-manager's Job controller, made
// steppable: one step is one syncJob of one queued key, or one sync of
// the orphan-Pod queue that removes the tracking finalizer from Pods whose
// Job is gone or finished.
//
// gcplay simplifies: there is no podFailurePolicy, no successPolicy, no
// backoffLimitPerIndex and no managedBy (a Job that sets one is run as if
// it did not, and a note says so); status is written with a plain update.
type jobController struct {
	env *env
	// q holds Job keys; orphans holds orphan-Pod keys ("pod:" or "sel:"
	// prefixed); timers holds Job keys that wait for time passing in the
	// cluster (pod-failure backoff, activeDeadlineSeconds), which only an
	// advance crosses.
	q, orphans, timers *workqueue[string]
	exp                *expectations
	// finalizerExp is the finalizer-removal expectations: per Job key, the
	// UIDs of the Pods whose tracking finalizer the controller removed and
	// has not yet seen go.
	finalizerExp map[string]map[string]bool
	jobs         map[string]*fakeapi.Object
	pods         *podIndex
	backoff      map[string]backoffRecord
	// finished holds the UIDs of Jobs this controller marked finished
	// whose update it has not seen yet (finishedJobExpectations).
	finished map[string]bool
	// selectors holds the selector of each "sel:" orphan key.
	selectors map[string]labelsel.Selector
}

// backoffRecord is the pod-failure backoff state of one Job: failures
// since the last success, and when the last one finished.
type backoffRecord struct {
	failuresAfterLastSuccess int
	lastFailureTime          time.Time
}

func newJobController(e *env) controller {
	c := &jobController{env: e}
	c.reset()
	return c
}

func (c *jobController) reset() {
	c.setQueues(newJobQueue(), newJobQueue(), newWorkqueue[string](ControllerJob))
	c.exp = newExpectations()
	c.finalizerExp = map[string]map[string]bool{}
	c.jobs = map[string]*fakeapi.Object{}
	c.pods = c.env.podInformer()
	c.backoff = map[string]backoffRecord{}
	c.finished = map[string]bool{}
	c.selectors = map[string]labelsel.Selector{}
}

// Upstream's DefaultJobApiBackOff and MaxJobApiBackOff: the per-item
// backoff of a Job key or orphan-Pod key whose sync failed.
const (
	jobAPIBackoff    = time.Second
	jobAPIMaxBackoff = time.Minute
)

// newJobQueue is a queue of the Job controller (NewController): rate
// limited by an exponential backoff from 1 s to 60 s alone, with no token
// bucket, where the other controllers use DefaultTypedControllerRateLimiter.
func newJobQueue() *workqueue[string] {
	q := newWorkqueue[string](ControllerJob)
	q.baseBackoff, q.maxBackoff, q.noBucket = jobAPIBackoff, jobAPIMaxBackoff, true
	return q
}

func (c *jobController) setQueues(q, orphans, timers *workqueue[string]) {
	c.q, c.orphans, c.timers = q, orphans, timers
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerJob, keyRef("Job", key), d)
		}
	}
	orphans.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(QueueOrphanPod, c.orphanItem(key), d)
		}
	}
	timers.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerJob, keyRef("Job", key)+" (clock)", d)
		}
	}
}

// ---- event handlers ----

func (c *jobController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	switch {
	case isKind(o, "batch/v1", "Job"):
		key := objKey(o)
		switch ev.Type {
		case fakeapi.Added:
			c.jobs[key] = o
			c.q.Add(key)
		case fakeapi.Modified:
			c.jobs[key] = o
			if ev.Old != nil && ev.Old.Metadata.UID != o.Metadata.UID {
				c.exp.drop(key)
			}
			c.updateJob(ev.Old, o)
		case fakeapi.Deleted:
			delete(c.jobs, key)
			c.q.Add(key)
			delete(c.finished, o.Metadata.UID)
			c.enqueueLabelSelector(o)
			delete(c.backoff, key)
		}
	case isKind(o, "v1", "Pod"):
		switch ev.Type {
		case fakeapi.Added:
			c.addPod(o)
		case fakeapi.Modified:
			if ev.Old != nil {
				c.updatePod(ev.Old, o)
			} else {
				c.addPod(o)
			}
		case fakeapi.Deleted:
			c.deletePod(o, true)
		}
	}
}

// updateJob is the Job update handler: a finished Job's orphans are swept,
// a spec change syncs at once, a status change after the batch period, and
// a changed activeDeadlineSeconds sets a new deadline wake-up.
func (c *jobController) updateJob(old, cur *fakeapi.Object) {
	key := objKey(cur)
	if jobFinished(cur) {
		c.enqueueLabelSelector(cur)
		return
	}
	if old != nil && old.Metadata.Generation == cur.Metadata.Generation {
		c.q.AddAfter(key, syncJobBatchPeriod, c.env.now())
	} else {
		c.q.Add(key)
	}
	st := readJobStatus(cur)
	if st.StartTime == "" {
		return
	}
	curADS, ok := nestedInt(specOf(cur), "activeDeadlineSeconds")
	if !ok {
		return
	}
	oldADS, oldOK := int64(0), false
	if old != nil {
		oldADS, oldOK = nestedInt(specOf(old), "activeDeadlineSeconds")
	}
	if !oldOK || oldADS != curADS {
		passed := c.env.clock.Now().Sub(parseTime(st.StartTime))
		c.timers.AddAfter(key, time.Duration(curADS)*time.Second-passed, c.env.now())
	}
}

func (c *jobController) resolveControllerRef(namespace string, ref *fakeapi.OwnerReference) *fakeapi.Object {
	if ref == nil || ref.Kind != "Job" {
		return nil
	}
	j := c.jobs[namespace+"/"+ref.Name]
	if j == nil || j.Metadata.UID != ref.UID {
		return nil
	}
	return j
}

// podJobs is GetPodJobs: the Jobs whose selector matches an orphan Pod
// that has labels. Unlike the ReplicaSet lister's, the Job lister's does
// not pass over an empty selector (a Job with manualSelector may have
// one): it matches every Pod.
func (c *jobController) podJobs(pod *fakeapi.Object) []*fakeapi.Object {
	if len(pod.Metadata.Labels) == 0 {
		return nil
	}
	var out []*fakeapi.Object
	for _, k := range sortedKeys(c.jobs) {
		j := c.jobs[k]
		if j.Metadata.Namespace != pod.Metadata.Namespace {
			continue
		}
		sel, err := parseSelector(specOf(j)["selector"])
		if err != nil || !sel.Matches(pod.Metadata.Labels) {
			continue
		}
		out = append(out, j)
	}
	return out
}

func hasTrackingFinalizer(o *fakeapi.Object) bool {
	return o.Metadata.HasFinalizer(jobTrackingFinalizer)
}

func (c *jobController) addPod(pod *fakeapi.Object) {
	if pod.Metadata.DeletionTimestamp != nil {
		c.deletePod(pod, false)
		return
	}
	if ref := controllerOf(pod); ref != nil {
		j := c.resolveControllerRef(pod.Metadata.Namespace, ref)
		if j == nil {
			return
		}
		c.exp.creationObserved(objKey(j))
		c.q.AddAfter(objKey(j), syncJobBatchPeriod, c.env.now())
		return
	}
	if hasTrackingFinalizer(pod) {
		c.enqueueOrphanPod(pod)
	}
	for _, j := range c.podJobs(pod) {
		c.q.AddAfter(objKey(j), syncJobBatchPeriod, c.env.now())
	}
}

func (c *jobController) updatePod(old, cur *fakeapi.Object) {
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return
	}
	if cur.Metadata.DeletionTimestamp != nil {
		c.deletePod(cur, false)
		return
	}
	finalizerRemoved := !hasTrackingFinalizer(cur)
	curRef, oldRef := controllerOf(cur), controllerOf(old)
	refChanged := !sameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if j := c.resolveControllerRef(old.Metadata.Namespace, oldRef); j != nil {
			if finalizerRemoved {
				c.finalizerRemovalObserved(objKey(j), cur.Metadata.UID)
			}
			c.q.AddAfter(objKey(j), syncJobBatchPeriod, c.env.now())
		}
	}
	if curRef != nil {
		j := c.resolveControllerRef(cur.Metadata.Namespace, curRef)
		if j == nil {
			return
		}
		if finalizerRemoved {
			c.finalizerRemovalObserved(objKey(j), cur.Metadata.UID)
		}
		c.q.AddAfter(objKey(j), syncJobBatchPeriod, c.env.now())
		return
	}
	if hasTrackingFinalizer(cur) {
		c.enqueueOrphanPod(cur)
	}
	if refChanged || !mapsEqual(old.Metadata.Labels, cur.Metadata.Labels) {
		for _, j := range c.podJobs(cur) {
			c.q.AddAfter(objKey(j), syncJobBatchPeriod, c.env.now())
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// deletePod handles a Pod that is terminating (final false) or gone
// (final true).
func (c *jobController) deletePod(pod *fakeapi.Object, final bool) {
	ref := controllerOf(pod)
	fin := hasTrackingFinalizer(pod)
	if ref == nil {
		if fin {
			c.enqueueOrphanPod(pod)
		}
		return
	}
	j := c.resolveControllerRef(pod.Metadata.Namespace, ref)
	if j == nil || jobFinished(j) {
		if fin {
			c.enqueueOrphanPod(pod)
		}
		return
	}
	key := objKey(j)
	c.exp.lower(key, 0, 1) // DeletionObserved
	if final || !fin {
		c.finalizerRemovalObserved(key, pod.Metadata.UID)
	}
	c.q.AddAfter(key, syncJobBatchPeriod, c.env.now())
}

func (c *jobController) finalizerRemovalObserved(key, uid string) {
	if set := c.finalizerExp[key]; set != nil {
		delete(set, uid)
		if len(set) == 0 {
			delete(c.finalizerExp, key)
		}
	}
}

func (c *jobController) enqueueOrphanPod(pod *fakeapi.Object) {
	c.orphans.Add("pod:" + objKey(pod))
}

// enqueueLabelSelector queues a sweep of the Pods a Job's selector matches,
// for the finalizers of Pods whose Job is gone or finished.
func (c *jobController) enqueueLabelSelector(j *fakeapi.Object) {
	sel, err := parseSelector(specOf(j)["selector"])
	if err != nil || sel.SelectsNothing() {
		return
	}
	key := "sel:" + j.Metadata.Namespace + "/" + sel.String()
	c.selectors[key] = sel
	c.orphans.Add(key)
}

func (c *jobController) orphanItem(key string) string {
	if k, ok := strings.CutPrefix(key, "pod:"); ok {
		return "orphan " + podRef(k)
	}
	k := strings.TrimPrefix(key, "sel:")
	ns, sel := splitKey(k)
	return fmt.Sprintf("orphan Pods in %s matching %s", ns, sel)
}

// ---- scheduling ----

func (c *jobController) promote(now time.Duration) {
	c.q.Promote(now)
	c.orphans.Promote(now)
	moveDueTimers(c.timers, c.q, now)
}

func (c *jobController) ready(queue string) bool {
	if queue == QueueOrphanPod {
		return c.orphans.Len() > 0
	}
	return c.q.Len() > 0
}

func (c *jobController) nextDue() (time.Duration, bool) {
	d, ok := c.q.NextDue()
	if o, ook := c.orphans.NextDue(); ook && (!ok || o < d) {
		return o, true
	}
	return d, ok
}

func (c *jobController) nextTimer() (time.Duration, bool) { return c.timers.NextDue() }

func (c *jobController) describeNext(queue string) string {
	if queue == QueueOrphanPod {
		if items := c.orphans.Items(); len(items) > 0 {
			return "orphanPod: remove the tracking finalizer of " + c.orphanItem(items[0])
		}
		return ""
	}
	if items := c.q.Items(); len(items) > 0 {
		return "job: sync " + keyRef("Job", items[0])
	}
	return ""
}

// items lists a queue; the Job keys that wait for time passing in the
// cluster are listed last in the job queue, marked "(clock)".
func (c *jobController) items(queue string) []queuePart {
	if queue == QueueOrphanPod {
		return []queuePart{shownQueue[string]{q: c.orphans,
			ready: func(it string) QueueItem {
				return QueueItem{Item: c.orphanItem(it), Failures: c.orphans.NumRequeues(it)}
			},
			waiting: func(w waitingItem[string]) QueueItem {
				return QueueItem{Item: c.orphanItem(w.item), Due: w.due, Waiting: true}
			},
		}}
	}
	return []queuePart{keyQueueItems(c.q, "Job"), timerItems(c.timers, "Job", " (clock)")}
}

func (c *jobController) step(queue string, rec *Record) {
	if queue != QueueOrphanPod {
		key, ok := c.q.Get()
		if !ok {
			return
		}
		defer c.q.Done(key)
		rec.Item = keyRef("Job", key)
		if err := c.syncJob(key, rec); err != nil {
			d := c.q.AddRateLimited(key, c.env.now())
			rec.Err = err.Error()
			rec.Reason.and("; the sync returns an error, so the key is retried in %s", d)
			return
		}
		c.q.Forget(key)
		return
	}
	key, ok := c.orphans.Get()
	if !ok {
		return
	}
	defer c.orphans.Done(key)
	rec.Item = c.orphanItem(key)
	if err := c.syncOrphanPod(key, rec); err != nil {
		d := c.orphans.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; retried in %s", d)
		return
	}
	c.orphans.Forget(key)
}

func (c *jobController) restart(rec *Record) {
	c.reset()
	relist(c.env, jobClient, rec, c.observe, [][2]string{{"batch/v1", "Job"}, {"v1", "Pod"}})
}

func (c *jobController) clone(e *env) controller {
	n := &jobController{env: e, exp: c.exp.clone(), pods: e.podInformer(),
		finalizerExp: make(map[string]map[string]bool, len(c.finalizerExp)),
		jobs:         make(map[string]*fakeapi.Object, len(c.jobs)),
		backoff:      make(map[string]backoffRecord, len(c.backoff)),
		finished:     make(map[string]bool, len(c.finished)),
		selectors:    make(map[string]labelsel.Selector, len(c.selectors))}
	for k, set := range c.finalizerExp {
		s := make(map[string]bool, len(set))
		for u := range set {
			s[u] = true
		}
		n.finalizerExp[k] = s
	}
	for k, v := range c.jobs {
		n.jobs[k] = v
	}
	for k, v := range c.backoff {
		n.backoff[k] = v
	}
	for k, v := range c.finished {
		n.finished[k] = v
	}
	for k, v := range c.selectors {
		n.selectors[k] = v
	}
	id := func(s string) string { return s }
	n.setQueues(c.q.clone(id), c.orphans.clone(id), c.timers.clone(id))
	return n
}

// ---- orphan Pods ----

// syncOrphanPod removes the tracking finalizer from a Pod whose Job is
// gone or finished (handleSingleOrphanPod), or from every such Pod a
// selector matches.
func (c *jobController) syncOrphanPod(key string, rec *Record) error {
	const fn = jobFuncPrefix + "syncOrphanPod"
	var pods []*fakeapi.Object
	if k, ok := strings.CutPrefix(key, "pod:"); ok {
		if p := c.pods.byKey[k]; p != nil {
			pods = append(pods, p.obj)
		}
	} else {
		ns, _ := splitKey(strings.TrimPrefix(key, "sel:"))
		sel := c.selectors[key]
		for _, k := range sortedKeys(c.pods.byKey) {
			if p := c.pods.byKey[k]; p.obj.Metadata.Namespace == ns && sel.Matches(p.obj.Metadata.Labels) {
				pods = append(pods, p.obj)
			}
		}
	}
	var removed []string
	var firstErr error
	for _, p := range pods {
		ok, err := c.handleSingleOrphanPod(p)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		if ok {
			removed = append(removed, p.String())
		}
	}
	switch {
	case len(removed) > 0:
		rec.Reason = Reason{Code: "FinalizerRemoved", Func: fn + ", handleSingleOrphanPod"}.
			Say("removed %s from %s: no running Job controls it any more (its Job is gone or finished, or released it), so nothing will count it", jobTrackingFinalizer, listPhrase(removed))
	case len(pods) == 0:
		rec.Reason = Reason{Code: "PodGone", Func: fn}.Say("no such Pod in the informer cache: nothing to do")
	default:
		rec.Reason = Reason{Code: "NothingToRemove", Func: fn + ", handleSingleOrphanPod"}.
			Say("the Pods have no tracking finalizer, or belong to a Job that still runs: nothing to do")
	}
	if firstErr != nil {
		rec.Reason.and("; a patch failed (%v)", firstErr)
	}
	if strings.HasPrefix(key, "sel:") {
		delete(c.selectors, key)
		return nil // upstream logs the errors of a sweep and does not retry it
	}
	return firstErr
}

func (c *jobController) handleSingleOrphanPod(pod *fakeapi.Object) (bool, error) {
	if ref := controllerOf(pod); ref != nil {
		if ref.Kind != "Job" || ref.APIVersion != "batch/v1" {
			return false, nil
		}
		if j := c.resolveControllerRef(pod.Metadata.Namespace, ref); j != nil && !jobFinished(j) {
			return false, nil // adopted: its Job counts it
		}
	}
	if !hasTrackingFinalizer(pod) {
		return false, nil
	}
	_, err := c.env.api.Patch(jobClient, fakeapi.RefOf(pod), fakeapi.StrategicMergePatch, removeTrackingFinalizerPatch())
	if err != nil {
		if fakeapi.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

func removeTrackingFinalizerPatch() []byte {
	return []byte(`{"metadata":{"$deleteFromPrimitiveList/finalizers":["` + jobTrackingFinalizer + `"]}}`)
}
