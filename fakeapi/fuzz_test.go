package fakeapi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fuzzInput hands out the fuzzer's bytes as small choices; past the end it
// answers 0.
type fuzzInput struct{ data []byte }

func (in *fuzzInput) more() bool { return len(in.data) > 0 }

func (in *fuzzInput) pick(n int) int {
	if len(in.data) == 0 || n <= 1 {
		return 0
	}
	b := in.data[0]
	in.data = in.data[1:]
	return int(b) % n
}

func (in *fuzzInput) chance() bool { return in.pick(2) == 1 }

var fuzzFinalizers = []string{"orphan", "foregroundDeletion", "example.com/a", "example.com/b", "Bad/Name/x"}

var fuzzRefs = []Ref{
	{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "a"},
	{APIVersion: "v1", Kind: "Pod", Namespace: "default", Name: "p"},
	{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w"},
	{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "default", Name: "rs"},
	{APIVersion: "v1", Kind: "ReplicationController", Namespace: "default", Name: "rc"},
}

// fuzzWorld is a small world: one object of each kind above, owned in a
// chain, with a watcher that checks every event as it comes.
type fuzzWorld struct {
	t      *testing.T
	s      *Store
	clock  *testClock
	lastRV uint64
	seq    int
	seen   map[*Object]string // every stored state seen, and its JSON then
}

func newFuzzWorld(t *testing.T) *fuzzWorld {
	reg := NewRegistry()
	if err := reg.Add(KindInfo{APIVersion: "example.com/v1", Kind: "Widget", Scope: Namespaced, Custom: true}); err != nil {
		t.Fatal(err)
	}
	fw := &fuzzWorld{t: t, clock: &testClock{t: Epoch}, seen: map[*Object]string{}}
	fw.s = NewStore(reg, fw.clock)
	fw.s.Watch(fw.checkEvent)
	for i := range fuzzRefs {
		fw.recreate(i, nil)
	}
	return fw
}

func (fw *fuzzWorld) checkEvent(ev WatchEvent) {
	fw.seq++
	if ev.Seq != fw.seq {
		fw.t.Fatalf("watch event seq %d, want %d", ev.Seq, fw.seq)
	}
	rv, err := strconv.ParseUint(ev.ResourceVersion, 10, 64)
	if err != nil || rv <= fw.lastRV {
		fw.t.Fatalf("%s %s at resourceVersion %q after %d", ev.Type, ev.Object, ev.ResourceVersion, fw.lastRV)
	}
	// The object carries the event's version, except a DELETED one: it is
	// the last stored state, written before.
	if own := ev.Object.Metadata.ResourceVersion; (ev.Type == Deleted) == (own == ev.ResourceVersion) {
		fw.t.Fatalf("%s %s at resourceVersion %s carries resourceVersion %s", ev.Type, ev.Object, ev.ResourceVersion, own)
	}
	fw.lastRV = rv
	fw.remember(ev.Object)
	fw.remember(ev.Old)
}

func (fw *fuzzWorld) remember(o *Object) {
	if o == nil {
		return
	}
	if _, ok := fw.seen[o]; !ok {
		fw.seen[o] = describe(o)
	}
}

func (fw *fuzzWorld) recreate(i int, finalizers []string) {
	r := fuzzRefs[i]
	o := obj(r.APIVersion, r.Kind, r.Namespace, r.Name)
	switch r.Kind {
	case "Pod":
		o.Fields = FieldsOf(map[string]any{"spec": map[string]any{"nodeName": "n1", "terminationGracePeriodSeconds": 10}})
	case "ReplicaSet":
		o.Fields = FieldsOf(map[string]any{"spec": map[string]any{"replicas": 1}})
	}
	if i > 0 {
		if owner := fw.s.Lookup(fuzzRefs[i-1]); owner != nil {
			o.Metadata.OwnerReferences = []OwnerReference{{APIVersion: owner.APIVersion, Kind: owner.Kind, Name: owner.Metadata.Name,
				UID: owner.Metadata.UID, Controller: Bool(true), BlockOwnerDeletion: Bool(true)}}
		}
	}
	o.Metadata.Finalizers = finalizers
	fw.check(fw.s.Create("fuzz", o))
}

// check asserts that an answer is an object or a well-formed StatusError,
// and that the object handed out is the caller's own copy.
func (fw *fuzzWorld) check(out *Object, err error) {
	fw.t.Helper()
	if err != nil {
		var se *StatusError
		if !errors.As(err, &se) || se.Code < 400 || se.Message == "" || !KnownReason(se.Reason) {
			fw.t.Fatalf("error %v (%T) is not a well-formed StatusError", err, err)
		}
		if out != nil {
			fw.t.Fatalf("an error came with an object")
		}
		return
	}
	if out == nil {
		fw.t.Fatal("no error and no object")
	}
	// Scribble on the copy: storage must not change.
	out.Metadata.Finalizers = append(out.Metadata.Finalizers[:len(out.Metadata.Finalizers):len(out.Metadata.Finalizers)], "scribble")
	if len(out.Metadata.Finalizers) > 1 {
		out.Metadata.Finalizers[0] = "scribble"
	}
	for i := range out.Metadata.OwnerReferences {
		out.Metadata.OwnerReferences[i].UID = "scribble"
		if out.Metadata.OwnerReferences[i].Controller != nil {
			*out.Metadata.OwnerReferences[i].Controller = !*out.Metadata.OwnerReferences[i].Controller
		}
	}
	if spec, ok := out.Fields.Get("spec").(map[string]any); ok {
		spec["scribble"] = true
	}
	if out.Metadata.DeletionTimestamp != nil {
		out.Metadata.DeletionTimestamp.Time = time.Time{}
	}
}

// checkStorage asserts the invariants of everything stored.
func (fw *fuzzWorld) checkStorage() {
	fw.t.Helper()
	for _, o := range fw.s.Objects() {
		m := o.Metadata
		if m.DeletionTimestamp != nil && len(m.Finalizers) == 0 &&
			(m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0) {
			fw.t.Fatalf("%s is stored deleting with no finalizers and no grace period: %s", o, describe(o))
		}
		if m.HasFinalizer(FinalizerOrphanDependents) && m.HasFinalizer(FinalizerDeleteDependents) {
			fw.t.Fatalf("%s has both GC finalizers", o)
		}
		if m.DeletionTimestamp != nil && m.DeletionGracePeriodSeconds == nil {
			fw.t.Fatalf("%s has a deletionTimestamp but no grace period", o)
		}
		if fw.s.ByUID(m.UID) != o {
			fw.t.Fatalf("ByUID(%s) is not %s", m.UID, o)
		}
		if strings.Contains(describe(o), "scribble") {
			fw.t.Fatalf("a caller's copy reached storage: %s", describe(o))
		}
		fw.remember(o)
	}
	for o, was := range fw.seen {
		if now := describe(o); now != was {
			fw.t.Fatalf("a stored snapshot changed:\nwas %s\nnow %s", was, now)
		}
	}
}

func (fw *fuzzWorld) finalizers(in *fuzzInput) []string {
	var fs []string
	for range in.pick(4) {
		fs = append(fs, fuzzFinalizers[in.pick(len(fuzzFinalizers))])
	}
	return fs
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// resourceVersion returns a resourceVersion to send: current, stale, or none.
func (fw *fuzzWorld) resourceVersion(in *fuzzInput, r Ref) string {
	cur := fw.s.Lookup(r)
	switch in.pick(3) {
	case 0:
		if cur != nil {
			return cur.Metadata.ResourceVersion
		}
		return "1"
	case 1:
		return "2"
	default:
		return ""
	}
}

func (fw *fuzzWorld) mergePatch(in *fuzzInput, r Ref) {
	var parts []string
	if rv := fw.resourceVersion(in, r); rv != "" {
		parts = append(parts, fmt.Sprintf(`"resourceVersion":%q`, rv))
	}
	switch in.pick(3) {
	case 0:
		parts = append(parts, `"finalizers":null`)
	case 1:
		parts = append(parts, `"finalizers":`+quoteList(fw.finalizers(in)))
	}
	if in.chance() {
		parts = append(parts, fmt.Sprintf(`"labels":{"n":"%d"}`, in.pick(4)))
	}
	if in.chance() {
		parts = append(parts, `"ownerReferences":null`)
	}
	if in.pick(8) == 0 {
		parts = append(parts, `"uid":"someone-else"`)
	}
	body := `{"metadata":{` + strings.Join(parts, ",") + `}`
	if in.chance() {
		body += fmt.Sprintf(`,"spec":{"replicas":%d}`, in.pick(3))
	}
	body += "}"
	fw.check(fw.s.Patch("fuzz", r, MergePatch, []byte(body)))
}

func (fw *fuzzWorld) strategicPatch(in *fuzzInput, r Ref) {
	var parts []string
	uid := "someone-else"
	if cur := fw.s.Lookup(r); cur != nil && in.pick(4) != 0 {
		uid = cur.Metadata.UID
	}
	parts = append(parts, fmt.Sprintf(`"uid":%q`, uid))
	owners := []string{}
	for _, o := range fw.s.Objects() {
		owners = append(owners, o.Metadata.UID)
	}
	switch in.pick(4) {
	case 0:
		parts = append(parts, fmt.Sprintf(`"ownerReferences":[{"$patch":"delete","uid":%q}]`, owners[in.pick(len(owners))]))
	case 1:
		parts = append(parts, fmt.Sprintf(`"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":%q,"blockOwnerDeletion":false}]`, owners[in.pick(len(owners))]))
	case 2:
		parts = append(parts, `"finalizers":`+quoteList(fw.finalizers(in)))
	case 3:
		parts = append(parts, `"$deleteFromPrimitiveList/finalizers":`+quoteList(fw.finalizers(in)))
	}
	fw.check(fw.s.Patch("fuzz", r, StrategicMergePatch, []byte(`{"metadata":{`+strings.Join(parts, ",")+`}}`)))
}

func (fw *fuzzWorld) update(in *fuzzInput, r Ref) {
	cur, err := fw.s.Get("fuzz", r)
	if err != nil {
		fw.check(nil, err)
		return
	}
	switch in.pick(4) {
	case 0:
		cur.Metadata.Finalizers = nil
	case 1:
		cur.Metadata.Finalizers = fw.finalizers(in)
	case 2:
		cur.Metadata.ResourceVersion = fw.resourceVersion(in, r)
	case 3:
		cur.Metadata.DeletionGracePeriodSeconds = Int64(int64(in.pick(3)))
	}
	fw.check(fw.s.Update("fuzz", cur))
}

func (fw *fuzzWorld) delete(in *fuzzInput, r Ref) {
	var opts *DeleteOptions
	if in.pick(4) != 0 {
		opts = &DeleteOptions{}
		policies := []DeletionPropagation{"Orphan", "Background", "Foreground", "Bogus"}
		if in.chance() {
			p := policies[in.pick(len(policies))]
			opts.PropagationPolicy = &p
		}
		if in.pick(3) == 0 {
			opts.OrphanDependents = Bool(in.chance())
		}
		if in.chance() {
			opts.GracePeriodSeconds = Int64(int64(in.pick(5)) - 1)
		}
		if in.pick(3) == 0 {
			opts.Preconditions = &Preconditions{}
			if cur := fw.s.Lookup(r); cur != nil && in.chance() {
				opts.Preconditions.UID = &cur.Metadata.UID
			} else if in.chance() {
				opts.Preconditions.UID = str("wrong")
			}
			if rv := fw.resourceVersion(in, r); rv != "" {
				opts.Preconditions.ResourceVersion = &rv
			}
		}
		if in.pick(4) == 0 {
			opts.DryRun = []string{"All"}
		}
	}
	before := fw.s.Lookup(r)
	n := fw.seq
	res, err := fw.s.Delete("fuzz", r, opts)
	if err != nil {
		fw.check(nil, err)
		if fw.seq != n {
			fw.t.Fatalf("a failed delete produced watch events")
		}
		return
	}
	if opts != nil && len(opts.DryRun) > 0 && (fw.seq != n || fw.s.Lookup(r) != before) {
		fw.t.Fatalf("a dry-run delete changed storage")
	}
	if res.Removed != (fw.s.Lookup(r) == nil) {
		fw.t.Fatalf("Removed = %v but stored = %s", res.Removed, describe(fw.s.Lookup(r)))
	}
	if res.Code != 200 && res.Code != 202 {
		fw.t.Fatalf("delete code %d", res.Code)
	}
	fw.check(res.Object, nil)
}

func (fw *fuzzWorld) step(in *fuzzInput) {
	i := in.pick(len(fuzzRefs))
	r := fuzzRefs[i]
	switch in.pick(7) {
	case 0, 1:
		fw.mergePatch(in, r)
	case 2:
		fw.strategicPatch(in, r)
	case 3, 4:
		fw.delete(in, r)
	case 5:
		fw.update(in, r)
	case 6:
		if in.chance() {
			fw.recreate(i, fw.finalizers(in))
		} else {
			fw.clock.Advance(time.Duration(in.pick(40)) * time.Second)
		}
	}
}

// FuzzPatchDelete runs random sequences of merge and strategic patches,
// updates, deletes with random options and re-creates on a small world of
// owners and dependents, and checks after every step that nothing panics,
// every error is a well-formed StatusError, no deleting object without
// finalizers or grace period is left in storage, resourceVersions only go
// up, stored snapshots never change, and callers' copies never reach
// storage.
func FuzzPatchDelete(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{0, 3, 2, 1, 1, 0, 4, 3, 0, 2, 1},
		{3, 3, 1, 2, 1, 1, 0, 0, 0, 0, 3, 4, 0, 1, 1},
		{1, 2, 0, 0, 1, 1, 1, 0, 3, 0, 2, 2, 1, 3},
		[]byte("delete me with foreground then orphan and background"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fw := newFuzzWorld(t)
		in := &fuzzInput{data: data}
		for step := 0; step < 200 && in.more(); step++ {
			fw.step(in)
			fw.checkStorage()
		}
	})
}
