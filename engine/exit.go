package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// Exit is the kubelet's report that the containers of Pods ended, made by
// hand: the scenario format's exit step and the playground's exit command.
// It names one Pod (Pod), or the Pods of Namespace whose labels Selector
// matches that are neither terminating nor finished: Count of them, by name, or all of them when
// Count is 0. Fewer matching Pods than Count, or none without a Count, is
// NotFound. Code is the containers' exit code: 0 makes a Pod Succeeded,
// anything else Failed. It works with or without the kubelet controller.
type Exit struct {
	Pod       *fakeapi.Ref
	Namespace string
	Selector  LabelMatcher
	Count     int
	Code      int
}

// LabelMatcher is a label selector (the scenario package's, parsed from
// kubectl's syntax). A pointer keeps actions comparable.
type LabelMatcher interface {
	Matches(labels map[string]string) bool
	String() string
}

func (a Exit) String() string {
	s := "exit "
	if a.Pod != nil {
		s += a.Pod.String()
	} else {
		s += "-l " + a.Selector.String()
		if fakeapi.ShowNamespace(a.Namespace) {
			s += " -n " + a.Namespace
		}
		if a.Count > 0 {
			s += fmt.Sprintf(" --count %d", a.Count)
		}
	}
	if a.Code != 0 {
		s += fmt.Sprintf(" --code %d", a.Code)
	}
	return s
}

// exitClient is the client the report is written as.
const exitClient = "kubelet"

func (a Exit) apply(w *World) (*Record, error) {
	rec := w.begin("user")
	rec.Item = a.String()
	pods, err := a.targets(w.store)
	if err != nil {
		return w.userEnd(err)
	}
	var names []string
	for _, p := range pods {
		if err := reportExit(w.env, p, a.Code); err != nil {
			return w.userEnd(err)
		}
		names = append(names, p.String())
	}
	phase := podSucceeded
	if a.Code != 0 {
		phase = podFailed
	}
	rec.Reason = Reason{Code: "ContainersExited", Func: "kubelet statusManager (reported by hand)"}.
		Say("the containers of %s exited with code %d: the kubelet reports phase %s", listPhrase(names), a.Code, phase)
	return w.end(), nil
}

// targets returns the Pods the action ends, by name.
func (a Exit) targets(store *fakeapi.Store) ([]*fakeapi.Object, error) {
	if a.Pod != nil {
		p, err := store.Get(exitClient, *a.Pod)
		if err != nil {
			return nil, err
		}
		return []*fakeapi.Object{p}, nil
	}
	ns := a.Namespace
	if ns == "" {
		ns = "default"
	}
	all, err := store.List(exitClient, "v1", "Pod", ns)
	if err != nil {
		return nil, err
	}
	var match []*fakeapi.Object
	for _, p := range all {
		if p.Metadata.DeletionTimestamp != nil || podFinished(p) {
			continue
		}
		if a.Selector == nil || a.Selector.Matches(p.Metadata.Labels) {
			match = append(match, p)
		}
	}
	slices.SortFunc(match, func(x, y *fakeapi.Object) int { return strings.Compare(x.Metadata.Name, y.Metadata.Name) })
	switch {
	case a.Count > 0 && len(match) < a.Count:
		return nil, fakeapi.NewError(fakeapi.ReasonNotFound, "%d Pod(s) wanted, but only %d in namespace %q match selector %q and are neither terminating nor finished", a.Count, len(match), ns, a.Selector.String())
	case a.Count > 0:
		match = match[:a.Count]
	case len(match) == 0:
		return nil, fakeapi.NewError(fakeapi.ReasonNotFound, "no running Pod in namespace %q matches selector %q", ns, a.Selector.String())
	}
	return match, nil
}

// podFinished reports whether a Pod's phase is Succeeded or Failed.
func podFinished(o *fakeapi.Object) bool {
	switch nestedString(o.Fields, "status", "phase") {
	case podSucceeded, podFailed:
		return true
	}
	return false
}

// reportExit writes the status the kubelet writes once every container of
// a Pod has terminated with code: the phase, each container terminated
// (reason Completed or Error), and the Ready and ContainersReady conditions
// False with reason PodCompleted (PodFailed when the code is not 0). The
// patch carries the Pod's uid.
func reportExit(e *env, pod *fakeapi.Object, code int) error {
	now := e.vtime()
	phase, reason := podSucceeded, "Completed"
	if code != 0 {
		phase, reason = podFailed, "Error"
	}
	started := nestedString(pod.Fields, "status", "startTime")
	if started == "" {
		started = now
	}
	restarts := map[string]any{}
	if cs, ok := nestedSlice(pod.Fields, "status", "containerStatuses"); ok {
		for _, c := range cs {
			if n, ok := nested(c, "restartCount"); ok {
				restarts[nestedString(c, "name")] = n
			}
		}
	}
	var statuses []any
	containers, _ := nestedSlice(pod.Fields, "spec", "containers")
	for _, c := range containers {
		name := nestedString(c, "name")
		rc, ok := restarts[name]
		if !ok {
			rc = float64(0)
		}
		statuses = append(statuses, map[string]any{
			"name": name, "image": nestedString(c, "image"), "imageID": "",
			"ready": false, "started": false, "restartCount": rc,
			"state": map[string]any{"terminated": map[string]any{
				"exitCode": code, "reason": reason, "startedAt": started, "finishedAt": now}},
		})
	}
	// generateContainersReadyConditionForTerminalPhase: PodCompleted
	// for Succeeded, PodFailed for Failed; Ready says the same.
	condReason := "PodCompleted"
	if phase == podFailed {
		condReason = "PodFailed"
	}
	conds := existingConditions(pod)
	for _, t := range []string{"Ready", "ContainersReady"} {
		conds = setConditionFalse(conds, t, condReason, now)
	}
	status := map[string]any{"phase": phase, "conditions": conds, "startTime": started}
	if statuses != nil {
		status["containerStatuses"] = statuses
	}
	body, _ := json.Marshal(map[string]any{"metadata": map[string]any{"uid": pod.Metadata.UID}, "status": status})
	_, err := e.api.Patch(exitClient, fakeapi.RefOf(pod), fakeapi.MergePatch, body)
	return err
}

// setConditionFalse returns conds with condition typ False for reason,
// keeping the transition time of a condition that was already False.
func setConditionFalse(conds []any, typ, reason, now string) []any {
	c := map[string]any{"type": typ, "status": "False", "reason": reason, "lastTransitionTime": now}
	for i, old := range conds {
		if nestedString(old, "type") == typ {
			if nestedString(old, "status") == "False" {
				c["lastTransitionTime"] = nestedString(old, "lastTransitionTime")
			}
			conds[i] = c
			return conds
		}
	}
	return append(conds, c)
}
