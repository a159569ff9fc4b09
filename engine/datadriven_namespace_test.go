package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/gcplay/gcplay/fakeapi"
)

// runNamespaceCommand runs the data-driven commands about namespaces
// (testdata/namespace):
//
//	namespaces    every namespace other than the four built-in ones: its
//	              phase, spec.finalizers, metadata.finalizers, conditions,
//	              and each object still in it with its finalizers
//	why ns=NAME   what the playground's inspector says holds the namespace
func runNamespaceCommand(t *testing.T, w *World, d *datadriven.TestData) (string, error) {
	var b strings.Builder
	switch d.Cmd {
	case "namespaces":
		objs := w.Store().Objects()
		for _, ns := range objs {
			if ns.Kind != "Namespace" {
				continue
			}
			switch ns.Metadata.Name {
			case "default", "kube-system", "kube-public", "kube-node-lease":
				continue
			}
			fmt.Fprintf(&b, "Namespace/%s phase=%s spec.finalizers=%s finalizers=%s", ns.Metadata.Name,
				fakeapi.NamespacePhase(ns), fmtList(fakeapi.NamespaceFinalizers(ns)), fmtList(ns.Metadata.Finalizers))
			if ns.Metadata.DeletionTimestamp != nil {
				b.WriteString(" deleting")
			}
			b.WriteString("\n")
			st, _ := ns.Fields.Get("status").(map[string]any)
			conds, _ := st["conditions"].([]any)
			for _, c := range conds {
				m, _ := c.(map[string]any)
				fmt.Fprintf(&b, "  %s=%s %s since %s: %s\n", m["type"], m["status"], m["reason"], m["lastTransitionTime"], m["message"])
			}
			for _, o := range objs {
				if o.Metadata.Namespace != ns.Metadata.Name || o.Kind == "Event" {
					continue
				}
				state := ""
				if o.Metadata.DeletionTimestamp != nil {
					state = " terminating"
				}
				fmt.Fprintf(&b, "  holds %s%s finalizers=%s\n", fakeapi.RefOf(o), state, fmtList(o.Metadata.Finalizers))
			}
		}
	case "why":
		name, _ := arg(d, "ns")
		ns := w.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Namespace", Name: name})
		for _, l := range NamespaceWhy(w.Store(), ns, w.Queue(ControllerNamespace), w.Controllers()) {
			b.WriteString(l + "\n")
		}
	default:
		d.Fatalf(t, "unknown command %s", d.Cmd)
	}
	return b.String(), nil
}
