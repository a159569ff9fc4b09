package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/controller/ttlafterfinished"

	"github.com/gcplay/gcplay/scenario"
)

// The batch controllers, as a scenario's controllers: key spells them.
const (
	ctrlJob     = "job"
	ctrlCronJob = "cronjob"
	ctrlTTL     = "ttlafterfinished"
)

// jobWorkers, cronJobWorkers and ttlWorkers are kube-controller-manager's
// --concurrent-job-syncs, --concurrent-cron-job-syncs and
// --concurrent-ttl-after-finished-syncs defaults.
const (
	jobWorkers     = 5
	cronJobWorkers = 5
	ttlWorkers     = 5
)

// startBatch starts the Job, CronJob or TTL-after-finished controller as
// kube-controller-manager does, with its own client and informers.
func (cs *controllers) startBatch(name string) (*running, error) {
	ctx, cancel := cs.baseContext()
	r := &running{cancel: cancel}
	agent := map[string]string{ctrlJob: "job-controller", ctrlCronJob: "cronjob-controller", ctrlTTL: "ttl-after-finished-controller"}[name]
	client, err := kubernetes.NewForConfig(cs.configFor(agent))
	if err != nil {
		cancel()
		return nil, err
	}
	f := informers.NewSharedInformerFactory(client, 0)
	var run func()
	switch name {
	case ctrlJob:
		jc, err := jobcontroller.NewController(ctx, f.Core().V1().Pods(), f.Batch().V1().Jobs(), client)
		if err != nil {
			cancel()
			return nil, err
		}
		run = func() { jc.Run(ctx, jobWorkers) }
	case ctrlCronJob:
		cc, err := cronjob.NewControllerV2(ctx, f.Batch().V1().Jobs(), f.Batch().V1().CronJobs(), client)
		if err != nil {
			cancel()
			return nil, err
		}
		run = func() { cc.Run(ctx, cronJobWorkers) }
	case ctrlTTL:
		tc := ttlafterfinished.New(ctx, f.Batch().V1().Jobs(), client)
		run = func() { tc.Run(ctx, ttlWorkers) }
	}
	f.Start(ctx.Done())
	r.shutdown = append(r.shutdown, f.Shutdown)
	f.WaitForCacheSync(ctx.Done())
	r.goRun(run)
	return r, nil
}

// exit is the scenario format's exit step on the real cluster: the status
// a kubelet writes when every container of a Pod ended, written through
// the status subresource (no kubelet runs). The selector form takes count
// running Pods by name, as gcplay does; the real names differ, so which
// Pods are taken may differ too when count is less than all of them.
func (x *executor) exit(ctx context.Context, ex *scenario.ExitStep) (string, error) {
	client, err := kubernetes.NewForConfig(x.c.ctrls.configFor("kubelet"))
	if err != nil {
		return "", err
	}
	var pods []corev1.Pod
	if ex.Target.Name != "" || ex.Target.UID != "" {
		_, ns, name, err := x.target(ex.Target)
		if err != nil {
			return "", err
		}
		p, err := client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		pods = append(pods, *p)
	} else {
		list, err := client.CoreV1().Pods(ex.Namespace).List(ctx, metav1.ListOptions{LabelSelector: ex.Selector.String()})
		if err != nil {
			return "", err
		}
		for _, p := range list.Items {
			if p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				pods = append(pods, p)
			}
		}
		sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
		switch {
		case ex.Count > 0 && len(pods) < ex.Count:
			return "", apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, fmt.Sprintf("%d wanted, %d running match %q", ex.Count, len(pods), ex.Selector.String()))
		case ex.Count > 0:
			pods = pods[:ex.Count]
		case len(pods) == 0:
			return "", apierrors.NewNotFound(schema.GroupResource{Resource: "pods"}, fmt.Sprintf("none running matches %q", ex.Selector.String()))
		}
	}
	phase, reason, condReason := corev1.PodSucceeded, "Completed", "PodCompleted"
	if ex.Code != 0 {
		phase, reason, condReason = corev1.PodFailed, "Error", "PodFailed"
	}
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	for i := range pods {
		p := &pods[i]
		p.Status.Phase = phase
		if p.Status.StartTime == nil {
			p.Status.StartTime = &now
		}
		p.Status.ContainerStatuses = nil
		for _, c := range p.Spec.Containers {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, corev1.ContainerStatus{Name: c.Name, Image: c.Image,
				State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: int32(ex.Code), Reason: reason,
					StartedAt: *p.Status.StartTime, FinishedAt: now}}})
		}
		for _, t := range []corev1.PodConditionType{corev1.PodReady, corev1.ContainersReady} {
			set := false
			for j := range p.Status.Conditions {
				if p.Status.Conditions[j].Type == t {
					p.Status.Conditions[j] = corev1.PodCondition{Type: t, Status: corev1.ConditionFalse, Reason: condReason, LastTransitionTime: now}
					set = true
				}
			}
			if !set {
				p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: t, Status: corev1.ConditionFalse, Reason: condReason, LastTransitionTime: now})
			}
		}
		if _, err := client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, p, metav1.UpdateOptions{}); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("reported %d Pod(s) %s", len(pods), phase), nil
}
