package main

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// settle waits until the cluster is quiescent: a real cluster has no
// queue view, so "settled" means that nothing was written anywhere (etcd's
// revision did not move) for opts.quiet, while the collector's
// attemptToDelete and attemptToOrphan queues held no ready item and the
// kubelet stand-in had no Pod whose grace period ends within
// opts.maxWait. A settle that does not get there within
// opts.settleTimeout gives up and says so; the checks that follow then
// show what the cluster did by that time.
//
// What this cannot see: work waiting out a rate-limit delay with nothing
// written meanwhile (an item retried with exponential backoff, as for an
// unknown owner kind) — such work is exactly what gcplay's settle stops at
// too ("only retries at the maximum backoff are left"), and a lesson that
// needs its outcome would depend on it finishing, which it never does.
func (x *executor) settle(ctx context.Context) (string, error) {
	start := time.Now()
	deadline := start.Add(x.opts.settleTimeout)
	last, err := x.c.Revision(ctx)
	if err != nil {
		return "", err
	}
	lastChange := time.Now()
	waitedGrace := false
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		now := time.Now()
		rev, err := x.c.Revision(ctx)
		if err != nil {
			return "", err
		}
		busy := x.c.ctrls.gcQueued() > 0
		if due, ok := x.c.ctrls.kubeletDue(); ok {
			if due.Sub(now) <= x.opts.maxWait {
				busy = true
				waitedGrace = true
			} else {
				x.note("a Pod's grace period ends more than %v from now: the runner does not wait for it, so the kubelet stand-in has not removed it yet", x.opts.maxWait)
			}
		}
		if rev != last || busy {
			last, lastChange = rev, now
		}
		quiet := x.opts.quiet
		if x.c.ctrls.namespaceRuns() && x.terminatingNamespace(ctx) {
			// The namespace controller looks at a deleted namespace 5s
			// after each change of it, and again after a wait of up to
			// estimate/2+1 seconds: nothing is written meanwhile.
			quiet = max(quiet, nsQuiet)
		}
		if now.Sub(lastChange) >= quiet {
			d := lastChange.Sub(start).Round(10 * time.Millisecond)
			out := fmt.Sprintf("quiet after %v (nothing written for %v)", d, quiet)
			if waitedGrace {
				out += ", after waiting out a Pod's grace period"
			}
			return out, nil
		}
		if now.After(deadline) {
			x.note("a settle gave up after %v: the cluster kept writing", x.opts.settleTimeout)
			return fmt.Sprintf("NOT quiet after %v: checks show the state at that time", x.opts.settleTimeout), nil
		}
	}
}

// nsQuiet is how long a settle waits with nothing written while a
// namespace is terminating: longer than the namespace controller's 5s
// delay and its 8s re-check of content held by a finalizer, and shorter
// than the 10s at which kube-apiserver renews its identity lease (a write
// the runner cannot tell from the controllers'). A re-check after a Pod
// with a grace period above 14s can come later than that.
const nsQuiet = 9 * time.Second

// terminatingNamespace reports whether some namespace has a
// deletionTimestamp.
func (x *executor) terminatingNamespace(ctx context.Context) bool {
	l, err := x.c.client.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		return false
	}
	for _, ns := range l.Items {
		if ns.DeletionTimestamp != nil {
			return true
		}
	}
	return false
}
