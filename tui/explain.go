package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// policyChoice is one line of the delete picker.
type policyChoice struct {
	// policy is sent as propagationPolicy; "" sends none (the kind's default).
	policy fakeapi.DeletionPropagation
	label  string
	// what says what this policy will do to the selected object.
	what string
}

// deleteChoices explains, for each deletion policy, what it will do to obj
// given its dependents in storage: how many, how many block it, whether
// they have other owners, and the finalizers obj already carries.
func deleteChoices(obj *fakeapi.Object, t *tree, byUID func(string) *fakeapi.Object, reg *fakeapi.Registry) []policyChoice {
	deps := t.deps[obj.Metadata.UID]
	name := obj.Metadata.Name
	// A dependent with another owner in storage is kept: the collector
	// only removes its reference to obj (R44(a)).
	var del, blockingObjs []*fakeapi.Object
	kept := 0
	for _, d := range deps {
		if d.ref.Blocks() {
			blockingObjs = append(blockingObjs, d.obj)
		}
		other := false
		for _, r := range d.obj.Metadata.OwnerReferences {
			if r.UID != obj.Metadata.UID && byUID(r.UID) != nil {
				other = true
				break
			}
		}
		if other {
			kept++
		} else {
			del = append(del, d.obj)
		}
	}
	blocking := len(blockingObjs)
	depObjs := make([]*fakeapi.Object, len(deps))
	for i, d := range deps {
		depObjs[i] = d.obj
	}
	doomed := countOf(del)
	if kept > 0 {
		doomed += fmt.Sprintf(" (%d with another owner only lose%s the reference)", kept, plural(kept, "s", ""))
	}
	var other []string
	for _, f := range obj.Metadata.Finalizers {
		if f != fakeapi.FinalizerOrphanDependents && f != fakeapi.FinalizerDeleteDependents {
			other = append(other, f)
		}
	}
	held := ""
	if len(other) > 0 {
		held = fmt.Sprintf("; then it stays terminating until %s %s removed", strings.Join(other, ", "), plural(len(other), "is", "are"))
	}
	grace := ""
	if info, ok := reg.Lookup(obj.APIVersion, obj.Kind); ok && info.Graceful && nodeNameOf(obj) != "" {
		grace = fmt.Sprintf(" (a scheduled pod: it first waits %ds for the kubelet)", gracePeriod(obj))
	}
	already := ""
	if obj.Metadata.DeletionTimestamp != nil {
		already = "already terminating; "
	}

	var fg string
	switch {
	case len(deps) == 0:
		fg = fmt.Sprintf("%s%s gets foregroundDeletion; nothing depends on it, so the collector removes the finalizer and it goes%s%s", already, name, grace, held)
	case blocking == 0:
		fg = fmt.Sprintf("%s%s gets foregroundDeletion; the collector deletes %s, but none blocks it, so it goes without waiting%s%s", already, name, doomed, grace, held)
	default:
		chain := ""
		below := 0
		for _, b := range blockingObjs {
			below += t.descendants(b.Metadata.UID)
		}
		if below > 0 {
			chain = fmt.Sprintf(", and they in turn wait for the %d %s below them (foreground goes down the chain)", below, plural(below, "object", "objects"))
		}
		fg = fmt.Sprintf("%s%s waits until %s %s gone (foregroundDeletion); the collector first deletes %s%s%s%s", already, name, countOf(blockingObjs, "blocking"), plural(blocking, "is", "are"), doomed, chain, grace, held)
	}
	var bg string
	switch {
	case len(deps) == 0:
		bg = fmt.Sprintf("%s%s is deleted now%s%s; nothing depends on it", already, name, grace, held)
	case len(other) > 0:
		bg = fmt.Sprintf("%s%s is marked deleted now but stays until %s %s removed; only then does the collector delete %s", already, name, strings.Join(other, ", "), plural(len(other), "is", "are"), doomed)
	default:
		bg = fmt.Sprintf("%s%s is deleted now%s; the collector then finds the owner of %s gone and deletes %s", already, name, grace, countOf(depObjs), doomed)
	}
	var or string
	switch {
	case len(deps) == 0:
		or = fmt.Sprintf("%s%s gets the orphan finalizer; nothing to orphan, so the collector removes it and %s goes%s%s", already, name, name, grace, held)
	default:
		or = fmt.Sprintf("%s%s gets the orphan finalizer; the collector removes %s's reference from %s, which %s, then %s goes%s%s", already, name, name, countOf(depObjs), plural(len(depObjs), "stays", "stay"), name, grace, held)
	}

	def := "Background"
	kind := obj.Kind
	if info, ok := reg.Lookup(obj.APIVersion, obj.Kind); ok && info.DefaultPolicy == fakeapi.PolicyOrphan {
		def = "Orphan"
	}
	defWhat := fmt.Sprintf("no propagationPolicy: the apiserver applies %s %s's default, %s (kubectl delete would send Background)", obj.APIVersion, kind, def)
	return []policyChoice{
		{policy: fakeapi.DeletePropagationForeground, label: "Foreground", what: fg},
		{policy: fakeapi.DeletePropagationBackground, label: "Background", what: bg},
		{policy: fakeapi.DeletePropagationOrphan, label: "Orphan", what: or},
		{policy: "", label: "Default", what: defWhat},
	}
}

// countOf says "3 pods", "1 secret" or, for mixed kinds, "3 dependents",
// with an optional adjective ("3 blocking pods").
func countOf(objs []*fakeapi.Object, adj ...string) string {
	noun := "dependent"
	if len(objs) > 0 {
		k := objs[0].Kind
		same := true
		for _, o := range objs[1:] {
			if o.Kind != k {
				same = false
				break
			}
		}
		if same {
			noun = strings.ToLower(k)
		}
	}
	words := []string{fmt.Sprint(len(objs))}
	words = append(words, adj...)
	n := noun
	if len(objs) != 1 {
		n = pluralNoun(noun)
	}
	return strings.Join(append(words, n), " ")
}

func pluralNoun(s string) string {
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"):
		return s + "es"
	case strings.HasSuffix(s, "y") && !strings.HasSuffix(s, "ey"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func nodeNameOf(o *fakeapi.Object) string {
	if spec, ok := o.Fields["spec"].(map[string]any); ok {
		if n, ok := spec["nodeName"].(string); ok {
			return n
		}
	}
	return ""
}

// gracePeriod is a pod's terminationGracePeriodSeconds (default 30).
func gracePeriod(o *fakeapi.Object) int {
	if spec, ok := o.Fields["spec"].(map[string]any); ok {
		if g, ok := spec["terminationGracePeriodSeconds"].(float64); ok {
			return int(g)
		}
	}
	return 30
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
