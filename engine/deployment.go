package engine

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/jsoneq"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// Names and settings of kube-controller-manager's Deployment controller
// (pkg/controller/deployment, util/deployment_util.go).
const (
	dcClient = "deployment-controller"

	podTemplateHashLabel      = "pod-template-hash"
	revisionAnnotation        = "deployment.kubernetes.io/revision"
	revisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	desiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	maxReplicasAnnotation     = "deployment.kubernetes.io/max-replicas"
	lastAppliedAnnotation     = "kubectl.kubernetes.io/last-applied-configuration"
	// maxRevHistoryLengthInChars caps the revision-history annotation.
	maxRevHistoryLengthInChars = 2000

	strategyRollingUpdate = "RollingUpdate"
	strategyRecreate      = "Recreate"

	// Condition types and reasons of a Deployment.
	condAvailable      = "Available"
	condProgressing    = "Progressing"
	condReplicaFailure = "ReplicaFailure"

	reasonNewRSAvailable     = "NewReplicaSetAvailable"
	reasonRSUpdated          = "ReplicaSetUpdated"
	reasonTimedOut           = "ProgressDeadlineExceeded"
	reasonFoundNewRS         = "FoundNewReplicaSet"
	reasonNewRSCreated       = "NewReplicaSetCreated"
	reasonFailedRSCreate     = "ReplicaSetCreateError"
	reasonPaused             = "DeploymentPaused"
	reasonResumed            = "DeploymentResumed"
	reasonMinimumAvailable   = "MinimumReplicasAvailable"
	reasonMinimumUnavailable = "MinimumReplicasUnavailable"
	dcFuncPrefix             = "DeploymentController."
	noProgressDeadline       = math.MaxInt32
	defaultRevisionHistory   = 10
	defaultProgressDeadline  = 600
)

// ControllerDeployment is the Deployment controller's name in `controllers:`.
const ControllerDeployment = "deployment"

var deploymentRegistration = registration{
	name:        ControllerDeployment,
	queues:      []string{ControllerDeployment},
	restartable: true,
	new:         newDeploymentController,
}

// deploymentController is kube-controller-manager's Deployment controller,
// made steppable: one step is one syncDeployment of one queued key. It
// owns ReplicaSets named <deployment>-<pod-template-hash>, adopts and
// releases ReplicaSets by selector, scales, rolls out template changes
// (RollingUpdate with maxSurge / maxUnavailable, or Recreate) and deletes
// old ReplicaSets beyond revisionHistoryLimit. It reads its informer
// caches and writes through the apiserver as "deployment-controller".
type deploymentController struct {
	env *env
	q   *workqueue[string]
	// timers holds Deployments waiting for their progress deadline
	// (requeueStuckDeployment): time passing in the cluster, which only
	// an advance crosses, as a Job's activeDeadlineSeconds.
	timers      *workqueue[string]
	deployments map[string]*fakeapi.Object
	rss         map[string]*fakeapi.Object
	pods        *podIndex
	// cur collects what the sync being stepped did.
	cur *syncLog
}

// syncLog is what one sync did, in order, for the record.
type syncLog struct {
	rec     *Record
	code    string
	actions []Text
	funcs   []string
}

func (l *syncLog) act(code, format string, args ...any) {
	if l.code == "" {
		l.code = code
	}
	l.actions = append(l.actions, say(format, args...))
}

// actText is act with the thing done already a sentence.
func (l *syncLog) actText(code string, t Text) {
	if l.code == "" {
		l.code = code
	}
	l.actions = append(l.actions, t)
}

func (l *syncLog) fn(name string) {
	if !slices.Contains(l.funcs, name) {
		l.funcs = append(l.funcs, name)
	}
}

func newDeploymentController(e *env) controller {
	c := &deploymentController{env: e, deployments: map[string]*fakeapi.Object{}, rss: map[string]*fakeapi.Object{}, pods: e.podInformer()}
	c.setQueues(newWorkqueue[string](ControllerDeployment), newWorkqueue[string](ControllerDeployment))
	return c
}

func (c *deploymentController) setQueues(q, timers *workqueue[string]) {
	c.q, c.timers = q, timers
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerDeployment, keyRef("Deployment", key), d)
		}
	}
	timers.onAdd = func(key string, d time.Duration) {
		c.env.enqueued(ControllerDeployment, keyRef("Deployment", key)+" (clock)", d)
	}
}

// observe is the controller's event handlers (add/update/delete of
// Deployments and ReplicaSets, delete of Pods).
func (c *deploymentController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	switch {
	case isKind(o, "apps/v1", "Deployment"):
		key := objKey(o)
		if ev.Type == fakeapi.Deleted {
			delete(c.deployments, key)
		} else {
			c.deployments[key] = o
		}
		c.q.Add(key)
	case isKind(o, "apps/v1", "ReplicaSet"):
		key := objKey(o)
		switch ev.Type {
		case fakeapi.Deleted:
			delete(c.rss, key)
			c.deleteReplicaSet(o)
		case fakeapi.Modified:
			c.rss[key] = o
			if ev.Old != nil {
				c.updateReplicaSet(ev.Old, o)
			} else {
				c.addReplicaSet(o)
			}
		default:
			c.rss[key] = o
			c.addReplicaSet(o)
		}
	case isKind(o, "v1", "Pod"):
		if ev.Type == fakeapi.Deleted {
			c.deletePod(o)
		}
	}
}

func (c *deploymentController) resolveControllerRef(namespace string, ref *fakeapi.OwnerReference) *fakeapi.Object {
	if ref == nil || ref.Kind != "Deployment" {
		return nil
	}
	d := c.deployments[namespace+"/"+ref.Name]
	if d == nil || d.Metadata.UID != ref.UID {
		return nil
	}
	return d
}

// deploymentsForReplicaSet is GetDeploymentsForReplicaSet: the
// Deployments whose selector matches an orphan ReplicaSet's labels.
func (c *deploymentController) deploymentsForReplicaSet(rs *fakeapi.Object) []*fakeapi.Object {
	if len(rs.Metadata.Labels) == 0 {
		return nil
	}
	var out []*fakeapi.Object
	for _, k := range sortedKeys(c.deployments) {
		d := c.deployments[k]
		if d.Metadata.Namespace != rs.Metadata.Namespace {
			continue
		}
		sel, err := parseSelector(specOf(d)["selector"])
		if err != nil || sel.Empty() || !sel.Matches(rs.Metadata.Labels) {
			continue
		}
		out = append(out, d)
	}
	return out
}

func (c *deploymentController) addReplicaSet(rs *fakeapi.Object) {
	if rs.Metadata.DeletionTimestamp != nil {
		c.deleteReplicaSet(rs)
		return
	}
	if ref := controllerOf(rs); ref != nil {
		if d := c.resolveControllerRef(rs.Metadata.Namespace, ref); d != nil {
			c.q.Add(objKey(d))
		}
		return
	}
	for _, d := range c.deploymentsForReplicaSet(rs) {
		c.q.Add(objKey(d))
	}
}

func (c *deploymentController) updateReplicaSet(old, cur *fakeapi.Object) {
	if old.Metadata.ResourceVersion == cur.Metadata.ResourceVersion {
		return
	}
	curRef, oldRef := controllerOf(cur), controllerOf(old)
	refChanged := !sameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if d := c.resolveControllerRef(old.Metadata.Namespace, oldRef); d != nil {
			c.q.Add(objKey(d))
		}
	}
	if curRef != nil {
		if d := c.resolveControllerRef(cur.Metadata.Namespace, curRef); d != nil {
			c.q.Add(objKey(d))
		}
		return
	}
	if refChanged || !reflect.DeepEqual(old.Metadata.Labels, cur.Metadata.Labels) {
		for _, d := range c.deploymentsForReplicaSet(cur) {
			c.q.Add(objKey(d))
		}
	}
}

func (c *deploymentController) deleteReplicaSet(rs *fakeapi.Object) {
	if d := c.resolveControllerRef(rs.Metadata.Namespace, controllerOf(rs)); d != nil {
		c.q.Add(objKey(d))
	}
}

// deletePod wakes a Recreate Deployment once its last Pod is gone: the
// Pods its selector selects whose controller is one of its ReplicaSets
// (getPodMapForDeployment over ListReplicaSets, which lists the
// ReplicaSets by the Deployment's selector, then keeps those it
// controls). The ReplicaSets are read from the cache; upstream lists them
// live.
func (c *deploymentController) deletePod(pod *fakeapi.Object) {
	ref := controllerOf(pod)
	if ref == nil || ref.Kind != "ReplicaSet" {
		return
	}
	rs := c.rss[pod.Metadata.Namespace+"/"+ref.Name]
	if rs == nil || rs.Metadata.UID != ref.UID {
		return
	}
	d := c.resolveControllerRef(rs.Metadata.Namespace, controllerOf(rs))
	if d == nil || nestedString(specOf(d), "strategy", "type") != strategyRecreate {
		return
	}
	sel, err := parseSelector(specOf(d)["selector"])
	if err != nil {
		return
	}
	n := 0
	for _, r := range c.rsIn(d.Metadata.Namespace) {
		if ref := controllerOf(r); ref == nil || ref.UID != d.Metadata.UID || !sel.Matches(r.Metadata.Labels) {
			continue
		}
		for _, p := range c.pods.controlledBy(d.Metadata.Namespace, r.Metadata.UID) {
			if sel.Matches(p.obj.Metadata.Labels) {
				n++
			}
		}
	}
	if n == 0 {
		c.q.Add(objKey(d))
	}
}

func (c *deploymentController) rsIn(namespace string) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, k := range sortedKeys(c.rss) {
		if rs := c.rss[k]; rs.Metadata.Namespace == namespace {
			out = append(out, rs)
		}
	}
	return out
}

func (c *deploymentController) promote(now time.Duration) {
	c.q.Promote(now)
	moveDueTimers(c.timers, c.q, now)
}

func (c *deploymentController) ready(string) bool                { return c.q.Len() > 0 }
func (c *deploymentController) nextDue() (time.Duration, bool)   { return c.q.NextDue() }
func (c *deploymentController) nextTimer() (time.Duration, bool) { return c.timers.NextDue() }

func (c *deploymentController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "Deployment"), timerItems(c.timers, "Deployment", " (clock)")}
}

func (c *deploymentController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "deployment: sync " + keyRef("Deployment", items[0])
	}
	return ""
}

func (c *deploymentController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("Deployment", key)
	c.cur = &syncLog{rec: rec}
	err := c.syncDeployment(key)
	l := c.cur
	c.cur = nil
	if l.code == "" {
		l.code = "Synced"
	}
	if len(l.actions) == 0 {
		l.actions = []Text{say("nothing to do")}
	}
	rec.Reason = Reason{Code: l.code, Func: dcFuncPrefix + strings.Join(append([]string{"syncDeployment"}, l.funcs...), ", ")}.Saying(joinTexts(l.actions, "; ")...)
	if err != nil {
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; the sync returns an error, so the key is retried in %s", d)
		return
	}
	c.q.Forget(key)
}

func (c *deploymentController) restart(rec *Record) {
	c.setQueues(newWorkqueue[string](ControllerDeployment), newWorkqueue[string](ControllerDeployment))
	c.deployments = map[string]*fakeapi.Object{}
	c.rss = map[string]*fakeapi.Object{}
	relist(c.env, dcClient, rec, c.observe, [][2]string{{"apps/v1", "Deployment"}, {"apps/v1", "ReplicaSet"}, {"v1", "Pod"}})
}

func (c *deploymentController) clone(e *env) controller {
	n := &deploymentController{env: e, deployments: make(map[string]*fakeapi.Object, len(c.deployments)),
		rss: make(map[string]*fakeapi.Object, len(c.rss)), pods: e.podInformer()}
	for k, v := range c.deployments {
		n.deployments[k] = v
	}
	for k, v := range c.rss {
		n.rss[k] = v
	}
	id := func(s string) string { return s }
	n.setQueues(c.q.clone(id), c.timers.clone(id))
	return n
}

// deployment is the working copy of a Deployment during one sync, with
// the apiserver's defaults applied on read (gcplay's fake apiserver does
// not default): replicas 1, strategy RollingUpdate with maxSurge and
// maxUnavailable 25%, revisionHistoryLimit 10, progressDeadlineSeconds
// 600. Its resourceVersion stays that of the informer cache: like
// upstream's, a second status update in one sync conflicts.
type deployment struct {
	obj             *fakeapi.Object
	replicas        int64
	selector        labelsel.Selector
	template        map[string]any
	strategy        string
	maxSurge        any
	maxUnavailable  any
	historyLimit    *int64
	progressDL      *int64
	minReadySeconds int64
	paused          bool
	status          deployStatus
}

type deployStatus struct {
	ObservedGeneration  int64             `json:"observedGeneration,omitempty"`
	Replicas            int64             `json:"replicas,omitempty"`
	UpdatedReplicas     int64             `json:"updatedReplicas,omitempty"`
	ReadyReplicas       int64             `json:"readyReplicas,omitempty"`
	AvailableReplicas   int64             `json:"availableReplicas,omitempty"`
	UnavailableReplicas int64             `json:"unavailableReplicas,omitempty"`
	Conditions          []deployCondition `json:"conditions,omitempty"`
	CollisionCount      *int64            `json:"collisionCount,omitempty"`
}

type deployCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastUpdateTime     string `json:"lastUpdateTime,omitempty"`
	LastTransitionTime string `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

func readDeployment(o *fakeapi.Object) (*deployment, error) {
	spec := specOf(o)
	d := &deployment{obj: o.DeepCopy(), replicas: 1, strategy: strategyRollingUpdate, maxSurge: "25%", maxUnavailable: "25%",
		historyLimit: fakeapi.Int64(defaultRevisionHistory), progressDL: fakeapi.Int64(defaultProgressDeadline)}
	if n, ok := nestedInt(spec, "replicas"); ok {
		d.replicas = n
	}
	if t := nestedString(spec, "strategy", "type"); t != "" {
		d.strategy = t
	}
	if d.strategy == strategyRollingUpdate {
		if v, ok := nested(spec, "strategy", "rollingUpdate", "maxSurge"); ok && v != nil {
			d.maxSurge = v
		}
		if v, ok := nested(spec, "strategy", "rollingUpdate", "maxUnavailable"); ok && v != nil {
			d.maxUnavailable = v
		}
	}
	if n, ok := nestedInt(spec, "revisionHistoryLimit"); ok {
		d.historyLimit = fakeapi.Int64(n)
	}
	if n, ok := nestedInt(spec, "progressDeadlineSeconds"); ok {
		d.progressDL = fakeapi.Int64(n)
	}
	d.minReadySeconds, _ = nestedInt(spec, "minReadySeconds")
	d.paused = nestedBool(spec, "paused")
	if v, ok := o.Fields.Lookup("status"); ok {
		d.status = readDeployStatus(v)
	}
	sel, tmpl, _, err := readWorkloadSpec(o)
	d.selector, d.template = sel, tmpl
	if err != nil {
		return d, err
	}
	switch d.strategy {
	case strategyRollingUpdate:
		if _, _, err := d.fenceposts(); err != nil {
			return d, err
		}
	case strategyRecreate:
	default:
		return d, fmt.Errorf("spec.strategy.type: Unsupported value: %q", d.strategy)
	}
	return d, nil
}

func (d *deployment) name() string      { return d.obj.Metadata.Name }
func (d *deployment) namespace() string { return d.obj.Metadata.Namespace }
func (d *deployment) hasProgressDeadline() bool {
	return d.progressDL != nil && *d.progressDL != noProgressDeadline
}

// scaledValue is GetScaledValueFromIntOrPercent.
func scaledValue(v any, total int64, roundUp bool) (int64, error) {
	if n, ok := asInt(v); ok {
		return n, nil
	}
	s, ok := v.(string)
	if !ok || !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	p, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil {
		return 0, fmt.Errorf("invalid value %q: %v", s, err)
	}
	f := float64(p) * float64(total) / 100
	if roundUp {
		return int64(math.Ceil(f)), nil
	}
	return int64(math.Floor(f)), nil
}

// fenceposts is ResolveFenceposts: maxSurge rounds up, maxUnavailable
// down, and both zero means maxUnavailable 1.
func (d *deployment) fenceposts() (surge, unavailable int64, err error) {
	if surge, err = scaledValue(d.maxSurge, d.replicas, true); err != nil {
		return 0, 0, fmt.Errorf("spec.strategy.rollingUpdate.maxSurge: %v", err)
	}
	if unavailable, err = scaledValue(d.maxUnavailable, d.replicas, false); err != nil {
		return 0, 0, fmt.Errorf("spec.strategy.rollingUpdate.maxUnavailable: %v", err)
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return surge, unavailable, nil
}

// maxSurge is MaxSurge: 0 unless RollingUpdate.
func (d *deployment) maxSurgeValue() int64 {
	if d.strategy != strategyRollingUpdate {
		return 0
	}
	s, _, _ := d.fenceposts()
	return s
}

// maxUnavailableValue is MaxUnavailable: at most replicas, 0 unless
// RollingUpdate with replicas.
func (d *deployment) maxUnavailableValue() int64 {
	if d.strategy != strategyRollingUpdate || d.replicas == 0 {
		return 0
	}
	_, u, _ := d.fenceposts()
	return min(u, d.replicas)
}

// ReplicaSet helpers.

func rsReplicas(rs *fakeapi.Object) int64 {
	if rs == nil {
		return 0
	}
	if n, ok := nestedInt(specOf(rs), "replicas"); ok {
		return n
	}
	return 1
}

func rsTemplate(rs *fakeapi.Object) map[string]any { return nestedMap(specOf(rs), "template") }

// revisionOf is Revision: the revision annotation, 0 when absent.
func revisionOf(rs *fakeapi.Object) (int64, error) {
	v, ok := rs.Metadata.Annotations[revisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

func maxRevision(rss []*fakeapi.Object) int64 {
	var m int64
	for _, rs := range rss {
		if v, err := revisionOf(rs); err == nil && v > m {
			m = v
		}
	}
	return m
}

// byCreation is ReplicaSetsByCreationTimestamp.
func byCreation(a, b *fakeapi.Object) int {
	ta, tb := creationTime(a), creationTime(b)
	if ta.Equal(tb) {
		return strings.Compare(a.Metadata.Name, b.Metadata.Name)
	}
	if ta.Before(tb) {
		return -1
	}
	return 1
}

// byRevision is ReplicaSetsByRevision.
func byRevision(a, b *fakeapi.Object) int {
	ra, ea := revisionOf(a)
	rb, eb := revisionOf(b)
	if ea != nil || eb != nil || ra == rb {
		return byCreation(a, b)
	}
	if ra < rb {
		return -1
	}
	return 1
}

// bySizeOlder is ReplicaSetsBySizeOlder; bySizeNewer ReplicaSetsBySizeNewer.
func bySizeOlder(a, b *fakeapi.Object) int {
	if ra, rb := rsReplicas(a), rsReplicas(b); ra != rb {
		if ra > rb {
			return -1
		}
		return 1
	}
	return byCreation(a, b)
}

func bySizeNewer(a, b *fakeapi.Object) int {
	if ra, rb := rsReplicas(a), rsReplicas(b); ra != rb {
		if ra > rb {
			return -1
		}
		return 1
	}
	return byCreation(b, a)
}

func sumReplicas(rss []*fakeapi.Object) int64 {
	var n int64
	for _, rs := range rss {
		if rs != nil {
			n += rsReplicas(rs)
		}
	}
	return n
}

func sumStatus(rss []*fakeapi.Object, f func(rsStatus) int64) int64 {
	var n int64
	for _, rs := range rss {
		if rs != nil {
			n += f(readRSStatus(rs))
		}
	}
	return n
}

func actualReplicas(s rsStatus) int64    { return s.Replicas }
func readyReplicas(s rsStatus) int64     { return s.ReadyReplicas }
func availableReplicas(s rsStatus) int64 { return s.AvailableReplicas }

func activeRSs(rss []*fakeapi.Object) []*fakeapi.Object {
	var out []*fakeapi.Object
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// templateWithoutHash copies a pod template without its
// pod-template-hash label (EqualIgnoreHash compares these).
func templateWithoutHash(t map[string]any) map[string]any {
	out := make(map[string]any, len(t))
	for k, v := range t {
		out[k] = v
	}
	meta, ok := t["metadata"].(map[string]any)
	if !ok {
		return out
	}
	m := make(map[string]any, len(meta))
	for k, v := range meta {
		m[k] = v
	}
	if labels, ok := meta["labels"].(map[string]any); ok {
		l := make(map[string]any, len(labels))
		for k, v := range labels {
			if k != podTemplateHashLabel {
				l[k] = v
			}
		}
		if len(l) == 0 {
			delete(m, "labels")
		} else {
			m["labels"] = l
		}
	}
	if len(m) == 0 {
		delete(out, "metadata")
	} else {
		out["metadata"] = m
	}
	return out
}

func equalIgnoreHash(a, b map[string]any) bool {
	return jsoneq.Equal(templateWithoutHash(a), templateWithoutHash(b))
}

// safeEncoding is apimachinery's rand.SafeEncodeString alphabet: no
// vowels, no characters that read alike.
const safeEncoding = "bcdfghjklmnpqrstvwxz2456789"

// podTemplateHash is ComputeHash: FNV-32a over the pod template (here its
// canonical JSON, where upstream hashes a printed form of the Go struct),
// then the collision count (its low 32 bits little-endian in an 8-byte
// buffer, as upstream writes it), the sum written in decimal and mapped
// through the safe-encoding alphabet. The same template always gets the
// same name.
func podTemplateHash(template map[string]any, collisionCount *int64) string {
	h := fnv.New32a()
	b, _ := json.Marshal(template)
	h.Write(b)
	if collisionCount != nil {
		var cb [8]byte
		binary.LittleEndian.PutUint32(cb[:], uint32(*collisionCount))
		h.Write(cb[:])
	}
	dec := strconv.FormatUint(uint64(h.Sum32()), 10)
	out := make([]byte, len(dec))
	for i := range dec {
		out[i] = safeEncoding[int(dec[i])%len(safeEncoding)]
	}
	return string(out)
}

// event records a Kubernetes Event about the Deployment.
func (c *deploymentController) event(d *deployment, typ, reason, msg string) {
	c.env.recordEvent(dcClient, fakeapi.Event{Object: fakeapi.RefOf(d.obj), ObjectUID: d.obj.Metadata.UID, ObjectRV: d.obj.Metadata.ResourceVersion,
		Type: typ, Reason: reason, Message: msg, Source: dcClient})
}

// updateDeployment writes the working copy's annotations and status
// (UpdateStatus; the fake apiserver has no status subresource, so it is a
// plain update of the whole object). The working copy keeps its
// resourceVersion, as upstream's does when it ignores the result.
func (c *deploymentController) updateDeployment(d *deployment) (*fakeapi.Object, error) {
	next := d.obj.DeepCopy()
	next.Fields.Set("status", d.status.jsonValue())
	out, err := c.env.api.Update(dcClient, next)
	if err != nil {
		c.cur.act("StatusUpdateFailed", "updating %s failed (%s)", d.obj, fakeapi.ReasonOf(err))
	}
	return out, err
}

// syncDeployment is the sync of one key.
func (c *deploymentController) syncDeployment(key string) error {
	l := c.cur
	cached := c.deployments[key]
	if cached == nil {
		l.act("DeploymentGone", "%s is no longer in the informer cache: nothing to do", l.rec.Item)
		return nil
	}
	d, err := readDeployment(cached)
	if err != nil {
		if d.selector.Empty() && !d.selector.SelectsNothing() {
			// A selector that selects everything: upstream warns and only
			// records the observed generation.
			c.event(d, "Warning", "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
			l.act("SelectingAll", "the Deployment's selector selects every Pod, which upstream refuses to act on")
			if d.status.ObservedGeneration < d.obj.Metadata.Generation {
				d.status.ObservedGeneration = d.obj.Metadata.Generation
				_, _ = c.updateDeployment(d)
			}
			return nil
		}
		l.act("InvalidSpec", "the apiserver would have refused %s (%v): gcplay's Deployment controller leaves it alone", l.rec.Item, err)
		return nil
	}

	rsList, err := c.replicaSetsForDeployment(d)
	if err != nil {
		return err
	}
	if d.obj.Metadata.DeletionTimestamp != nil {
		l.fn("syncStatusOnly")
		l.act("StatusOnly", "the Deployment is being deleted: only its status is synced")
		return c.syncStatusOnly(d, rsList)
	}
	if err := c.checkPausedConditions(d); err != nil {
		return err
	}
	if d.paused {
		l.fn("sync")
		l.act("Paused", "the Deployment is paused: it is scaled, not rolled out")
		return c.sync(d, rsList)
	}
	scaling, err := c.isScalingEvent(d, rsList)
	if err != nil {
		return err
	}
	if scaling {
		l.fn("sync")
		return c.sync(d, rsList)
	}
	switch d.strategy {
	case strategyRecreate:
		l.fn("rolloutRecreate")
		return c.rolloutRecreate(d, rsList)
	default:
		l.fn("rolloutRolling")
		return c.rolloutRolling(d, rsList)
	}
}

// replicaSetsForDeployment is getReplicaSetsForDeployment: claim the
// ReplicaSets of the namespace (adopt matching orphans, release owned
// ones that stopped matching), after a live recheck before adopting.
func (c *deploymentController) replicaSetsForDeployment(d *deployment) ([]*fakeapi.Object, error) {
	m := &refManager{env: c.env, client: dcClient, owner: d.obj, selector: d.selector, rec: c.cur.rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, dcClient, d.obj)}
	match := func(o *fakeapi.Object) bool { return d.selector.Matches(o.Metadata.Labels) }
	var claimed []*fakeapi.Object
	var errs []error
	for _, rs := range c.rsIn(d.namespace()) {
		ok, err := m.claim(rs, match)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, rs)
		}
	}
	if t, ok := m.summaryText(); ok {
		c.cur.fn("getReplicaSetsForDeployment")
		c.cur.actText("Claimed", t)
	}
	if len(errs) > 0 {
		c.cur.act("ClaimFailed", "claiming ReplicaSets failed")
		return nil, aggregate(errs)
	}
	return claimed, nil
}

func (c *deploymentController) checkPausedConditions(d *deployment) error {
	if !d.hasProgressDeadline() {
		return nil
	}
	cond := getDeployCondition(d.status, condProgressing)
	if cond != nil && cond.Reason == reasonTimedOut {
		return nil
	}
	pausedExists := cond != nil && cond.Reason == reasonPaused
	switch {
	case d.paused && !pausedExists:
		c.setDeployCondition(&d.status, c.newCondition(condProgressing, "Unknown", reasonPaused, "Deployment is paused"))
	case !d.paused && pausedExists:
		c.setDeployCondition(&d.status, c.newCondition(condProgressing, "Unknown", reasonResumed, "Deployment is resumed"))
	default:
		return nil
	}
	_, err := c.updateDeployment(d)
	return err
}

func getDeployCondition(s deployStatus, typ string) *deployCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == typ {
			return &s.Conditions[i]
		}
	}
	return nil
}

func (c *deploymentController) newCondition(typ, status, reason, msg string) deployCondition {
	now := c.env.vtime()
	return deployCondition{Type: typ, Status: status, LastUpdateTime: now, LastTransitionTime: now, Reason: reason, Message: msg}
}

// setDeployCondition is SetDeploymentCondition: no change when status and
// reason are the same; the transition time is kept when only the reason
// changes.
func (c *deploymentController) setDeployCondition(s *deployStatus, cond deployCondition) {
	cur := getDeployCondition(*s, cond.Type)
	if cur != nil && cur.Status == cond.Status && cur.Reason == cond.Reason {
		return
	}
	if cur != nil && cur.Status == cond.Status {
		cond.LastTransitionTime = cur.LastTransitionTime
	}
	removeDeployCondition(s, cond.Type)
	s.Conditions = append(s.Conditions, cond)
}

func removeDeployCondition(s *deployStatus, typ string) {
	var out []deployCondition
	for _, c := range s.Conditions {
		if c.Type != typ {
			out = append(out, c)
		}
	}
	s.Conditions = out
}

// findNewReplicaSet is FindNewReplicaSet: the oldest ReplicaSet whose
// template equals the Deployment's, ignoring the hash label.
func findNewReplicaSet(d *deployment, rsList []*fakeapi.Object) *fakeapi.Object {
	sorted := slices.Clone(rsList)
	slices.SortStableFunc(sorted, byCreation)
	for _, rs := range sorted {
		if equalIgnoreHash(rsTemplate(rs), d.template) {
			return rs
		}
	}
	return nil
}

// findOldReplicaSets is FindOldReplicaSets (the "all old" list).
func findOldReplicaSets(d *deployment, rsList []*fakeapi.Object) []*fakeapi.Object {
	newRS := findNewReplicaSet(d, rsList)
	var old []*fakeapi.Object
	for _, rs := range rsList {
		if newRS != nil && rs.Metadata.UID == newRS.Metadata.UID {
			continue
		}
		old = append(old, rs)
	}
	return old
}

// getAllReplicaSetsAndSyncRevision returns the new ReplicaSet (created
// when asked and missing) and the old ones.
func (c *deploymentController) getAllReplicaSetsAndSyncRevision(d *deployment, rsList []*fakeapi.Object, create bool) (*fakeapi.Object, []*fakeapi.Object, error) {
	old := findOldReplicaSets(d, rsList)
	newRS, err := c.getNewReplicaSet(d, rsList, old, create)
	return newRS, old, err
}

func setAnnotation(o *fakeapi.Object, k, v string) bool {
	if o.Metadata.Annotations == nil {
		o.Metadata.Annotations = map[string]string{}
	}
	if cur, ok := o.Metadata.Annotations[k]; ok && cur == v {
		return false
	}
	o.Metadata.Annotations[k] = v
	return true
}

// setReplicasAnnotations is SetReplicasAnnotations.
func setReplicasAnnotations(rs *fakeapi.Object, desired, max int64) bool {
	a := setAnnotation(rs, desiredReplicasAnnotation, itoa(desired))
	b := setAnnotation(rs, maxReplicasAnnotation, itoa(max))
	return a || b
}

func replicasAnnotationsNeedUpdate(rs *fakeapi.Object, desired, max int64) bool {
	a := rs.Metadata.Annotations
	return a == nil || a[desiredReplicasAnnotation] != itoa(desired) || a[maxReplicasAnnotation] != itoa(max)
}

// skipCopyAnnotation is annotationsToSkip: the Deployment's annotations
// that are not copied to its new ReplicaSet.
func skipCopyAnnotation(k string) bool {
	switch k {
	case lastAppliedAnnotation, revisionAnnotation, revisionHistoryAnnotation, desiredReplicasAnnotation, maxReplicasAnnotation,
		"deprecated.deployment.rollback.to": // apps.DeprecatedRollbackTo
		return true
	}
	return false
}

// setNewReplicaSetAnnotations is SetNewReplicaSetAnnotations: copy the
// Deployment's annotations, raise the revision (keeping the replaced one
// in revision-history), and for a new ReplicaSet the replicas annotations.
func setNewReplicaSetAnnotations(d *deployment, rs *fakeapi.Object, newRevision string, exists bool) bool {
	changed := false
	for _, k := range sortedKeys(d.obj.Metadata.Annotations) {
		if skipCopyAnnotation(k) {
			continue
		}
		if setAnnotation(rs, k, d.obj.Metadata.Annotations[k]) {
			changed = true
		}
	}
	if rs.Metadata.Annotations == nil {
		rs.Metadata.Annotations = map[string]string{}
	}
	oldRevision := rs.Metadata.Annotations[revisionAnnotation]
	var oldInt int64
	if oldRevision != "" {
		v, err := strconv.ParseInt(oldRevision, 10, 64)
		if err != nil {
			return false
		}
		oldInt = v
	}
	newInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldInt < newInt {
		rs.Metadata.Annotations[revisionAnnotation] = newRevision
		changed = true
	}
	if oldRevision != "" && oldInt < newInt {
		hist := rs.Metadata.Annotations[revisionHistoryAnnotation]
		olds := strings.Split(hist, ",")
		if len(olds[0]) == 0 {
			rs.Metadata.Annotations[revisionHistoryAnnotation] = oldRevision
		} else {
			total := len(hist) + len(oldRevision) + 1
			start := 0
			for total > maxRevHistoryLengthInChars && start < len(olds) {
				total -= len(olds[start]) + 1
				start++
			}
			if total <= maxRevHistoryLengthInChars {
				rs.Metadata.Annotations[revisionHistoryAnnotation] = strings.Join(append(olds[start:], oldRevision), ",")
			}
		}
	}
	if !exists && setReplicasAnnotations(rs, d.replicas, d.replicas+d.maxSurgeValue()) {
		changed = true
	}
	return changed
}

// setDeploymentRevision is SetDeploymentRevision.
func setDeploymentRevision(d *deployment, revision string) bool {
	return setAnnotation(d.obj, revisionAnnotation, revision)
}

func (c *deploymentController) getNewReplicaSet(d *deployment, rsList, oldRSs []*fakeapi.Object, create bool) (*fakeapi.Object, error) {
	l := c.cur
	existing := findNewReplicaSet(d, rsList)
	newRevision := itoa(maxRevision(oldRSs) + 1)
	if existing != nil {
		rsCopy := existing.DeepCopy()
		annotationsUpdated := setNewReplicaSetAnnotations(d, rsCopy, newRevision, true)
		minReadyNeedsUpdate := minReadySecondsOf(rsCopy) != d.minReadySeconds
		if annotationsUpdated || minReadyNeedsUpdate {
			spec := specOf(rsCopy)
			if spec == nil {
				spec = map[string]any{}
				rsCopy.Fields.Set("spec", spec)
			}
			spec["minReadySeconds"] = float64(d.minReadySeconds)
			out, err := c.env.api.Update(dcClient, rsCopy)
			if err == nil {
				l.act("UpdatedReplicaSet", "updated the annotations of %s (revision %s)", out, out.Metadata.Annotations[revisionAnnotation])
			}
			return out, err
		}
		needsUpdate := setDeploymentRevision(d, rsCopy.Metadata.Annotations[revisionAnnotation])
		if d.hasProgressDeadline() && getDeployCondition(d.status, condProgressing) == nil {
			c.setDeployCondition(&d.status, c.newCondition(condProgressing, "True", reasonFoundNewRS,
				fmt.Sprintf("Found new replica set %q", rsCopy.Metadata.Name)))
			needsUpdate = true
		}
		if needsUpdate {
			if _, err := c.updateDeployment(d); err != nil {
				return nil, err
			}
			l.act("SyncedRevision", "recorded %s as the current ReplicaSet (revision %s) on the Deployment",
				rsCopy, rsCopy.Metadata.Annotations[revisionAnnotation])
		}
		return rsCopy, nil
	}
	if !create {
		return nil, nil
	}

	l.fn("getNewReplicaSet")
	hash := podTemplateHash(d.template, d.status.CollisionCount)
	tmpl := copyJSONMap(d.template)
	meta := nestedMap(tmpl, "metadata")
	labels := nestedMap(meta, "labels")
	labels[podTemplateHashLabel] = hash
	sel := copyJSONMap(specOf(d.obj)["selector"].(map[string]any))
	ml, _ := sel["matchLabels"].(map[string]any)
	if ml == nil {
		ml = map[string]any{}
		sel["matchLabels"] = ml
	}
	ml[podTemplateHashLabel] = hash
	newRS := &fakeapi.Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Metadata: fakeapi.ObjectMeta{
		Name: d.name() + "-" + hash, Namespace: d.namespace(),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(d.obj)},
		Labels:          stringMap(labels),
	}, Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{
		"replicas": float64(0), "minReadySeconds": float64(d.minReadySeconds), "selector": sel, "template": tmpl,
	}})}
	all := append(slices.Clone(oldRSs), newRS)
	count, err := newRSNewReplicas(d, all, newRS)
	if err != nil {
		return nil, err
	}
	specOf(newRS)["replicas"] = float64(count)
	setNewReplicaSetAnnotations(d, newRS, newRevision, false)

	created, err := c.env.api.Create(dcClient, newRS)
	alreadyExists := false
	switch {
	case err == nil:
		l.act("CreatedReplicaSet", "created %s (revision %s, pod-template-hash %s) with %d replicas", created, newRevision, hash, count)
	case fakeapi.IsAlreadyExists(err):
		alreadyExists = true
		rs := c.rss[d.namespace()+"/"+newRS.Metadata.Name]
		if rs != nil {
			if ref := controllerOf(rs); ref != nil && ref.UID == d.obj.Metadata.UID && equalIgnoreHash(d.template, rsTemplate(rs)) {
				created, err = rs, nil
				break
			}
		}
		// A hash collision: another object holds the name. Bump
		// collisionCount so the next sync computes another hash.
		n := int64(0)
		if d.status.CollisionCount != nil {
			n = *d.status.CollisionCount
		}
		d.status.CollisionCount = fakeapi.Int64(n + 1)
		l.act("HashCollision", "%s already exists and is not this Deployment's: collisionCount is now %d", newRS, n+1)
		_, _ = c.updateDeployment(d)
		return nil, err
	case namespaceTerminating(err):
		return nil, err
	default:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Metadata.Name, err)
		if d.hasProgressDeadline() {
			c.setDeployCondition(&d.status, c.newCondition(condProgressing, "False", reasonFailedRSCreate, msg))
			_, _ = c.updateDeployment(d)
		}
		c.event(d, "Warning", reasonFailedRSCreate, msg)
		l.act("CreateFailed", "%s", msg)
		return nil, err
	}
	if !alreadyExists && count > 0 {
		c.event(d, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to %d", created.Metadata.Name, count))
	}
	needsUpdate := setDeploymentRevision(d, newRevision)
	if !alreadyExists && d.hasProgressDeadline() {
		c.setDeployCondition(&d.status, c.newCondition(condProgressing, "True", reasonNewRSCreated,
			fmt.Sprintf("Created new replica set %q", created.Metadata.Name)))
		needsUpdate = true
	}
	if needsUpdate {
		if _, err := c.updateDeployment(d); err != nil {
			return nil, err
		}
		l.act("SyncedRevision", "recorded revision %s on the Deployment", newRevision)
	}
	return created, nil
}

func copyJSONMap(m map[string]any) map[string]any {
	out, _ := toJSONValue(m).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	return out
}

// newRSNewReplicas is NewRSNewReplicas: how big the new ReplicaSet may be
// now.
func newRSNewReplicas(d *deployment, all []*fakeapi.Object, newRS *fakeapi.Object) (int64, error) {
	switch d.strategy {
	case strategyRollingUpdate:
		surge, _, err := d.fenceposts()
		if err != nil {
			return 0, err
		}
		current := sumReplicas(all)
		maxTotal := d.replicas + surge
		if current >= maxTotal {
			return rsReplicas(newRS), nil
		}
		up := min(maxTotal-current, d.replicas-rsReplicas(newRS))
		return rsReplicas(newRS) + up, nil
	case strategyRecreate:
		return d.replicas, nil
	}
	return 0, fmt.Errorf("deployment type %v isn't supported", d.strategy)
}

// scaleReplicaSet sets a ReplicaSet's replicas and replicas annotations,
// with a ScalingReplicaSet Event when the size changed.
func (c *deploymentController) scaleReplicaSet(rs *fakeapi.Object, newScale int64, d *deployment, op string) (bool, *fakeapi.Object, error) {
	oldScale := rsReplicas(rs)
	sizeNeedsUpdate := oldScale != newScale
	max := d.replicas + d.maxSurgeValue()
	if !sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, d.replicas, max) {
		return false, rs, nil
	}
	rsCopy := rs.DeepCopy()
	spec := specOf(rsCopy)
	if spec == nil {
		spec = map[string]any{}
		rsCopy.Fields.Set("spec", spec)
	}
	spec["replicas"] = float64(newScale)
	setReplicasAnnotations(rsCopy, d.replicas, max)
	out, err := c.env.api.Update(dcClient, rsCopy)
	if err != nil {
		c.cur.act("ScaleFailed", "scaling %s to %d failed: %v", rs, newScale, err)
		return false, rs, err
	}
	if sizeNeedsUpdate {
		if op == "" {
			op = "up"
			if newScale < oldScale {
				op = "down"
			}
		}
		c.event(d, "Normal", "ScalingReplicaSet", fmt.Sprintf("Scaled %s replica set %s from %d to %d", op, rs.Metadata.Name, oldScale, newScale))
		code := "ScaledUp"
		if newScale < oldScale {
			code = "ScaledDown"
		}
		if op == "down" {
			c.cur.act(code, "scaled down %s from %d to %d", out, oldScale, newScale)
		} else {
			c.cur.act(code, "scaled up %s from %d to %d", out, oldScale, newScale)
		}
		return true, out, nil
	}
	return false, out, nil
}

func (c *deploymentController) scaleAndRecord(rs *fakeapi.Object, newScale int64, d *deployment) (bool, *fakeapi.Object, error) {
	if rsReplicas(rs) == newScale {
		return false, rs, nil
	}
	return c.scaleReplicaSet(rs, newScale, d, "")
}

// isScalingEvent: an active ReplicaSet's desired-replicas annotation
// differs from spec.replicas.
func (c *deploymentController) isScalingEvent(d *deployment, rsList []*fakeapi.Object) (bool, error) {
	newRS, old, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range activeRSs(append(old, newRS)) {
		n, ok := replicasAnnotation(rs, desiredReplicasAnnotation)
		if !ok {
			continue
		}
		if n != d.replicas {
			c.cur.act("ScalingEvent", "spec.replicas is %d and %s was sized for %d: a scaling event", d.replicas, rs, n)
			return true, nil
		}
	}
	return false, nil
}

// sync scales (a scaling event or a paused Deployment) and syncs status.
func (c *deploymentController) sync(d *deployment, rsList []*fakeapi.Object) error {
	newRS, old, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	if err := c.scale(d, newRS, old); err != nil {
		return err
	}
	if d.paused {
		if err := c.cleanupDeployment(old, d); err != nil {
			return err
		}
	}
	return c.syncDeploymentStatus(append(old, newRS), newRS, d)
}

// scale is DeploymentController.scale, proportional scaling included.
func (c *deploymentController) scale(d *deployment, newRS *fakeapi.Object, old []*fakeapi.Object) error {
	c.cur.fn("scale")
	if target := findActiveOrLatest(newRS, old); target != nil {
		if rsReplicas(target) == d.replicas {
			return nil
		}
		_, _, err := c.scaleAndRecord(target, d.replicas, d)
		return err
	}
	if isSaturated(d, newRS) {
		for _, rs := range activeRSs(old) {
			if _, _, err := c.scaleAndRecord(rs, 0, d); err != nil {
				return err
			}
		}
		return nil
	}
	if d.strategy != strategyRollingUpdate {
		return nil
	}
	all := activeRSs(append(slices.Clone(old), newRS))
	total := sumReplicas(all)
	allowed := int64(0)
	if d.replicas > 0 {
		allowed = d.replicas + d.maxSurgeValue()
	}
	toAdd := allowed - total
	op := ""
	switch {
	case toAdd > 0:
		slices.SortStableFunc(all, bySizeNewer)
		op = "up"
	case toAdd < 0:
		slices.SortStableFunc(all, bySizeOlder)
		op = "down"
	}
	added := int64(0)
	size := make([]int64, len(all))
	for i, rs := range all {
		if toAdd != 0 {
			p := proportion(rs, d, toAdd, added)
			size[i] = rsReplicas(rs) + p
			added += p
		} else {
			size[i] = rsReplicas(rs)
		}
	}
	for i, rs := range all {
		if i == 0 && toAdd != 0 {
			size[i] = max(size[i]+toAdd-added, 0)
		}
		if _, _, err := c.scaleReplicaSet(rs, size[i], d, op); err != nil {
			return err
		}
	}
	if toAdd != 0 {
		c.cur.fn("getProportion")
	}
	return nil
}

// findActiveOrLatest is FindActiveOrLatest: the only active ReplicaSet,
// or the newest one when none is active.
func findActiveOrLatest(newRS *fakeapi.Object, old []*fakeapi.Object) *fakeapi.Object {
	if newRS == nil && len(old) == 0 {
		return nil
	}
	sorted := slices.Clone(old)
	slices.SortStableFunc(sorted, func(a, b *fakeapi.Object) int { return byCreation(b, a) })
	all := activeRSs(append(sorted, newRS))
	switch len(all) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[0]
	case 1:
		return all[0]
	}
	return nil
}

// isSaturated is IsSaturated: the new ReplicaSet has all replicas, all
// available. Its desired-replicas annotation is read as upstream reads it
// (strconv.Atoi of a 64-bit int, then int32): any whole number, signed,
// wrapping past the int32 range (so "4294967299" reads 3); one that is
// not a whole number, or none, leaves the set not saturated.
func isSaturated(d *deployment, rs *fakeapi.Object) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.ParseInt(rs.Metadata.Annotations[desiredReplicasAnnotation], 10, 64)
	if err != nil {
		return false
	}
	return rsReplicas(rs) == d.replicas && int64(int32(desired)) == d.replicas && readRSStatus(rs).AvailableReplicas == d.replicas
}

// proportion is GetProportion.
func proportion(rs *fakeapi.Object, d *deployment, toAdd, added int64) int64 {
	if rs == nil || rsReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := replicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

func replicaSetFraction(rs *fakeapi.Object, d *deployment) int64 {
	if d.replicas == 0 {
		return -rsReplicas(rs)
	}
	deploymentReplicas := d.replicas + d.maxSurgeValue()
	annotated, ok := replicasAnnotation(rs, maxReplicasAnnotation)
	if !ok || annotated == 0 {
		// No usable max-replicas annotation: the Deployment's size as
		// its status has it, and no share at all when that is 0.
		annotated = d.status.Replicas
		if annotated == 0 {
			return 0
		}
	}
	newSize := float64(rsReplicas(rs)*deploymentReplicas) / float64(annotated)
	return roundToInt(newSize) - rsReplicas(rs)
}

// replicasAnnotation is getNonNegativeInt32FromAnnotation: the
// ReplicaSet's desired- or max-replicas annotation, when it is a whole
// number from 0 to MaxInt32 (no sign).
func replicasAnnotation(rs *fakeapi.Object, key string) (int64, bool) {
	v, ok := rs.Metadata.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int64(n), true
}

func roundToInt(a float64) int64 {
	if a < 0 {
		return int64(a - 0.5)
	}
	return int64(a + 0.5)
}

func (c *deploymentController) syncStatusOnly(d *deployment, rsList []*fakeapi.Object) error {
	newRS, old, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	return c.syncDeploymentStatus(append(old, newRS), newRS, d)
}

func (c *deploymentController) syncDeploymentStatus(all []*fakeapi.Object, newRS *fakeapi.Object, d *deployment) error {
	st := c.calculateStatus(all, newRS, d)
	if reflect.DeepEqual(d.status, st) {
		return nil
	}
	return c.writeStatus(d, st)
}

// writeStatus updates the Deployment's status to st (which differs from
// the one it has) and says so in the record.
func (c *deploymentController) writeStatus(d *deployment, st deployStatus) error {
	old := d.status
	d.status = st
	_, err := c.updateDeployment(d)
	if err == nil {
		c.cur.act("StatusUpdated", "status: %s", statusPhrase(old, st))
	}
	return err
}

// statusPhrase says what a status update writes: the counts, and the
// conditions whose status or reason changed.
func statusPhrase(old, s deployStatus) string {
	out := fmt.Sprintf("replicas %d, updated %d, ready %d, available %d", s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas)
	for _, c := range s.Conditions {
		if o := getDeployCondition(old, c.Type); o == nil || o.Status != c.Status || o.Reason != c.Reason {
			out += fmt.Sprintf("; %s=%s (%s)", c.Type, c.Status, c.Reason)
		}
	}
	for _, o := range old.Conditions {
		if getDeployCondition(s, o.Type) == nil {
			out += fmt.Sprintf("; %s removed", o.Type)
		}
	}
	return out
}

// calculateStatus is the Deployment's status from its ReplicaSets.
func (c *deploymentController) calculateStatus(all []*fakeapi.Object, newRS *fakeapi.Object, d *deployment) deployStatus {
	available := sumStatus(all, availableReplicas)
	total := sumReplicas(all)
	unavailable := max(total-available, 0)
	st := deployStatus{
		ObservedGeneration:  d.obj.Metadata.Generation,
		Replicas:            sumStatus(all, actualReplicas),
		UpdatedReplicas:     sumStatus([]*fakeapi.Object{newRS}, actualReplicas),
		ReadyReplicas:       sumStatus(all, readyReplicas),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		CollisionCount:      d.status.CollisionCount,
	}
	st.Conditions = slices.Clone(d.status.Conditions)
	if available >= d.replicas-d.maxUnavailableValue() {
		c.setDeployCondition(&st, c.newCondition(condAvailable, "True", reasonMinimumAvailable, "Deployment has minimum availability."))
	} else {
		c.setDeployCondition(&st, c.newCondition(condAvailable, "False", reasonMinimumUnavailable, "Deployment does not have minimum availability."))
	}
	return st
}

// deploymentComplete is DeploymentComplete.
func deploymentComplete(d *deployment, s deployStatus) bool {
	return s.UpdatedReplicas == d.replicas && s.Replicas == d.replicas && s.AvailableReplicas == d.replicas &&
		s.ObservedGeneration >= d.obj.Metadata.Generation
}

// deploymentProgressing is DeploymentProgressing.
func deploymentProgressing(d *deployment, s deployStatus) bool {
	old := d.status
	return s.UpdatedReplicas > old.UpdatedReplicas || s.Replicas-s.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		s.ReadyReplicas > old.ReadyReplicas || s.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut is DeploymentTimedOut.
func (c *deploymentController) deploymentTimedOut(d *deployment, s deployStatus) bool {
	if !d.hasProgressDeadline() {
		return false
	}
	cond := getDeployCondition(s, condProgressing)
	if cond == nil || cond.Reason == reasonNewRSAvailable {
		return false
	}
	if cond.Reason == reasonTimedOut {
		return true
	}
	from := parseTime(cond.LastUpdateTime)
	return from.Add(time.Duration(*d.progressDL) * time.Second).Before(c.env.clock.Now())
}

// syncRolloutStatus updates the status and the Progressing condition.
func (c *deploymentController) syncRolloutStatus(all []*fakeapi.Object, newRS *fakeapi.Object, d *deployment) error {
	c.cur.fn("syncRolloutStatus")
	st := c.calculateStatus(all, newRS, d)
	if !d.hasProgressDeadline() {
		removeDeployCondition(&st, condProgressing)
	}
	cur := getDeployCondition(d.status, condProgressing)
	isComplete := st.Replicas == st.UpdatedReplicas && cur != nil && cur.Reason == reasonNewRSAvailable
	if d.hasProgressDeadline() && !isComplete {
		switch {
		case deploymentComplete(d, st):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", d.name())
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Metadata.Name)
			}
			c.setDeployCondition(&st, c.newCondition(condProgressing, "True", reasonNewRSAvailable, msg))
			c.cur.act("RolloutComplete", "the rollout is complete")
		case deploymentProgressing(d, st):
			msg := fmt.Sprintf("Deployment %q is progressing.", d.name())
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", newRS.Metadata.Name)
			}
			cond := c.newCondition(condProgressing, "True", reasonRSUpdated, msg)
			if cur != nil {
				if cur.Status == "True" {
					cond.LastTransitionTime = cur.LastTransitionTime
				}
				removeDeployCondition(&st, condProgressing)
			}
			c.setDeployCondition(&st, cond)
		case c.deploymentTimedOut(d, st):
			msg := fmt.Sprintf("Deployment %q has timed out progressing.", d.name())
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Metadata.Name)
			}
			c.setDeployCondition(&st, c.newCondition(condProgressing, "False", reasonTimedOut, msg))
			if cur == nil || cur.Reason != reasonTimedOut {
				c.cur.act("ProgressDeadlineExceeded", "no progress for progressDeadlineSeconds (%d): Progressing is now False", *d.progressDL)
			}
		}
	}
	if failures := replicaFailures(all, newRS); len(failures) > 0 {
		c.setDeployCondition(&st, failures[0])
	} else {
		removeDeployCondition(&st, condReplicaFailure)
	}
	if reflect.DeepEqual(d.status, st) {
		c.requeueStuckDeployment(d, st)
		return nil
	}
	return c.writeStatus(d, st)
}

// replicaFailures copies ReplicaFailure conditions of the ReplicaSets,
// the new one's first.
func replicaFailures(all []*fakeapi.Object, newRS *fakeapi.Object) []deployCondition {
	conv := func(rs *fakeapi.Object) []deployCondition {
		var out []deployCondition
		if rs == nil {
			return nil
		}
		for _, c := range readRSStatus(rs).Conditions {
			if c.Type == "ReplicaFailure" {
				out = append(out, deployCondition{Type: condReplicaFailure, Status: c.Status, LastUpdateTime: c.LastTransitionTime,
					LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message})
			}
		}
		return out
	}
	if out := conv(newRS); len(out) > 0 {
		return out
	}
	var out []deployCondition
	for _, rs := range all {
		out = append(out, conv(rs)...)
	}
	return out
}

// requeueStuckDeployment checks again when the progress deadline would
// pass for a rollout that is not complete. That wait is time passing in
// the cluster (progressDeadlineSeconds, like a Job's
// activeDeadlineSeconds): it is kept in timers, which settle does not
// cross and advance does.
func (c *deploymentController) requeueStuckDeployment(d *deployment, st deployStatus) {
	cur := getDeployCondition(d.status, condProgressing)
	if !d.hasProgressDeadline() || cur == nil || deploymentComplete(d, st) || cur.Reason == reasonTimedOut {
		return
	}
	after := parseTime(cur.LastUpdateTime).Add(time.Duration(*d.progressDL) * time.Second).Sub(c.env.clock.Now())
	key := objKey(d.obj)
	if after < time.Second {
		c.q.AddRateLimited(key, c.env.now())
		return
	}
	c.timers.AddAfter(key, after+time.Second, c.env.now())
	c.cur.rec.Note("the rollout is not complete: checked again when its progress deadline (%ds) would pass", *d.progressDL)
}

// rolloutRolling is the RollingUpdate strategy.
func (c *deploymentController) rolloutRolling(d *deployment, rsList []*fakeapi.Object) error {
	newRS, old, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	all := append(slices.Clone(old), newRS)
	scaledUp, err := c.reconcileNewReplicaSet(all, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return c.syncRolloutStatus(all, newRS, d)
	}
	scaledDown, err := c.reconcileOldReplicaSets(all, activeRSs(old), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return c.syncRolloutStatus(all, newRS, d)
	}
	if deploymentComplete(d, d.status) {
		if err := c.cleanupDeployment(old, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(all, newRS, d)
}

func (c *deploymentController) reconcileNewReplicaSet(all []*fakeapi.Object, newRS *fakeapi.Object, d *deployment) (bool, error) {
	if rsReplicas(newRS) == d.replicas {
		return false, nil
	}
	c.cur.fn("reconcileNewReplicaSet")
	if rsReplicas(newRS) > d.replicas {
		scaled, _, err := c.scaleAndRecord(newRS, d.replicas, d)
		return scaled, err
	}
	n, err := newRSNewReplicas(d, all, newRS)
	if err != nil {
		return false, err
	}
	scaled, _, err := c.scaleAndRecord(newRS, n, d)
	return scaled, err
}

func (c *deploymentController) reconcileOldReplicaSets(all, old []*fakeapi.Object, newRS *fakeapi.Object, d *deployment) (bool, error) {
	oldPods := sumReplicas(old)
	if oldPods == 0 {
		return false, nil
	}
	c.cur.fn("reconcileOldReplicaSets")
	allPods := sumReplicas(all)
	minAvailable := d.replicas - d.maxUnavailableValue()
	newUnavailable := rsReplicas(newRS) - readRSStatus(newRS).AvailableReplicas
	maxScaledDown := allPods - minAvailable - newUnavailable
	if maxScaledDown <= 0 {
		return false, nil
	}
	// Upstream drops a failed scale-down's error here: the sync goes on
	// to the rollout status as if nothing were scaled down, and the key
	// is not retried for it.
	old, cleaned, err := c.cleanupUnhealthyReplicas(old, d, maxScaledDown)
	if err != nil {
		return false, nil
	}
	all = append(slices.Clone(old), newRS)
	scaledDown, err := c.scaleDownOldReplicaSetsForRollingUpdate(all, old, d)
	if err != nil {
		return false, nil
	}
	return cleaned+scaledDown > 0, nil
}

// cleanupUnhealthyReplicas scales down old ReplicaSets' unavailable Pods
// first, oldest first.
func (c *deploymentController) cleanupUnhealthyReplicas(old []*fakeapi.Object, d *deployment, maxCleanup int64) ([]*fakeapi.Object, int64, error) {
	old = slices.Clone(old)
	slices.SortStableFunc(old, byCreation)
	var total int64
	for i, rs := range old {
		if total >= maxCleanup {
			break
		}
		n := rsReplicas(rs)
		avail := readRSStatus(rs).AvailableReplicas
		if n == 0 || n == avail {
			continue
		}
		down := min(maxCleanup-total, n-avail)
		_, updated, err := c.scaleAndRecord(rs, n-down, d)
		if err != nil {
			return nil, total, err
		}
		total += down
		old[i] = updated
	}
	return old, total, nil
}

func (c *deploymentController) scaleDownOldReplicaSetsForRollingUpdate(all, old []*fakeapi.Object, d *deployment) (int64, error) {
	minAvailable := d.replicas - d.maxUnavailableValue()
	available := sumStatus(all, availableReplicas)
	if available <= minAvailable {
		return 0, nil
	}
	old = slices.Clone(old)
	slices.SortStableFunc(old, byCreation)
	var total int64
	want := available - minAvailable
	for _, rs := range old {
		if total >= want {
			break
		}
		n := rsReplicas(rs)
		if n == 0 {
			continue
		}
		down := min(n, want-total)
		if _, _, err := c.scaleAndRecord(rs, n-down, d); err != nil {
			return total, err
		}
		total += down
	}
	return total, nil
}

// rolloutRecreate is the Recreate strategy: old Pods all go before new
// ones are created.
func (c *deploymentController) rolloutRecreate(d *deployment, rsList []*fakeapi.Object) error {
	newRS, old, err := c.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	all := append(slices.Clone(old), newRS)
	scaledDown := false
	for _, rs := range activeRSs(old) {
		scaled, _, err := c.scaleAndRecord(rs, 0, d)
		if err != nil {
			return err
		}
		scaledDown = scaledDown || scaled
	}
	if scaledDown {
		return c.syncRolloutStatus(all, newRS, d)
	}
	if c.oldPodsRunning(newRS, old) {
		c.cur.act("OldPodsRunning", "old Pods are still running: the new ReplicaSet waits")
		return c.syncRolloutStatus(all, newRS, d)
	}
	if newRS == nil {
		newRS, old, err = c.getAllReplicaSetsAndSyncRevision(d, rsList, true)
		if err != nil {
			return err
		}
		all = append(slices.Clone(old), newRS)
	}
	if _, _, err := c.scaleAndRecord(newRS, d.replicas, d); err != nil {
		return err
	}
	if deploymentComplete(d, d.status) {
		if err := c.cleanupDeployment(old, d); err != nil {
			return err
		}
	}
	return c.syncRolloutStatus(all, newRS, d)
}

// oldPodsRunning: old ReplicaSets still report Pods, or Pods of theirs
// that have not finished still exist.
func (c *deploymentController) oldPodsRunning(newRS *fakeapi.Object, old []*fakeapi.Object) bool {
	if sumStatus(old, actualReplicas) > 0 {
		return true
	}
	for _, rs := range old {
		if newRS != nil && rs.Metadata.UID == newRS.Metadata.UID {
			continue
		}
		for _, p := range c.pods.controlledBy(rs.Metadata.Namespace, rs.Metadata.UID) {
			if p.phase() != podSucceeded && p.phase() != podFailed {
				return true
			}
		}
	}
	return false
}

// cleanupDeployment deletes the oldest old ReplicaSets beyond
// revisionHistoryLimit that have no replicas left; the garbage collector
// then removes whatever they still own.
func (c *deploymentController) cleanupDeployment(old []*fakeapi.Object, d *deployment) error {
	if d.historyLimit == nil {
		return nil
	}
	var alive []*fakeapi.Object
	for _, rs := range old {
		if rs != nil && rs.Metadata.DeletionTimestamp == nil {
			alive = append(alive, rs)
		}
	}
	diff := int64(len(alive)) - *d.historyLimit
	if diff <= 0 {
		return nil
	}
	c.cur.fn("cleanupDeployment")
	slices.SortStableFunc(alive, byRevision)
	for i := int64(0); i < diff; i++ {
		rs := alive[i]
		st := readRSStatus(rs)
		if st.Replicas != 0 || rsReplicas(rs) != 0 || rs.Metadata.Generation > st.ObservedGeneration || rs.Metadata.DeletionTimestamp != nil {
			continue
		}
		rev, _ := revisionOf(rs)
		_, err := c.env.api.Delete(dcClient, fakeapi.RefOf(rs), &fakeapi.DeleteOptions{})
		if err != nil && !fakeapi.IsNotFound(err) {
			return err
		}
		c.cur.act("CleanedUp", "deleted old %s (revision %d): %d old ReplicaSets exceed revisionHistoryLimit %d",
			rs, rev, len(alive), *d.historyLimit)
	}
	return nil
}
