package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// ControllerNamespace is the namespace controller's name in `controllers:`.
const ControllerNamespace = "namespace"

// Settings of kube-controller-manager's namespace controller
// (pkg/controller/namespace).
const (
	nsClient = "namespace-controller"
	// namespaceDeletionGracePeriod is how long after a Namespace event the
	// controller acts on it (enqueueNamespace).
	namespaceDeletionGracePeriod = 5 * time.Second
	// nsMaxBackoff caps the per-item backoff of nsControllerRateLimiter.
	nsMaxBackoff = 60 * time.Second
	// finalizerEstimateSeconds is the wait assumed for objects that remain
	// with finalizers (deleteAllContentForGroupVersionResource).
	finalizerEstimateSeconds = 15
	// podDefaultGrace is what API defaulting writes into a Pod's
	// spec.terminationGracePeriodSeconds; gcplay's apiserver does not
	// default, so the estimate reads a missing field as this.
	podDefaultGrace = 30
	// retryOnConflictLimit bounds retryOnConflictError, which upstream
	// repeats for as long as it conflicts; in a single-threaded world one
	// fresh GET always ends the conflict.
	retryOnConflictLimit = 10
)

const nsFuncPrefix = "namespacedResourcesDeleter."

var namespaceRegistration = registration{
	name:        ControllerNamespace,
	queues:      []string{ControllerNamespace},
	restartable: true,
	new:         newNamespaceController,
}

// namespaceController is kube-controller-manager's namespace controller
// (pkg/controller/namespace/namespace_controller.go) with its deleter
// (pkg/controller/namespace/deletion), made steppable: one step is one
// syncNamespaceFromKey of one queued namespace name. Its informer cache of
// Namespaces is filled by observe; everything else it reads and writes
// through the apiserver, as "namespace-controller".
type namespaceController struct {
	env    *env
	q      *workqueue[string]
	lister map[string]*fakeapi.Object
	// rechecks holds, for a namespace waiting for its periodic re-check
	// (ResourcesRemainingError), how many watch events the controller had
	// seen after the sync that scheduled it, and whether that sync changed
	// anything: a re-check of a world that has not changed since a sync
	// that changed nothing is not work settle waits for.
	rechecks map[string]recheck
	// seen counts the watch events observed, of every kind.
	seen uint64
}

type recheck struct {
	seen  uint64
	quiet bool
}

func newNamespaceController(e *env) controller {
	c := &namespaceController{env: e, lister: map[string]*fakeapi.Object{}, rechecks: map[string]recheck{}}
	c.setQueue(newNamespaceQueue())
	return c
}

// newNamespaceQueue is nsControllerRateLimiter's queue: backoff from 5 ms
// to at most 60 s, and the 10 qps / burst 100 bucket.
func newNamespaceQueue() *workqueue[string] {
	q := newWorkqueue[string](ControllerNamespace)
	q.maxBackoff = nsMaxBackoff
	return q
}

func (c *namespaceController) setQueue(q *workqueue[string]) {
	c.q = q
	q.onAdd = func(key string, d time.Duration) {
		if !c.env.discard {
			c.env.enqueued(ControllerNamespace, "Namespace/"+key, d)
		}
	}
}

// observe is the Namespace informer's AddFunc and UpdateFunc
// (enqueueNamespace): a namespace with a deletionTimestamp is queued after
// namespaceDeletionGracePeriod. Deletions are not handled.
func (c *namespaceController) observe(ev fakeapi.WatchEvent) {
	c.seen++
	o := ev.Object
	if !isKind(o, "v1", "Namespace") {
		return
	}
	name := o.Metadata.Name
	if ev.Type == fakeapi.Deleted {
		delete(c.lister, name)
		return
	}
	c.lister[name] = o
	if o.Metadata.DeletionTimestamp == nil {
		return
	}
	c.q.AddAfter(name, namespaceDeletionGracePeriod, c.env.now())
}

func (c *namespaceController) promote(now time.Duration)      { c.q.Promote(now) }
func (c *namespaceController) ready(string) bool              { return c.q.Len() > 0 }
func (c *namespaceController) nextDue() (time.Duration, bool) { return c.q.NextDue() }

func (c *namespaceController) items(string) []queuePart {
	return []queuePart{keyQueueItems(c.q, "Namespace")}
}

func (c *namespaceController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "namespace: sync Namespace/" + items[0] + " (delete its content, then finalize it)"
	}
	return ""
}

// retriesCapped: a namespace waiting out its first 5 s, or a re-check
// after a sync that changed something (or of a world that changed since),
// is work to wait for; a re-check that would find what the last one found,
// and a retry at the 60 s maximum backoff, are not.
func (c *namespaceController) retriesCapped() (pending, capped bool) {
	for _, w := range c.q.Waiting() {
		pending = true
		if r, ok := c.rechecks[w.item]; ok && r.quiet && r.seen == c.seen {
			continue
		}
		if n := c.q.NumRequeues(w.item); n > 0 && float64(backoffBase)*pow2(n-1) >= float64(nsMaxBackoff) {
			if _, ok := c.rechecks[w.item]; !ok {
				continue
			}
		}
		return true, false
	}
	return pending, pending
}

func (c *namespaceController) restart(rec *Record) {
	c.setQueue(newNamespaceQueue())
	c.lister = map[string]*fakeapi.Object{}
	c.rechecks = map[string]recheck{}
	relist(c.env, nsClient, rec, c.observe, [][2]string{{"v1", "Namespace"}})
}

func (c *namespaceController) clone(e *env) controller {
	n := &namespaceController{env: e, lister: make(map[string]*fakeapi.Object, len(c.lister)), rechecks: make(map[string]recheck, len(c.rechecks)), seen: c.seen}
	for k, v := range c.lister {
		n.lister[k] = v
	}
	for k, v := range c.rechecks {
		n.rechecks[k] = v
	}
	n.setQueue(c.q.clone(func(s string) string { return s }))
	return n
}

// resourcesRemaining is upstream's ResourcesRemainingError: the content
// is being removed; look again in Estimate/2+1 seconds.
type resourcesRemaining struct{ Estimate int64 }

func (e *resourcesRemaining) Error() string {
	return fmt.Sprintf("some content remains in the namespace, estimate %d seconds before it is removed", e.Estimate)
}

// step is the worker's workFunc: sync, then Forget on success, AddAfter
// for remaining content, AddRateLimited for any other error.
func (c *namespaceController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = "Namespace/" + key
	before := c.seen
	err := c.syncNamespaceFromKey(key, rec)
	delete(c.rechecks, key)
	switch e := err.(type) {
	case nil:
		c.q.Forget(key)
	case *resourcesRemaining:
		t := e.Estimate/2 + 1
		d := time.Duration(t) * time.Second
		c.q.AddAfter(key, d, c.env.now())
		c.rechecks[key] = recheck{seen: c.seen, quiet: c.seen == before}
		rec.Reason.and("; looked at again in %s (estimate %ds / 2 + 1)", d, e.Estimate)
	default:
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.and("; the sync returns an error, so the namespace is retried in %s", d)
	}
}

// syncNamespaceFromKey reads the namespace from the informer cache and
// runs the deleter on it.
func (c *namespaceController) syncNamespaceFromKey(key string, rec *Record) error {
	if _, ok := c.lister[key]; !ok {
		rec.Reason = Reason{Code: "NamespaceGone", Rule: "N4", Func: "NamespaceController.syncNamespaceFromKey"}.
			Say("%s has been deleted: nothing to do", rec.Item)
		return nil
	}
	return c.deleteNamespace(key, rec)
}

// deleteNamespace is namespacedResourcesDeleter.Delete.
func (c *namespaceController) deleteNamespace(name string, rec *Record) error {
	fn := "NamespaceController.syncNamespaceFromKey, " + nsFuncPrefix + "Delete"
	ref := fakeapi.Ref{APIVersion: "v1", Kind: "Namespace", Name: name}
	ns, err := c.env.api.Get(nsClient, ref)
	if fakeapi.IsNotFound(err) {
		rec.Reason = Reason{Code: "NamespaceGone", Rule: "N4", Func: fn}.Say("%s is gone from storage: nothing to do", rec.Item)
		return nil
	}
	if err != nil {
		rec.Reason = Reason{Code: "GetFailed", Rule: "N4", Func: fn}.Say("could not read %s", rec.Item)
		return err
	}
	if ns.Metadata.DeletionTimestamp == nil {
		rec.Reason = Reason{Code: "NotDeleting", Rule: "N4", Func: fn}.Say("%s has no deletionTimestamp: nothing to do", rec.Item)
		return nil
	}
	ns, err = c.retryOnConflict(ns, c.updateNamespaceStatus)
	if fakeapi.IsNotFound(err) {
		rec.Reason = Reason{Code: "NamespaceGone", Rule: "N4", Func: fn + ", updateNamespaceStatusFunc"}.Say("%s is gone from storage: nothing to do", rec.Item)
		return nil
	}
	if err != nil {
		rec.Reason = Reason{Code: "StatusUpdateFailed", Rule: "N5", Func: fn + ", updateNamespaceStatusFunc"}.
			Say("could not set %s's phase to Terminating", rec.Item)
		return err
	}
	if fins := fakeapi.NamespaceFinalizers(ns); len(fins) == 0 {
		rec.Reason = Reason{Code: "AlreadyFinalized", Rule: "N12", Func: fn + ", finalized"}.
			Say("%s's spec.finalizers is empty: its content was removed; it stays only while its metadata.finalizers %s remain",
				rec.Item, fmtList(ns.Metadata.Finalizers))
		return nil
	}
	sum, err := c.deleteAllContent(ns, rec)
	fn += ", deleteAllContent"
	if err != nil {
		rec.Reason = Reason{Code: "ContentDeletionFailed", Rule: "N10", Func: fn}.
			Say("%s: %s", rec.Item, sum.describe())
		return err
	}
	if sum.estimate > 0 {
		rec.Reason = Reason{Code: "ContentRemaining", Rule: "N9", Func: fn}.
			Say("%s: %s", rec.Item, sum.describe())
		return &resourcesRemaining{Estimate: sum.estimate}
	}
	out, err := c.retryOnConflict(ns, c.finalizeNamespace)
	fn += ", finalizeNamespace"
	if fakeapi.IsNotFound(err) {
		rec.Reason = Reason{Code: "NamespaceGone", Rule: "N12", Func: fn}.Say("%s was finalized by someone else: nothing to do", rec.Item)
		return nil
	}
	if err != nil {
		rec.Reason = Reason{Code: "FinalizeFailed", Rule: "N12", Func: fn}.Say("could not finalize %s", rec.Item)
		return err
	}
	if _, ok := c.lister[name]; !ok { // its DELETED event came in
		rec.Reason = Reason{Code: "Finalized", Rule: "N12", Func: fn}.
			Say("%s is empty: the kubernetes finalizer is removed through /finalize, and with no finalizer left the namespace is gone", rec.Item)
		return nil
	}
	rec.Reason = Reason{Code: "Finalized", Rule: "N12", Func: fn}.
		Say("%s is empty: the kubernetes finalizer is removed through /finalize; it stays while spec.finalizers %s and metadata.finalizers %s remain",
			rec.Item, fmtList(fakeapi.NamespaceFinalizers(out)), fmtList(out.Metadata.Finalizers))
	return nil
}

func fmtList(l []string) string { return "[" + strings.Join(l, " ") + "]" }

// retryOnConflict is retryOnConflictError: fn is retried after a fresh GET
// for as long as it conflicts; a changed UID is an error.
func (c *namespaceController) retryOnConflict(ns *fakeapi.Object, fn func(*fakeapi.Object) (*fakeapi.Object, error)) (*fakeapi.Object, error) {
	latest := ns
	for i := 0; ; i++ {
		out, err := fn(latest)
		if err == nil {
			return out, nil
		}
		if !fakeapi.IsConflict(err) || i == retryOnConflictLimit {
			return nil, err
		}
		prev := latest
		latest, err = c.env.api.Get(nsClient, fakeapi.RefOf(prev))
		if err != nil {
			return nil, err
		}
		if prev.Metadata.UID != latest.Metadata.UID {
			return nil, fmt.Errorf("namespace uid has changed across retries")
		}
	}
}

// updateNamespaceStatus is updateNamespaceStatusFunc: the phase becomes
// Terminating through /status, unless it is already.
func (c *namespaceController) updateNamespaceStatus(ns *fakeapi.Object) (*fakeapi.Object, error) {
	if ns.Metadata.DeletionTimestamp == nil || fakeapi.NamespacePhase(ns) == fakeapi.NamespaceTerminating {
		return ns, nil
	}
	n := ns.DeepCopy()
	st, _ := n.Fields.Get("status").(map[string]any)
	if st == nil {
		st = map[string]any{}
	}
	st["phase"] = fakeapi.NamespaceTerminating
	n.Fields.Set("status", st)
	return c.env.api.UpdateStatus(nsClient, n)
}

// finalizeNamespace sends the namespace to /finalize with spec.finalizers
// less the kubernetes token (the rest sorted, as a string set lists them).
func (c *namespaceController) finalizeNamespace(ns *fakeapi.Object) (*fakeapi.Object, error) {
	var keep []string
	for _, f := range fakeapi.NamespaceFinalizers(ns) {
		if f != fakeapi.FinalizerKubernetes && !slices.Contains(keep, f) {
			keep = append(keep, f)
		}
	}
	sort.Strings(keep)
	n := ns.DeepCopy()
	spec, _ := n.Fields.Get("spec").(map[string]any)
	if spec == nil {
		spec = map[string]any{}
	}
	l := make([]any, len(keep))
	for i, f := range keep {
		l[i] = f
	}
	spec["finalizers"] = l
	n.Fields.Set("spec", spec)
	out, err := c.env.api.Finalize(nsClient, n)
	if fakeapi.IsNotFound(err) {
		return ns, nil
	}
	return out, err
}

// gvr is one namespaced resource of discovery, through its preferred
// version.
type gvr struct {
	apiVersion, kind, group, resource string
}

func (g gvr) String() string {
	return g.group + "/" + versionOf(g.apiVersion) + ", Resource=" + g.resource
}

// qualified names the resource as kubectl does: "pods", "deployments.apps".
func (g gvr) qualified() string {
	if g.group == "" {
		return g.resource
	}
	return g.resource + "." + g.group
}

func versionOf(apiVersion string) string { _, v := fakeapi.SplitAPIVersion(apiVersion); return v }

// discover is ServerPreferredNamespacedResources filtered to what can be
// deleted: every namespaced kind, through its group's preferred (first
// served) version, sorted by group and resource (upstream ranges over a
// map, in no fixed order).
func (c *namespaceController) discover() []gvr {
	reg := c.env.api.Registry()
	seen := map[string]bool{}
	var out []gvr
	for _, k := range reg.Kinds() {
		if !k.Namespaced() {
			continue
		}
		group := k.Group()
		if seen[group+"|"+k.Kind] {
			continue
		}
		seen[group+"|"+k.Kind] = true
		av := k.APIVersion
		if vs := reg.GroupKindVersions(k.APIVersion, k.Kind); len(vs) > 0 {
			av = vs[0]
		}
		info, _ := reg.Lookup(av, k.Kind)
		out = append(out, gvr{apiVersion: av, kind: k.Kind, group: group, resource: info.Resource})
	}
	sort.Slice(out, func(i, j int) bool {
		return cmp.Or(cmp.Compare(out[i].group, out[j].group), cmp.Compare(out[i].resource, out[j].resource)) < 0
	})
	return out
}

// gvrDeletion is gvrDeletionMetadata.
type gvrDeletion struct {
	estimate   int64
	remaining  int
	finalizers map[string]int
	// held names the objects left, with their finalizers, for the record.
	held []string
}

// contentSummary is what deleteAllContent found, for the record.
type contentSummary struct {
	estimate   int64
	podsFirst  bool // stopped after the Pods (OrderedNamespaceDeletion)
	remaining  map[gvr]int
	finalizers map[string]int
	errs       []string
	held       []string
}

func (s *contentSummary) describe() string {
	var parts []string
	if len(s.remaining) == 0 && len(s.errs) == 0 {
		return "every resource is empty"
	}
	if len(s.remaining) > 0 {
		parts = append(parts, "content remains: "+remainingText(s.remaining))
	}
	if len(s.finalizers) > 0 {
		parts = append(parts, "held by finalizers: "+finalizersText(s.finalizers))
	}
	if n := len(s.held); n > 0 {
		l := s.held[:min(n, 3)]
		more := ""
		if n > 3 {
			more = fmt.Sprintf(" and %d more", n-3)
		}
		parts = append(parts, "left: "+strings.Join(l, ", ")+more)
	}
	if s.podsFirst {
		parts = append(parts, "Pods go first, so nothing else was deleted yet")
	}
	if len(s.errs) > 0 {
		parts = append(parts, "errors: "+strings.Join(s.errs, "; "))
	}
	return strings.Join(parts, "; ")
}

func remainingText(m map[gvr]int) string {
	var l []string
	for g, n := range m {
		l = append(l, fmt.Sprintf("%s.%s has %d resource instances", g.resource, g.group, n))
	}
	sort.Strings(l)
	return strings.Join(l, ", ")
}

func finalizersText(m map[string]int) string {
	var l []string
	for f, n := range m {
		l = append(l, fmt.Sprintf("%s in %d resource instances", f, n))
	}
	sort.Strings(l)
	return strings.Join(l, ", ")
}

// deleteAllContent empties the namespace: the Pods first, and only once
// none is left everything else; then it writes the conditions.
func (c *namespaceController) deleteAllContent(ns *fakeapi.Object, rec *Record) (*contentSummary, error) {
	name := ns.Metadata.Name
	deletedAt := ns.Metadata.DeletionTimestamp.Time
	sum := &contentSummary{remaining: map[gvr]int{}, finalizers: map[string]int{}}
	var errs []string
	upd := &conditionUpdater{}
	resources := c.discover()
	// add takes a resource's outcome; upstream records the Pods' error
	// wrapped in the sync's error and bare in the condition.
	add := func(g gvr, d gvrDeletion, err, wrapped error) {
		if err != nil {
			errs = append(errs, wrapped.Error())
			upd.deleteContentErrors = append(upd.deleteContentErrors, err.Error())
		}
		sum.estimate = max(sum.estimate, d.estimate)
		sum.held = append(sum.held, d.held...)
		if d.remaining > 0 {
			sum.remaining[g] = d.remaining
			for f, n := range d.finalizers {
				if n > 0 {
					sum.finalizers[f] += n
				}
			}
		}
	}
	// OrderedNamespaceDeletion (GA in 1.34): Pods first.
	if i := slices.IndexFunc(resources, func(g gvr) bool { return g.group == "" && g.resource == "pods" }); i >= 0 {
		pods := resources[i]
		resources = slices.Delete(resources, i, i+1)
		d, err := c.deleteAllContentForGVR(pods, name, deletedAt, rec)
		wrapped := err
		if err != nil {
			wrapped = fmt.Errorf("failed to delete pods for namespace: %s, err: %w", name, err)
		}
		add(pods, d, err, wrapped)
		if sum.remaining[pods] > 0 {
			sum.podsFirst = true
			sum.errs = errs
			c.writeConditions(ns, upd, rec)
			return sum, aggregateErr(errs)
		}
	}
	for _, g := range resources {
		d, err := c.deleteAllContentForGVR(g, name, deletedAt, rec)
		add(g, d, err, err)
	}
	upd.processContentTotals(sum.remaining, sum.finalizers)
	c.writeConditions(ns, upd, rec)
	sum.errs = errs
	return sum, aggregateErr(errs)
}

// aggregateErr is utilerrors.NewAggregate(errs): nil, the one error, or
// "[a, b]".
func aggregateErr(errs []string) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%s", errs[0])
	}
	var uniq []string
	for _, e := range errs {
		if !slices.Contains(uniq, e) {
			uniq = append(uniq, e)
		}
	}
	if len(uniq) == 1 {
		return fmt.Errorf("%s", uniq[0])
	}
	return fmt.Errorf("[%s]", strings.Join(uniq, ", "))
}

// writeConditions is conditionUpdater.Update followed, when a condition
// changed, by an update of /status with the namespace as the sync holds
// it (a failure is only logged upstream; the record notes it).
func (c *namespaceController) writeConditions(ns *fakeapi.Object, upd *conditionUpdater, rec *Record) {
	if !upd.update(ns, c.env.clock.Now()) {
		return
	}
	if _, err := c.env.api.UpdateStatus(nsClient, ns); err != nil {
		rec.Note("couldn't update status condition for namespace %q: %v", ns.Metadata.Name, err)
	}
}

// deleteAllContentForGVR is deleteAllContentForGroupVersionResource: the
// Pods' grace estimate, a DELETE of the whole collection with
// propagationPolicy Background (so that no orphan finalizer is added), and
// a LIST to see what is left.
func (c *namespaceController) deleteAllContentForGVR(g gvr, ns string, deletedAt time.Time, rec *Record) (gvrDeletion, error) {
	estimate, err := c.estimateGracefulTermination(g, ns, deletedAt)
	if err != nil {
		return gvrDeletion{}, err
	}
	bg := fakeapi.DeletePropagationBackground
	opts := &fakeapi.DeleteOptions{PropagationPolicy: &bg}
	err = c.env.api.DeleteCollection(nsClient, g.apiVersion, g.kind, ns, opts)
	supported := true
	if err != nil {
		if r := fakeapi.ReasonOf(err); r != fakeapi.ReasonMethodNotAllowed && r != fakeapi.ReasonNotFound {
			return gvrDeletion{estimate: estimate}, err
		}
		supported = false
	}
	if !supported {
		if err := c.deleteEachItem(g, ns, opts); err != nil {
			return gvrDeletion{estimate: estimate}, err
		}
	}
	items, err := c.env.api.List(nsClient, g.apiVersion, g.kind, ns)
	if err != nil {
		if r := fakeapi.ReasonOf(err); r == fakeapi.ReasonMethodNotAllowed || r == fakeapi.ReasonNotFound {
			return gvrDeletion{estimate: estimate}, nil
		}
		return gvrDeletion{estimate: estimate}, err
	}
	if len(items) == 0 {
		return gvrDeletion{}, nil
	}
	fins := map[string]int{}
	var held []string
	for _, o := range items {
		for _, f := range o.Metadata.Finalizers {
			fins[f]++
		}
		state := "terminating"
		if o.Metadata.DeletionTimestamp == nil {
			state = "not terminating"
		}
		held = append(held, fmt.Sprintf("%s (%s, finalizers %s)", fakeapi.RefOf(o), state, fmtList(o.Metadata.Finalizers)))
	}
	rec.Note("%s: %d left: %s", g.qualified(), len(items), strings.Join(held, ", "))
	if estimate != 0 {
		return gvrDeletion{estimate: estimate, remaining: len(items), finalizers: fins, held: held}, nil
	}
	if len(fins) > 0 {
		return gvrDeletion{estimate: finalizerEstimateSeconds, remaining: len(items), finalizers: fins, held: held}, nil
	}
	return gvrDeletion{estimate: estimate, remaining: len(items), held: held},
		fmt.Errorf("unexpected items still remain in namespace: %s for gvr: %s", ns, g)
}

// deleteEachItem lists the collection and deletes each item with the
// same options, ignoring NotFound and MethodNotAllowed. gcplay's apiserver
// serves deletecollection for every kind, so this path runs only when a
// fault makes it answer NotFound.
func (c *namespaceController) deleteEachItem(g gvr, ns string, opts *fakeapi.DeleteOptions) error {
	items, err := c.env.api.List(nsClient, g.apiVersion, g.kind, ns)
	if err != nil {
		if r := fakeapi.ReasonOf(err); r == fakeapi.ReasonMethodNotAllowed || r == fakeapi.ReasonNotFound {
			return nil
		}
		return err
	}
	for _, o := range items {
		_, err := c.env.api.Delete(nsClient, fakeapi.Ref{APIVersion: g.apiVersion, Kind: g.kind, Namespace: ns, Name: o.Metadata.Name}, opts)
		if r := fakeapi.ReasonOf(err); err != nil && r != fakeapi.ReasonNotFound && r != fakeapi.ReasonMethodNotAllowed {
			return err
		}
	}
	return nil
}

// estimateGracefulTermination: for Pods, the longest
// terminationGracePeriodSeconds among those not finished, read from a LIST;
// 0 once that long has passed since the namespace was deleted, and for
// every other resource.
func (c *namespaceController) estimateGracefulTermination(g gvr, ns string, deletedAt time.Time) (int64, error) {
	if g.group != "" || g.resource != "pods" {
		return 0, nil
	}
	pods, err := c.env.api.List(nsClient, "v1", "Pod", ns)
	if err != nil {
		return 0, err
	}
	var estimate int64
	for _, p := range pods {
		if phase, _ := nested(p.Fields, "status", "phase"); phase == "Succeeded" || phase == "Failed" {
			continue
		}
		grace, ok := nestedInt(p.Fields, "spec", "terminationGracePeriodSeconds")
		if !ok {
			grace = podDefaultGrace
		}
		estimate = max(estimate, grace)
	}
	if c.env.clock.Now().Sub(deletedAt) >= time.Duration(estimate)*time.Second {
		estimate = 0
	}
	return estimate, nil
}

// The conditions the deleter maintains, in its order, with the reason and
// message of each when nothing is wrong (status False).
var nsConditionTypes = []struct{ typ, okReason, okMessage string }{
	{"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"},
	{"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"},
	{"NamespaceDeletionContentFailure", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
	{"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
	{"NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"},
}

// nsCondition is a NamespaceCondition.
type nsCondition struct{ typ, status, reason, message string }

// conditionUpdater is namespaceConditionUpdater. gcplay's discovery cannot
// fail (no aggregated API server can be unavailable), so the discovery and
// group-version conditions are always written as False.
type conditionUpdater struct {
	newConditions       []nsCondition
	deleteContentErrors []string
}

// processContentTotals is ProcessContentTotals.
func (u *conditionUpdater) processContentTotals(remaining map[gvr]int, finalizers map[string]int) {
	if len(remaining) > 0 {
		u.newConditions = append(u.newConditions, nsCondition{"NamespaceContentRemaining", "True", "SomeResourcesRemain",
			"Some resources are remaining: " + remainingText(remaining)})
	}
	if len(finalizers) > 0 {
		u.newConditions = append(u.newConditions, nsCondition{"NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain",
			"Some content in the namespace has finalizers remaining: " + finalizersText(finalizers)})
	}
}

// update is Update and updateConditions: every condition type is set,
// to the new condition or its "ok" variant; an existing one is changed in
// place, its lastTransitionTime only when its status changes. It reports
// whether anything changed.
func (u *conditionUpdater) update(ns *fakeapi.Object, now time.Time) bool {
	newConds := u.newConditions
	if !slices.ContainsFunc(newConds, func(c nsCondition) bool { return c.typ == "NamespaceDeletionContentFailure" }) && len(u.deleteContentErrors) > 0 {
		msgs := slices.Clone(u.deleteContentErrors)
		sort.Strings(msgs)
		newConds = append(newConds, nsCondition{"NamespaceDeletionContentFailure", "True", "ContentDeletionFailed",
			fmt.Sprintf("Failed to delete all resource types, %d remaining: %s", len(msgs), strings.Join(msgs, ", "))})
	}
	st, _ := ns.Fields.Get("status").(map[string]any)
	if st == nil {
		st = map[string]any{}
		ns.Fields.Set("status", st)
	}
	conds, _ := st["conditions"].([]any)
	stamp := now.UTC().Truncate(time.Second).Format(time.RFC3339)
	changed := false
	for _, ct := range nsConditionTypes {
		want := nsCondition{ct.typ, "False", ct.okReason, ct.okMessage}
		if i := slices.IndexFunc(newConds, func(c nsCondition) bool { return c.typ == ct.typ }); i >= 0 {
			want = newConds[i]
		}
		var old map[string]any
		for _, x := range conds {
			if m, ok := x.(map[string]any); ok && m["type"] == ct.typ {
				old = m
				break
			}
		}
		if old == nil {
			conds = append(conds, map[string]any{"type": want.typ, "status": want.status, "lastTransitionTime": stamp,
				"reason": want.reason, "message": want.message})
			changed = true
			continue
		}
		if old["status"] != want.status || old["message"] != want.message || old["reason"] != want.reason {
			if old["status"] != want.status {
				old["lastTransitionTime"] = stamp
			}
			old["status"], old["reason"], old["message"] = want.status, want.reason, want.message
			changed = true
		}
	}
	st["conditions"] = conds
	return changed
}
