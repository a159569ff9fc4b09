package engine

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"sigs.k8s.io/yaml"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestDataDriven runs the step tests in testdata/: each file builds a world
// with commands and shows, step by step, what the collector does and why.
// Rewrite expectations with: go test ./engine -run TestDataDriven -rewrite
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var w *World
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "new" && w == nil {
				d.Fatalf(t, "run `new` first")
			}
			out, err := runCommand(t, &w, d)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			if w != nil {
				if ierr := w.CheckGraphInvariants(); ierr != nil {
					d.Fatalf(t, "graph invariant broken after %s: %v", d.Cmd, ierr)
				}
				if qerr := checkQueueHeads(w); qerr != nil {
					d.Fatalf(t, "after %s: %v", d.Cmd, qerr)
				}
			}
			return out
		})
	})
}

// TestDataDrivenInformerTable runs the step files again with the
// collector's informers kept in their own table, as when a list failed
// at a restart: reading storage's table instead (informerIsStorage)
// must change nothing the collector does. (The orphan and unblock
// patches read the informers.)
func TestDataDrivenInformerTable(t *testing.T) {
	keepInformerTable = true
	defer func() { keepInformerTable = false }()
	TestDataDriven(t)
}

func arg(d *datadriven.TestData, key string) (string, bool) {
	for _, a := range d.CmdArgs {
		if a.Key == key {
			if len(a.Vals) == 0 {
				return "", true
			}
			return strings.Join(a.Vals, ","), true
		}
	}
	return "", false
}

// parseRef reads Kind/name, Kind/namespace/name or uid:<uid>.
func parseRef(w *World, s string) (fakeapi.Ref, error) {
	if uid, ok := strings.CutPrefix(s, "uid:"); ok {
		o := w.Store().ByUID(uid)
		if o == nil {
			return fakeapi.Ref{}, fmt.Errorf("no object with uid %s", uid)
		}
		return fakeapi.RefOf(o), nil
	}
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return fakeapi.Ref{}, fmt.Errorf("bad reference %q", s)
	}
	k, err := w.Store().Registry().ByKind(parts[0])
	if err != nil {
		return fakeapi.Ref{}, err
	}
	r := fakeapi.Ref{APIVersion: k.APIVersion, Kind: k.Kind, Name: parts[len(parts)-1]}
	if k.Namespaced() {
		r.Namespace = "default"
		if len(parts) == 3 {
			r.Namespace = parts[1]
		}
	}
	return r, nil
}

func runCommand(t *testing.T, wp **World, d *datadriven.TestData) (string, error) {
	w := *wp
	var b strings.Builder
	showRecords := func(recs ...Record) {
		for _, r := range recs {
			if _, ok := arg(d, "brief"); ok {
				b.WriteString(r.String() + "\n")
			} else {
				b.WriteString(r.Detail())
			}
		}
	}
	switch d.Cmd {
	case "new":
		cfg := Config{}
		if v, ok := arg(d, "controllers"); ok {
			cfg.Controllers = strings.Split(v, ",")
		}
		if d.Input != "" {
			var kinds []struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Scope      string `json:"scope"`
			}
			if err := yaml.Unmarshal([]byte(d.Input), &kinds); err != nil {
				return "", err
			}
			for _, k := range kinds {
				cfg.Kinds = append(cfg.Kinds, fakeapi.KindInfo{APIVersion: k.APIVersion, Kind: k.Kind, Scope: fakeapi.Scope(k.Scope)})
			}
		}
		nw, err := NewWorld(cfg)
		if err != nil {
			return "", err
		}
		*wp = nw
		return "ok\n", nil
	case "create":
		for _, doc := range strings.Split(d.Input, "\n---\n") {
			var obj fakeapi.Object
			js, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil {
				return "", err
			}
			if err := json.Unmarshal(js, &obj); err != nil {
				return "", err
			}
			if k, ok := w.Store().Registry().Lookup(obj.APIVersion, obj.Kind); ok && k.Namespaced() && obj.Metadata.Namespace == "" {
				obj.Metadata.Namespace = "default"
			}
			rec, _ := w.Do(Create{Object: &obj})
			b.WriteString(rec.String() + "\n")
		}
	case "delete":
		v, _ := arg(d, "ref")
		ref, err := parseRef(w, v)
		if err != nil {
			return "", err
		}
		opts := &fakeapi.DeleteOptions{}
		if p, ok := arg(d, "policy"); ok {
			pp := fakeapi.DeletionPropagation(p)
			opts.PropagationPolicy = &pp
		}
		if p, ok := arg(d, "orphanDependents"); ok {
			v := p == "true"
			opts.OrphanDependents = &v
		}
		if p, ok := arg(d, "grace"); ok {
			var g int64
			fmt.Sscan(p, &g)
			opts.GracePeriodSeconds = &g
		}
		rec, _ := w.Do(Delete{Ref: ref, Options: opts})
		showRecords(rec)
	case "patch":
		v, _ := arg(d, "ref")
		ref, err := parseRef(w, v)
		if err != nil {
			return "", err
		}
		js, err := yaml.YAMLToJSON([]byte(d.Input))
		if err != nil {
			return "", err
		}
		rec, _ := w.Do(Patch{Ref: ref, Merge: js})
		showRecords(rec)
	case "step":
		n := 1
		if v, ok := arg(d, "n"); ok {
			fmt.Sscan(v, &n)
		}
		q, _ := arg(d, "queue")
		for range n {
			rec, err := w.Do(Step{Queue: q})
			showRecords(rec)
			if err != nil {
				break
			}
			if ierr := w.CheckGraphInvariants(); ierr != nil {
				d.Fatalf(t, "graph invariant broken after %s: %v", rec, ierr)
			}
		}
	case "settle":
		res, err := Settle(checkedDoer{t, w}, 100000)
		showRecords(res.Records...)
		if res.Backoff {
			b.WriteString("settle stopped: only retries at the maximum backoff are left\n")
		}
		if err != nil {
			return b.String() + "error: " + err.Error() + "\n", nil
		}
	case "advance":
		v, _ := arg(d, "by")
		dur, err := time.ParseDuration(v)
		if err != nil {
			return "", err
		}
		res, err := AdvanceBy(checkedDoer{t, w}, dur, 100000)
		showRecords(res.Records...)
		if err != nil {
			return "", err
		}
	case "restart":
		v, _ := arg(d, "controller")
		rec, _ := w.Do(Restart{Controller: v})
		showRecords(rec)
	case "inject":
		f := fakeapi.Fault{Times: 1}
		f.Verb, _ = arg(d, "verb")
		f.Kind, _ = arg(d, "kind")
		f.Name, _ = arg(d, "name")
		r, _ := arg(d, "reason")
		f.Reason = fakeapi.Reason(r)
		if v, ok := arg(d, "times"); ok {
			fmt.Sscan(v, &f.Times)
		}
		rec, _ := w.Do(Inject{Fault: f})
		showRecords(rec)
	case "objects":
		for _, o := range w.Store().Objects() {
			if o.Kind == "Namespace" || o.Kind == "Event" {
				continue
			}
			b.WriteString(objectLine(o) + "\n")
		}
	case "events":
		for _, e := range w.Store().Events() {
			fmt.Fprintf(&b, "%s %s %s: %s%s\n", e.Type, e.Reason, e.Object, e.Message, timesSeen(e))
		}
	case "event-objects": // the stored Events, as kubectl get events -o wide
		for _, o := range w.Store().Objects() {
			if o.Kind != "Event" {
				continue
			}
			f := func(k string) any { return o.Fields.Get(k) }
			fmt.Fprintf(&b, "%s count=%v first=%v last=%v reporting=%q: %v\n", o.Metadata.Name, f("count"),
				f("firstTimestamp"), f("lastTimestamp"), f("reportingComponent"), f("message"))
		}
	case "graph":
		for _, n := range w.Nodes() {
			if n.Kind == "Namespace" {
				continue
			}
			b.WriteString(nodeLine(n) + "\n")
		}
	case "queues":
		for _, q := range w.QueueNames() {
			fmt.Fprintf(&b, "%s:", q)
			for _, it := range w.Queue(q) {
				if it.Waiting {
					fmt.Fprintf(&b, " %s(due %s)", it.Item, FormatElapsed(it.Due))
				} else {
					fmt.Fprintf(&b, " %s", it.Item)
				}
			}
			b.WriteString("\n")
		}
	case "absent":
		for _, a := range w.AbsentOwners() {
			b.WriteString(a + "\n")
		}
	case "dot":
		var uids []string
		if v, ok := arg(d, "uid"); ok {
			uids = strings.Split(v, ",")
		}
		b.WriteString(w.DOT(uids...))
	case "mermaid":
		b.WriteString(w.Mermaid())
	default:
		return runControllerCommand(t, w, d)
	}
	return b.String(), nil
}

// checkedDoer checks the graph invariant after every action (R35).
type checkedDoer struct {
	t *testing.T
	w *World
}

func (c checkedDoer) World() *World { return c.w }

func (c checkedDoer) Do(a Action) (Record, error) {
	rec, err := c.w.Do(a)
	if ierr := c.w.CheckGraphInvariants(); ierr != nil {
		c.t.Fatalf("graph invariant broken after %s: %v", rec, ierr)
	}
	return rec, err
}

func objectLine(o *fakeapi.Object) string {
	s := o.String() + " " + o.Metadata.UID
	if o.Metadata.DeletionTimestamp != nil {
		s += " terminating"
	}
	if len(o.Metadata.Finalizers) > 0 {
		s += " finalizers=[" + strings.Join(o.Metadata.Finalizers, ",") + "]"
	}
	if len(o.Metadata.OwnerReferences) > 0 {
		var rs []string
		for _, r := range o.Metadata.OwnerReferences {
			x := r.Kind + "/" + r.Name
			if r.IsController() {
				x += ",controller"
			}
			if r.BlockOwnerDeletion != nil {
				x += fmt.Sprintf(",block=%t", *r.BlockOwnerDeletion)
			}
			rs = append(rs, x)
		}
		s += " owners=[" + strings.Join(rs, " ") + "]"
	}
	return s
}

func nodeLine(n NodeView) string {
	s := fmt.Sprintf("%s %s", n.UID, fakeapi.RefString(n.Kind, n.Namespace, n.Name))
	var flags []string
	if n.Virtual {
		flags = append(flags, "virtual")
	}
	if n.BeingDeleted {
		flags = append(flags, "beingDeleted")
	}
	if n.DeletingDependents {
		flags = append(flags, "deletingDependents")
	}
	if len(flags) > 0 {
		s += " [" + strings.Join(flags, ",") + "]"
	}
	if len(n.Dependents) > 0 {
		s += " dependents=" + strings.Join(n.Dependents, ",")
	}
	return s
}

// timesSeen is " (xN)" for an Event the recorder counted N > 1 times.
func timesSeen(e fakeapi.Event) string {
	if e.Count > 1 {
		return fmt.Sprintf(" (x%d)", e.Count)
	}
	return ""
}
