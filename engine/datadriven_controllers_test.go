package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/gcplay/gcplay/fakeapi"
)

// runControllerCommand runs the data-driven commands about the workload
// controllers (testdata/controllers). TestDataDriven calls it for every
// command it does not know itself.
//
//	workloads            Deployments, ReplicaSets and Pods, one line each
//	settle-story [show=actor,...]
//	                     settle, printing only the records of those actors
//	                     (default: deployment, replicaset, kubelet and the
//	                     collector's workers), then the step count
//	advance-story by=D [show=...]
//	                     the same for AdvanceBy(D)
//	removals             the objects removed from storage, in order
//	expectations         the ReplicaSet controller's expectations
//	rollout-undo ref=R [to=N]
//	                     kubectl rollout undo (RolloutUndo)
//	tick by=D            move the clock by D without running what falls due
//	statefulsets         StatefulSets, their Pods, claims and revisions, with
//	                     every owner reference
//	conditions ref=R     a Pod's phase, conditions and container states,
//	                     one a line
//	daemonsets           DaemonSets (status counts, template generation),
//	                     their revisions and Pods (node, revision hash,
//	                     pod-template-generation, tolerations with tols)
func runControllerCommand(t *testing.T, w *World, d *datadriven.TestData) (string, error) {
	var b strings.Builder
	switch d.Cmd {
	case "workloads":
		for _, o := range w.Store().Objects() {
			if line := workloadLine(o); line != "" {
				b.WriteString(line + "\n")
			}
		}
	case "settle-story", "advance-story":
		show := []string{ControllerDeployment, ControllerReplicaSet, ControllerKubelet, QueueAttemptToDelete, QueueAttemptToOrphan}
		if v, ok := arg(d, "show"); ok {
			show = strings.Split(v, ",")
		}
		var res SettleResult
		var err error
		if d.Cmd == "settle-story" {
			res, err = Settle(checkedDoer{t, w}, 100000)
		} else {
			v, _ := arg(d, "by")
			by, perr := time.ParseDuration(v)
			if perr != nil {
				return "", perr
			}
			res, err = AdvanceBy(checkedDoer{t, w}, by, 100000)
		}
		for _, r := range res.Records {
			if slices.Contains(show, r.Actor) {
				b.WriteString(r.String() + "\n")
			}
		}
		fmt.Fprintf(&b, "%d steps, clock at %s\n", res.Steps, FormatElapsed(w.Elapsed()))
		if err != nil {
			return b.String() + "error: " + err.Error() + "\n", nil
		}
	case "removals":
		for _, r := range w.Store().Removals() {
			if r.Ref.Kind != "Event" {
				b.WriteString(r.Ref.String() + "\n")
			}
		}
	case "expectations":
		rsc, ok := w.queueOwner(ControllerReplicaSet).(*replicaSetController)
		if !ok {
			return "", fmt.Errorf("the replicaset controller is not running")
		}
		for _, k := range sortedKeys(rsc.rss) {
			fmt.Fprintf(&b, "%s: %s\n", keyRef("ReplicaSet", k), rsc.exp.describe(k))
		}
	case "exit":
		a := Exit{}
		if v, ok := arg(d, "pod"); ok {
			ref := fakeapi.Ref{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: v}
			a.Pod = &ref
		}
		if v, ok := arg(d, "job"); ok {
			a.Selector = &jobNameIs{v}
		}
		if v, ok := arg(d, "count"); ok {
			fmt.Sscan(v, &a.Count)
		}
		if v, ok := arg(d, "code"); ok {
			fmt.Sscan(v, &a.Code)
		}
		rec, err := w.Do(a)
		b.WriteString(rec.String() + "\n")
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
		}
	case "rollout-undo":
		v, _ := arg(d, "ref")
		ref, err := parseRef(w, v)
		if err != nil {
			return "", err
		}
		a := RolloutUndo{Ref: ref}
		if v, ok := arg(d, "to"); ok {
			fmt.Sscan(v, &a.ToRevision)
		}
		rec, err := w.Do(a)
		b.WriteString(rec.String() + "\n")
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
		}
	case "tick":
		v, _ := arg(d, "by")
		by, err := time.ParseDuration(v)
		if err != nil {
			return "", err
		}
		rec, err := w.Do(Advance{D: by})
		b.WriteString(rec.String() + "\n")
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
		}
	case "conditions":
		v, _ := arg(d, "ref")
		ref, err := parseRef(w, v)
		if err != nil {
			return "", err
		}
		o, err := w.Store().Get("test", ref)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "phase %s\n", nestedString(o.Fields, "status", "phase"))
		conds, _ := nestedSlice(o.Fields, "status", "conditions")
		for _, c := range conds {
			fmt.Fprintf(&b, "%s=%s", nestedString(c, "type"), nestedString(c, "status"))
			if t := nestedString(c, "lastTransitionTime"); t != "" {
				fmt.Fprintf(&b, " since %s", FormatElapsed(parseTime(t).Sub(fakeapi.Epoch)))
			}
			if r := nestedString(c, "reason"); r != "" {
				fmt.Fprintf(&b, " (%s)", r)
			}
			if m := nestedString(c, "message"); m != "" {
				fmt.Fprintf(&b, ": %s", m)
			}
			b.WriteString("\n")
		}
		statuses, _ := nestedSlice(o.Fields, "status", "containerStatuses")
		for _, c := range statuses {
			fmt.Fprintf(&b, "container %s ready=%v", nestedString(c, "name"), nestedBool(c, "ready"))
			if t, ok := nested(c, "state", "terminated"); ok {
				code, _ := nestedInt(t, "exitCode")
				fmt.Fprintf(&b, " terminated exitCode=%d reason=%s", code, nestedString(t, "reason"))
				if m := nestedString(t, "message"); m != "" {
					fmt.Fprintf(&b, " message=%q", m)
				}
				if f := nestedString(t, "finishedAt"); f != "" {
					fmt.Fprintf(&b, " finished %s", FormatElapsed(parseTime(f).Sub(fakeapi.Epoch)))
				}
			} else if _, ok := nested(c, "state", "running"); ok {
				b.WriteString(" running")
			}
			b.WriteString("\n")
		}
	case "statefulsets":
		for _, o := range w.Store().Objects() {
			if line := statefulSetLine(o); line != "" {
				b.WriteString(line + "\n")
			}
		}
	case "daemonsets":
		_, tols := arg(d, "tols")
		for _, o := range w.Store().Objects() {
			if line := daemonSetLine(o, tols); line != "" {
				b.WriteString(line + "\n")
			}
		}
	case "jobs":
		for _, o := range w.Store().Objects() {
			if line := jobLine(w, o); line != "" {
				b.WriteString(line + "\n")
			}
		}
	case "job-events": // as kubectl describe: " (x3)" for an Event seen 3 times
		for _, e := range w.Store().Events() {
			if e.Source == jobClient || e.Source == cronJobClient || e.Source == ttlClient {
				fmt.Fprintf(&b, "%s %s %s: %s%s\n", e.Object, e.Type, e.Reason, e.Message, timesSeen(e))
			}
		}
	default:
		return runNamespaceCommand(t, w, d)
	}
	return b.String(), nil
}

// jobLine is one line about a CronJob, a Job (its status counters and
// conditions) or a Pod a Job controls (phase and finalizers).
func jobLine(w *World, o *fakeapi.Object) string {
	switch {
	case isKind(o, "batch/v1", "CronJob"):
		st := readCronJobStatus(o)
		var active []string
		for _, a := range st.Active {
			active = append(active, a.Name)
		}
		s := fmt.Sprintf("%s active=[%s]", o, strings.Join(active, " "))
		if st.LastScheduleTime != "" {
			s += " lastSchedule=" + FormatElapsed(parseTime(st.LastScheduleTime).Sub(fakeapi.Epoch))
		}
		if st.LastSuccessfulTime != "" {
			s += " lastSuccessful=" + FormatElapsed(parseTime(st.LastSuccessfulTime).Sub(fakeapi.Epoch))
		}
		return s
	case isKind(o, "batch/v1", "Job"):
		st := readJobStatus(o)
		s := fmt.Sprintf("%s active=%d succeeded=%d failed=%d", o, st.Active, st.Succeeded, st.Failed)
		if st.Ready != nil {
			s += fmt.Sprintf(" ready=%d", *st.Ready)
		}
		if st.Terminating != nil && *st.Terminating > 0 {
			s += fmt.Sprintf(" terminating=%d", *st.Terminating)
		}
		if st.CompletedIndexes != "" {
			s += " completedIndexes=" + st.CompletedIndexes
		}
		if u := st.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
			s += fmt.Sprintf(" uncounted=%d/%d", len(u.Succeeded), len(u.Failed))
		}
		var conds []string
		for _, c := range st.Conditions {
			conds = append(conds, c.Type+"="+c.Status+"("+c.Reason+")")
		}
		if len(conds) > 0 {
			s += " [" + strings.Join(conds, " ") + "]"
		}
		if st.StartTime != "" {
			s += " start=" + FormatElapsed(parseTime(st.StartTime).Sub(fakeapi.Epoch))
		}
		if st.CompletionTime != "" {
			s += " done=" + FormatElapsed(parseTime(st.CompletionTime).Sub(fakeapi.Epoch))
		}
		if o.Metadata.DeletionTimestamp != nil {
			s += " terminating"
		}
		if ref := controllerOf(o); ref != nil {
			s += " controller=" + ref.Kind + "/" + ref.Name
		}
		return s
	case isKind(o, "v1", "Pod"):
		ref := controllerOf(o)
		_, job := o.Metadata.Labels["job-name"]
		if !job && (ref == nil || ref.Kind != "Job") {
			return ""
		}
		p := newPodInfo(o)
		phase := p.phase()
		if phase == "" {
			phase = "(no phase)"
		}
		s := "  " + o.String() + " " + phase
		if ix, ok := o.Metadata.Annotations[jobCompletionIndexAnnotation]; ok {
			s += " index=" + ix
		}
		if p.terminating {
			s += " terminating"
		}
		if len(o.Metadata.Finalizers) > 0 {
			s += " {" + strings.Join(o.Metadata.Finalizers, ",") + "}"
		}
		if ref != nil {
			s += " controller=" + ref.Kind + "/" + ref.Name
		} else {
			s += " orphan"
		}
		return s
	}
	return ""
}

// workloadLine is one line about a Deployment, ReplicaSet or Pod: its
// size, status and owner, in the terms kubectl get would use.
func workloadLine(o *fakeapi.Object) string {
	var s string
	status := o.Fields.Get("status")
	num := func(path ...string) int64 { n, _ := nestedInt(status, path...); return n }
	switch {
	case isKind(o, "apps/v1", "Deployment"):
		want, ok := nestedInt(specOf(o), "replicas")
		if !ok {
			want = 1
		}
		s = fmt.Sprintf("%s replicas=%d/%d updated=%d ready=%d available=%d", o, num("replicas"), want,
			num("updatedReplicas"), num("readyReplicas"), num("availableReplicas"))
		if rev := o.Metadata.Annotations[revisionAnnotation]; rev != "" {
			s += " revision=" + rev
		}
		s += conditionsPhrase(status)
	case isKind(o, "apps/v1", "ReplicaSet"):
		s = fmt.Sprintf("%s replicas=%d/%d ready=%d available=%d", o, num("replicas"), rsReplicas(o),
			num("readyReplicas"), num("availableReplicas"))
		if rev := o.Metadata.Annotations[revisionAnnotation]; rev != "" {
			s += " revision=" + rev
		}
		s += conditionsPhrase(status)
	case isKind(o, "v1", "Pod"):
		p := newPodInfo(o)
		phase := p.phase()
		if phase == "" {
			phase = "(no phase)"
		}
		s = o.String() + " " + phase
		if p.ready {
			s += " ready"
		}
		if n := p.node(); n != "" {
			s += " node=" + n
		} else {
			s += " unscheduled"
		}
	default:
		return ""
	}
	if ref := controllerOf(o); ref != nil {
		s += " controller=" + ref.Kind + "/" + ref.Name
	}
	if o.Metadata.DeletionTimestamp != nil {
		s += " terminating"
	}
	if len(o.Metadata.Finalizers) > 0 {
		s += " finalizers=[" + strings.Join(o.Metadata.Finalizers, ",") + "]"
	}
	return s
}

func conditionsPhrase(status any) string {
	var conds []string
	if cs, ok := nestedSlice(status, "conditions"); ok {
		for _, c := range cs {
			conds = append(conds, nestedString(c, "type")+"="+nestedString(c, "status")+"/"+nestedString(c, "reason"))
		}
	}
	if len(conds) == 0 {
		return ""
	}
	return " [" + strings.Join(conds, " ") + "]"
}

// statefulSetLine is one line about a StatefulSet (status), a Pod or claim
// of one (phase, owner references) or a ControllerRevision.
func statefulSetLine(obj *fakeapi.Object) string {
	o := obj
	var s string
	status := o.Fields.Get("status")
	num := func(path ...string) int64 { n, _ := nestedInt(status, path...); return n }
	switch {
	case isKind(o, "apps/v1", "StatefulSet"):
		want, ok := nestedInt(specOf(o), "replicas")
		if !ok {
			want = 1
		}
		s = fmt.Sprintf("%s replicas=%d/%d ready=%d current=%s update=%s", o, num("replicas"), want,
			num("readyReplicas"), nestedString(status, "currentRevision"), nestedString(status, "updateRevision"))
	case isKind(o, "v1", "Pod"):
		if _, ok := o.Metadata.Labels[stsPodNameLabel]; !ok {
			return ""
		}
		p := newPodInfo(o)
		s = "  " + o.String() + " " + p.phase()
		if p.ready {
			s += " ready"
		}
		s += " rev=" + o.Metadata.Labels[stsRevisionLabel]
	case isKind(o, "v1", "PersistentVolumeClaim"):
		s = "  " + o.String()
	case isKind(o, "apps/v1", "ControllerRevision"):
		n, _ := nestedInt(o.Fields.Get("revision"))
		s = fmt.Sprintf("  %s revision=%d", o, n)
	default:
		return ""
	}
	var owners []string
	for _, r := range o.Metadata.OwnerReferences {
		o := r.Kind + "/" + r.Name
		if r.Controller != nil && *r.Controller {
			o += "(controller)"
		}
		if isKind(obj, "v1", "PersistentVolumeClaim") {
			o += "@" + r.UID
		}
		owners = append(owners, o)
	}
	if len(owners) > 0 {
		s += " owners=" + strings.Join(owners, ",")
	} else if !isKind(o, "apps/v1", "StatefulSet") {
		s += " no-owner"
	}
	if o.Metadata.DeletionTimestamp != nil {
		s += " terminating"
	}
	return s
}

// daemonSetLine is one line about a DaemonSet (its status counts), or a
// Pod or ControllerRevision a DaemonSet owns: node, revision hash,
// terminating, and with tols the Pod's tolerations.
func daemonSetLine(o *fakeapi.Object, tols bool) string {
	ref := controllerOf(o)
	var s string
	switch {
	case isKind(o, "apps/v1", "DaemonSet"):
		st := o.Fields.Get("status")
		num := func(f string) int64 { n, _ := nestedInt(st, f); return n }
		s = fmt.Sprintf("%s desired=%d current=%d ready=%d updated=%d available=%d misscheduled=%d", o,
			num("desiredNumberScheduled"), num("currentNumberScheduled"), num("numberReady"),
			num("updatedNumberScheduled"), num("numberAvailable"), num("numberMisscheduled"))
		s += " templateGeneration=" + o.Metadata.Annotations[fakeapi.DaemonSetTemplateGenerationAnnotation]
		if n := num("collisionCount"); n > 0 {
			s += fmt.Sprintf(" collisionCount=%d", n)
		}
		if o.Metadata.DeletionTimestamp != nil {
			s += " terminating"
		}
		return s
	case isKind(o, "apps/v1", "ControllerRevision") && (ref == nil || ref.Kind == "DaemonSet"):
		n, _ := nestedInt(o.Fields.Get("revision"))
		s = fmt.Sprintf("  %s revision=%d hash=%s", o, n, o.Metadata.Labels[dsHashLabel])
	case isKind(o, "v1", "Pod") && ref != nil && ref.Kind == "DaemonSet":
		p := newPodInfo(o)
		s = "  " + o.String() + " " + p.phase()
		if p.ready {
			s += " ready"
		}
		s += " node=" + daemonPodNode(o) + " hash=" + o.Metadata.Labels[dsHashLabel] + " gen=" + o.Metadata.Labels[dsTemplateGenerationLabel]
		if o.Metadata.DeletionTimestamp != nil {
			s += " terminating"
		}
		if tols {
			list, _ := nestedSlice(specOf(o), "tolerations")
			var ts []string
			for _, t := range list {
				ts = append(ts, fmt.Sprintf("%s:%s:%s", nestedString(t, "key"), nestedString(t, "operator"), nestedString(t, "effect")))
			}
			s += " tolerations=[" + strings.Join(ts, " ") + "]"
		}
	default:
		return ""
	}
	if ref != nil {
		s += " controller=" + ref.Kind + "/" + ref.Name
	} else {
		s += " no-controller"
	}
	return s
}
