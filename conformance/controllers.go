package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/controller-manager/pkg/informerfactory"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/garbagecollector"
	nsctrl "k8s.io/kubernetes/pkg/controller/namespace"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/volume/pvcprotection"
)

// The controller names, as a scenario's controllers: key spells them.
const (
	ctrlGC          = "garbagecollector"
	ctrlReplicaSet  = "replicaset"
	ctrlDeployment  = "deployment"
	ctrlStatefulSet = "statefulset"
	ctrlDaemonSet   = "daemonset"
	ctrlKubelet     = "kubelet"
	ctrlNamespace   = "namespace"
)

var allControllers = []string{ctrlGC, ctrlReplicaSet, ctrlDeployment, ctrlCronJob, ctrlJob, ctrlTTL, ctrlKubelet, ctrlNamespace}

// defaultNodeName is the node the kubelet stand-in binds Pods to, as
// gcplay's does.
const defaultNodeName = "node-1"

const (
	// gcWorkers is kube-controller-manager's --concurrent-gc-syncs default.
	gcWorkers = 20
	// gcSyncPeriod is how often the collector rediscovers resources and
	// resets its REST mapper: the integration test's 5s (kube-controller-
	// manager uses 30s; every kind a scenario uses is served before the
	// collector starts, so the period only matters for that reset).
	gcSyncPeriod = 5 * time.Second
	// rsWorkers and deployWorkers are the --concurrent-replicaset-syncs
	// and --concurrent-deployment-syncs defaults.
	rsWorkers     = 5
	deployWorkers = 5
	// dsWorkers is --concurrent-daemonset-syncs' default.
	dsWorkers = 2
	// nsWorkers is --concurrent-namespace-syncs' default, and
	// nsResyncPeriod --namespace-sync-period's.
	nsWorkers      = 10
	nsResyncPeriod = 5 * time.Minute
)

// running is one started controller: cancel stops it, wg waits for its
// goroutines, shutdown waits for its informers.
type running struct {
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	shutdown []func()
	gc       *garbagecollector.GarbageCollector
	kubelet  *kubelet
}

func (r *running) goRun(f func()) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		f()
	}()
}

func (r *running) stop() {
	r.cancel()
	r.wg.Wait()
	for _, f := range r.shutdown {
		f()
	}
}

// controllers starts, stops and restarts the controllers of one cluster.
type controllers struct {
	c       *Cluster
	mu      sync.Mutex
	running map[string]*running
}

func newControllers(c *Cluster) *controllers {
	return &controllers{c: c, running: map[string]*running{}}
}

// configFor returns a client config with the controller's user agent, as
// kube-controller-manager gives each controller its own.
func (cs *controllers) configFor(name string) *rest.Config {
	return rest.AddUserAgent(rest.CopyConfig(cs.c.config), name)
}

// start starts the named controller and waits until its caches are synced.
func (cs *controllers) start(name string) error {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if _, ok := cs.running[name]; ok {
		return nil
	}
	var r *running
	var err error
	switch name {
	case ctrlGC:
		r, err = cs.startGC()
	case ctrlReplicaSet:
		r, err = cs.startReplicaSet()
	case ctrlDeployment:
		r, err = cs.startDeployment()
	case ctrlStatefulSet:
		r, err = cs.startStatefulSet()
	case ctrlDaemonSet:
		r, err = cs.startDaemonSet()
	case ctrlKubelet:
		r, err = cs.startKubelet()
	case ctrlJob, ctrlCronJob, ctrlTTL:
		r, err = cs.startBatch(name)
	case ctrlNamespace:
		r, err = cs.startNamespace()
	default:
		return fmt.Errorf("unknown controller %q", name)
	}
	if err != nil {
		return fmt.Errorf("starting %s: %w", name, err)
	}
	cs.running[name] = r
	return nil
}

// stop stops the named controller and waits until it has stopped.
func (cs *controllers) stop(name string) {
	cs.mu.Lock()
	r := cs.running[name]
	delete(cs.running, name)
	cs.mu.Unlock()
	if r != nil {
		r.stop()
	}
}

func (cs *controllers) stopAll() {
	cs.mu.Lock()
	names := make([]string, 0, len(cs.running))
	for n := range cs.running {
		names = append(names, n)
	}
	cs.mu.Unlock()
	sort.Strings(names)
	for _, n := range names {
		cs.stop(n)
	}
}

// started reports whether any controller runs.
func (cs *controllers) started() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return len(cs.running) > 0
}

// gcQueued returns the number of items ready in the collector's
// attemptToDelete and attemptToOrphan queues (items waiting out a
// rate-limit delay are not counted), or 0 when it does not run.
func (cs *controllers) gcQueued() int {
	cs.mu.Lock()
	r := cs.running[ctrlGC]
	cs.mu.Unlock()
	if r == nil || r.gc == nil {
		return 0
	}
	del, orph, _ := r.gc.GetDependencyGraphBuilder().GetGraphResources()
	return del.Len() + orph.Len()
}

// namespaceRuns reports whether the namespace controller runs.
func (cs *controllers) namespaceRuns() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.running[ctrlNamespace] != nil
}

// kubeletDue returns the earliest time at which the kubelet stand-in will
// remove a terminating Pod, if it has one to remove.
func (cs *controllers) kubeletDue() (time.Time, bool) {
	cs.mu.Lock()
	r := cs.running[ctrlKubelet]
	cs.mu.Unlock()
	if r == nil || r.kubelet == nil {
		return time.Time{}, false
	}
	return r.kubelet.nextDue()
}

func (cs *controllers) baseContext() (context.Context, context.CancelFunc) {
	ctx := klog.NewContext(context.Background(), klog.Background())
	return context.WithCancel(ctx)
}

// startGC sets the garbage collector up as upstream's integration test
// does (test/integration/garbagecollector setupWithServer): a metadata
// client, a REST mapper over cached discovery, typed and metadata
// informer factories, NewGarbageCollector, then Run, periodic Sync and a
// periodic mapper reset.
func (cs *controllers) startGC() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	cfg := cs.configFor("generic-garbage-collector")
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		cancel()
		return nil, err
	}
	metaClient, err := metadata.NewForConfig(cfg)
	if err != nil {
		cancel()
		return nil, err
	}
	restMapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	restMapper.Reset()
	shared := informers.NewSharedInformerFactory(client, 0)
	metaInformers := metadatainformer.NewSharedInformerFactory(metaClient, 0)
	informersStarted := make(chan struct{})
	close(informersStarted)
	gc, err := garbagecollector.NewGarbageCollector(ctx, client, metaClient, restMapper,
		garbagecollector.DefaultIgnoredResources(),
		informerfactory.NewInformerFactory(shared, metaInformers), informersStarted)
	if err != nil {
		cancel()
		return nil, err
	}
	r.gc = gc
	r.shutdown = append(r.shutdown, shared.Shutdown, metaInformers.Shutdown)
	r.goRun(func() { wait.Until(restMapper.Reset, gcSyncPeriod, ctx.Done()) })
	r.goRun(func() { gc.Run(ctx, gcWorkers, gcSyncPeriod) })
	r.goRun(func() { gc.Sync(ctx, client.Discovery(), gcSyncPeriod) })
	logger := klog.FromContext(ctx)
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
		return gc.IsSynced(logger), nil
	})
	if err != nil {
		r.stop()
		return nil, fmt.Errorf("the collector's monitors did not sync: %w", err)
	}
	return r, nil
}

// startReplicaSet starts the ReplicaSet controller as upstream's
// integration test does (test/integration/replicaset rmSetup).
func (cs *controllers) startReplicaSet() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	client, err := kubernetes.NewForConfig(cs.configFor("replicaset-controller"))
	if err != nil {
		cancel()
		return nil, err
	}
	f := informers.NewSharedInformerFactory(client, 0)
	rm := replicaset.NewReplicaSetController(ctx, f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), client, replicaset.BurstReplicas)
	f.Start(ctx.Done())
	r.shutdown = append(r.shutdown, f.Shutdown)
	f.WaitForCacheSync(ctx.Done())
	r.goRun(func() { rm.Run(ctx, rsWorkers) })
	return r, nil
}

// startStatefulSet starts the StatefulSet controller as
// kube-controller-manager does (startStatefulSetController), with one
// worker.
func (cs *controllers) startStatefulSet() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	client, err := kubernetes.NewForConfig(cs.configFor("statefulset-controller"))
	if err != nil {
		cancel()
		return nil, err
	}
	f := informers.NewSharedInformerFactory(client, 0)
	sc := statefulset.NewStatefulSetController(ctx, f.Core().V1().Pods(), f.Apps().V1().StatefulSets(),
		f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().ControllerRevisions(), client)
	// The apiserver gives every claim the kubernetes.io/pvc-protection
	// finalizer; kube-controller-manager's PVC protection controller
	// removes it once no Pod uses the claim. gcplay has neither (its
	// claims go at once), so the runner starts this controller with the
	// StatefulSet controller, for the claims to go as they would.
	pc, err := pvcprotection.NewPVCProtectionController(klog.FromContext(ctx), f.Core().V1().PersistentVolumeClaims(), f.Core().V1().Pods(), client)
	if err != nil {
		cancel()
		return nil, err
	}
	f.Start(ctx.Done())
	r.shutdown = append(r.shutdown, f.Shutdown)
	f.WaitForCacheSync(ctx.Done())
	r.goRun(func() { sc.Run(ctx, 1) })
	r.goRun(func() { pc.Run(ctx, 1) })
	return r, nil
}

// startDaemonSet starts the DaemonSet controller as
// kube-controller-manager does (startDaemonSetController): its own client,
// informers on DaemonSets, ControllerRevisions, Pods and Nodes, the failed
// Pod backoff of 1s to 15m, and 2 workers.
func (cs *controllers) startDaemonSet() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	client, err := kubernetes.NewForConfig(cs.configFor("daemon-set-controller"))
	if err != nil {
		cancel()
		return nil, err
	}
	f := informers.NewSharedInformerFactory(client, 0)
	dc, err := daemon.NewDaemonSetsController(ctx, f.Apps().V1().DaemonSets(), f.Apps().V1().ControllerRevisions(),
		f.Core().V1().Pods(), f.Core().V1().Nodes(), client, flowcontrol.NewBackOff(1*time.Second, 15*time.Minute))
	if err != nil {
		cancel()
		return nil, err
	}
	f.Start(ctx.Done())
	r.shutdown = append(r.shutdown, f.Shutdown)
	f.WaitForCacheSync(ctx.Done())
	r.goRun(func() { dc.Run(ctx, dsWorkers) })
	return r, nil
}

// startDeployment starts the Deployment controller as upstream's
// integration test does (test/integration/deployment dcSetup).
func (cs *controllers) startDeployment() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	client, err := kubernetes.NewForConfig(cs.configFor("deployment-controller"))
	if err != nil {
		cancel()
		return nil, err
	}
	f := informers.NewSharedInformerFactory(client, 0)
	dc, err := deployment.NewDeploymentController(ctx, f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), client)
	if err != nil {
		cancel()
		return nil, err
	}
	f.Start(ctx.Done())
	r.shutdown = append(r.shutdown, f.Shutdown)
	f.WaitForCacheSync(ctx.Done())
	r.goRun(func() { dc.Run(ctx, deployWorkers) })
	return r, nil
}

// startNamespace starts the namespace controller as kube-controller-
// manager does (startNamespaceController): a metadata client for the
// content, discovery of the preferred namespaced resources, and the
// Namespace informer.
func (cs *controllers) startNamespace() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	cfg := cs.configFor("namespace-controller")
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		cancel()
		return nil, err
	}
	metaClient, err := metadata.NewForConfig(cfg)
	if err != nil {
		cancel()
		return nil, err
	}
	f := informers.NewSharedInformerFactory(client, 0)
	nc := nsctrl.NewNamespaceController(ctx, client, metaClient, client.Discovery().ServerPreferredNamespacedResources,
		f.Core().V1().Namespaces(), nsResyncPeriod, v1.FinalizerKubernetes)
	f.Start(ctx.Done())
	r.shutdown = append(r.shutdown, f.Shutdown)
	f.WaitForCacheSync(ctx.Done())
	r.goRun(func() { nc.Run(ctx, nsWorkers) })
	return r, nil
}

// kubelet plays the parts gcplay's simulated kubelet plays (engine/
// kubelet.go, podlife.go), on every node: it stands in for the scheduler
// by binding a Pod that has no spec.nodeName but has a controller (as
// every Pod a ReplicaSet creates) to node "node-1" (a DaemonSet's Pod to
// the node its node affinity names, targetNode), through the binding
// subresource as kube-scheduler does; it makes a bound Pod Running and
// Ready (status.phase, startTime, the Pod conditions and a running, ready
// status per container) as the kubelet's status update would; and it
// ends a terminating bound Pod once its deletionTimestamp, the end of its
// grace period, has passed, as the kubelet does after stopping the
// containers: it writes the terminal status (phase Failed, the containers
// terminated with exit code 137), then, on its next pass, deletes the Pod
// with grace period 0 (and a UID precondition). A Pod
// written without spec.nodeName and without a controller stays
// unscheduled: the apiserver deletes it without grace (R18). No container
// runs, and no Node object exists unless the scenario writes one; gcplay
// waits 1s before binding and 2s before running, on its virtual clock,
// which the runner does not copy.
type kubelet struct {
	client kubernetes.Interface
	mu     sync.Mutex
	due    map[types.UID]time.Time
	done   map[types.UID]bool
}

func (cs *controllers) startKubelet() (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	client, err := kubernetes.NewForConfig(cs.configFor("kubelet"))
	if err != nil {
		cancel()
		return nil, err
	}
	k := &kubelet{client: client, due: map[types.UID]time.Time{}, done: map[types.UID]bool{}}
	r.kubelet = k
	if err := k.sync(ctx); err != nil {
		cancel()
		return nil, err
	}
	r.goRun(func() {
		wait.UntilWithContext(ctx, func(ctx context.Context) { _ = k.sync(ctx) }, 100*time.Millisecond)
	})
	return r, nil
}

func (k *kubelet) nextDue() (time.Time, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var first time.Time
	for _, t := range k.due {
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first, !first.IsZero()
}

func (k *kubelet) sync(ctx context.Context) error {
	pods, err := k.client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	due := map[types.UID]time.Time{}
	now := time.Now()
	for i := range pods.Items {
		p := &pods.Items[i]
		if p.Spec.NodeName == "" {
			if p.DeletionTimestamp == nil && metav1.GetControllerOf(p) != nil {
				err := k.client.CoreV1().Pods(p.Namespace).Bind(ctx, &v1.Binding{
					ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, UID: p.UID},
					Target:     v1.ObjectReference{Kind: "Node", Name: targetNode(p)},
				}, metav1.CreateOptions{})
				if err != nil && !isNotFound(err) {
					due[p.UID] = now // try again on the next pass
				}
			}
			continue
		}
		if p.DeletionTimestamp != nil {
			k.mu.Lock()
			done := k.done[p.UID]
			k.mu.Unlock()
			if done {
				continue
			}
			terminal := p.Status.Phase == v1.PodFailed || p.Status.Phase == v1.PodSucceeded
			if now.Before(p.DeletionTimestamp.Time) && !terminal {
				due[p.UID] = p.DeletionTimestamp.Time
				continue
			}
			if !terminal {
				// SyncTerminatingPod's status: the containers killed at the
				// end of the grace period (exit code 137), phase Failed;
				// the delete waits for the next pass, once the apiserver
				// holds that phase (the status manager's canBeDeleted).
				p = p.DeepCopy()
				end := metav1.NewTime(now)
				p.Status.Phase = v1.PodFailed
				for i := range p.Status.Conditions {
					c := &p.Status.Conditions[i]
					switch c.Type {
					case v1.PodReady, v1.ContainersReady:
						c.Status, c.Reason, c.LastTransitionTime = v1.ConditionFalse, "PodFailed", end
					}
				}
				var statuses []v1.ContainerStatus
				for _, c := range p.Spec.Containers {
					st := v1.ContainerStatus{Name: c.Name, Image: c.Image, State: v1.ContainerState{Terminated: &v1.ContainerStateTerminated{
						ExitCode: 137, Reason: "ContainerStatusUnknown", Message: "The container could not be located when the pod was terminated"}}}
					for _, old := range p.Status.ContainerStatuses {
						if old.Name == c.Name && old.State.Running != nil {
							st.State.Terminated = &v1.ContainerStateTerminated{ExitCode: 137, Reason: "Error",
								StartedAt: old.State.Running.StartedAt, FinishedAt: end}
						}
					}
					statuses = append(statuses, st)
				}
				p.Status.ContainerStatuses = statuses
				if _, err := k.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil && !isNotFound(err) {
					due[p.UID] = now
					continue
				}
				due[p.UID] = now // deleted on the next pass
				continue
			}
			uid := p.UID
			err := k.client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{
				GracePeriodSeconds: new(int64), Preconditions: &metav1.Preconditions{UID: &uid},
			})
			if err == nil || isNotFound(err) {
				k.mu.Lock()
				k.done[p.UID] = true
				k.mu.Unlock()
			} else {
				due[p.UID] = now
			}
			continue
		}
		if p.Status.Phase == "" || p.Status.Phase == v1.PodPending {
			p = p.DeepCopy()
			start := metav1.NewTime(now)
			p.Status.Phase = v1.PodRunning
			p.Status.StartTime = &start
			// The conditions the kubelet does not own (readiness gates'),
			// then its own, Ready as the gates make it.
			var conds []v1.PodCondition
			for _, c := range p.Status.Conditions {
				switch c.Type {
				case v1.PodScheduled, v1.PodInitialized, v1.ContainersReady, v1.PodReady:
				default:
					conds = append(conds, c)
				}
			}
			p.Status.Conditions = conds
			ready := gatedReady(p)
			ready.LastTransitionTime = start
			p.Status.Conditions = append(conds,
				v1.PodCondition{Type: v1.PodScheduled, Status: v1.ConditionTrue, LastTransitionTime: start},
				v1.PodCondition{Type: v1.PodInitialized, Status: v1.ConditionTrue, LastTransitionTime: start},
				v1.PodCondition{Type: v1.ContainersReady, Status: v1.ConditionTrue, LastTransitionTime: start},
				ready,
			)
			p.Status.ContainerStatuses = nil
			started := true
			for _, c := range p.Spec.Containers {
				p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, v1.ContainerStatus{
					Name: c.Name, Image: c.Image, Ready: true, Started: &started,
					State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: start}},
				})
			}
			if _, err := k.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
				due[p.UID] = now // try again on the next pass
			}
			continue
		}
		// A running Pod whose Ready its readiness gates disagree with
		// (a status update set a gate's condition): the kubelet's sync
		// writes Ready again (NeedToReconcilePodReadiness), as gcplay's
		// kubelet does.
		if p.Status.Phase == v1.PodRunning && len(p.Spec.ReadinessGates) > 0 {
			want := gatedReady(p)
			for i := range p.Status.Conditions {
				c := &p.Status.Conditions[i]
				if c.Type != v1.PodReady || (c.Status == want.Status && c.Message == want.Message) {
					continue
				}
				p = p.DeepCopy()
				c = &p.Status.Conditions[i]
				if c.Status != want.Status {
					c.LastTransitionTime = metav1.NewTime(now)
				}
				c.Status, c.Reason, c.Message = want.Status, want.Reason, want.Message
				if _, err := k.client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil && !isNotFound(err) {
					due[p.UID] = now
				}
				break
			}
		}
	}
	k.mu.Lock()
	k.due = due
	k.mu.Unlock()
	return nil
}

// targetNode is where the stand-in scheduler binds a Pod: the one node a
// required node affinity on metadata.name pins it to (a DaemonSet's Pod,
// util.GetTargetNodeName), as gcplay's does; else node-1.
func targetNode(p *v1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return defaultNodeName
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range t.MatchFields {
			if f.Key == "metadata.name" && f.Operator == v1.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return defaultNodeName
}

// gatedReady is the Ready condition of a Pod whose containers are ready,
// as the kubelet's GeneratePodReadyCondition makes it: False, reason
// ReadinessGatesNotReady, while a readiness gate's condition is missing
// or not True.
func gatedReady(p *v1.Pod) v1.PodCondition {
	var unready []string
	for _, g := range p.Spec.ReadinessGates {
		found := false
		for _, c := range p.Status.Conditions {
			if c.Type != g.ConditionType {
				continue
			}
			found = true
			if c.Status != v1.ConditionTrue {
				unready = append(unready, fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", g.ConditionType, c.Status))
			}
			break
		}
		if !found {
			unready = append(unready, fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", g.ConditionType))
		}
	}
	if len(unready) > 0 {
		return v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionFalse, Reason: "ReadinessGatesNotReady", Message: strings.Join(unready, ", ")}
	}
	return v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionTrue}
}
