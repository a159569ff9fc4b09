package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// NamespaceWhy explains why a terminating Namespace is still in storage:
// what still holds it, its conditions, and the next thing that has to
// happen. It reads store as it is (a view, not a controller), queue is
// the namespace controller's queue, controllers the ones running. It
// returns nil for a namespace that is not terminating.
func NamespaceWhy(store *fakeapi.Store, ns *fakeapi.Object, queue []QueueItem, controllers []string) []string {
	if ns == nil || ns.Kind != "Namespace" || ns.Metadata.DeletionTimestamp == nil {
		return nil
	}
	name := ns.Metadata.Name
	specFins := fakeapi.NamespaceFinalizers(ns)
	var out []string
	out = append(out, fmt.Sprintf("Why %s is still here: phase %s, spec.finalizers %s, metadata.finalizers %s",
		"Namespace/"+name, fakeapi.NamespacePhase(ns), fmtList(specFins), fmtList(ns.Metadata.Finalizers)))

	var left []*fakeapi.Object
	for _, o := range store.Objects() {
		if o.Metadata.Namespace == name && o.Kind != "Event" {
			left = append(left, o)
		}
	}
	if len(left) == 0 {
		out = append(out, "  nothing is left in it")
	} else {
		out = append(out, fmt.Sprintf("  still in it (%d):", len(left)))
		for i, o := range left {
			if i == 8 {
				out = append(out, fmt.Sprintf("    ... and %d more", len(left)-8))
				break
			}
			out = append(out, "    "+heldLine(o, slices.Contains(controllers, ControllerKubelet)))
		}
	}
	if st, ok := ns.Fields.Get("status").(map[string]any); ok {
		conds, _ := st["conditions"].([]any)
		for _, c := range conds {
			m, _ := c.(map[string]any)
			if m["status"] == "True" {
				out = append(out, fmt.Sprintf("  condition %s=True (%s): %s", m["type"], m["reason"], m["message"]))
			}
		}
	}
	// The next step comes second: it is the answer a learner looks for.
	next := "  next: " + namespaceNext(ns, left, specFins, queue, controllers)
	return append([]string{out[0], next}, out[1:]...)
}

// heldLine says what keeps one object of the namespace.
func heldLine(o *fakeapi.Object, kubelet bool) string {
	ref := fakeapi.RefOf(o).String()
	switch {
	case o.Metadata.DeletionTimestamp == nil:
		return ref + ": not deleted yet"
	case o.Kind == "Pod" && len(o.Metadata.Finalizers) == 0 && !kubelet:
		return ref + ": terminating; its grace period ended at " + o.Metadata.DeletionTimestamp.UTC().Format("15:04:05") + ", but no kubelet runs to remove it"
	case len(o.Metadata.Finalizers) > 0:
		return ref + ": terminating, held by the finalizer " + strings.Join(o.Metadata.Finalizers, ", ")
	case o.Kind == "Pod":
		return ref + ": terminating, its grace period ends at " + o.Metadata.DeletionTimestamp.UTC().Format("15:04:05") + " (the kubelet removes it then)"
	}
	return ref + ": terminating"
}

// namespaceNext says the next thing that has to happen for the namespace
// to go.
func namespaceNext(ns *fakeapi.Object, left []*fakeapi.Object, specFins []string, queue []QueueItem, controllers []string) string {
	nsRunning := slices.Contains(controllers, ControllerNamespace)
	look := ""
	for _, it := range queue {
		if it.Item == "Namespace/"+ns.Metadata.Name {
			if it.Waiting {
				look = " (its next look is at " + FormatElapsed(it.Due) + ")"
			} else {
				look = " (it is queued now)"
			}
		}
	}
	if slices.Contains(specFins, fakeapi.FinalizerKubernetes) && !nsRunning {
		return "no namespace controller runs in this world: nothing empties the namespace or removes its kubernetes finalizer, as on a cluster whose controller manager is down [N1]"
	}
	for _, o := range left {
		if o.Metadata.DeletionTimestamp == nil {
			continue
		}
		for _, f := range o.Metadata.Finalizers {
			switch f {
			case fakeapi.FinalizerDeleteDependents, fakeapi.FinalizerOrphanDependents:
				if slices.Contains(controllers, ControllerGC) {
					return fmt.Sprintf("the garbage collector removes %s from %s once it has dealt with its dependents%s", f, fakeapi.RefOf(o), look)
				}
				return fmt.Sprintf("%s holds %s and no garbage collector runs: remove it by hand (%s)", f, fakeapi.RefOf(o), command("finalizer remove", o, f))
			default:
				return fmt.Sprintf("only the controller that put %s on %s removes it, and none runs here: remove it yourself (%s); the namespace controller then finalizes the namespace%s [N9, N12]",
					f, fakeapi.RefOf(o), command("finalizer remove", o, f), look)
			}
		}
	}
	for _, o := range left {
		if o.Kind == "Pod" && o.Metadata.DeletionTimestamp != nil {
			if slices.Contains(controllers, ControllerKubelet) {
				return fmt.Sprintf("the kubelet removes %s when its grace period ends; Pods go first, so the rest waits for it%s [N6, N8]", fakeapi.RefOf(o), look)
			}
			return fmt.Sprintf("no kubelet runs, so %s stays terminating: delete it with grace 0 (%s) [N8]", fakeapi.RefOf(o), command("delete", o, "--grace-period=0"))
		}
	}
	if len(left) > 0 {
		return "the namespace controller deletes what is left" + look + " [N7]"
	}
	if slices.Contains(specFins, fakeapi.FinalizerKubernetes) {
		return "the namespace is empty: the namespace controller removes the kubernetes finalizer through /finalize" + look + " [N12]"
	}
	if len(specFins) > 0 {
		return fmt.Sprintf("spec.finalizers %s belong to another controller: only it, through /finalize, removes them [N3]", fmtList(specFins))
	}
	if len(ns.Metadata.Finalizers) > 0 {
		return fmt.Sprintf("its metadata.finalizers %s keep it: whoever added them removes them (finalizer remove ns/%s ...) [N3, N12]", fmtList(ns.Metadata.Finalizers), ns.Metadata.Name)
	}
	return "nothing holds it any more"
}

// command writes a playground command about o: "finalizer remove
// configmap/held example.com/hold -n team-a".
func command(verb string, o *fakeapi.Object, arg string) string {
	s := verb + " " + strings.ToLower(o.Kind) + "/" + o.Metadata.Name + " " + arg
	if o.Metadata.Namespace != "" && o.Metadata.Namespace != "default" {
		s += " -n " + o.Metadata.Namespace
	}
	return s
}
