package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// ExportKubectl writes a bash script that builds the scenario's world on a
// real cluster and replays its steps with kubectl, printing at each expect
// step what gcplay expects beside what the cluster shows, for the learner
// to compare.
//
// The script uses a kind cluster named after the scenario, created when
// missing, or a context named with --context; it refuses a context it did
// not create (kind-gcplay-*) unless --force is given, since it creates and
// deletes objects there. A real cluster assigns its own UIDs, so owner
// references are filled in from the objects the script created; an owner
// created later is added by a patch once it exists. What kubectl cannot
// do (step the collector one item at a time, inject faults, restart the
// controller manager) is said in the script, where it would have been.
func ExportKubectl(s *Scenario) ([]byte, error) {
	e := &exporter{s: s, reg: fakeapi.NewRegistry(), byUID: map[string]*fakeapi.Object{}}
	for _, k := range s.Kinds {
		if err := e.reg.Add(k); err != nil {
			return nil, err
		}
	}
	return e.script()
}

type exporter struct {
	s     *Scenario
	reg   *fakeapi.Registry
	b     bytes.Buffer
	byUID map[string]*fakeapi.Object
	// created are the UIDs of the file's objects created so far.
	created map[string]bool
}

func (e *exporter) p(format string, args ...any) { fmt.Fprintf(&e.b, format+"\n", args...) }

func (e *exporter) script() ([]byte, error) {
	s := e.s
	name := s.Name
	e.p("#!/usr/bin/env bash")
	e.p("# %s: the world of gcplay scenario %q, built on a real cluster with kubectl.", scriptName(s), s.Name)
	e.p("# Written by gcplay export kubectl. Run it, then compare what it prints with:")
	e.p("#   gcplay run --trace %s", shellQuote(s.File))
	e.p("#")
	e.p("#   %s                     a kind cluster named gcplay-%s (created when missing)", scriptName(s), name)
	e.p("#   %s --context NAME      a context this script created (kind-gcplay-*)", scriptName(s))
	e.p("#   %s --context NAME --force   any other cluster: it creates and deletes objects there", scriptName(s))
	e.p("#   %s --delete-cluster    delete the kind cluster at the end", scriptName(s))
	if s.Controllers != nil {
		e.p("#")
		e.p("# gcplay ran only these controllers: %s. A real cluster runs all of", strings.Join(s.Controllers, ", "))
		e.p("# kube-controller-manager's and a kubelet, so what the others do shows here too.")
	}
	e.p("set -euo pipefail")
	e.p("CLUSTER=gcplay-%s", name)
	e.p(`CONTEXT=""
FORCE=0
DELETE_CLUSTER=0
SETTLE="${GCPLAY_SETTLE:-10}" # seconds to let the controllers work where gcplay settles
while [ $# -gt 0 ]; do
  case "$1" in
    --context) CONTEXT="$2"; shift 2 ;;
    --force) FORCE=1; shift ;;
    --delete-cluster) DELETE_CLUSTER=1; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$CONTEXT" ]; then
  CONTEXT="kind-$CLUSTER"
  if ! kind get clusters 2>/dev/null | grep -qx "$CLUSTER"; then
    echo "creating kind cluster $CLUSTER (needs kind and docker)"
    kind create cluster --name "$CLUSTER"
  fi
fi
case "$CONTEXT" in
  kind-gcplay-*) ;;
  *) if [ "$FORCE" != 1 ]; then
       echo "refusing context $CONTEXT: this script did not create it, and it creates and deletes objects." >&2
       echo "Run it with --context $CONTEXT --force to use that cluster anyway." >&2
       exit 2
     fi ;;
esac
echo "using context $CONTEXT"
k() { kubectl --context "$CONTEXT" "$@"; }
uid() { k get "$1" "$2" ${3:+-n "$3"} -o jsonpath='{.metadata.uid}'; }
show() { # kind name namespace: one line of what the cluster holds
  if k get "$1" "$2" ${3:+-n "$3"} >/dev/null 2>&1; then
    k get "$1" "$2" ${3:+-n "$3"} -o jsonpath='{.kind}/{.metadata.name}: exists, deletionTimestamp={.metadata.deletionTimestamp}, finalizers={.metadata.finalizers}, owners={.metadata.ownerReferences[*].name}{"\n"}'
  else
    echo "$1/$2: absent"
  fi
}
settle() { echo "... letting the controllers work for ${SETTLE}s (gcplay: $1)"; sleep "$SETTLE"; }`)
	e.created = map[string]bool{}
	for i := range s.Objects {
		if u := s.Objects[i].Object.Metadata.UID; u != "" {
			e.byUID[u] = s.Objects[i].Object
		}
	}
	for i := range s.Steps {
		if st := &s.Steps[i]; st.Action == ActionCreate && st.Create.Object.Metadata.UID != "" {
			e.byUID[st.Create.Object.Metadata.UID] = st.Create.Object
		}
	}
	if len(s.Kinds) > 0 {
		e.p("\n# The custom kinds, as CustomResourceDefinitions that keep any field.")
		for _, k := range s.Kinds {
			if err := e.crd(k); err != nil {
				return nil, err
			}
		}
	}
	if len(s.Objects) > 0 {
		e.p("\n# The starting world, in the file's order.")
	}
	var later []*fakeapi.Object
	for i := range s.Objects {
		if o, err := e.create(s.Objects[i].Object, fmt.Sprintf("%s:%d", s.File, s.Objects[i].Line)); err != nil {
			return nil, err
		} else if o != nil {
			later = append(later, o)
		}
	}
	for _, o := range later {
		e.patchOwners(o)
	}
	for i := range s.Steps {
		if err := e.step(&s.Steps[i]); err != nil {
			return nil, err
		}
	}
	e.p("\necho \"done: compare with gcplay run --trace %s\"", strings.ReplaceAll(s.File, `"`, `\"`))
	e.p(`if [ "$DELETE_CLUSTER" = 1 ]; then kind delete cluster --name "$CLUSTER"; fi`)
	return e.b.Bytes(), nil
}

func scriptName(s *Scenario) string { return s.Name + ".sh" }

// crd writes a CustomResourceDefinition for a custom kind.
func (e *exporter) crd(k fakeapi.KindInfo) error {
	group, version := fakeapi.SplitAPIVersion(k.APIVersion)
	if group == "" {
		return fmt.Errorf("custom kind %s %s has no API group: a real cluster serves custom kinds from a group", k.APIVersion, k.Kind)
	}
	plural := strings.ToLower(k.Kind) + "s"
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{
			"group": group, "scope": string(k.Scope),
			"names": map[string]any{"kind": k.Kind, "plural": plural, "singular": strings.ToLower(k.Kind), "listKind": k.Kind + "List"},
			"versions": []any{map[string]any{"name": version, "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
		},
	}
	b, err := json.Marshal(crd)
	if err != nil {
		return err
	}
	e.p("k apply -f - <<'EOF'\n%s\nEOF", b)
	e.p("k wait --for=condition=Established crd/%s.%s --timeout=60s", plural, group)
	return nil
}

// withContainers gives a Pod (or a pod template) without containers the
// pause container, since a real apiserver requires one.
func withContainers(o *fakeapi.Object) bool {
	spec := func(m map[string]any) bool {
		if m == nil {
			return false
		}
		if c, ok := m["containers"].([]any); ok && len(c) > 0 {
			return false
		}
		m["containers"] = []any{map[string]any{"name": "pause", "image": "registry.k8s.io/pause:3.10"}}
		return true
	}
	s, _ := o.Fields["spec"].(map[string]any)
	switch o.Kind {
	case "Pod":
		if s == nil {
			s = map[string]any{}
			o.Fields["spec"] = s
		}
		return spec(s)
	case "ReplicaSet", "Deployment", "StatefulSet", "DaemonSet", "Job", "ReplicationController":
		t, _ := s["template"].(map[string]any)
		if t == nil {
			return false
		}
		ts, _ := t["spec"].(map[string]any)
		if ts == nil {
			ts = map[string]any{}
			t["spec"] = ts
		}
		return spec(ts)
	}
	return false
}

// create writes the creation of one object. An owner reference by uid to
// an object of the file that does not exist yet is left out and returned
// for patchOwners.
func (e *exporter) create(in *fakeapi.Object, where string) (*fakeapi.Object, error) {
	o := in.DeepCopy()
	if o.Fields == nil {
		o.Fields = map[string]any{}
	}
	fileUID := o.Metadata.UID
	o.Metadata.UID, o.Metadata.ResourceVersion = "", ""
	o.Metadata.CreationTimestamp, o.Metadata.DeletionTimestamp, o.Metadata.DeletionGracePeriodSeconds = nil, nil, nil
	delete(o.Fields, "status")
	padded := withContainers(o)
	var refs []fakeapi.OwnerReference
	later := false
	placeholders := map[string]string{}
	for i, r := range o.Metadata.OwnerReferences {
		owner := e.ownerOf(o, r)
		switch {
		case owner != nil && r.UID != "" && !e.created[r.UID]:
			later = true
			continue
		case owner != nil:
			ph := fmt.Sprintf("GCPLAY_UID_%d", i)
			placeholders[ph] = uidCall(e.reg, owner)
			r.UID = ph
		case r.UID == "":
			return nil, fmt.Errorf("%s: %s names owner %s/%s, which the file does not create", where, o, r.Kind, r.Name)
		}
		refs = append(refs, r)
	}
	o.Metadata.OwnerReferences = refs
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return nil, err
	}
	text := heredocEscape(string(b))
	for ph, call := range placeholders {
		text = strings.ReplaceAll(text, ph, call)
	}
	e.p("\n# %s: %s", where, o)
	if padded {
		e.p("# (no containers in the file: the pause container is added, as a real apiserver needs one)")
	}
	if later {
		e.p("# (an owner it names is created later: the reference is added once that owner exists)")
	}
	e.p("k create -f - <<EOF\n%s\nEOF", text)
	if fileUID != "" {
		e.created[fileUID] = true
	}
	if later {
		full := in.DeepCopy()
		return full, nil
	}
	return nil, nil
}

// patchOwners puts back the owner references create left out.
func (e *exporter) patchOwners(o *fakeapi.Object) {
	var parts []string
	for _, r := range o.Metadata.OwnerReferences {
		owner := e.ownerOf(o, r)
		uid := r.UID
		if owner != nil {
			uid = "'\"$(" + strings.TrimPrefix(strings.TrimSuffix(uidCall(e.reg, owner), ")"), "$(") + ")\"'"
		}
		ref := map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "name": r.Name, "uid": "UIDHERE"}
		if r.Controller != nil {
			ref["controller"] = *r.Controller
		}
		if r.BlockOwnerDeletion != nil {
			ref["blockOwnerDeletion"] = *r.BlockOwnerDeletion
		}
		b, _ := json.Marshal(ref)
		parts = append(parts, strings.Replace(string(b), "UIDHERE", uid, 1))
	}
	e.p("\n# %s: its owner references, now that every owner exists", o)
	e.p("k patch %s --type=merge -p '{\"metadata\":{\"ownerReferences\":[%s]}}'", e.target(o.Kind, o.Metadata.Namespace, o.Metadata.Name), strings.Join(parts, ","))
}

// ownerOf returns the object of the file an owner reference names: by
// uid, or by kind and name.
func (e *exporter) ownerOf(o *fakeapi.Object, r fakeapi.OwnerReference) *fakeapi.Object {
	if r.UID != "" {
		return e.byUID[r.UID]
	}
	ns := o.Metadata.Namespace
	if info, ok := e.reg.Lookup(r.APIVersion, r.Kind); ok && !info.Namespaced() {
		ns = ""
	}
	return &fakeapi.Object{APIVersion: r.APIVersion, Kind: r.Kind, Metadata: fakeapi.ObjectMeta{Name: r.Name, Namespace: ns}}
}

func uidCall(reg *fakeapi.Registry, o *fakeapi.Object) string {
	ns := o.Metadata.Namespace
	if info, ok := reg.Lookup(o.APIVersion, o.Kind); ok && !info.Namespaced() {
		ns = ""
	}
	if ns != "" {
		return fmt.Sprintf("$(uid %s %s %s)", resourceName(reg, o.APIVersion, o.Kind), o.Metadata.Name, ns)
	}
	return fmt.Sprintf("$(uid %s %s)", resourceName(reg, o.APIVersion, o.Kind), o.Metadata.Name)
}

// resourceName is the name kubectl takes for a kind: resource.group.
func resourceName(reg *fakeapi.Registry, apiVersion, kind string) string {
	if info, ok := reg.Lookup(apiVersion, kind); ok {
		if g := info.Group(); g != "" {
			return info.Resource + "." + g
		}
		return info.Resource
	}
	return strings.ToLower(kind)
}

// target names an object on kubectl's command line.
func (e *exporter) target(kind, namespace, name string) string {
	var apiVersion string
	for _, k := range e.reg.Kinds() {
		if k.Kind == kind {
			apiVersion = k.APIVersion
			break
		}
	}
	t := resourceName(e.reg, apiVersion, kind) + " " + name
	if namespace != "" {
		if info, ok := e.reg.Lookup(apiVersion, kind); !ok || info.Namespaced() {
			t += " -n " + namespace
		}
	}
	return t
}

// heredocEscape protects the characters an unquoted here-document expands.
func heredocEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "$", `\$`, "`", "\\`")
	return r.Replace(s)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

var cascadeOf = map[fakeapi.DeletionPropagation]string{"Background": "background", "Foreground": "foreground", "Orphan": "orphan"}

func (e *exporter) step(st *Step) error {
	where := fmt.Sprintf("%s:%d: step %d", e.s.File, st.Line, st.Index)
	note := func(what string) { e.p("\n# %s: %s", where, what) }
	switch st.Action {
	case ActionCreate:
		if o, err := e.create(st.Create.Object, where); err != nil {
			return err
		} else if o != nil {
			e.patchOwners(o)
		}
	case ActionDelete:
		note(st.Describe())
		t := e.target(st.Target.Kind, st.Target.Namespace, st.Target.Name)
		if st.Target.UID != "" {
			if o := e.byUID[st.Target.UID]; o != nil {
				t = e.target(o.Kind, o.Metadata.Namespace, o.Metadata.Name)
			} else {
				e.p("# (names an object by uid that the file does not create: skipped)")
				return nil
			}
		}
		args := []string{"k delete " + t, "--wait=false"}
		o := st.DeleteOptions
		switch {
		case o.PropagationPolicy != nil && cascadeOf[*o.PropagationPolicy] != "":
			args = append(args, "--cascade="+cascadeOf[*o.PropagationPolicy])
		case o.OrphanDependents != nil && *o.OrphanDependents:
			args = append(args, "--cascade=orphan")
		default:
			e.p("# (no policy in the file: the apiserver's default for the kind; kubectl always sends one, so --raw sends none)")
			args = []string{"k delete --raw " + e.path(st.Target.Kind, st.Target.Namespace, st.Target.Name)}
		}
		if o.GracePeriodSeconds != nil && len(args) > 1 {
			args = append(args, fmt.Sprintf("--grace-period=%d", *o.GracePeriodSeconds))
		}
		if len(o.DryRun) > 0 && len(args) > 1 {
			args = append(args, "--dry-run=server")
		}
		if o.Preconditions != nil {
			e.p("# (preconditions cannot be written with kubectl: left out)")
		}
		if st.ExpectError != "" {
			e.p("# gcplay expects this request to fail with %s", st.ExpectError)
			e.p("%s || echo \"failed, as gcplay expects (%s)\"", strings.Join(args, " "), st.ExpectError)
		} else {
			e.p("%s", strings.Join(args, " "))
		}
	case ActionPatch:
		note(st.Describe())
		e.p("k patch %s --type=merge -p %s", e.target(st.Target.Kind, st.Target.Namespace, st.Target.Name), shellQuote(string(st.Merge)))
	case ActionRolloutUndo:
		note(st.Describe())
		cmd := "k rollout undo " + e.target(st.Target.Kind, st.Target.Namespace, st.Target.Name)
		if st.ToRevision != 0 {
			cmd += " --to-revision=" + fmt.Sprint(st.ToRevision)
		}
		e.p("%s", cmd)
	case ActionStep:
		note(st.Describe() + ": gcplay steps the controllers one work item at a time; a real cluster does not stop, so this is a short wait")
		e.p("sleep 1")
	case ActionSettle:
		note("settle")
		e.p("settle 'settle'")
	case ActionAdvance:
		note(st.Describe())
		e.p("echo \"... waiting %s, as gcplay advances its clock\"; sleep %d", st.Duration, int(st.Duration.Seconds()+0.999))
	case ActionRestart:
		note(st.Describe() + ": restarting kube-controller-manager (on kind, its static pod restarts when killed)")
		e.p(`k -n kube-system delete pod -l component=kube-controller-manager --wait=false || true`)
	case ActionInject:
		note(st.Describe() + ": fault injection is gcplay's own; a real cluster cannot be told to fail a request: skipped")
	case ActionExpect:
		e.expect(st, where)
	default:
		note(st.Describe() + ": not replayed with kubectl")
	}
	return nil
}

// path is the REST path of an object, for kubectl delete --raw.
func (e *exporter) path(kind, namespace, name string) string {
	for _, k := range e.reg.Kinds() {
		if k.Kind != kind {
			continue
		}
		p := "/api/" + k.APIVersion
		if k.Group() != "" {
			p = "/apis/" + k.APIVersion
		}
		if k.Namespaced() {
			p += "/namespaces/" + namespace
		}
		return p + "/" + k.Resource + "/" + name
	}
	return "/" + strings.ToLower(kind) + "/" + name
}

// expect prints what gcplay expects beside what the cluster shows.
func (e *exporter) expect(st *Step, where string) {
	x := st.Expect
	e.p("\n# %s: expect", where)
	e.p("echo '=== %s: gcplay expects:'", strings.ReplaceAll(where, "'", ""))
	seen := []string{}
	show := func(r Ref, want string) {
		e.p("echo '  %s: %s'", r.String(), strings.ReplaceAll(want, "'", ""))
		key := r.Kind + "/" + r.Namespace + "/" + r.Name
		if r.UID == "" && !slices.Contains(seen, key) {
			seen = append(seen, key)
		}
	}
	for _, c := range x.Exists {
		show(c.Ref, "exists")
	}
	for _, c := range x.Absent {
		show(c.Ref, "absent")
	}
	for _, c := range x.Terminating {
		show(c.Ref, "terminating (deletionTimestamp set)")
	}
	for _, c := range x.NotTerminating {
		show(c.Ref, "not terminating")
	}
	for _, c := range x.Finalizers {
		show(c.Ref, "finalizers ["+strings.Join(c.Finalizers, ", ")+"]")
	}
	for _, c := range x.OwnerReferences {
		var owners []string
		for _, o := range c.Owners {
			owners = append(owners, o.Owner.String())
		}
		show(c.Ref, "owners ["+strings.Join(owners, ", ")+"]")
	}
	if x.DeletionOrder != nil {
		var refs []string
		for _, r := range x.DeletionOrder.Refs {
			refs = append(refs, r.String())
			show(r, "absent")
		}
		e.p("echo '  deleted in this order: %s (a real cluster shows it in its audit log or with kubectl get -w)'", strings.Join(refs, ", "))
	}
	for _, c := range x.Count {
		e.p("echo '  %d %s objects%s'", c.Equals, c.Kind, countDetail(c))
		e.p("k get %s %s %s --no-headers 2>/dev/null | wc -l | sed 's/^/  the cluster has: /'", resourceName(e.reg, "", c.Kind), nsOrAll(c.Namespace), selectorArg(c.Selector))
	}
	if len(x.Graph) > 0 || len(x.Queues) > 0 {
		e.p("echo '  (and the collector'\"'\"'s graph and queues, which a real cluster does not show)'")
	}
	if len(seen) > 0 {
		e.p("echo '=== the cluster has:'")
		for _, key := range seen {
			parts := strings.SplitN(key, "/", 3)
			ns := parts[1]
			e.p("show %s %s %s", resourceName(e.reg, "", parts[0]), parts[2], ns)
		}
	}
}

func countDetail(c CountCheck) string {
	var d []string
	if c.Namespace != "" {
		d = append(d, "in "+c.Namespace)
	}
	if s := c.Selector.String(); s != "" {
		d = append(d, "matching "+s)
	}
	if c.OwnedBy != nil {
		d = append(d, "owned by "+c.OwnedBy.String())
	}
	if len(d) == 0 {
		return ""
	}
	return " " + strings.Join(d, ", ")
}

func nsOrAll(ns string) string {
	if ns == "" {
		return ""
	}
	return "-n " + ns
}

func selectorArg(s Selector) string {
	if t := s.String(); t != "" {
		return "-l " + shellQuote(t)
	}
	return ""
}
