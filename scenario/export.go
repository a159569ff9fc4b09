package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
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
	// named holds "Kind/namespace/name" of every object the file names
	// (its objects and create steps without generateName): the names the
	// real cluster has too.
	named map[string]bool
	// createdNames holds objectKey of every object created so far.
	createdNames map[string]bool
	// sets are the file's StatefulSets, whose Pods and claims have the
	// same names on every cluster.
	sets []*fakeapi.Object
}

func objectKey(o *fakeapi.Object) string {
	return o.Kind + "/" + o.Metadata.Namespace + "/" + o.Metadata.Name
}

// dependentsFirst orders the starting objects so that an object comes
// after the objects of the file that name it as an owner (by uid or by
// name), the file's order otherwise; an ownership cycle is cut where the
// walk meets it again. An object made with generateName comes after its
// owners instead, since no later patch could name it.
func (e *exporter) dependentsFirst() []int {
	objs := e.s.Objects
	index := map[*fakeapi.Object]int{}
	byKey := map[string]int{}
	for i := range objs {
		index[objs[i].Object] = i
		byKey[objectKey(objs[i].Object)] = i
	}
	dependents := make([][]int, len(objs))
	for i := range objs {
		o := objs[i].Object
		// An object's namespace goes first, wherever its owners are.
		if n, ok := byKey["Namespace//"+o.Metadata.Namespace]; ok && o.Metadata.Namespace != "" && n != i {
			dependents[i] = append(dependents[i], n)
		}
		for _, r := range o.Metadata.OwnerReferences {
			owner := e.ownerOf(o, r)
			if owner == nil {
				continue
			}
			j, ok := index[owner]
			if !ok {
				j, ok = byKey[objectKey(owner)]
			}
			switch {
			case !ok || j == i:
			case o.Metadata.Name == "":
				// A generateName object cannot be named by a later
				// patch: its owners go first.
				dependents[i] = append(dependents[i], j)
			default:
				dependents[j] = append(dependents[j], i)
			}
		}
	}
	var order []int
	state := make([]int, len(objs)) // 0 not seen, 1 on the walk, 2 placed
	var walk func(i int)
	walk = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, d := range dependents[i] {
			walk(d)
		}
		state[i] = 2
		order = append(order, i)
	}
	for i := range objs {
		walk(i)
	}
	return order
}

// stableName reports whether a controller gives the object this name on
// any cluster: a StatefulSet's Pod SET-N and claim TEMPLATE-SET-N.
func (e *exporter) stableName(kind, ns, name string) bool {
	ordinal := func(s, prefix string) bool {
		n, ok := strings.CutPrefix(s, prefix+"-")
		if !ok || n == "" {
			return false
		}
		for _, c := range n {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	for _, set := range e.sets {
		if set.Metadata.Namespace != ns {
			continue
		}
		switch kind {
		case "Pod":
			if ordinal(name, set.Metadata.Name) {
				return true
			}
		case "PersistentVolumeClaim":
			spec, _ := set.Fields.Get("spec").(map[string]any)
			templates, _ := spec["volumeClaimTemplates"].([]any)
			for _, t := range templates {
				m, _ := t.(map[string]any)
				meta, _ := m["metadata"].(map[string]any)
				if tn, _ := meta["name"].(string); tn != "" && ordinal(name, tn+"-"+set.Metadata.Name) {
					return true
				}
			}
		}
	}
	return false
}

func (e *exporter) p(format string, args ...any) { fmt.Fprintf(&e.b, format+"\n", args...) }

// raw writes script text as it is, with a newline.
func (e *exporter) raw(text string) { e.b.WriteString(text + "\n") }

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
	e.raw(`CONTEXT=""
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
# What the cluster has, in the words of gcplay's expectations.
jp() { # resource name namespace jsonpath: the value; "absent" (status 1) when there is no such object
  local out
  if out=$(k get "$1" "$2" ${3:+-n "$3"} -o jsonpath="$4" 2>&1); then printf '%s\n' "$out"; return 0; fi
  case "$out" in *NotFound*|*"not found"*) echo absent ;; *) echo "error: $(tr '\n' ' ' <<<"$out")" ;; esac
  return 1
}
joined() { paste -sd, - | sed 's/,/, /g'; }
has() { # what resource name namespace: the cluster's side of one expectation
  local v
  case "$1" in
    exists|absent) v=$(jp "$2" "$3" "$4" '{.metadata.name}') && echo exists || echo "$v" ;;
    terminating) v=$(jp "$2" "$3" "$4" '{.metadata.deletionTimestamp}') || { echo "$v"; return; }
      if [ -n "$v" ]; then echo terminating; else echo "not terminating"; fi ;;
    finalizers) v=$(jp "$2" "$3" "$4" '{range .metadata.finalizers[*]}{@}{"\n"}{end}') || { echo "$v"; return; }
      echo "finalizers [$(grep . <<<"$v" | joined)]" ;;
    owners) v=$(jp "$2" "$3" "$4" '{range .metadata.ownerReferences[*]}{.kind}/{.name}{"\n"}{end}') || { echo "$v"; return; }
      echo "owners [$(grep . <<<"$v" | sort | joined)]" ;;
  esac
}
field() { # resource name namespace jsonpath path: one field's value
  local v
  v=$(jp "$1" "$2" "$3" "$4") || { echo "$v"; return; }
  case "$v" in ""|"[]"|"{}") v="(none)" ;; esac
  echo "$5 = $v"
}
count() { # resource namespace selector terminating(true/false/any) owner(Kind/name) owner-resource: how many
  local v n=0 ouid="" ts refs
  if [ -n "$5" ]; then ouid=$(k get "$6" "${5#*/}" ${2:+-n "$2"} -o jsonpath='{.metadata.uid}' 2>/dev/null || true); fi
  v=$(k get "$1" ${2:+-n "$2"} ${3:+-l "$3"} -o jsonpath='{range .items[*]}{.metadata.deletionTimestamp}{"|"}{range .metadata.ownerReferences[*]}{.uid} {.kind}/{.name},{end}{"\n"}{end}' 2>&1) || { echo "error: $(tr '\n' ' ' <<<"$v")"; return; }
  while IFS='|' read -r ts refs; do
    case "$4" in true) [ -n "$ts" ] || continue ;; false) [ -z "$ts" ] || continue ;; esac
    if [ -n "$5" ]; then
      if [ -n "$ouid" ]; then [[ ",$refs" == *",$ouid "* ]] || continue; else [[ "$refs" == *" $5,"* ]] || continue; fi
    fi
    n=$((n + 1))
  done < <(grep . <<<"$v" || true)
  echo "$n"
}
CHECKS=0
DIFFERENT=0
# same expected actual: whether they agree; a field gcplay expects 0 or false may be missing (gcplay counts those equal).
same() {
  [ "$1" = "$2" ] && return 0
  case "$1" in *" = 0"|*" = false") [ "$2" = "${1% = *} = (none)" ] ;; *) return 1 ;; esac
}
# check line subject expected actual: print gcplay's expectation above what the cluster has.
check() {
  local mark=same
  CHECKS=$((CHECKS + 1))
  if ! same "$3" "$4"; then mark=DIFFERENT; DIFFERENT=$((DIFFERENT + 1)); fi
  printf '  line %-4s  gcplay:  %s: %s\n' "$1" "$2" "$3"
  printf '%11s  cluster: %s: %s\n' "$mark" "$2" "$4"
}
# try line step reason command...: a request gcplay expects to fail with reason.
try() {
  local out got
  if out=$("${@:4}" 2>&1); then
    got=succeeds
  else
    got=$(sed -n 's/^Error from server (\([A-Za-z]*\)).*/\1/p; s/^Error from server: .*/""/p; s/^The .* is invalid: .*/Invalid/p' <<<"$out" | head -n 1)
    got="fails with ${got:-an error kubectl gave: $(tr '\n' ' ' <<<"$out")}"
  fi
  check "$1" "$2" "fails with $3" "$got"
}
settle() { echo "... letting the controllers work for ${SETTLE}s (gcplay: $1)"; sleep "$SETTLE"; }`)
	runs := func(c string) bool { return s.Controllers == nil || slices.Contains(s.Controllers, c) }
	if runs("kubelet") || runs("namespace") {
		// gcplay's settle waits out the grace period of a deleted Pod,
		// which its kubelet then removes, and the namespace controller's
		// work on a deleted namespace; so does the script, for the Pods
		// that only a kubelet holds (no finalizers), and until no
		// terminating namespace has changed for 9s (the namespace
		// controller looks again 5s after a change, and every 8s at
		// content held by a finalizer).
		e.raw(`GRACE_WAIT="${GCPLAY_GRACE_WAIT:-60}" # the longest a settle waits for deleted Pods and namespaces`)
		var waits []string
		if runs("kubelet") {
			waits = append(waits, "deleted Pods to go once their grace period ends")
			e.raw(`going() { # how many deleted Pods wait for a kubelet (no finalizers)
  k get pods -A -o jsonpath='{range .items[*]}{.metadata.deletionTimestamp}|{.metadata.finalizers}{"\n"}{end}' | grep -c '^[^|]\+|$' || true
}`)
		} else {
			e.raw(`going() { echo 0; }`)
		}
		if runs("namespace") {
			waits = append(waits, "the namespace controller to finish with deleted namespaces")
			e.raw(`going_ns() { # the terminating namespaces and their resourceVersions
  k get namespaces -o jsonpath='{range .items[?(@.metadata.deletionTimestamp)]}{.metadata.name}@{.metadata.resourceVersion} {end}'
}`)
		} else {
			e.raw(`going_ns() { :; }`)
		}
		e.raw(`settle() {
  echo "... letting the controllers work for ${SETTLE}s (gcplay: $1)"; sleep "$SETTLE"
  local waited=0 quiet=0 last="" now
  while [ "$waited" -lt "$GRACE_WAIT" ]; do
    now=$(going_ns)
    if [ -n "$now" ] && [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; fi
    last=$now
    if [ "$(going)" = 0 ] && { [ -z "$now" ] || [ "$quiet" -ge 9 ]; }; then break; fi
    if [ "$waited" = 0 ]; then echo "... and for ` + strings.Join(waits, " and ") + `, as gcplay's settle waits"; fi
    sleep 1; waited=$((waited + 1))
  done
}`)
	}
	e.created = map[string]bool{}
	e.createdNames = map[string]bool{}
	e.named = map[string]bool{}
	remember := func(o *fakeapi.Object) {
		if u := o.Metadata.UID; u != "" {
			e.byUID[u] = o
		}
		if o.Metadata.Name != "" {
			e.named[objectKey(o)] = true
		}
		if o.Kind == "StatefulSet" {
			e.sets = append(e.sets, o)
		}
	}
	for i := range s.Objects {
		remember(s.Objects[i].Object)
	}
	for i := range s.Steps {
		if st := &s.Steps[i]; st.Action == ActionCreate {
			remember(st.Create.Object)
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
		e.p("\n# The starting world, each object's dependents before it: a real cluster's controllers run from the")
		e.p("# start, and a Deployment created before its ReplicaSet would make a ReplicaSet of its own, and then")
		e.p("# scale the file's away. So a controller finds what its owner owns and adopts it; the owner")
		e.p("# references to objects created later are added once those exist.")
	}
	var later []*fakeapi.Object
	for _, i := range e.dependentsFirst() {
		if o, err := e.create(s.Objects[i].Object, fmt.Sprintf("%s:%d", s.File, s.Objects[i].Line), ""); err != nil {
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
	e.p("\necho \"done: $((CHECKS - DIFFERENT)) of $CHECKS expectations the same on this cluster; compare with gcplay run --trace %s\"", strings.ReplaceAll(s.File, `"`, `\"`))
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
	s, _ := o.Fields.Get("spec").(map[string]any)
	switch o.Kind {
	case "Pod":
		if s == nil {
			s = map[string]any{}
			o.Fields.Set("spec", s)
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
func (e *exporter) create(in *fakeapi.Object, where, try string) (*fakeapi.Object, error) {
	o := in.DeepCopy()
	fileUID := o.Metadata.UID
	o.Metadata.UID, o.Metadata.ResourceVersion = "", ""
	o.Metadata.CreationTimestamp, o.Metadata.DeletionTimestamp, o.Metadata.DeletionGracePeriodSeconds = nil, nil, nil
	o.Fields.Delete("status")
	padded := withContainers(o)
	var refs []fakeapi.OwnerReference
	later := false
	placeholders := map[string]string{}
	for i, r := range o.Metadata.OwnerReferences {
		owner := e.ownerOf(o, r)
		switch {
		case owner != nil && r.UID != "" && !e.created[r.UID],
			owner != nil && r.UID == "" && e.named[objectKey(owner)] && !e.createdNames[objectKey(owner)]:
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
	e.p("%sk create -f - <<EOF\n%s\nEOF", try, text)
	if o.Kind == "Node" && try == "" && !hasTaint(o, "node.kubernetes.io/not-ready") {
		e.p("# (a Node made by hand has no kubelet: the apiserver taints it node.kubernetes.io/not-ready, which the node")
		e.p("# lifecycle controller removes once a kubelet reports it Ready. gcplay's Nodes have no such taint, so the")
		e.p("# script removes it, or no DaemonSet would place a Pod there. On a cluster whose node lifecycle controller")
		e.p("# runs, the Node is marked unreachable some 40s later, and new DaemonSet Pods stop going to it.)")
		e.p("k taint node %s node.kubernetes.io/not-ready:NoSchedule-", o.Metadata.Name)
	}
	if fileUID != "" {
		e.created[fileUID] = true
	}
	e.createdNames[objectKey(in)] = true
	if later {
		full := in.DeepCopy()
		return full, nil
	}
	return nil, nil
}

// hasTaint reports whether a Node's spec names a taint with this key.
func hasTaint(o *fakeapi.Object, key string) bool {
	spec, _ := o.Fields.Get("spec").(map[string]any)
	taints, _ := spec["taints"].([]any)
	for _, t := range taints {
		if m, _ := t.(map[string]any); m["key"] == key {
			return true
		}
	}
	return false
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

// kubectlDelete returns kubectl delete's flags for these options, when
// kubectl can send exactly them.
func kubectlDelete(o *fakeapi.DeleteOptions) (string, bool) {
	var args string
	switch {
	case o.PropagationPolicy != nil && o.OrphanDependents == nil && cascadeOf[*o.PropagationPolicy] != "":
		args = " --cascade=" + cascadeOf[*o.PropagationPolicy]
	case o.PropagationPolicy == nil && o.OrphanDependents != nil && *o.OrphanDependents:
		// kubectl sends propagationPolicy Orphan, which the apiserver
		// treats as orphanDependents: true.
		args = " --cascade=orphan"
	default:
		return "", false
	}
	if o.GracePeriodSeconds != nil {
		if *o.GracePeriodSeconds < 0 {
			return "", false
		}
		args += fmt.Sprintf(" --grace-period=%d", *o.GracePeriodSeconds)
		if *o.GracePeriodSeconds == 0 {
			// kubectl reads --grace-period=0 as 1 unless --force is given.
			args += " --force"
		}
	}
	switch {
	case len(o.DryRun) == 1 && o.DryRun[0] == "All":
		args += " --dry-run=server"
	case len(o.DryRun) > 0:
		return "", false
	}
	return args, true
}

var cascadeOf = map[fakeapi.DeletionPropagation]string{"Background": "background", "Foreground": "foreground", "Orphan": "orphan"}

func (e *exporter) step(st *Step) error {
	where := fmt.Sprintf("%s:%d: step %d", e.s.File, st.Line, st.Index)
	note := func(what string) { e.p("\n# %s: %s", where, what) }
	switch st.Action {
	case ActionCreate:
		if o, err := e.create(st.Create.Object, where, e.try(st)); err != nil {
			return err
		} else if o != nil {
			e.patchOwners(o)
		}
	case ActionDelete:
		note(st.Describe())
		kind, ns, name := st.Target.Kind, st.Target.Namespace, st.Target.Name
		if st.Target.UID != "" {
			o := e.byUID[st.Target.UID]
			if o == nil {
				e.p("# (names an object by uid that the file does not create: skipped)")
				return nil
			}
			kind, ns, name = o.Kind, o.Metadata.Namespace, o.Metadata.Name
		}
		o := st.DeleteOptions
		if o == nil {
			o = &fakeapi.DeleteOptions{}
		}
		if o.Preconditions != nil && st.ExpectsError() {
			// Without its precondition the request would succeed, and
			// delete what gcplay keeps.
			e.p("# (preconditions cannot be sent with kubectl, and this one is meant to fail: the step is not replayed)")
			e.p("%s", e.notChecked(st.Line, st.Describe()+": fails with "+st.ExpectedError(), "kubectl cannot send a delete's preconditions"))
			return nil
		}
		if o.Preconditions != nil {
			e.p("# (preconditions cannot be sent with kubectl, and gcplay expects this one to hold: left out)")
		}
		if args, ok := kubectlDelete(o); ok {
			e.p("%sk delete %s --wait=false%s", e.try(st), e.target(kind, ns, name), args)
			return nil
		}
		// What kubectl delete cannot say (no policy at all, a policy with
		// orphanDependents, orphanDependents: false, a value the apiserver
		// refuses) goes as the same DELETE's query parameters, which the
		// apiserver reads as the request's DeleteOptions.
		q := url.Values{}
		if o.PropagationPolicy != nil {
			q.Set("propagationPolicy", string(*o.PropagationPolicy))
		}
		if o.OrphanDependents != nil {
			q.Set("orphanDependents", strconv.FormatBool(*o.OrphanDependents))
		}
		if o.GracePeriodSeconds != nil {
			q.Set("gracePeriodSeconds", strconv.FormatInt(*o.GracePeriodSeconds, 10))
		}
		for _, d := range o.DryRun {
			q.Add("dryRun", d)
		}
		path := e.path(kind, ns, name)
		if len(q) > 0 {
			path += "?" + q.Encode()
			e.p("# (options kubectl delete cannot write: sent as the request's query parameters, with --raw)")
		} else {
			e.p("# (no policy in the file: the apiserver's default for the kind; kubectl always sends one, so --raw sends none)")
		}
		e.p("%sk delete --raw %s", e.try(st), shellQuote(path))
	case ActionPatch:
		note(st.Describe())
		e.p("%sk patch %s --type=merge -p %s", e.try(st), e.target(st.Target.Kind, st.Target.Namespace, st.Target.Name), e.patchBody(st.Merge))
		if status, ok := StatusPatch(st.Merge); ok && st.Target.Kind == "Pod" && !st.ExpectsError() {
			e.p("# (gcplay writes a Pod's status with the rest of a patch; kube-apiserver keeps the stored status on a write of the Pod itself, so the status goes to its subresource too)")
			e.p("k patch %s --subresource=status --type=merge -p %s", e.target(st.Target.Kind, st.Target.Namespace, st.Target.Name), e.patchBody(status))
		}
	case ActionRolloutUndo:
		note(st.Describe())
		cmd := e.try(st) + "k rollout undo " + e.target(st.Target.Kind, st.Target.Namespace, st.Target.Name)
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

// patchBody quotes a merge patch for the shell, with every uid of an
// object of the file (an owner reference's) read from the cluster, which
// gave that object its own.
func (e *exporter) patchBody(merge []byte) string {
	text := shellQuote(string(merge))
	uids := make([]string, 0, len(e.byUID))
	for u := range e.byUID {
		uids = append(uids, u)
	}
	slices.Sort(uids)
	for _, u := range uids {
		b, _ := json.Marshal(u)
		call := uidCall(e.reg, e.byUID[u])
		text = strings.ReplaceAll(text, `"uid":`+string(b), `"uid":"'"`+call+`"'"`)
	}
	return text
}

// try is what the command of a step gcplay expects to fail starts with:
// the script's try function runs it and checks how it fails.
//
// An answer with no reason, which kubectl words "Error from server:
// <message>", is `""` to the script, as in the file.
func (e *exporter) try(st *Step) string {
	if !st.ExpectsError() {
		return ""
	}
	reason := string(st.ExpectError)
	if st.ExpectNoReason {
		reason = shellQuote(`""`)
	}
	return fmt.Sprintf("try %d %s %s ", st.Line, shellQuote(st.Describe()), reason)
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

// expect prints, for each expectation the script can check, gcplay's
// expectation above what the cluster has, in the same words, marked same
// or DIFFERENT: a learner compares them at a glance, and a program (the
// conformance runner) reads them back. Every line of an expectation is
// "  line N  gcplay:  SUBJECT: WHAT", followed by
// "  MARK  cluster: SUBJECT: WHAT". What the script cannot check is said
// on a line of its own.
func (e *exporter) expect(st *Step, where string) {
	x := st.Expect
	e.p("\n# %s: expect", where)
	e.p("echo %s", shellQuote("=== "+where+": gcplay expects, and the cluster has:"))
	type line struct {
		n    int
		text string
	}
	var lines []line
	add := func(n int, text string) { lines = append(lines, line{n, text}) }
	state := func(r Ref, n int, key, want string) {
		t, ok := e.checkTarget(r)
		if !ok {
			add(n, e.notChecked(n, r.String()+": "+want, t))
			return
		}
		add(n, fmt.Sprintf("check %d %s %s \"$(has %s %s)\"", n, shellQuote(r.String()), shellQuote(want), key, t))
	}
	for _, c := range x.Exists {
		state(c.Ref, c.Line, "exists", "exists")
	}
	for _, c := range x.Absent {
		state(c.Ref, c.Line, "absent", "absent")
	}
	for _, c := range x.Terminating {
		state(c.Ref, c.Line, "terminating", "terminating")
	}
	for _, c := range x.NotTerminating {
		state(c.Ref, c.Line, "terminating", "not terminating")
	}
	for _, c := range x.Finalizers {
		state(c.Ref, c.Line, "finalizers", "finalizers ["+strings.Join(c.Finalizers, ", ")+"]")
	}
	for _, c := range x.OwnerReferences {
		var owners []string
		for _, o := range c.Owners {
			owners = append(owners, e.ownerName(o.Owner))
		}
		slices.Sort(owners)
		state(c.Ref, c.Line, "owners", "owners ["+strings.Join(owners, ", ")+"]")
	}
	if x.DeletionOrder != nil {
		var refs []string
		for _, r := range x.DeletionOrder.Refs {
			refs = append(refs, r.String())
			state(r, x.DeletionOrder.Line, "absent", "absent")
		}
		add(x.DeletionOrder.Line, e.notChecked(x.DeletionOrder.Line, "deleted in this order: "+strings.Join(refs, ", "),
			"the order shows in the apiserver's audit log, or watching with kubectl get -w"))
	}
	for _, c := range x.Count {
		add(c.Line, e.countCheck(c))
	}
	for _, c := range x.Events {
		add(c.Line, e.notChecked(c.Line, c.Object.String()+": an event "+c.Describe(), "see kubectl get events"))
	}
	for _, c := range x.NoEvents {
		add(c.Line, e.notChecked(c.Line, c.Ref.String()+": no events", "see kubectl get events"))
	}
	for _, c := range x.Fields {
		t, ok := e.checkTarget(c.Ref)
		for _, v := range c.Values {
			want := v.Path + " = " + jsonpathValue(v.Want)
			if !ok {
				add(v.Line, e.notChecked(v.Line, c.Ref.String()+": "+want, t))
				continue
			}
			add(v.Line, fmt.Sprintf("check %d %s %s \"$(field %s %s %s)\"", v.Line, shellQuote(c.Ref.String()), shellQuote(want), t,
				shellQuote(jsonpathOf(v.Segments)), shellQuote(v.Path)))
		}
	}
	for _, c := range x.Graph {
		add(c.Line, e.notChecked(c.Line, c.Ref.String()+": in the collector's graph", "a real cluster does not show the collector's graph"))
	}
	for _, c := range x.Queues {
		add(c.Line, e.notChecked(c.Line, "the collector's "+c.Queue+" queue", "a real cluster does not show the collector's queues"))
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].n < lines[j].n })
	for _, l := range lines {
		e.p("%s", l.text)
	}
}

// jsonpathOf writes a field path of expect.fields as kubectl's JSONPath.
func jsonpathOf(segs []PathSegment) string {
	var b strings.Builder
	b.WriteString("{")
	for _, s := range segs {
		b.WriteString("." + strings.ReplaceAll(s.Name, ".", `\.`))
		switch {
		case s.Key != "":
			fmt.Fprintf(&b, `[?(@.%s==%q)]`, s.Key, s.Value)
		case s.Index >= 0:
			fmt.Fprintf(&b, "[%d]", s.Index)
		}
	}
	b.WriteString("}")
	return b.String()
}

// jsonpathValue writes an expected value as kubectl's JSONPath prints
// one: scalars as they are, lists and maps as JSON; "(none)" for null or
// an empty list or map, as the script writes a field that is missing or
// empty (gcplay counts those equal).
func jsonpathValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "(none)"
	case []any:
		if len(v) == 0 {
			return "(none)"
		}
	case map[string]any:
		if len(v) == 0 {
			return "(none)"
		}
	case string:
		if v == "" {
			return "(none)"
		}
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// notChecked is the script line for an expectation it does not check.
func (e *exporter) notChecked(n int, what, why string) string {
	return "echo " + shellQuote(fmt.Sprintf("  line %-4d  gcplay:  %s (not checked here: %s)", n, what, why))
}

// checkTarget returns kubectl's resource, name and namespace for an
// object an expectation names, or, when the script cannot name the real
// object, why.
func (e *exporter) checkTarget(r Ref) (string, bool) {
	kind, ns, name := r.Kind, r.Namespace, r.Name
	if r.UID != "" {
		o := e.byUID[r.UID]
		if o == nil {
			return "it names an object by a uid gcplay assigned; the cluster assigns its own", false
		}
		kind, ns, name = o.Kind, o.Metadata.Namespace, o.Metadata.Name
	} else if !e.named[kind+"/"+ns+"/"+name] && !e.stableName(kind, ns, name) {
		return "gcplay's controllers named this object; the cluster's controllers name theirs otherwise", false
	}
	t := e.target(kind, ns, name)
	res, rest, _ := strings.Cut(t, " ")
	obj, nsArg, _ := strings.Cut(rest, " -n ")
	return res + " " + obj + " " + shellQuote(nsArg), true
}

// ownerName is an owner as the script prints it: Kind/name.
func (e *exporter) ownerName(r Ref) string {
	if r.UID != "" {
		if o := e.byUID[r.UID]; o != nil {
			return o.Kind + "/" + o.Metadata.Name
		}
		return r.String()
	}
	return r.Kind + "/" + r.Name
}

// countCheck is the script line for a count expectation.
func (e *exporter) countCheck(c CountCheck) string {
	what := "count " + c.Describe()
	if c.OwnedBy != nil && c.OwnedBy.UID != "" && e.byUID[c.OwnedBy.UID] == nil {
		return e.notChecked(c.Line, fmt.Sprintf("%s: %d", what, c.Equals), "its owner is named by a uid gcplay assigned")
	}
	if c.OwnedBy != nil && c.OwnedBy.UID == "" && !e.named[c.OwnedBy.Kind+"/"+c.OwnedBy.Namespace+"/"+c.OwnedBy.Name] {
		return e.notChecked(c.Line, fmt.Sprintf("%s: %d", what, c.Equals), "gcplay's controllers named its owner; the cluster's controllers name theirs otherwise")
	}
	ns := c.Namespace
	if info, err := e.reg.ByKind(c.Kind); err == nil && !info.Namespaced() {
		ns = ""
	}
	term := "any"
	if c.Terminating != nil {
		term = fmt.Sprint(*c.Terminating)
	}
	owner, ownerRes := "", ""
	if c.OwnedBy != nil {
		kind, name := c.OwnedBy.Kind, c.OwnedBy.Name
		if o := e.byUID[c.OwnedBy.UID]; o != nil {
			kind, name = o.Kind, o.Metadata.Name
		}
		owner = kind + "/" + name
		ownerRes, _, _ = strings.Cut(e.target(kind, "", name), " ")
	}
	res, _, _ := strings.Cut(e.target(c.Kind, "", "x"), " ")
	return fmt.Sprintf("check %d %s %d \"$(count %s %s %s %s %s %s)\"", c.Line, shellQuote(what), c.Equals, res,
		shellQuote(ns), shellQuote(c.Selector.String()), term, shellQuote(owner), shellQuote(ownerRes))
}

// StatusPatch is the status of a merge patch, as a merge patch of its
// own (for a Pod's status subresource), when it has one.
func StatusPatch(merge []byte) ([]byte, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(merge, &m); err != nil {
		return nil, false
	}
	st, ok := m["status"]
	if !ok {
		return nil, false
	}
	out, err := json.Marshal(map[string]json.RawMessage{"status": st})
	return out, err == nil
}
