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
//     after a Pod is bound, the kubelet reports it Running and Ready (not
//     Ready while a readiness gate's condition is missing or not True).
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
	"slices"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// registry lists every controller gcplay has, in the scheduler's order:
// when no queue is named, a step takes the first ready item of the first
// controller's queues, in the order the controller lists them.
//
// To add a controller, write one file that defines its type (implementing
// controller) and its registration (name, queues, constructor), then add
// that registration to this list at its place in the scheduler's order.
// Everything else (the scenario format's `controllers:` and `restart:`
// values, the queue names of steps and traces, the names the grader and
// the TUI show) is derived from this list. docs/CONTROLLERS.md says more.
var registry = []*registration{
	&garbageCollectorRegistration,
	&deploymentRegistration,
	&replicaSetRegistration,
	&statefulSetRegistration,
	&daemonSetRegistration,
	&cronJobRegistration,
	&jobRegistration,
	&ttlRegistration,
	&kubeletRegistration,
	&namespaceRegistration,
}

// registration is what a controller registers once.
type registration struct {
	// name is the controller's name in `controllers:`, `restart:` and the
	// trace (kube-controller-manager's name for it, where it has one).
	name string
	// queues are the controller's work queues, in the order the scheduler
	// tries them. A controller with one queue names it after itself.
	queues []string
	// restartable says that a scenario's `restart:` may name it: it is a
	// controller of kube-controller-manager, which can be restarted.
	restartable bool
	// new returns the controller bound to a world's env, before its first
	// list (the world then calls restart).
	new func(e *env) controller
}

// controller is one control loop under the world's scheduler (the garbage
// collector, the Deployment and ReplicaSet controllers, the kubelet). It is
// single-threaded and steppable: one step takes one item from one of its
// queues and does what upstream's worker does with it. It sees the cluster
// only through the API: requests it makes through env, and the informer
// caches it keeps from the events observe is given.
type controller interface {
	// observe is its informers' event handler, called synchronously for
	// every change in storage.
	observe(ev fakeapi.WatchEvent)
	// promote moves delayed items that are due at now into their queues.
	promote(now time.Duration)
	// ready reports whether queue (one of its queues) has an item ready.
	ready(queue string) bool
	// nextDue returns when its next delayed item becomes due.
	nextDue() (time.Duration, bool)
	// step takes the next item from queue and processes it, writing what
	// it did into rec.
	step(queue string, rec *Record)
	// items returns the parts queue's contents are listed from, in
	// order: ready items first, then delayed ones.
	items(queue string) []queuePart
	// describeNext says in one line what its next step on queue will do.
	describeNext(queue string) string
	// restart throws away its in-memory state and relists. It may set
	// rec.Reason; the world says "restarted" otherwise.
	restart(rec *Record)
	// clone returns an independent copy bound to e.
	clone(e *env) controller
}

// retrier is implemented by a controller whose failing items are retried
// with backoff forever (the collector): settle stops once the only work
// left anywhere is such retries at the maximum backoff. A controller that
// does not implement it never lets settle stop while it has work pending.
type retrier interface {
	// retriesCapped reports whether it has pending work (pending) and
	// whether all of it is retries at the maximum backoff (capped).
	retriesCapped() (pending, capped bool)
}

// lookupRegistration returns the registration of the controller named name.
func lookupRegistration(name string) *registration {
	for _, r := range registry {
		if r.name == name {
			return r
		}
	}
	return nil
}

// queueNames lists every queue of every registered controller, in
// registry order; a record keeps an enqueued item's queue as its index.
var queueNames []string

func init() {
	for _, r := range registry {
		queueNames = append(queueNames, r.queues...)
	}
}

// ControllerInfo describes one controller gcplay has.
type ControllerInfo struct {
	// Name is its name in `controllers:` and the trace.
	Name string
	// Queues are its queues, in scheduler order; a step's record names the
	// queue it took its item from as its actor.
	Queues []string
	// Restartable says a scenario's `restart:` may name it.
	Restartable bool
}

// Registry describes every controller gcplay has, in scheduler order.
func Registry() []ControllerInfo {
	out := make([]ControllerInfo, len(registry))
	for i, r := range registry {
		out[i] = ControllerInfo{Name: r.name, Queues: slices.Clone(r.queues), Restartable: r.restartable}
	}
	return out
}

// AllControllers lists the names of every controller gcplay has, in
// scheduler order.
func AllControllers() []string {
	out := make([]string, len(registry))
	for i, r := range registry {
		out[i] = r.name
	}
	return out
}

// RestartableControllers lists the controllers a restart may name.
func RestartableControllers() []string {
	var out []string
	for _, r := range registry {
		if r.restartable {
			out = append(out, r.name)
		}
	}
	return out
}

// AllQueues lists every queue of every controller gcplay has, in
// scheduler order.
func AllQueues() []string { return slices.Clone(queueNames) }

// QueueController returns the name of the controller that owns queue (a
// record's actor, when a step wrote it), and false for any other name.
func QueueController(queue string) (string, bool) {
	for _, r := range registry {
		if slices.Contains(r.queues, queue) {
			return r.name, true
		}
	}
	return "", false
}
