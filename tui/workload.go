package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// The workload commands, as kubectl has them: scale and rollout.

// scalableKinds are the kinds whose apps/v1 (or v1) API has the scale
// subresource kubectl scale writes through.
var scalableKinds = []string{"Deployment", "ReplicaSet", "StatefulSet", "ReplicationController"}

// rolloutOps are rollout's subcommands here.
var rolloutOps = []string{"undo", "history"}

// cmdScale is kubectl scale: it writes spec.replicas through the scale
// subresource (a merge patch {"spec":{"replicas":N}}), optionally only
// when the current count is --current-replicas (kubectl's
// ScalePrecondition). gcplay's apiserver has no subresource, so the
// same change is the merge patch on the object; the controllers do the
// rest.
func (m *Model) cmdScale(in *invocation) (tea.Cmd, error) {
	ref, rest, err := m.takeRef(in.args, in)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usagef("%s", m.tr.T("cmd-one-object", "cmd", "scale", "rest", strings.Join(rest, " ")))
	}
	if !slices.Contains(scalableKinds, ref.Kind) {
		return nil, usagef("%s", m.tr.T("cmd-scale-kind", "kind", ref.Kind))
	}
	v, ok := in.flag("replicas")
	if !ok {
		return nil, usagef("%s", m.tr.T("cmd-scale-replicas-missing"))
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return nil, usagef("%s", m.tr.T("cmd-scale-replicas", "value", v))
	}
	obj := m.s.world().Store().Lookup(ref)
	if obj == nil {
		return nil, errorf("%s", m.tr.T("cmd-not-found", "ref", ref.String()))
	}
	spec, _ := obj.Fields.Get("spec").(map[string]any)
	cur := 1 // an absent spec.replicas is 1 for every scalable kind
	if f, ok := spec["replicas"].(float64); ok {
		cur = int(f)
	}
	if c, ok := in.flag("current-replicas"); ok {
		want, err := strconv.Atoi(c)
		if err != nil || want < 0 {
			return nil, usagef("%s", m.tr.T("cmd-scale-current-bad", "value", c))
		}
		if want != cur {
			// kubectl's precondition error, worded as kubectl words it.
			return nil, errorf("%s", m.tr.T("cmd-scale-current", "want", strconv.Itoa(want), "cur", strconv.Itoa(cur)))
		}
	}
	body, _ := json.Marshal(map[string]any{"spec": map[string]any{"replicas": n}})
	r, err := m.s.act(engine.Patch{Ref: ref, Merge: body})
	if err != nil {
		return nil, err
	}
	what := m.tr.T("cmd-scaled", "ref", ref.String(), "from", strconv.Itoa(cur), "to", strconv.Itoa(n))
	m.setMsg(msgOK, what+m.tr.T("next-after", "next", m.tr.T("cmd-scaled-next", "run", kn(m.keys.Run), "step", kn(m.keys.Step))))
	m.afterChange(r)
	return nil, nil
}

// rollableKinds are the kinds kubectl rollout undo and history take
// (kubectl's polymorphichelpers have a rollbacker and a history viewer
// for each).
var rollableKinds = []string{"Deployment", "StatefulSet", "DaemonSet"}

// cmdRollout is kubectl rollout undo and rollout history, for
// Deployments, StatefulSets and DaemonSets: undo is the rolloutUndo
// step's action (kubectl's DeploymentRollbacker, StatefulSetRollbacker,
// DaemonSetRollbacker); history lists the revisions undo can go to.
func (m *Model) cmdRollout(in *invocation) (tea.Cmd, error) {
	op := in.args[0]
	if !slices.Contains(rolloutOps, op) {
		hint := nearest(op, rolloutOps)
		if hint == "" {
			hint = strings.Join(rolloutOps, " or ")
		}
		return nil, usagef("%s", m.tr.T("cmd-rollout-op", "op", op, "hint", hint))
	}
	ref, rest, err := m.takeRef(in.args[1:], in)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usagef("%s", m.tr.T("cmd-one-object", "cmd", "rollout "+op, "rest", strings.Join(rest, " ")))
	}
	if !slices.Contains(rollableKinds, ref.Kind) {
		return nil, usagef("%s", m.tr.T("cmd-rollout-kind", "op", op, "kind", ref.Kind))
	}
	d := m.s.world().Store().Lookup(ref)
	if d == nil {
		return nil, errorf("%s", m.tr.T("cmd-not-found", "ref", ref.String()))
	}
	if op == "history" {
		if _, ok := in.flag("to-revision"); ok {
			return nil, usagef("%s", m.tr.T("cmd-rollout-history-flag"))
		}
		m.setMsg(msgInfo, m.rolloutHistory(d))
		return nil, nil
	}
	var to int64
	if v, ok := in.flag("to-revision"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, usagef("%s", m.tr.T("cmd-rollout-revision", "value", v))
		}
		to = n
	}
	r, err := m.s.act(engine.RolloutUndo{Ref: ref, ToRevision: to})
	if err != nil {
		return nil, err
	}
	m.reportAct(r, nil, m.tr.T("cmd-rolled-back-next", "run", kn(m.keys.Run), "kind", ref.Kind, "step", kn(m.keys.Step)))
	return nil, nil
}

// revisionsIn is the revision numbers of the Deployment the words of a
// rollout line name (the completions of --to-revision).
func (m *Model) revisionsIn(toks []string) []string {
	in := &invocation{flags: map[string][]string{}}
	for i := 2; i < len(toks); i++ {
		if strings.HasPrefix(toks[i], "-") {
			continue
		}
		ref, _, err := m.takeRef(toks[i:], in)
		if err != nil {
			continue
		}
		d := m.s.world().Store().Lookup(ref)
		if d == nil || !slices.Contains(rollableKinds, d.Kind) {
			return nil
		}
		var out []string
		for _, r := range m.revisions(d) {
			out = append(out, strconv.FormatInt(r.n, 10))
		}
		return out
	}
	return nil
}

// revision is one ReplicaSet of a Deployment's history, or one
// ControllerRevision of a StatefulSet's or DaemonSet's.
type revision struct {
	n     int64
	rs    *fakeapi.Object
	image string
}

// rolloutHistory lists the revisions of d as kubectl rollout history
// finds them: for a Deployment the ReplicaSets it controls, by their
// deployment.kubernetes.io/revision annotation; for a StatefulSet or
// DaemonSet the ControllerRevisions it controls, by their revision.
func (m *Model) rolloutHistory(d *fakeapi.Object) string {
	revs := m.revisions(d)
	if len(revs) == 0 {
		if d.Kind != "Deployment" {
			return m.tr.T("cmd-history-none-set", "ref", d.String(), "kind", d.Kind)
		}
		return m.tr.T("cmd-history-none", "ref", d.String())
	}
	var parts []string
	for i, r := range revs {
		p := fmt.Sprintf("%d %s", r.n, r.rs.Metadata.Name)
		if r.image != "" {
			p += " (" + r.image + ")"
		}
		if i == len(revs)-1 {
			p += " " + m.tr.T("cmd-history-current")
		}
		parts = append(parts, p)
	}
	return m.tr.T("cmd-history", "ref", d.String(), "revisions", strings.Join(parts, " · "))
}

// revisions is the history of d, oldest first.
func (m *Model) revisions(d *fakeapi.Object) []revision {
	var revs []revision
	if d.Kind != "Deployment" {
		for _, cr := range engine.RolloutHistory(d, m.s.world().Store().Objects()) {
			data, _ := cr.Fields.Get("data").(map[string]any)
			image := templateImages(&fakeapi.Object{Fields: fakeapi.FieldsOf(data)})
			revs = append(revs, revision{n: engine.RevisionNumber(cr), rs: cr, image: image})
		}
		return revs
	}
	for _, o := range m.s.world().Store().Objects() {
		if o.Kind != "ReplicaSet" || o.Metadata.Namespace != d.Metadata.Namespace {
			continue
		}
		c := controllerRef(o)
		if c == nil || c.UID != d.Metadata.UID {
			continue
		}
		n, err := strconv.ParseInt(o.Metadata.Annotations["deployment.kubernetes.io/revision"], 10, 64)
		if err != nil {
			continue
		}
		revs = append(revs, revision{n: n, rs: o, image: templateImages(o)})
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i].n < revs[j].n })
	return revs
}

func controllerRef(o *fakeapi.Object) *fakeapi.OwnerReference {
	for i := range o.Metadata.OwnerReferences {
		if r := &o.Metadata.OwnerReferences[i]; r.IsController() {
			return r
		}
	}
	return nil
}

// templateImages is the images of a workload's pod template, joined.
func templateImages(o *fakeapi.Object) string {
	spec, _ := o.Fields.Get("spec").(map[string]any)
	tmpl, _ := spec["template"].(map[string]any)
	pspec, _ := tmpl["spec"].(map[string]any)
	cs, _ := pspec["containers"].([]any)
	var out []string
	for _, c := range cs {
		if c, ok := c.(map[string]any); ok {
			if img, ok := c["image"].(string); ok {
				out = append(out, img)
			}
		}
	}
	return strings.Join(out, ",")
}

// scalableRefs are the objects in view that scale takes; deploymentRefs
// those rollout takes: the completions of their object argument.
func (m *Model) refNamesOf(kinds ...string) []string {
	var out []string
	for _, r := range m.snap.tree.rows {
		if r.obj != nil && slices.Contains(kinds, r.obj.Kind) {
			out = append(out, shortRef(m.snap.reg, r.obj))
		}
	}
	return out
}
