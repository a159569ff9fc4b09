package scenario

// This file holds what scenario needs from engine and fakeapi that does not
// exist yet, written as small stand-ins over the API that does. Each says
// what it waits for; once that lands, the stand-in is replaced by the call.

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// advanceBy moves the clock to now+d, running the work that becomes due on
// the way, at the time it becomes due. It waits for
// engine.AdvanceBy(w, d, maxSteps) (SettleResult, error), which replaces it.
func advanceBy(w *engine.World, d time.Duration, maxSteps int) (engine.SettleResult, error) {
	var res engine.SettleResult
	target := w.Elapsed() + d
	for {
		for !w.Idle() {
			if res.Steps >= maxSteps {
				return res, fmt.Errorf("more than %d steps while advancing", maxSteps)
			}
			rec, err := w.Do(engine.Step{})
			res.Records = append(res.Records, rec)
			if err != nil {
				return res, err
			}
			res.Steps++
		}
		next, ok := w.NextDue()
		if !ok || next > target || next <= w.Elapsed() {
			break
		}
		rec, err := w.Do(engine.Advance{D: next - w.Elapsed()})
		res.Records = append(res.Records, rec)
		if err != nil {
			return res, err
		}
	}
	if rest := target - w.Elapsed(); rest > 0 {
		rec, err := w.Do(engine.Advance{D: rest})
		res.Records = append(res.Records, rec)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// recordString is the one-line trace form of a record. It waits for
// engine's func (r Record) String() string, which replaces it.
func recordString(r engine.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d +%v %s %s", r.Seq, r.At, r.Actor, r.Item)
	if r.Reason.Code != "" {
		fmt.Fprintf(&b, ": %s", r.Reason.Code)
		if r.Reason.Message != "" {
			fmt.Fprintf(&b, " (%s)", r.Reason.Message)
		}
	}
	for _, c := range r.Calls {
		fmt.Fprintf(&b, "; %s %s %d", strings.ToUpper(c.Verb), c.Ref, c.Code)
		if c.Reason != "" {
			fmt.Fprintf(&b, " %s", c.Reason)
		}
	}
	for _, e := range r.Enqueued {
		fmt.Fprintf(&b, "; +%s %s", e.Queue, e.Item)
		if e.After > 0 {
			fmt.Fprintf(&b, " after %v", e.After)
		}
	}
	if r.Err != "" {
		fmt.Fprintf(&b, "; error: %s", r.Err)
	}
	return b.String()
}

// objectsInCreationOrder returns the stored objects in the order they were
// created. It waits for the store to expose that order (for example
// fakeapi's Store.Objects documented as creation order, or a creation
// sequence number on each object); until then it orders by
// creationTimestamp, puts Namespaces before the objects in them and owners
// before their dependents, and keeps Store.Objects' order among the rest.
func objectsInCreationOrder(s *fakeapi.Store) []*fakeapi.Object {
	objs := s.Objects()
	idx := make(map[*fakeapi.Object]int, len(objs))
	byUID := map[string]*fakeapi.Object{}
	namespaces := map[string]*fakeapi.Object{}
	for i, o := range objs {
		idx[o] = i
		byUID[o.Metadata.UID] = o
		if o.Kind == "Namespace" && o.Metadata.Namespace == "" {
			namespaces[o.Metadata.Name] = o
		}
	}
	before := func(a, b *fakeapi.Object) bool {
		ta, tb := created(a), created(b)
		if !ta.Equal(tb) {
			return ta.Before(tb)
		}
		return idx[a] < idx[b]
	}
	deps := func(o *fakeapi.Object) []*fakeapi.Object {
		var out []*fakeapi.Object
		if ns, ok := namespaces[o.Metadata.Namespace]; ok {
			out = append(out, ns)
		}
		for _, r := range o.Metadata.OwnerReferences {
			if owner, ok := byUID[r.UID]; ok && owner != o {
				out = append(out, owner)
			}
		}
		return out
	}
	remaining := slices.Clone(objs)
	sort.SliceStable(remaining, func(i, j int) bool { return before(remaining[i], remaining[j]) })
	done := map[*fakeapi.Object]bool{}
	var out []*fakeapi.Object
	for len(remaining) > 0 {
		pick := 0 // when every remaining object waits (a cycle), take the earliest
		for i, o := range remaining {
			ready := true
			for _, d := range deps(o) {
				if !done[d] {
					ready = false
					break
				}
			}
			if ready {
				pick = i
				break
			}
		}
		done[remaining[pick]] = true
		out = append(out, remaining[pick])
		remaining = slices.Delete(remaining, pick, pick+1)
	}
	return out
}

func created(o *fakeapi.Object) time.Time {
	if o.Metadata.CreationTimestamp == nil {
		return time.Time{}
	}
	return o.Metadata.CreationTimestamp.Time
}
