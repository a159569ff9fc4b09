package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// dotVertex is one node of the exported graph.
type dotVertex struct {
	uid, group, version, kind, namespace, name         string
	missing, beingDeleted, deletingDependents, virtual bool
}

type dotEdge struct{ from, to string }

// flags are the vertex's node flags, then missingFromGraph for an owner
// the graph has no node for.
func (v dotVertex) flags() []string {
	f := nodeFlags(v.beingDeleted, v.deletingDependents, v.virtual)
	if v.missing {
		f = append(f, "missingFromGraph")
	}
	return f
}

func (v dotVertex) attributes() [][2]string {
	kind := v.kind + "." + v.version
	if v.group != "" {
		kind += "." + v.group
	}
	label := fmt.Sprintf("uid=%s\nnamespace=%s\n%s/%s\n", v.uid, v.namespace, kind, v.name)
	if conds := v.flags(); len(conds) > 0 {
		label += strings.Join(conds, ",") + "\n"
	}
	return [][2]string{
		{"label", label}, {"group", v.group}, {"version", v.version}, {"kind", v.kind},
		{"namespace", v.namespace}, {"name", v.name}, {"uid", v.uid},
		{"missing", fmt.Sprint(v.missing)}, {"beingDeleted", fmt.Sprint(v.beingDeleted)},
		{"deletingDependents", fmt.Sprint(v.deletingDependents)}, {"virtual", fmt.Sprint(v.virtual)},
	}
}

// graphSelection returns the vertices and edges of the graph, or of the
// transitive closure (over owners and dependents) of uids when given, in
// the shape of kube-controller-manager's debug handler (R66-R69).
func (w *World) graphSelection(uids []string) ([]dotVertex, []dotEdge) {
	if w.collector() == nil {
		return nil, nil
	}
	g := w.collector()
	selected := map[string]bool{}
	if len(uids) > 0 {
		var stack []string
		for _, u := range uids {
			if _, ok := g.uidToNode.Get(u); ok && !selected[u] {
				selected[u] = true
				stack = append(stack, u)
			}
		}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n, _ := g.uidToNode.Get(u)
			next := []string{}
			for _, o := range n.owners {
				next = append(next, o.UID)
			}
			for d := range n.dependents {
				next = append(next, d.identity.UID)
			}
			for _, x := range next {
				if _, ok := g.uidToNode.Get(x); ok && !selected[x] {
					selected[x] = true
					stack = append(stack, x)
				}
			}
		}
	}
	vertices := map[string]dotVertex{}
	var edges []dotEdge
	for uid, n := range g.uidToNode.All() {
		if len(uids) > 0 && !selected[uid] {
			continue
		}
		if len(n.owners) == 0 && len(n.dependents) == 0 {
			continue // isolated nodes are omitted (R68)
		}
		group, version := fakeapi.SplitAPIVersion(n.identity.APIVersion)
		vertices[uid] = dotVertex{uid: uid, group: group, version: version, kind: n.identity.Kind,
			namespace: n.identity.Namespace, name: n.identity.Name, beingDeleted: n.beingDeleted,
			deletingDependents: n.deletingDependents, virtual: n.virtual}
		for _, o := range n.owners {
			edges = append(edges, dotEdge{from: uid, to: o.UID})
		}
	}
	for _, n := range g.uidToNode.All() {
		for _, o := range n.owners {
			if _, ok := vertices[o.UID]; ok {
				continue
			}
			if _, inGraph := g.uidToNode.Get(o.UID); inGraph {
				continue // not selected
			}
			if _, isVertex := vertices[n.identity.UID]; !isVertex {
				continue
			}
			group, version := fakeapi.SplitAPIVersion(o.APIVersion)
			vertices[o.UID] = dotVertex{uid: o.UID, group: group, version: version, kind: o.Kind,
				namespace: n.identity.Namespace, name: o.Name, missing: true}
		}
	}
	vs := make([]dotVertex, 0, len(vertices))
	for _, v := range vertices {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].uid < vs[j].uid })
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].from != edges[j].from {
			return edges[i].from < edges[j].from
		}
		return edges[i].to < edges[j].to
	})
	return vs, edges
}

// DOT renders the collector's graph as kube-controller-manager's
// /debug/controllers/garbagecollector/graph does: edges go from dependent
// to owner, vertex IDs are UIDs, isolated nodes are left out, and nodes and
// edges are sorted. With uids, only their transitive closure is shown.
func (w *World) DOT(uids ...string) string {
	vs, es := w.graphSelection(uids)
	var b strings.Builder
	b.WriteString("strict digraph full {\n")
	if len(vs) > 0 {
		b.WriteString("  // Node definitions.\n")
		for _, v := range vs {
			fmt.Fprintf(&b, "  %q [\n", v.uid)
			for _, a := range v.attributes() {
				fmt.Fprintf(&b, "    %s=%q\n", a[0], a[1])
			}
			b.WriteString("  ];\n")
		}
	}
	if len(es) > 0 {
		b.WriteString("  // Edge definitions.\n")
		for _, e := range es {
			fmt.Fprintf(&b, "  %q -> %q;\n", e.from, e.to)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// Mermaid renders the same graph as a Mermaid flowchart (dependents point
// at their owners), with virtual nodes dashed and terminating ones marked.
func (w *World) Mermaid(uids ...string) string {
	vs, es := w.graphSelection(uids)
	id := func(uid string) string {
		var b strings.Builder
		b.WriteString("n_")
		for _, r := range uid {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString("flowchart BT\n")
	b.WriteString("  classDef virtual stroke-dasharray: 5 5\n")
	b.WriteString("  classDef deleting fill:#fde2e2\n")
	b.WriteString("  classDef missing stroke:#999,color:#999\n")
	for _, v := range vs {
		label := fakeapi.RefString(v.kind, v.namespace, v.name)
		if tags := v.flags(); len(tags) > 0 {
			label += "<br/>(" + strings.Join(tags, ", ") + ")"
		}
		fmt.Fprintf(&b, "  %s[\"%s<br/>%s\"]\n", id(v.uid), strings.ReplaceAll(label, `"`, "#quot;"), v.uid)
		switch {
		case v.virtual:
			fmt.Fprintf(&b, "  class %s virtual\n", id(v.uid))
		case v.missing:
			fmt.Fprintf(&b, "  class %s missing\n", id(v.uid))
		case v.beingDeleted:
			fmt.Fprintf(&b, "  class %s deleting\n", id(v.uid))
		}
	}
	for _, e := range es {
		fmt.Fprintf(&b, "  %s --> %s\n", id(e.from), id(e.to))
	}
	return b.String()
}
