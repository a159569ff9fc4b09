package scenario

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// view is what expectations read: storage, removals, Events, and the
// collector's graph and queues. worldView implements it over an engine
// World; tests implement it over plain data.
type view interface {
	Lookup(ref fakeapi.Ref) *fakeapi.Object
	ByUID(uid string) *fakeapi.Object
	Objects() []*fakeapi.Object
	Removals() []fakeapi.Removal
	Events() []fakeapi.Event
	Node(uid string) (engine.NodeView, bool)
	Nodes() []engine.NodeView
	Queue(name string) []engine.QueueItem
}

// worldView reads an engine World.
type worldView struct{ w *engine.World }

func (v worldView) Lookup(ref fakeapi.Ref) *fakeapi.Object  { return v.w.Store().Lookup(ref) }
func (v worldView) ByUID(uid string) *fakeapi.Object        { return v.w.Store().ByUID(uid) }
func (v worldView) Objects() []*fakeapi.Object              { return v.w.Store().Objects() }
func (v worldView) Removals() []fakeapi.Removal             { return v.w.Store().Removals() }
func (v worldView) Events() []fakeapi.Event                 { return v.w.Store().Events() }
func (v worldView) Node(uid string) (engine.NodeView, bool) { return v.w.Node(uid) }
func (v worldView) Nodes() []engine.NodeView                { return v.w.Nodes() }
func (v worldView) Queue(name string) []engine.QueueItem    { return v.w.Queue(name) }

// Check is the outcome of one expectation.
type Check struct {
	Line int `json:"line"`
	// Key is the expect key: "absent", "ownerReferences", "count", ...;
	// for queues, "queues.<name>".
	Key string `json:"key"`
	// Subject is the object reference the expectation is about ("" for
	// deletionOrder, queues and count).
	Subject  string `json:"subject,omitempty"`
	Passed   bool   `json:"passed"`
	Expected string `json:"expected"`
	Found    string `json:"found"`
}

// Message says what was expected against what was found:
// "Secret/tls-cert: ownerReferences: expected [ConfigMap/b], found []".
func (c Check) Message() string {
	var b strings.Builder
	if c.Subject != "" {
		b.WriteString(c.Subject)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s: expected %s, found %s", c.Key, c.Expected, c.Found)
	return b.String()
}

// evaluate runs every check of the expectation against v and returns
// them all, in file order (by line).
func (x *Expect) evaluate(v view) []Check {
	var out []Check
	add := func(c Check) { out = append(out, c) }
	for _, rc := range x.Exists {
		o := lookup(v, rc.Ref)
		add(Check{Line: rc.Line, Key: "exists", Subject: rc.Ref.String(), Passed: o != nil,
			Expected: "in storage", Found: describeState(o)})
	}
	for _, rc := range x.Absent {
		o := lookup(v, rc.Ref)
		add(Check{Line: rc.Line, Key: "absent", Subject: rc.Ref.String(), Passed: o == nil,
			Expected: "absent", Found: describeState(o)})
	}
	for _, rc := range x.Terminating {
		o := lookup(v, rc.Ref)
		add(Check{Line: rc.Line, Key: "terminating", Subject: rc.Ref.String(),
			Passed: o != nil && o.Metadata.DeletionTimestamp != nil, Expected: "terminating", Found: describeState(o)})
	}
	for _, rc := range x.NotTerminating {
		o := lookup(v, rc.Ref)
		add(Check{Line: rc.Line, Key: "notTerminating", Subject: rc.Ref.String(),
			Passed: o != nil && o.Metadata.DeletionTimestamp == nil, Expected: "in storage, not terminating", Found: describeState(o)})
	}
	for _, fc := range x.Finalizers {
		o := lookup(v, fc.Ref)
		c := Check{Line: fc.Line, Key: "finalizers", Subject: fc.Ref.String(), Expected: list(fc.Finalizers)}
		if o == nil {
			c.Found = "absent"
		} else {
			c.Found = list(o.Metadata.Finalizers)
			c.Passed = slices.Equal(o.Metadata.Finalizers, fc.Finalizers)
		}
		add(c)
	}
	for _, oc := range x.OwnerReferences {
		add(checkOwners(v, oc))
	}
	if x.DeletionOrder != nil {
		add(checkDeletionOrder(v, x.DeletionOrder))
	}
	for _, ec := range x.Events {
		add(checkEvent(v, ec))
	}
	for _, rc := range x.NoEvents {
		evs := EventsAbout(v.Events(), rc.Ref)
		add(Check{Line: rc.Line, Key: "noEvents", Subject: rc.Ref.String(), Passed: len(evs) == 0,
			Expected: "no events", Found: fakeapi.EventList(evs, false)})
	}
	for _, gc := range x.Graph {
		add(checkGraph(v, gc))
	}
	for _, qc := range x.Queues {
		add(checkQueue(v, qc))
	}
	for _, cc := range x.Count {
		add(checkCount(v, cc))
	}
	for _, fc := range x.Fields {
		out = append(out, checkFields(v, fc)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// lookup finds the stored object a reference names, or nil.
func lookup(v view, r Ref) *fakeapi.Object {
	if r.UID != "" {
		return v.ByUID(r.UID)
	}
	return v.Lookup(r.Ref)
}

// describeState says in a few words how an object stands.
func describeState(o *fakeapi.Object) string {
	switch {
	case o == nil:
		return "absent"
	case o.Metadata.DeletionTimestamp != nil:
		return "terminating, finalizers " + list(o.Metadata.Finalizers)
	default:
		return "in storage, not terminating"
	}
}

// list formats strings as the messages do: [a b c].
func list(s []string) string { return "[" + strings.Join(s, " ") + "]" }

func checkOwners(v view, oc OwnersCheck) Check {
	c := Check{Line: oc.Line, Key: "ownerReferences", Subject: oc.Ref.String()}
	flags := false
	var exp []string
	for _, e := range oc.Owners {
		exp = append(exp, e.String())
		flags = flags || e.Controller != nil || e.BlockOwnerDeletion != nil
	}
	c.Expected = list(exp)
	o := lookup(v, oc.Ref)
	if o == nil {
		c.Found = "absent"
		return c
	}
	var found []string
	for _, r := range o.Metadata.OwnerReferences {
		found = append(found, ownerString(r, flags))
	}
	c.Found = list(found)
	c.Passed = MatchOwners(oc.Owners, o)
	return c
}

// String formats an expected owner: the reference, then any flags that
// must match, as {controller:true}.
func (e OwnerExpectation) String() string {
	var fl []string
	if e.Controller != nil {
		fl = append(fl, fmt.Sprintf("controller:%t", *e.Controller))
	}
	if e.BlockOwnerDeletion != nil {
		fl = append(fl, fmt.Sprintf("blockOwnerDeletion:%t", *e.BlockOwnerDeletion))
	}
	if len(fl) == 0 {
		return e.Owner.String()
	}
	return e.Owner.String() + "{" + strings.Join(fl, ",") + "}"
}

func ownerString(r fakeapi.OwnerReference, flags bool) string {
	s := r.Kind + "/" + r.Name
	if flags {
		s += fmt.Sprintf("{controller:%t,blockOwnerDeletion:%t}", r.IsController(), r.Blocks())
	}
	return s
}

// matches reports whether an ownerReference of dependent o is the
// expected owner: same kind and name (and namespace, when the reference
// gave one), or same UID for uid:<uid>, and equal flags where given.
func (e OwnerExpectation) matches(r fakeapi.OwnerReference, o *fakeapi.Object) bool {
	if e.Owner.UID != "" {
		if r.UID != e.Owner.UID {
			return false
		}
	} else {
		if r.Kind != e.Owner.Kind || r.Name != e.Owner.Name {
			return false
		}
		if e.Owner.NamespaceGiven && e.Owner.Namespace != o.Metadata.Namespace {
			return false
		}
	}
	if e.Controller != nil && r.IsController() != *e.Controller {
		return false
	}
	if e.BlockOwnerDeletion != nil && r.Blocks() != *e.BlockOwnerDeletion {
		return false
	}
	return true
}

// MatchOwners reports whether the expected owners and the object's
// ownerReferences pair up one to one. Expectations with more flags are
// matched first, so that a plain one does not take the reference a
// flagged one needs.
func MatchOwners(exp []OwnerExpectation, o *fakeapi.Object) bool {
	refs := o.Metadata.OwnerReferences
	if len(exp) != len(refs) {
		return false
	}
	order := make([]int, len(exp))
	for i := range order {
		order[i] = i
	}
	nflags := func(e OwnerExpectation) int {
		n := 0
		if e.Controller != nil {
			n++
		}
		if e.BlockOwnerDeletion != nil {
			n++
		}
		return n
	}
	sort.SliceStable(order, func(i, j int) bool { return nflags(exp[order[i]]) > nflags(exp[order[j]]) })
	used := make([]bool, len(refs))
	for _, i := range order {
		ok := false
		for j, r := range refs {
			if !used[j] && exp[i].matches(r, o) {
				used[j], ok = true, true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func checkDeletionOrder(v view, oc *OrderCheck) Check {
	var exp []string
	for _, r := range oc.Refs {
		exp = append(exp, r.String())
	}
	c := Check{Line: oc.Line, Key: "deletionOrder", Expected: list(exp) + " removed in this order"}
	removals := v.Removals()
	type seen struct {
		ref string
		seq int
	}
	var got []seen
	var problems []string
	for _, r := range oc.Refs {
		if o := lookup(v, r); o != nil {
			problems = append(problems, r.String()+" still in storage")
			continue
		}
		seq := -1
		for _, rm := range removals {
			if r.Matches(rm.Ref.Kind, rm.Ref.Namespace, rm.Ref.Name, rm.UID) {
				seq = rm.Seq // the last removal counts
			}
		}
		if seq < 0 {
			problems = append(problems, r.String()+" never removed")
			continue
		}
		got = append(got, seen{r.String(), seq})
	}
	if len(problems) > 0 {
		c.Found = strings.Join(problems, ", ")
		return c
	}
	sort.SliceStable(got, func(i, j int) bool { return got[i].seq < got[j].seq })
	var order []string
	for _, g := range got {
		order = append(order, g.ref)
	}
	c.Found = list(order)
	c.Passed = slices.Equal(order, exp)
	return c
}

// EventsAbout returns the events of evs whose involved object r names, in
// order.
func EventsAbout(evs []fakeapi.Event, r Ref) []fakeapi.Event {
	var out []fakeapi.Event
	for _, ev := range evs {
		if r.Matches(ev.Object.Kind, ev.Object.Namespace, ev.Object.Name, ev.ObjectUID) {
			out = append(out, ev)
		}
	}
	return out
}

func checkEvent(v view, ec EventCheck) Check {
	evs := EventsAbout(v.Events(), ec.Object)
	c := Check{Line: ec.Line, Key: "events", Subject: ec.Object.String(), Expected: ec.Describe(), Found: fakeapi.EventList(evs, false)}
	for _, ev := range evs {
		if ec.Matches(ev.Type, ev.Reason, ev.Message) {
			c.Passed = true
		}
	}
	return c
}

// graphNode finds the uidToNode entry a reference names: by UID, by the
// stored object's UID, or by the node's identity.
func graphNode(v view, r Ref) (engine.NodeView, bool, string) {
	if r.UID != "" {
		n, ok := v.Node(r.UID)
		return n, ok, ""
	}
	if o := v.Lookup(r.Ref); o != nil {
		if n, ok := v.Node(o.Metadata.UID); ok {
			return n, true, ""
		}
	}
	var found []engine.NodeView
	for _, n := range v.Nodes() {
		if r.Matches(n.Kind, n.Namespace, n.Name, n.UID) {
			found = append(found, n)
		}
	}
	switch len(found) {
	case 0:
		return engine.NodeView{}, false, ""
	case 1:
		return found[0], true, ""
	}
	var uids []string
	for _, n := range found {
		uids = append(uids, "uid:"+n.UID)
	}
	return engine.NodeView{}, false, "several nodes " + list(uids) + ": name one by uid"
}

func checkGraph(v view, gc GraphCheck) Check {
	c := Check{Line: gc.Line, Key: "graph", Subject: gc.Ref.String()}
	n, ok, ambiguous := graphNode(v, gc.Ref)
	if ambiguous != "" {
		c.Expected, c.Found = "one node", ambiguous
		return c
	}
	if gc.Absent != nil && *gc.Absent {
		c.Expected = "no node"
		c.Passed = !ok
		c.Found = "no node"
		if ok {
			c.Found = "a node " + describeNode(n)
		}
		return c
	}
	type flag struct {
		name string
		want *bool
		got  bool
	}
	flags := []flag{{"virtual", gc.Virtual, n.Virtual}, {"beingDeleted", gc.BeingDeleted, n.BeingDeleted},
		{"deletingDependents", gc.DeletingDependents, n.DeletingDependents}}
	var exp, got []string
	pass := ok
	for _, f := range flags {
		if f.want == nil {
			continue
		}
		exp = append(exp, fmt.Sprintf("%s=%t", f.name, *f.want))
		got = append(got, fmt.Sprintf("%s=%t", f.name, f.got))
		pass = pass && f.got == *f.want
	}
	c.Expected = "a node"
	if len(exp) > 0 {
		c.Expected = "a node with " + strings.Join(exp, " ")
	}
	switch {
	case !ok:
		c.Found = "no node"
	case len(got) > 0:
		c.Found = strings.Join(got, " ")
	default:
		c.Found = "a node " + describeNode(n)
	}
	c.Passed = pass
	return c
}

func describeNode(n engine.NodeView) string {
	return fmt.Sprintf("{virtual=%t beingDeleted=%t deletingDependents=%t}", n.Virtual, n.BeingDeleted, n.DeletingDependents)
}

// queueItemRef returns the object reference form of a queue item: the
// coordinates of the node or object with its UID, else the item text.
func queueItemRef(v view, it engine.QueueItem) (kind, namespace, name, text string) {
	if it.UID != "" {
		if n, ok := v.Node(it.UID); ok {
			return n.Kind, n.Namespace, n.Name, fakeapi.RefString(n.Kind, n.Namespace, n.Name)
		}
		if o := v.ByUID(it.UID); o != nil {
			return o.Kind, o.Metadata.Namespace, o.Metadata.Name, o.String()
		}
	}
	return "", "", "", it.Item
}

func checkQueue(v view, qc QueueCheck) Check {
	c := Check{Line: qc.Line, Key: "queues." + qc.Queue}
	var exp []string
	for _, r := range qc.Items {
		exp = append(exp, r.String())
	}
	c.Expected = list(exp)
	items := v.Queue(qc.Queue)
	var found []string
	pass := len(items) == len(qc.Items)
	for i, it := range items {
		kind, ns, name, text := queueItemRef(v, it)
		found = append(found, text)
		if i < len(qc.Items) {
			r := qc.Items[i]
			match := r.Matches(kind, ns, name, it.UID) || (kind == "" && r.UID == "" && r.String() == text)
			pass = pass && match
		}
	}
	c.Found = list(found)
	c.Passed = pass
	return c
}

// Describe says what a count check counts.
func (cc CountCheck) Describe() string {
	parts := []string{cc.Kind}
	if cc.Namespace != "" {
		parts = append(parts, "in "+cc.Namespace)
	}
	if len(cc.Selector) > 0 {
		parts = append(parts, "with "+cc.Selector.String())
	}
	if cc.OwnedBy != nil {
		parts = append(parts, "owned by "+cc.OwnedBy.String())
	}
	if cc.Terminating != nil {
		if *cc.Terminating {
			parts = append(parts, "terminating")
		} else {
			parts = append(parts, "not terminating")
		}
	}
	return strings.Join(parts, " ")
}

// Counts reports whether o is one of the objects the count check counts.
// owner is the stored object cc.OwnedBy names, or nil when it names none
// (then references are matched by uid, or by kind and name).
func (cc CountCheck) Counts(o, owner *fakeapi.Object) bool {
	if o.Kind != cc.Kind || o.Metadata.Namespace != cc.Namespace || !cc.Selector.Matches(o.Metadata.Labels) {
		return false
	}
	if cc.Terminating != nil && (o.Metadata.DeletionTimestamp != nil) != *cc.Terminating {
		return false
	}
	return cc.OwnedBy == nil || ownedBy(o, *cc.OwnedBy, owner)
}

func checkCount(v view, cc CountCheck) Check {
	c := Check{Line: cc.Line, Key: "count", Expected: fmt.Sprintf("%d (%s)", cc.Equals, cc.Describe())}
	var owner *fakeapi.Object
	if cc.OwnedBy != nil {
		owner = lookup(v, *cc.OwnedBy)
	}
	var names []string
	for _, o := range v.Objects() {
		if cc.Counts(o, owner) {
			names = append(names, o.String())
		}
	}
	c.Found = fmt.Sprintf("%d %s", len(names), list(names))
	c.Passed = len(names) == cc.Equals
	return c
}

// ownedBy reports whether o has an ownerReference to the owner r names:
// by UID when the owner is stored (or named by uid), else by kind and name
// within o's namespace.
func ownedBy(o *fakeapi.Object, r Ref, owner *fakeapi.Object) bool {
	for _, or := range o.Metadata.OwnerReferences {
		switch {
		case owner != nil:
			if or.UID == owner.Metadata.UID {
				return true
			}
		case r.UID != "":
			if or.UID == r.UID {
				return true
			}
		default:
			if or.Kind == r.Kind && or.Name == r.Name && (r.Namespace == "" || r.Namespace == o.Metadata.Namespace) {
				return true
			}
		}
	}
	return false
}
