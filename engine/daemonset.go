package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// Settings and names of kube-controller-manager's DaemonSet controller
// (pkg/controller/daemon, v1.34).
const (
	dsClient = "daemon-set-controller"
	// ControllerDaemonSet is the DaemonSet controller's name in
	// `controllers:`.
	ControllerDaemonSet = "daemonset"
)

var daemonSetRegistration = registration{
	name:        ControllerDaemonSet,
	queues:      []string{ControllerDaemonSet},
	restartable: true,
	new:         newDaemonSetController,
}

const dsFuncPrefix = "DaemonSetsController."

// daemonSetController is kube-controller-manager's DaemonSet controller,
// made steppable: one step is one syncDaemonSet of one key.
//
// gcplay keeps the part that decides ownership: one Pod per Node whose
// labels match the template's nodeSelector, created with the DaemonSet as
// controller and pinned to its Node by node affinity, deleted when the
// Node stops matching; orphans adopted and Pods released by selector.
// It leaves out (docs/CONTROLLERS.md): taints and tolerations, the
// template's own node affinity, ControllerRevisions and the rolling
// update of changed templates, the failed-Pod backoff, and expectations.
type daemonSetController struct {
	env   *env
	q     *workqueue[string]
	dss   map[string]*fakeapi.Object
	pods  map[string]*fakeapi.Object
	nodes map[string]*fakeapi.Object
}

func newDaemonSetController(e *env) controller {
	c := &daemonSetController{env: e}
	c.reset()
	return c
}

func (c *daemonSetController) reset() {
	c.setQueue(newWorkqueue[string](ControllerDaemonSet))
	c.dss = map[string]*fakeapi.Object{}
	c.pods = map[string]*fakeapi.Object{}
	c.nodes = map[string]*fakeapi.Object{}
}

func (c *daemonSetController) setQueue(q *workqueue[string]) {
	c.q = q
	q.onAdd = func(key string, d time.Duration) { c.env.enqueued(ControllerDaemonSet, keyRef("DaemonSet", key), d) }
}

// observe is the handlers: DaemonSet events; Pod events by controller
// reference, or for an orphan every DaemonSet whose selector matches;
// Node events wake every DaemonSet (addNode, updateNode, deleteNode).
func (c *daemonSetController) observe(ev fakeapi.WatchEvent) {
	o := ev.Object
	key := objKey(o)
	switch {
	case isKind(o, "apps/v1", "DaemonSet"):
		if ev.Type == fakeapi.Deleted {
			delete(c.dss, key)
		} else {
			c.dss[key] = o
		}
		c.q.Add(key)
	case isKind(o, "v1", "Pod"):
		if ev.Type == fakeapi.Deleted {
			delete(c.pods, key)
		} else {
			c.pods[key] = o
		}
		if ev.Old != nil {
			if ref := controllerOf(ev.Old); ref != nil && !sameControllerRef(ref, controllerOf(o)) {
				if ds := c.resolve(ev.Old.Metadata.Namespace, ref); ds != nil {
					c.q.Add(objKey(ds))
				}
			}
		}
		if ref := controllerOf(o); ref != nil {
			if ds := c.resolve(o.Metadata.Namespace, ref); ds != nil {
				c.q.Add(objKey(ds))
			}
			return
		}
		if ev.Type == fakeapi.Deleted {
			return
		}
		for _, k := range sortedKeys(c.dss) {
			ds := c.dss[k]
			if ds.Metadata.Namespace != o.Metadata.Namespace {
				continue
			}
			if sel, err := parseSelector(nestedMap(specOf(ds), "selector")); err == nil && !sel.empty() && sel.matches(o.Metadata.Labels) {
				c.q.Add(k)
			}
		}
	case isKind(o, "v1", "Node"):
		name := o.Metadata.Name
		if ev.Type == fakeapi.Deleted {
			delete(c.nodes, name)
		} else {
			c.nodes[name] = o
		}
		for _, k := range sortedKeys(c.dss) {
			c.q.Add(k)
		}
	}
}

func (c *daemonSetController) resolve(namespace string, ref *fakeapi.OwnerReference) *fakeapi.Object {
	if ref == nil || ref.Kind != "DaemonSet" {
		return nil
	}
	ds := c.dss[namespace+"/"+ref.Name]
	if ds == nil || ds.Metadata.UID != ref.UID {
		return nil
	}
	return ds
}

func (c *daemonSetController) promote(now time.Duration)      { c.q.Promote(now) }
func (c *daemonSetController) ready(string) bool              { return c.q.Len() > 0 }
func (c *daemonSetController) nextDue() (time.Duration, bool) { return c.q.NextDue() }
func (c *daemonSetController) items(string) []QueueItem       { return keyQueueItems(c.q, "DaemonSet") }

func (c *daemonSetController) describeNext(string) string {
	if items := c.q.Items(); len(items) > 0 {
		return "daemonset: sync " + keyRef("DaemonSet", items[0])
	}
	return ""
}

// retriesCapped lets settle stop once only retries at the maximum backoff
// are left.
func (c *daemonSetController) retriesCapped() (pending, capped bool) {
	atMax := func(n int) bool { return n > 0 && float64(backoffBase)*pow2(n-1) >= float64(backoffMax) }
	for _, wi := range c.q.Waiting() {
		if !atMax(c.q.NumRequeues(wi.item)) {
			return true, false
		}
		pending = true
	}
	return pending, pending
}

func (c *daemonSetController) step(_ string, rec *Record) {
	key, ok := c.q.Get()
	if !ok {
		return
	}
	defer c.q.Done(key)
	rec.Item = keyRef("DaemonSet", key)
	if err := c.syncDaemonSet(key, rec); err != nil {
		d := c.q.AddRateLimited(key, c.env.now())
		rec.Err = err.Error()
		rec.Reason.Message += fmt.Sprintf("; retried in %s", d)
		return
	}
	c.q.Forget(key)
}

func (c *daemonSetController) restart(rec *Record) {
	c.reset()
	relist(c.env, dsClient, rec, c.observe, [][2]string{{"apps/v1", "DaemonSet"}, {"v1", "Pod"}, {"v1", "Node"}})
}

func (c *daemonSetController) clone(e *env) controller {
	cp := func(m map[string]*fakeapi.Object) map[string]*fakeapi.Object {
		n := make(map[string]*fakeapi.Object, len(m))
		for k, v := range m {
			n[k] = v
		}
		return n
	}
	n := &daemonSetController{env: e, dss: cp(c.dss), pods: cp(c.pods), nodes: cp(c.nodes)}
	n.setQueue(c.q.clone(func(s string) string { return s }))
	return n
}

func (c *daemonSetController) event(o *fakeapi.Object, typ, reason, msg string) {
	c.env.api.RecordEvent(dsClient, fakeapi.Event{Object: fakeapi.RefOf(o), ObjectUID: o.Metadata.UID,
		Type: typ, Reason: reason, Message: msg, Source: dsClient})
}

// daemonPodNode is the node a daemon Pod is for: spec.nodeName, else the
// node its required node affinity pins it to (GetTargetNodeName).
func daemonPodNode(p *fakeapi.Object) string {
	if n := nodeName(p); n != "" {
		return n
	}
	terms, _ := nestedSlice(specOf(p), "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
	for _, t := range terms {
		fields, _ := nestedSlice(t, "matchFields")
		for _, f := range fields {
			if nestedString(f, "key") == "metadata.name" && nestedString(f, "operator") == "In" {
				if vals, ok := nestedSlice(f, "values"); ok && len(vals) == 1 {
					if s, ok := vals[0].(string); ok {
						return s
					}
				}
			}
		}
	}
	return ""
}

// syncDaemonSet claims the Pods, then manage: one Pod on each Node the
// nodeSelector matches, none elsewhere; then the status.
func (c *daemonSetController) syncDaemonSet(key string, rec *Record) error {
	const fn = dsFuncPrefix + "syncDaemonSet"
	ds := c.dss[key]
	if ds == nil {
		rec.Reason = Reason{Code: "DaemonSetGone", Func: fn, Message: rec.Item + " has been deleted: nothing to do"}
		return nil
	}
	spec := specOf(ds)
	sel, err := parseSelector(nestedMap(spec, "selector"))
	tmpl := nestedMap(spec, "template")
	if err != nil || sel.empty() || !sel.matches(stringMap(nestedMap(tmpl, "metadata")["labels"])) {
		rec.Reason = Reason{Code: "InvalidSpec", Func: fn, Message: rec.Item + " has no selector, or one that does not match its template's labels: the apiserver would have refused it"}
		return nil
	}
	m := &refManager{env: c.env, client: dsClient, owner: ds, selector: sel, rec: rec,
		canAdoptFunc: recheckDeletionTimestamp(c.env, dsClient, ds)}
	byNode := map[string][]*fakeapi.Object{}
	var errs []error
	for _, k := range sortedKeys(c.pods) {
		p := c.pods[k]
		if p.Metadata.Namespace != ds.Metadata.Namespace {
			continue
		}
		ok, err := m.claim(p, func(o *fakeapi.Object) bool { return sel.matches(o.Metadata.Labels) })
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			n := daemonPodNode(p)
			byNode[n] = append(byNode[n], p)
		}
	}
	if err := aggregate(errs); err != nil {
		rec.Reason = Reason{Code: "ClaimFailed", Func: fn + ", getDaemonPods", Message: "claiming Pods failed: " + err.Error()}
		return err
	}
	funcs := []string{fn}
	var did []string
	code := "InSync"
	nodeSelector := stringMap(nestedMap(tmpl, "spec")["nodeSelector"])
	desired := 0
	if ds.Metadata.DeletionTimestamp == nil {
		funcs = append(funcs, "manage", "podsShouldBeOnNode")
		var create []string
		var del []*fakeapi.Object
		for _, name := range sortedKeys(c.nodes) {
			node := c.nodes[name]
			shouldRun := labelsMatch(nodeSelector, node.Metadata.Labels)
			var alive []*fakeapi.Object
			for _, p := range byNode[name] {
				if p.Metadata.DeletionTimestamp == nil {
					alive = append(alive, p)
				}
			}
			switch {
			case shouldRun && len(byNode[name]) == 0:
				create = append(create, name)
			case shouldRun && len(alive) > 1:
				// keep the oldest, delete the rest
				slices.SortStableFunc(alive, byCreation)
				del = append(del, alive[1:]...)
			case !shouldRun:
				del = append(del, alive...)
			}
			if shouldRun {
				desired++
			}
		}
		// Unscheduled Pods for Nodes that no longer exist
		// (getUnscheduledPodsWithoutNode).
		for _, n := range sortedKeys(byNode) {
			if _, ok := c.nodes[n]; ok {
				continue
			}
			for _, p := range byNode[n] {
				if nodeName(p) == "" && p.Metadata.DeletionTimestamp == nil {
					del = append(del, p)
				}
			}
		}
		for _, n := range create {
			if err := c.createPod(ds, tmpl, n); err != nil {
				code = "CreateFailed"
				did = append(did, fmt.Sprintf("creating the Pod for node %s failed (%v)", n, err))
				errs = append(errs, err)
				break
			}
			code = "CreatedPods"
			did = append(did, "created a Pod for node "+n)
		}
		for _, p := range del {
			if _, err := c.env.api.Delete(dsClient, fakeapi.RefOf(p), nil); err != nil && !fakeapi.IsNotFound(err) {
				code = "DeleteFailed"
				errs = append(errs, err)
				continue
			}
			c.event(ds, "Normal", "SuccessfulDelete", "Deleted pod: "+p.Metadata.Name)
			if code == "InSync" {
				code = "DeletedPods"
			}
			did = append(did, fmt.Sprintf("deleted %s (node %s: %s)", p, daemonPodNode(p), whyNotOnNode(c.nodes[daemonPodNode(p)], nodeSelector)))
		}
	} else {
		code = "BeingDeleted"
		did = append(did, "the DaemonSet is being deleted: only its status is updated")
		for _, name := range sortedKeys(c.nodes) {
			if labelsMatch(nodeSelector, c.nodes[name].Metadata.Labels) {
				desired++
			}
		}
	}
	if s := m.summary(); s != "" {
		did = append(did, s)
	}
	if err := c.updateStatus(ds, byNode, nodeSelector, desired); err != nil {
		errs = append(errs, err)
	}
	if len(did) == 0 {
		did = append(did, "every matching Node runs one Pod: nothing to do")
	}
	rec.Reason = Reason{Code: code, Func: strings.Join(funcs, ", "),
		Message: fmt.Sprintf("%s: %d Node(s) match nodeSelector %s; %s", rec.Item, desired, selectorPhrase(nodeSelector), strings.Join(did, "; "))}
	return aggregate(errs)
}

func labelsMatch(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func selectorPhrase(sel map[string]string) string {
	if len(sel) == 0 {
		return "(none: every Node)"
	}
	var parts []string
	for _, k := range sortedKeys(sel) {
		parts = append(parts, k+"="+sel[k])
	}
	return strings.Join(parts, ",")
}

func whyNotOnNode(node *fakeapi.Object, sel map[string]string) string {
	if node == nil {
		return "the Node no longer exists"
	}
	if !labelsMatch(sel, node.Metadata.Labels) {
		return "its labels no longer match nodeSelector " + selectorPhrase(sel)
	}
	return "a second Pod on the Node: the oldest stays"
}

// createPod is CreatePods with the template pinned to node by a required
// node affinity on metadata.name (ReplaceDaemonSetPodNodeNameNodeAffinity).
func (c *daemonSetController) createPod(ds *fakeapi.Object, tmpl map[string]any, node string) error {
	meta := nestedMap(tmpl, "metadata")
	spec := copyJSONMap(nestedMap(tmpl, "spec"))
	if spec == nil {
		spec = map[string]any{}
	}
	spec["affinity"] = map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
		"nodeSelectorTerms": []any{map[string]any{"matchFields": []any{map[string]any{
			"key": "metadata.name", "operator": "In", "values": []any{node}}}}}}}}
	pod := &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{
		GenerateName: ds.Metadata.Name + "-", Namespace: ds.Metadata.Namespace,
		Labels: stringMap(meta["labels"]), Annotations: stringMap(meta["annotations"]),
		OwnerReferences: []fakeapi.OwnerReference{newControllerRef(ds)},
	}, Fields: map[string]any{"spec": spec}}
	out, err := c.env.api.Create(dsClient, pod)
	if err != nil {
		c.event(ds, "Warning", "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	c.event(ds, "Normal", "SuccessfulCreate", "Created pod: "+out.Metadata.Name)
	return nil
}

// updateStatus is updateDaemonSetStatus: written when it changed.
func (c *daemonSetController) updateStatus(ds *fakeapi.Object, byNode map[string][]*fakeapi.Object, sel map[string]string, desired int) error {
	var current, mis, ready int64
	for n, pods := range byNode {
		node := c.nodes[n]
		if len(pods) == 0 {
			continue
		}
		if node != nil && labelsMatch(sel, node.Metadata.Labels) {
			current++
			for _, p := range pods {
				if isRunningAndReady(p) {
					ready++
					break
				}
			}
		} else if node != nil {
			mis++
		}
	}
	st := map[string]any{
		"observedGeneration":     ds.Metadata.Generation,
		"desiredNumberScheduled": int64(desired),
		"currentNumberScheduled": current,
		"numberMisscheduled":     mis,
		"numberReady":            ready,
		"numberAvailable":        ready,
		"numberUnavailable":      int64(desired) - ready,
	}
	want := toJSONValue(st)
	if fmt.Sprint(toJSONValue(ds.Fields["status"])) == fmt.Sprint(want) {
		return nil
	}
	fresh := ds.DeepCopy()
	if fresh.Fields == nil {
		fresh.Fields = map[string]any{}
	}
	fresh.Fields["status"] = want
	_, err := c.env.api.Update(dsClient, fresh)
	return err
}
