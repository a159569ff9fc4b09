package lessons

import (
	"github.com/gcplay/gcplay/internal/i18n"

	"github.com/gcplay/gcplay/internal/locale"

	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Grade is how a world measures up to a lesson's goal. The grader
// compares only what the goal names (existence, terminating, finalizers,
// owner references, order, events, counts, graph flags), and says in plain
// words what differs and why, taking the "why" from the engine's records
// where it can.
type Grade struct {
	Passed bool
	// Settled reports whether the world has nothing left to do.
	Settled bool
	// NeedsSettled is true when the goal counts only in a settled world.
	NeedsSettled bool
	// Checks are the goal's checks in the goal's order.
	Checks []Check
	// Waiting says what is still to run when the world is not settled and
	// the goal needs it to be.
	Waiting string
	moment  string
}

// Check is one check of the goal.
type Check struct {
	// Key is the expect key: exists, absent, terminating, notTerminating,
	// finalizers, ownerReferences, deletionOrder, events, noEvents, count,
	// graph.
	Key string
	// Subject is the object the check is about ("" for deletionOrder and
	// count).
	Subject string
	Line    int
	Passed  bool
	// Want is the target and Got the live state, each in a few words, for
	// a goal shown beside the world.
	Want, Got string
	// Why says, for a failed check, what differs and why.
	Why string
}

// Problems returns the grader's words for everything that keeps the goal
// from being met, one paragraph each.
func (g *Grade) Problems() []string {
	var out []string
	said := map[string]string{} // subject -> the state already explained
	for _, c := range g.Checks {
		if c.Passed {
			continue
		}
		// One explanation per object in one state: a gone object fails
		// every check about it, for the same reason.
		if c.Subject != "" && said[c.Subject] == c.Got {
			continue
		}
		said[c.Subject] = c.Got
		out = append(out, c.Why)
	}
	if g.NeedsSettled && !g.Settled {
		out = append(out, g.Waiting)
	}
	if !g.NeedsSettled && len(out) > 0 && g.moment != "" {
		out = append(out, g.moment)
	}
	return out
}

// Held returns how many checks hold.
func (g *Grade) Held() int {
	n := 0
	for _, c := range g.Checks {
		if c.Passed {
			n++
		}
	}
	return n
}

// Grader grades worlds against lessons, in one locale.
type Grader struct {
	c      *Course
	locale string
	p      phrases
	// at names a record by its sequence number, as the reader sees
	// records: "#12" in a trace, "step 3" in the playground's timeline.
	at func(seq int) string
}

// WithRecordNames returns a grader that names engine records with at
// instead of "#<seq>" (the playground names them by timeline position).
func (g *Grader) WithRecordNames(at func(seq int) string) *Grader {
	c := *g
	c.at = at
	return &c
}

// Grader returns a grader that words its findings in locale.
func (c *Course) Grader(locale string) *Grader {
	return &Grader{c: c, locale: locale, p: c.phrasesFor(locale), at: func(seq int) string { return fmt.Sprintf("#%d", seq) }}
}

// reasonText words a record's reason in the grader's language.
func (st *story) reasonText(rec *engine.Record) string {
	return reasonTextIn(st.tr, rec)
}

// tidy joins the sentences of an explanation as the grader's language
// writes them: Chinese puts no space after its full-width punctuation.
func (g *Grader) tidy(s string) string {
	if g.locale == DefaultLocale {
		return s
	}
	return locale.Tidy(s)
}

// Grade grades world w, reached through records recs (the set-up's and the
// learner's), against l's goal.
func (g *Grader) Grade(l *Lesson, w *engine.World, recs []engine.Record) *Grade {
	st := newStory(g, l, w, recs)
	gr := &Grade{NeedsSettled: l.Settled, Settled: Settled(w)}
	if l.Goal != nil {
		gr.Checks = st.evaluate(l.Goal)
	}
	for i := range gr.Checks {
		gr.Checks[i].Why = g.tidy(gr.Checks[i].Why)
	}
	gr.Passed = true
	for _, c := range gr.Checks {
		gr.Passed = gr.Passed && c.Passed
	}
	if gr.NeedsSettled && !gr.Settled {
		gr.Passed = false
		gr.Waiting = g.p.say("not-settled", "next", w.Describe())
	}
	if !gr.NeedsSettled {
		gr.moment = g.p.say("moment")
	}
	return gr
}

// story is what the grader knows of a world and how it got there.
type story struct {
	p phrases
	// tr words the engine's reasons in the grader's language.
	tr    *i18n.Catalog
	at    func(seq int) string
	l     *Lesson
	w     *engine.World
	store *fakeapi.Store
	recs  []engine.Record
	// known is the last state known of every object, by Kind/ns/name:
	// the lesson's start, then the world now.
	known map[string]*fakeapi.Object
}

func newStory(g *Grader, l *Lesson, w *engine.World, recs []engine.Record) *story {
	st := &story{p: g.p, tr: i18n.For(g.locale), at: g.at, l: l, w: w, store: w.Store(), recs: recs, known: map[string]*fakeapi.Object{}}
	for _, o := range l.startObjects() {
		st.known[o.String()] = o
	}
	for _, o := range st.store.Objects() {
		st.known[o.String()] = o
	}
	return st
}

// lookup finds the stored object a reference names, or nil.
func (st *story) lookup(r scenario.Ref) *fakeapi.Object {
	if r.UID != "" {
		return st.store.ByUID(r.UID)
	}
	return st.store.Lookup(r.Ref)
}

// last is the object now, or as last known.
func (st *story) last(ref string) *fakeapi.Object { return st.known[ref] }

func (st *story) state(o *fakeapi.Object) string {
	switch {
	case o == nil:
		return st.p.say("state-absent")
	case o.Metadata.DeletionTimestamp != nil:
		return st.p.say("state-terminating", "finalizers", list(o.Metadata.Finalizers))
	}
	return st.p.say("state-present")
}

func list(s []string) string { return "[" + strings.Join(s, " ") + "]" }

// evaluate runs every check of x, in the goal's order.
func (st *story) evaluate(x *scenario.Expect) []Check {
	var out []Check
	p := st.p
	for _, rc := range x.Exists {
		o := st.lookup(rc.Ref)
		c := Check{Key: "exists", Subject: rc.Ref.String(), Line: rc.Line, Passed: o != nil, Want: p.say("state-present"), Got: st.state(o)}
		if !c.Passed {
			c.Why = st.whyGone(rc.Ref, p.say("goal-keeps"))
		}
		out = append(out, c)
	}
	for _, rc := range x.Absent {
		o := st.lookup(rc.Ref)
		c := Check{Key: "absent", Subject: rc.Ref.String(), Line: rc.Line, Passed: o == nil, Want: p.say("state-absent"), Got: st.state(o)}
		if !c.Passed {
			c.Why = st.whyStays(o)
		}
		out = append(out, c)
	}
	for _, rc := range x.Terminating {
		o := st.lookup(rc.Ref)
		c := Check{Key: "terminating", Subject: rc.Ref.String(), Line: rc.Line, Passed: o != nil && o.Metadata.DeletionTimestamp != nil,
			Want: p.say("want-terminating"), Got: st.state(o)}
		switch {
		case c.Passed:
		case o == nil:
			c.Why = st.whyGone(rc.Ref, p.say("goal-keeps-terminating"))
		default:
			c.Why = p.say("not-deleted", "object", o.String())
		}
		out = append(out, c)
	}
	for _, rc := range x.NotTerminating {
		o := st.lookup(rc.Ref)
		c := Check{Key: "notTerminating", Subject: rc.Ref.String(), Line: rc.Line, Passed: o != nil && o.Metadata.DeletionTimestamp == nil,
			Want: p.say("want-not-terminating"), Got: st.state(o)}
		switch {
		case c.Passed:
		case o == nil:
			c.Why = st.whyGone(rc.Ref, p.say("goal-keeps"))
		default:
			c.Why = p.say("is-terminating", "object", o.String(), "finalizers", list(o.Metadata.Finalizers)) + st.deletedBy(rc.Ref.String())
		}
		out = append(out, c)
	}
	for _, fc := range x.Finalizers {
		out = append(out, st.checkFinalizers(fc))
	}
	for _, oc := range x.OwnerReferences {
		out = append(out, st.checkOwners(oc))
	}
	if x.DeletionOrder != nil {
		out = append(out, st.checkOrder(x.DeletionOrder))
	}
	for _, ec := range x.Events {
		out = append(out, st.checkEvent(ec))
	}
	for _, rc := range x.NoEvents {
		evs := scenario.EventsAbout(st.store.Events(), rc.Ref)
		c := Check{Key: "noEvents", Subject: rc.Ref.String(), Line: rc.Line, Passed: len(evs) == 0, Want: p.say("want-no-events"), Got: fakeapi.EventList(evs, true)}
		if !c.Passed {
			c.Why = p.say("unexpected-event", "object", rc.Ref.String(), "events", fakeapi.EventList(evs, true))
		}
		out = append(out, c)
	}
	for _, cc := range x.Count {
		out = append(out, st.checkCount(cc))
	}
	for _, gc := range x.Graph {
		out = append(out, st.checkGraph(gc))
	}
	for _, fc := range x.Fields {
		out = append(out, st.checkFields(fc)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func (st *story) checkFinalizers(fc scenario.FinalizersCheck) Check {
	o := st.lookup(fc.Ref)
	c := Check{Key: "finalizers", Subject: fc.Ref.String(), Line: fc.Line, Want: list(fc.Finalizers)}
	if o == nil {
		c.Got = st.p.say("state-absent")
		c.Why = st.whyGone(fc.Ref, st.p.say("goal-keeps-finalizers", "finalizers", list(fc.Finalizers)))
		return c
	}
	c.Got = list(o.Metadata.Finalizers)
	c.Passed = slices.Equal(o.Metadata.Finalizers, fc.Finalizers)
	if c.Passed {
		return c
	}
	c.Why = st.p.say("finalizers-differ", "object", o.String(), "got", c.Got, "want", c.Want)
	if rec := st.lastChange(o.String(), "patch", "update"); rec != nil {
		c.Why += " " + st.p.say("last-changed", "who", st.who(rec), "at", st.at(rec.Seq), "what", recText(rec))
	}
	if o.Metadata.HasFinalizer(fakeapi.FinalizerDeleteDependents) && !slices.Contains(fc.Finalizers, fakeapi.FinalizerDeleteDependents) {
		c.Why += " " + st.waitingWhy(o)
	}
	return c
}

// checkFields grades expect.fields: one check per path.
func (st *story) checkFields(fc scenario.FieldCheck) []Check {
	o := st.lookup(fc.Ref)
	var out []Check
	for _, fv := range fc.Values {
		want := scenario.FormatFieldValue(fv.Want, true)
		c := Check{Key: "fields." + fv.Path, Subject: fc.Ref.String(), Line: fv.Line, Want: want}
		if o == nil {
			c.Got = st.p.say("state-absent")
			c.Why = st.whyGone(fc.Ref, st.p.say("goal-keeps-field", "path", fv.Path, "want", want))
			out = append(out, c)
			continue
		}
		got, ok := scenario.ObjectValue(o, fv.Segments)
		c.Got = scenario.FormatFieldValue(got, ok)
		c.Passed = scenario.FieldValuesEqual(fv.Want, got)
		if !c.Passed {
			c.Why = st.p.say("field-differs", "object", o.String(), "path", fv.Path, "got", c.Got, "want", want)
			if rec := st.lastChange(o.String(), "patch", "update"); rec != nil {
				c.Why += " " + st.p.say("last-changed", "who", st.who(rec), "at", st.at(rec.Seq), "what", recText(rec))
			}
		}
		out = append(out, c)
	}
	return out
}

func (st *story) checkOwners(oc scenario.OwnersCheck) Check {
	o := st.lookup(oc.Ref)
	var exp []string
	for _, e := range oc.Owners {
		exp = append(exp, ownerExpectation(e))
	}
	c := Check{Key: "ownerReferences", Subject: oc.Ref.String(), Line: oc.Line, Want: st.p.say("owners", "owners", list(exp))}
	if o == nil {
		c.Got = st.p.say("state-absent")
		c.Why = st.whyGone(oc.Ref, st.p.say("goal-keeps-owners", "owners", list(exp)))
		return c
	}
	var got []string
	for _, r := range o.Metadata.OwnerReferences {
		got = append(got, r.Kind+"/"+r.Name)
	}
	c.Got = st.p.say("owners", "owners", list(got))
	c.Passed = scenario.MatchOwners(oc.Owners, o)
	if c.Passed {
		return c
	}
	c.Why = st.p.say("owners-differ", "object", o.String(), "got", list(got), "want", list(exp))
	// What changed them: the collector's patches and the controllers'
	// adoptions are in the records.
	var changes []string
	for i := range st.recs {
		rec := &st.recs[i]
		if rec.Actor == "user" {
			continue
		}
		for _, call := range rec.Calls() {
			if call.Verb == "patch" && call.Ref.String() == o.String() && call.Code < 300 && strings.Contains(call.Detail, "ownerReferences") {
				changes = append(changes, st.p.say("changed-by", "who", st.who(rec), "at", st.at(rec.Seq), "what", recText(rec)))
				break
			}
		}
	}
	if len(changes) > 0 {
		c.Why += " " + strings.Join(changes, " ")
	}
	return c
}

// ownerExpectation formats an expected owner as the goal wrote it.
func ownerExpectation(e scenario.OwnerExpectation) string { return e.String() }

func (st *story) checkOrder(oc *scenario.OrderCheck) Check {
	var exp []string
	for _, r := range oc.Refs {
		exp = append(exp, r.String())
	}
	c := Check{Key: "deletionOrder", Line: oc.Line, Want: strings.Join(exp, " → ")}
	removals := st.store.Removals()
	type seen struct {
		ref string
		seq int
	}
	var got []seen
	var whys []string
	for _, r := range oc.Refs {
		if o := st.lookup(r); o != nil {
			whys = append(whys, st.whyStays(o))
			continue
		}
		seq := -1
		for _, rm := range removals {
			if (r.UID != "" && rm.UID == r.UID) || (r.UID == "" && rm.Ref.Kind == r.Kind && rm.Ref.Namespace == r.Namespace && rm.Ref.Name == r.Name) {
				seq = rm.Seq
			}
		}
		if seq < 0 {
			whys = append(whys, st.p.say("never-existed", "object", r.String()))
			continue
		}
		got = append(got, seen{r.String(), seq})
	}
	sort.SliceStable(got, func(i, j int) bool { return got[i].seq < got[j].seq })
	var order []string
	for _, g := range got {
		order = append(order, g.ref)
	}
	c.Got = strings.Join(order, " → ")
	if len(whys) > 0 {
		c.Why = st.p.say("order-incomplete", "want", c.Want) + " " + strings.Join(whys, " ")
		return c
	}
	c.Passed = slices.Equal(order, exp)
	if c.Passed {
		return c
	}
	// The first pair out of place says the most.
	for i := range exp {
		if order[i] == exp[i] {
			continue
		}
		early, late := order[i], exp[i]
		c.Why = st.p.say("order-differs", "early", early, "late", late, "got", c.Got, "want", c.Want)
		c.Why += " " + st.whyEarly(early, late)
		break
	}
	return c
}

// whyEarly explains why early left storage before late, when the goal
// wanted late first: typically an owner deleted without Foreground.
func (st *story) whyEarly(early, late string) string {
	if call, rec := st.userDelete(early); call != nil {
		pol := st.policy(early, call)
		o := st.last(late)
		ownsLate := o != nil && ownerNamed(o, early)
		switch {
		case pol == string(fakeapi.DeletePropagationBackground) && ownsLate:
			return st.p.say("early-background", "owner", early, "dependent", late, "at", st.at(rec.Seq), "policy", st.policyWords(early, call))
		case pol == string(fakeapi.DeletePropagationOrphan) && ownsLate:
			return st.p.say("early-orphan", "owner", early, "dependent", late, "at", st.at(rec.Seq), "policy", st.policyWords(early, call))
		case pol == string(fakeapi.DeletePropagationForeground):
			return st.p.say("early-foreground", "owner", early, "dependent", late, "at", st.at(rec.Seq), "policy", st.policyWords(early, call))
		}
		return st.p.say("early-deleted-by-you", "object", early, "at", st.at(rec.Seq), "what", recText(rec))
	}
	return st.deletedBy(early)
}

func ownerNamed(o *fakeapi.Object, ref string) bool {
	for _, r := range o.Metadata.OwnerReferences {
		if fakeapi.RefString(r.Kind, o.Metadata.Namespace, r.Name) == ref || fakeapi.RefString(r.Kind, "", r.Name) == ref {
			return true
		}
	}
	return false
}

func (st *story) checkEvent(ec scenario.EventCheck) Check {
	want := strings.TrimSpace(ec.Type + " " + ec.Reason)
	if want == "" {
		want = "an event"
	}
	evs := scenario.EventsAbout(st.store.Events(), ec.Object)
	c := Check{Key: "events", Subject: ec.Object.String(), Line: ec.Line, Want: want, Got: fakeapi.EventList(evs, true)}
	for _, ev := range evs {
		if ec.Matches(ev.Type, ev.Reason, ev.Message) {
			c.Passed = true
		}
	}
	if !c.Passed {
		key := "event-missing"
		if ec.Reason == "OwnerRefInvalidNamespace" {
			key = "event-missing-namespace"
		}
		c.Why = st.p.say(key, "object", ec.Object.String(), "event", want, "got", c.Got)
	}
	return c
}

func (st *story) checkCount(cc scenario.CountCheck) Check {
	c := Check{Key: "count", Line: cc.Line, Want: fmt.Sprintf("%d × %s", cc.Equals, cc.Describe())}
	var owner *fakeapi.Object
	if cc.OwnedBy != nil {
		owner = st.lookup(*cc.OwnedBy)
	}
	var names []string
	for _, o := range st.store.Objects() {
		if cc.Counts(o, owner) {
			names = append(names, o.String())
		}
	}
	c.Got = fmt.Sprintf("%d", len(names))
	c.Passed = len(names) == cc.Equals
	if !c.Passed {
		c.Why = st.p.say("count-differs", "what", cc.Describe(), "got", fmt.Sprint(len(names)), "want", fmt.Sprint(cc.Equals), "names", list(names))
		if len(names) > cc.Equals {
			// Too many: say which of them a controller made while the
			// learner worked (a Pod deleted and made again by its
			// controller is the usual surprise).
			var made []string
			for _, n := range names {
				if start, now := st.startObject(n), st.known[n]; start != nil && now != nil && start.Metadata.UID == now.Metadata.UID {
					continue // there when the lesson started
				}
				if rec := st.madeByController(n); rec != nil {
					made = append(made, st.p.say("count-made-one", "object", n, "who", st.who(rec), "at", st.at(rec.Seq)))
				}
			}
			if len(made) > 0 {
				// The separator is taken as written: its space matters.
				c.Why += " " + st.p.say("count-made", "list", strings.Join(made, st.p["count-made-sep"]))
			}
		}
	}
	return c
}

// madeByController is the record in which a controller (not the learner)
// last created ref, or nil.
func (st *story) madeByController(ref string) *engine.Record {
	var made *engine.Record
	for i := range st.recs {
		rec := &st.recs[i]
		for _, c := range rec.Calls() {
			if c.Verb == "create" && c.Ref.String() == ref && c.Code < 300 {
				made = rec
			}
		}
	}
	if made == nil || made.Actor == "user" {
		return nil
	}
	return made
}

func (st *story) checkGraph(gc scenario.GraphCheck) Check {
	c := Check{Key: "graph", Subject: gc.Ref.String(), Line: gc.Line}
	var n engine.NodeView
	ok := false
	if gc.Ref.UID != "" {
		n, ok = st.w.Node(gc.Ref.UID)
	} else {
		if o := st.store.Lookup(gc.Ref.Ref); o != nil {
			n, ok = st.w.Node(o.Metadata.UID)
		}
		if !ok {
			for _, v := range st.w.Nodes() {
				if v.Kind == gc.Ref.Kind && v.Namespace == gc.Ref.Namespace && v.Name == gc.Ref.Name {
					n, ok = v, true
					break
				}
			}
		}
	}
	describe := func(n engine.NodeView) string {
		fl := n.Flags()
		if len(fl) == 0 {
			return st.p.say("node-plain")
		}
		return st.p.say("node-flags", "flags", strings.Join(fl, ", "))
	}
	if gc.Absent != nil && *gc.Absent {
		c.Want = st.p.say("node-none")
		c.Passed = !ok
		c.Got = st.p.say("node-none")
		if ok {
			c.Got = describe(n)
			c.Why = st.p.say("node-still-there", "object", gc.Ref.String(), "got", c.Got)
		}
		return c
	}
	var want []string
	pass := ok
	for _, f := range []struct {
		name string
		want *bool
		got  bool
	}{{"virtual", gc.Virtual, n.Virtual}, {"beingDeleted", gc.BeingDeleted, n.BeingDeleted}, {"deletingDependents", gc.DeletingDependents, n.DeletingDependents}} {
		if f.want == nil {
			continue
		}
		want = append(want, fmt.Sprintf("%s=%t", f.name, *f.want))
		pass = pass && f.got == *f.want
	}
	c.Want = st.p.say("node-want", "flags", strings.Join(want, " "))
	c.Passed = pass
	if !ok {
		c.Got = st.p.say("node-none")
		c.Why = st.p.say("node-missing", "object", gc.Ref.String())
	} else {
		c.Got = describe(n)
		if !pass {
			c.Why = st.p.say("node-differs", "object", gc.Ref.String(), "got", c.Got, "want", c.Want)
		}
	}
	return c
}

// whyGone explains an object that is gone when the goal keeps it: who
// deleted it, and, for the collector, why, down to the learner's request
// that started it.
func (st *story) whyGone(r scenario.Ref, goal string) string {
	ref := r.String()
	if rec, _ := st.deleteOf(ref); rec == nil && st.last(ref) == nil {
		return st.p.say("never-existed", "object", ref)
	}
	s := st.p.say("gone", "object", ref, "goal", goal)
	if cause := st.goneCause(ref); cause != "" {
		s += " " + cause
	}
	return s
}

// goneCause says who deleted ref and why, or "".
func (st *story) goneCause(ref string) string { return st.goneCauseBefore(ref, len(st.recs)) }

// goneCauseBefore is goneCause for the object of that name that was in
// storage before record end (a later create made another).
func (st *story) goneCauseBefore(ref string, end int) string {
	rec, call := st.deleteOfBefore(ref, end)
	if rec == nil {
		return ""
	}
	if call.Verb == "deletecollection" {
		return st.p.say("deleted-by-namespace-controller", "at", st.at(rec.Seq), "namespace", call.Ref.Namespace)
	}
	s := ""
	refused := ""
	for i := range st.recs {
		r := &st.recs[i]
		if r.Actor == "user" && r.Seq > rec.Seq && r.Err != "" && r.Item == "create "+ref {
			key := "create-refused"
			if strings.Contains(r.Err, "object is being deleted") {
				key = "create-refused-terminating"
			}
			refused = " " + st.p.say(key, "object", ref, "at", st.at(r.Seq), "error", r.Err)
		}
	}
	// A DELETE that left the object terminating: it left storage later,
	// when its last finalizer was removed.
	removed := ""
	for i := range st.recs {
		r := &st.recs[i]
		if r.Seq > rec.Seq && st.patched(r, ref) && (r.Reason.Rule == "R47" || r.Reason.Rule == "R50" || r.Reason.Rule == "R9") {
			removed = " " + st.p.say("removed-when", "who", st.who(r), "at", st.at(r.Seq), "reason", st.reasonText(r))
		}
	}
	refused = removed + refused
	switch rec.Actor {
	case "user":
		return s + st.p.say("deleted-by-you", "at", st.at(rec.Seq), "what", recText(rec)) + refused
	case engine.QueueAttemptToDelete:
		s += st.p.say("deleted-by-gc", "at", st.at(rec.Seq), "reason", st.reasonText(rec))
		if cause := st.ownersCause(ref); cause != "" {
			s += " " + cause
		}
		if m := st.uidMismatches(ref); m != "" {
			s += " " + m
		}
		return s + refused
	}
	return s + st.p.say("deleted-by-controller", "who", st.who(rec), "at", st.at(rec.Seq), "reason", st.reasonText(rec)) + refused
}

// ownersCause says what happened to the owners of ref: the learner's
// deletes, with the policy each one used.
func (st *story) ownersCause(ref string) string {
	o := st.last(ref)
	if o == nil || len(o.Metadata.OwnerReferences) == 0 {
		return ""
	}
	var owners []string
	for _, or := range o.Metadata.OwnerReferences {
		owners = append(owners, ownerRefString(st.store.Registry(), o, or))
	}
	s := st.ownerDeletes(owners)
	if s != "" && len(owners) == 1 {
		s = st.p.say("only-owner") + " " + s
	}
	return s
}

// ownerDeletes says how the learner deleted each of owners, and what each
// policy used means, once per policy.
func (st *story) ownerDeletes(owners []string) string {
	var parts, meanings []string
	for _, owner := range owners {
		call, rec := st.userDelete(owner)
		if call == nil {
			continue
		}
		if strings.HasPrefix(owner, "Namespace/") && !strings.Contains(call.Detail, "propagationPolicy=") && !strings.Contains(call.Detail, "orphanDependents=") {
			// A namespace has no default policy: it goes only once the
			// namespace controller has emptied and finalized it.
			parts = append(parts, st.p.say("owner-deleted-namespace", "owner", owner, "at", st.at(rec.Seq)))
			continue
		}
		parts = append(parts, st.p.say("owner-deleted", "owner", owner, "policy", st.policyWords(owner, call), "at", st.at(rec.Seq)))
		if m := st.policyMeaning(owner, call); !slices.Contains(meanings, m) {
			meanings = append(meanings, m)
		}
	}
	return strings.Join(append(parts, meanings...), " ")
}

// uidMismatches says which of ref's owner references name an object that
// exists now under the same name with another uid.
func (st *story) uidMismatches(ref string) string {
	o := st.last(ref)
	if o == nil {
		return ""
	}
	var parts []string
	for _, or := range o.Metadata.OwnerReferences {
		info, _ := st.store.Registry().Lookup(or.APIVersion, or.Kind)
		live := st.store.Lookup(fakeapi.Ref{APIVersion: or.APIVersion, Kind: or.Kind, Namespace: nsFor(info, o), Name: or.Name})
		if live != nil && live.Metadata.UID != or.UID {
			parts = append(parts, st.p.say("uid-mismatch", "owner", ownerRefString(st.store.Registry(), o, or), "live", live.Metadata.UID, "ref", or.UID))
		}
	}
	return strings.Join(parts, " ")
}

// ownerRefString names an ownerReference's target the way references are
// written: in the dependent's namespace for namespaced owner kinds.
func ownerRefString(reg *fakeapi.Registry, dep *fakeapi.Object, or fakeapi.OwnerReference) string {
	info, ok := reg.Lookup(or.APIVersion, or.Kind)
	if ok && !info.Namespaced() {
		return fakeapi.RefString(or.Kind, "", or.Name)
	}
	return fakeapi.RefString(or.Kind, dep.Metadata.Namespace, or.Name)
}

// whyStays explains an object that is still in storage when the goal has
// it gone.
func (st *story) whyStays(o *fakeapi.Object) string {
	if o.Kind == "Namespace" && o.Metadata.DeletionTimestamp != nil && len(fakeapi.NamespaceFinalizers(o)) > 0 {
		return st.p.say("stays-namespace", "object", o.String(), "spec", list(fakeapi.NamespaceFinalizers(o))) + st.namespaceNext(o)
	}
	if o.Metadata.DeletionTimestamp != nil {
		return st.p.say("stays-terminating", "object", o.String(), "finalizers", list(o.Metadata.Finalizers)) + st.staysCause(o)
	}
	return st.p.say("stays", "object", o.String()) + st.staysCause(o)
}

// namespaceNext is the next thing a terminating namespace waits for, as
// the playground's inspector says it (engine.NamespaceWhy), with a space
// before it.
func (st *story) namespaceNext(ns *fakeapi.Object) string {
	for _, l := range engine.NamespaceWhy(st.store, ns, st.w.Queue(engine.ControllerNamespace), st.w.Controllers()) {
		if next, ok := strings.CutPrefix(strings.TrimSpace(l), "next: "); ok {
			return " " + st.p.say("namespace-next", "next", next)
		}
	}
	return ""
}

// staysCause says why o is still in storage: what holds it while it
// terminates, or how the collector sees its owners. It starts with a space
// when it says anything.
func (st *story) staysCause(o *fakeapi.Object) string {
	p := st.p
	ref := o.String()
	if o.Metadata.DeletionTimestamp != nil {
		s := ""
		if call, rec := st.userDelete(ref); call != nil && call.Detail == "" && rec != nil {
			if first, _ := st.deleteOf(ref); first != nil && first.Seq < rec.Seq {
				s += " " + p.say("redelete-keeps", "at", st.at(rec.Seq))
			}
		}
		for _, f := range o.Metadata.Finalizers {
			switch f {
			case fakeapi.FinalizerDeleteDependents:
				s += " " + st.waitingWhy(o)
			case fakeapi.FinalizerOrphanDependents:
				s += " " + p.say("held-orphan")
			default:
				s += " " + p.say("held-custom", "finalizer", f)
			}
		}
		return s
	}
	s := ""
	start := st.startObject(ref)
	had := start != nil && len(start.Metadata.OwnerReferences) > 0
	if len(o.Metadata.OwnerReferences) == 0 {
		if had {
			// Orphaned: say who took the references away.
			for i := range st.recs {
				rec := &st.recs[i]
				if rec.Actor == "user" {
					continue
				}
				if st.patchedOwners(rec, ref) {
					s += " " + p.say("refs-removed", "who", st.who(rec), "at", st.at(rec.Seq), "reason", st.reasonText(rec))
					break
				}
			}
			var owners []string
			for _, or := range start.Metadata.OwnerReferences {
				owners = append(owners, ownerRefString(st.store.Registry(), o, or))
			}
			if d := st.ownerDeletes(owners); d != "" {
				s += " " + d
			}
			return s + " " + p.say("no-owner-left")
		}
		return s + " " + p.say("never-owned")
	}
	// It has owners: say how the collector sees each one (R43).
	info, _ := st.store.Registry().Lookup(o.APIVersion, o.Kind)
	for _, or := range o.Metadata.OwnerReferences {
		owner := ownerRefString(st.store.Registry(), o, or)
		oinfo, _ := st.store.Registry().Lookup(or.APIVersion, or.Kind)
		if !info.Namespaced() && oinfo.Namespaced() {
			s += " " + p.say("cluster-scoped-dependent", "object", ref, "owner", or.Kind+"/"+or.Name)
			continue
		}
		live := st.store.Lookup(fakeapi.Ref{APIVersion: or.APIVersion, Kind: or.Kind, Namespace: nsFor(oinfo, o), Name: or.Name})
		switch {
		case live == nil || live.Metadata.UID != or.UID:
			s += " " + p.say("owner-absent-unprocessed", "owner", owner)
		case live.Metadata.DeletionTimestamp == nil:
			s += " " + p.say("owner-solid", "owner", owner)
			if call, rec := st.userDeleteAny(owner); call != nil {
				s += " " + p.say("owner-delete-refused", "at", st.at(rec.Seq), "what", recText(rec))
			}
		case live.Metadata.HasFinalizer(fakeapi.FinalizerDeleteDependents):
			s += " " + p.say("owner-waiting", "owner", owner)
		default:
			s += " " + p.say("owner-terminating-solid", "owner", owner, "finalizers", list(live.Metadata.Finalizers))
		}
	}
	return s
}

func nsFor(info fakeapi.KindInfo, dep *fakeapi.Object) string {
	if info.Namespaced() {
		return dep.Metadata.Namespace
	}
	return ""
}

// waitingWhy explains an owner held by foregroundDeletion: the blocking
// dependents still in storage, and what holds each of them.
func (st *story) waitingWhy(o *fakeapi.Object) string {
	var blocking []string
	for _, d := range st.store.Objects() {
		for _, r := range d.Metadata.OwnerReferences {
			if r.UID == o.Metadata.UID && r.Blocks() {
				what := d.String()
				if d.Metadata.DeletionTimestamp != nil && len(d.Metadata.Finalizers) > 0 {
					what += " " + st.p.say("held-by", "finalizers", list(d.Metadata.Finalizers))
				}
				blocking = append(blocking, what)
			}
		}
	}
	if len(blocking) == 0 {
		return st.p.say("held-foreground-none")
	}
	return st.p.say("held-foreground", "blocking", strings.Join(blocking, ", "))
}

// deletedBy says who deleted ref last, or "".
func (st *story) deletedBy(ref string) string {
	rec, _ := st.deleteOf(ref)
	if rec == nil {
		return ""
	}
	return " " + st.p.say("deleted-at", "who", st.who(rec), "at", st.at(rec.Seq), "what", recText(rec))
}

// deleteOf returns the record of the DELETE that ended ref's last life:
// the first successful DELETE after its last creation. (A Pod's kubelet
// deletes it again when its grace period ends; the first DELETE is the
// decision.)
func (st *story) deleteOf(ref string) (*engine.Record, *fakeapi.Request) {
	return st.deleteOfBefore(ref, len(st.recs))
}

// deleteOfBefore is deleteOf among the records before end.
func (st *story) deleteOfBefore(ref string, end int) (*engine.Record, *fakeapi.Request) {
	created := -1
	for i := range st.recs[:end] {
		for _, c := range st.recs[i].Calls() {
			if c.Verb == "create" && c.Ref.String() == ref && c.Code < 300 {
				created = i
			}
		}
	}
	for i := created + 1; i < end; i++ {
		rec := &st.recs[i]
		calls := rec.Calls()
		for j := range calls {
			c := &calls[j]
			if c.Verb == "delete" && c.Ref.String() == ref && c.Code < 300 && !strings.Contains(c.Detail, "dryRun") {
				return rec, c
			}
			// The namespace controller deletes a whole collection at once.
			if c.Verb == "deletecollection" && c.Code < 300 && c.Ref.Namespace != "" &&
				strings.HasPrefix(ref, fakeapi.RefString(c.Ref.Kind, c.Ref.Namespace, "")) && st.existedAt(ref, rec.Seq) {
				return rec, c
			}
		}
	}
	return nil, nil
}

// existedAt reports whether ref was in storage just before step seq: no
// record before it removed it.
func (st *story) existedAt(ref string, seq int) bool {
	for i := range st.recs {
		r := &st.recs[i]
		if r.Seq >= seq {
			break
		}
		for _, c := range r.Calls() {
			if c.Ref.String() == ref && c.Verb == "delete" && c.Code < 300 {
				return false
			}
		}
	}
	return true
}

// userDelete returns the learner's last successful DELETE of ref (a dry
// run does not count).
func (st *story) userDelete(ref string) (*fakeapi.Request, *engine.Record) {
	return st.lastUserDelete(ref, true)
}

// userDeleteAny returns the learner's last DELETE of ref, successful or not.
func (st *story) userDeleteAny(ref string) (*fakeapi.Request, *engine.Record) {
	return st.lastUserDelete(ref, false)
}

func (st *story) lastUserDelete(ref string, succeeded bool) (*fakeapi.Request, *engine.Record) {
	for i := len(st.recs) - 1; i >= 0; i-- {
		rec := &st.recs[i]
		if rec.Actor != "user" {
			continue
		}
		calls := rec.Calls()
		for j := range calls {
			c := &calls[j]
			if c.Verb != "delete" || c.Ref.String() != ref {
				continue
			}
			if !succeeded || (c.Code < 300 && !strings.Contains(c.Detail, "dryRun")) {
				return c, rec
			}
		}
	}
	return nil, nil
}

// lastChange returns the last record that wrote ref with one of verbs.
func (st *story) lastChange(ref string, verbs ...string) *engine.Record {
	for i := len(st.recs) - 1; i >= 0; i-- {
		rec := &st.recs[i]
		for _, c := range rec.Calls() {
			if slices.Contains(verbs, c.Verb) && c.Ref.String() == ref && c.Code < 300 {
				return rec
			}
		}
	}
	return nil
}

// patchedOwners reports whether rec changed ref's ownerReferences.
func (st *story) patchedOwners(rec *engine.Record, ref string) bool {
	for _, c := range rec.Calls() {
		if c.Verb == "patch" && c.Ref.String() == ref && c.Code < 300 && strings.Contains(c.Detail, "ownerReferences") {
			return true
		}
	}
	return false
}

func (st *story) patched(rec *engine.Record, ref string) bool {
	for _, c := range rec.Calls() {
		if (c.Verb == "patch" || c.Verb == "update") && c.Ref.String() == ref && c.Code < 300 {
			return true
		}
	}
	return false
}

// policy returns the deletion policy a DELETE of ref asked for, or the
// one the API applied by default.
func (st *story) policy(ref string, call *fakeapi.Request) string {
	for _, part := range strings.Split(call.Detail, ", ") {
		if v, ok := strings.CutPrefix(part, "propagationPolicy="); ok {
			return v
		}
		switch part {
		case "orphanDependents=true":
			return string(fakeapi.DeletePropagationOrphan)
		case "orphanDependents=false":
			return string(fakeapi.DeletePropagationBackground)
		}
	}
	return st.defaultPolicy(call)
}

func (st *story) defaultPolicy(call *fakeapi.Request) string {
	info, _ := st.store.Registry().Lookup(call.Ref.APIVersion, call.Ref.Kind)
	if info.DefaultPolicy == fakeapi.PolicyOrphan {
		return string(fakeapi.DeletePropagationOrphan)
	}
	return string(fakeapi.DeletePropagationBackground)
}

// policyWords says how a DELETE chose its policy.
func (st *story) policyWords(ref string, call *fakeapi.Request) string {
	pol := st.policy(ref, call)
	if strings.Contains(call.Detail, "propagationPolicy=") || strings.Contains(call.Detail, "orphanDependents=") {
		return st.p.say("policy-explicit", "policy", pol)
	}
	return st.p.say("policy-default", "policy", pol, "kind", call.Ref.Kind, "apiVersion", call.Ref.APIVersion)
}

// policyMeaning says what the policy does to the dependents.
func (st *story) policyMeaning(ref string, call *fakeapi.Request) string {
	switch st.policy(ref, call) {
	case string(fakeapi.DeletePropagationOrphan):
		return st.p.say("meaning-orphan")
	case string(fakeapi.DeletePropagationForeground):
		return st.p.say("meaning-foreground")
	}
	return st.p.say("meaning-background")
}

// who names the actor of a record: you, or the controller whose queue the
// step took its item from, by its "who-<controller>" phrase (which may name
// the queue), or by its name when the phrases file has none.
func (st *story) who(rec *engine.Record) string {
	if rec.Actor == "user" {
		return st.p.say("who-you")
	}
	name, ok := engine.QueueController(rec.Actor)
	if !ok {
		return rec.Actor
	}
	if _, ok := st.p["who-"+name]; !ok {
		return name
	}
	return st.p.say("who-"+name, "queue", rec.Actor)
}

// recText is a record's item and reason, as the trace shows it.
func recText(rec *engine.Record) string {
	if rec.Actor == "user" {
		return rec.Item
	}
	return reasonText(rec)
}

// reasonText is a record's reason with its rule: "dangling ConfigMap/app:
// ... [R44(c)]".
func reasonText(rec *engine.Record) string { return reasonTextIn(nil, rec) }

// reasonTextIn is reasonText in c's language: the reason's sentence in
// its words, with its values.
func reasonTextIn(c *i18n.Catalog, rec *engine.Record) string {
	s := rec.Reason.Message
	if c != nil && c.Lang() != "en" {
		s = rec.Reason.In(c.Say)
	}
	if s == "" {
		s = rec.Item
	}
	if rec.Reason.Rule != "" {
		s += " [" + rec.Reason.Rule + "]"
	}
	return s
}

// startObject returns ref as it was at the lesson's start, or nil.
func (st *story) startObject(ref string) *fakeapi.Object {
	for _, o := range st.l.startObjects() {
		if o.String() == ref {
			return o
		}
	}
	return nil
}
