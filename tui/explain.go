package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/i18n"
	"github.com/gcplay/gcplay/internal/locale"
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
// they have other owners, and the finalizers obj already carries. c words
// it.
func deleteChoices(c *i18n.Catalog, obj *fakeapi.Object, t *tree, byUID func(string) *fakeapi.Object, reg *fakeapi.Registry) []policyChoice {
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
	doomed := countOf(c, del, false)
	if kept > 0 {
		doomed += c.N("picker-kept", kept)
	}
	var other []string
	for _, f := range obj.Metadata.Finalizers {
		if f != fakeapi.FinalizerOrphanDependents && f != fakeapi.FinalizerDeleteDependents {
			other = append(other, f)
		}
	}
	otherList := strings.Join(other, ", ")
	held := ""
	if len(other) > 0 {
		held = c.N("picker-held", len(other), "finalizers", otherList)
	}
	grace := ""
	if info, ok := reg.Lookup(obj.APIVersion, obj.Kind); ok && info.Graceful && nodeNameOf(obj) != "" {
		grace = c.T("picker-grace", "seconds", fmt.Sprint(gracePeriod(obj)))
	}
	already := ""
	if obj.Metadata.DeletionTimestamp != nil {
		already = c.T("picker-already")
	}
	words := []string{"already", already, "name", name, "grace", grace, "held", held, "doomed", doomed}

	var fg string
	switch {
	case len(deps) == 0:
		fg = c.T("picker-fg-alone", words...)
	case blocking == 0:
		fg = c.T("picker-fg-nonblocking", words...)
	default:
		chain := ""
		below := 0
		for _, b := range blockingObjs {
			below += t.descendants(b.Metadata.UID)
		}
		if below > 0 {
			chain = c.N("picker-fg-chain", below)
		}
		fg = c.N("picker-fg", blocking, append(words, "blocking", countOf(c, blockingObjs, true), "chain", chain)...)
	}
	var bg string
	switch {
	case len(deps) == 0:
		bg = c.T("picker-bg-alone", words...)
	case len(other) > 0:
		bg = c.N("picker-bg-held", len(other), append(words, "finalizers", otherList)...)
	default:
		bg = c.T("picker-bg", append(words, "deps", countOf(c, depObjs, false))...)
	}
	var or string
	switch {
	case len(deps) == 0:
		or = c.T("picker-or-alone", words...)
	default:
		or = c.N("picker-or", len(depObjs), append(words, "deps", countOf(c, depObjs, false))...)
	}

	def := "Background"
	kind := obj.Kind
	if info, ok := reg.Lookup(obj.APIVersion, obj.Kind); ok && info.DefaultPolicy == fakeapi.PolicyOrphan {
		def = "Orphan"
	}
	defWhat := c.T("picker-default", "apiVersion", obj.APIVersion, "kind", kind, "policy", def)
	if c.Lang() != locale.Default {
		fg, bg, or, defWhat = locale.Spaced(fg), locale.Spaced(bg), locale.Spaced(or), locale.Spaced(defWhat)
	}
	return []policyChoice{
		{policy: fakeapi.DeletePropagationForeground, label: "Foreground", what: fg},
		{policy: fakeapi.DeletePropagationBackground, label: "Background", what: bg},
		{policy: fakeapi.DeletePropagationOrphan, label: "Orphan", what: or},
		{policy: "", label: "Default", what: defWhat},
	}
}

// countOf says "3 pods", "1 secret" or, for mixed kinds, "3 dependents"
// (blocking: "3 blocking pods"); in Chinese "3 个 Pod".
func countOf(c *i18n.Catalog, objs []*fakeapi.Object, blocking bool) string {
	noun := ""
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
			noun = k
		}
	}
	if c.Lang() == locale.Default {
		// English names a kind in lower case, with its plural.
		if noun == "" {
			noun = c.T("picker-noun-dependent")
		}
		noun = strings.ToLower(noun)
		if len(objs) != 1 {
			noun = pluralNoun(noun)
		}
	} else if noun == "" {
		noun = c.T("picker-noun-dependent")
	}
	key := "picker-count"
	if blocking {
		key = "picker-count-blocking"
	}
	return c.T(key, "n", fmt.Sprint(len(objs)), "noun", noun)
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
	if spec, ok := o.Fields.Get("spec").(map[string]any); ok {
		if n, ok := spec["nodeName"].(string); ok {
			return n
		}
	}
	return ""
}

// gracePeriod is a pod's terminationGracePeriodSeconds (default 30).
func gracePeriod(o *fakeapi.Object) int {
	if spec, ok := o.Fields.Get("spec").(map[string]any); ok {
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
