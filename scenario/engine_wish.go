package scenario

// This file holds what scenario needs from fakeapi that does not exist
// yet, written as a small stand-in over the API that does. It says what it
// waits for; once that lands, the stand-in is replaced by the call.

import (
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// objectsInCreationOrder returns the stored objects in the order they were
// created. It waits for the store to expose that order (for example
// fakeapi's Store.Objects documented as creation order, or a creation
// sequence number on each object); until then it orders by
// creationTimestamp, then by resourceVersion (the creation order of objects
// never updated since), and puts Namespaces before the objects in them and
// owners before their dependents.
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
		ra, ea := strconv.ParseUint(a.Metadata.ResourceVersion, 10, 64)
		rb, eb := strconv.ParseUint(b.Metadata.ResourceVersion, 10, 64)
		if ea == nil && eb == nil && ra != rb {
			return ra < rb
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
