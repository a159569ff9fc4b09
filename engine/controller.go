// Package engine is gcplay's steppable control plane: the garbage
// collector and the workload controllers it cleans up after, under one
// scheduler on a virtual clock, with a record for every step.
//
// The workload controllers follow kube-controller-manager: the Deployment
// controller (deployment.go) owns ReplicaSets, the ReplicaSet controller
// (replicaset.go) owns Pods, and both claim, adopt and release by selector
// (controllerref.go). Where gcplay simplifies, it says so here and in
// docs/CONTROLLERS.md:
//
//   - There is no kube-scheduler. The kubelet controller plays it: a Pod
//     created without spec.nodeName that has a controller (every Pod a
//     ReplicaSet creates) is bound to node "node-1" one second later. A Pod
//     written by hand without spec.nodeName and without a controller stays
//     unscheduled, so both kinds of Pod deletion can be shown.
//   - There is no container runtime and there are no probes: two seconds
//     after a Pod is bound, the kubelet reports it Running and Ready.
//   - The fake apiserver neither defaults nor validates workload specs: the
//     controllers apply the apps/v1 defaults when they read a spec (replicas
//     1, RollingUpdate with 25% maxSurge and maxUnavailable,
//     revisionHistoryLimit 10, progressDeadlineSeconds 600), and leave alone
//     a ReplicaSet or Deployment the apiserver would have refused (no
//     selector, or one that does not match the template's labels).
//   - Status is written with a plain update: there is no status
//     subresource.
package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// controller is a workload controller that runs beside the collector under
// the same scheduler (the kubelet, the ReplicaSet and Deployment
// controllers). Like the collector it is single-threaded and steppable:
// one step is one sync of one queued key.
type controller interface {
	// name is the controller's name in `controllers:` and the trace.
	name() string
	// observe is its informers' event handler, called synchronously for
	// every change in storage.
	observe(ev fakeapi.WatchEvent)
	// promote moves delayed keys that are due at now into its queue.
	promote(now time.Duration)
	// ready reports whether a key is ready to sync.
	ready() bool
	// nextDue returns when its next delayed key becomes due.
	nextDue() (time.Duration, bool)
	// step syncs one key, writing what it did into rec.
	step(rec *Record)
	// queue returns its queue, ready keys first, then delayed ones.
	queue() []QueueItem
	// describeNext says what its next step will sync.
	describeNext() string
	// restart throws away its in-memory state and relists.
	restart(rec *Record)
	// clone returns an independent copy bound to e.
	clone(e *env) controller
}

// controllerFactories builds the workload controllers by name, in the
// scheduler's default order. Each constructor gets the world's env.
var controllerFactories = []struct {
	name string
	make func(e *env) controller
}{
	{ControllerDeployment, newDeploymentController},
	{ControllerReplicaSet, newReplicaSetController},
	{ControllerKubelet, newKubelet},
}

// AllControllers lists every controller gcplay has, in scheduler order.
func AllControllers() []string {
	out := []string{ControllerGC}
	for _, f := range controllerFactories {
		out = append(out, f.name)
	}
	return out
}
