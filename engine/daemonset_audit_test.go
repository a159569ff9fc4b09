package engine

import (
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestDaemonSetTemplateGenerationIsTheParsedNumber: GetTemplateGeneration
// parses the annotation as a 64-bit number, and CreatePodTemplate and
// IsPodUpdated use it printed back: an annotation "007" labels new Pods
// "7" and counts a Pod labelled "7" as updated; a number too large for 64
// bits, or not a number, is no generation at all.
func TestDaemonSetTemplateGenerationIsTheParsedNumber(t *testing.T) {
	set := func(gen string) dsView {
		o := &fakeapi.Object{APIVersion: "apps/v1", Kind: "DaemonSet", Metadata: fakeapi.ObjectMeta{
			Name: "agent", Namespace: "default",
			Annotations: map[string]string{fakeapi.DaemonSetTemplateGenerationAnnotation: gen}},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{
				"selector": map[string]any{"matchLabels": map[string]any{"app": "a"}},
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "a"}}}}})}
		v, err := readDaemonSet(o)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	pod := func(label string) *fakeapi.Object {
		return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "p",
			Labels: map[string]string{dsTemplateGenerationLabel: label}}}
	}
	for _, c := range []struct {
		annotation, want string
	}{{"7", "7"}, {"007", "7"}, {"+7", "7"}, {"-2", "-2"}, {"9223372036854775808", ""}, {"x", ""}, {"", ""}} {
		v := set(c.annotation)
		if v.generation != c.want {
			t.Errorf("annotation %q: generation %q, want %q", c.annotation, v.generation, c.want)
		}
		if c.want != "" && !v.isPodUpdated(pod(c.want), "") {
			t.Errorf("annotation %q: a Pod labelled %q is not counted as updated", c.annotation, c.want)
		}
	}
}

// TestDaemonPodNodeFirstNameExpressionDecides: GetTargetNodeName stops at
// the first matchFields expression "metadata.name In": one that names
// other than exactly one node names none, whatever later terms say.
func TestDaemonPodNodeFirstNameExpressionDecides(t *testing.T) {
	pod := func(terms ...[]any) *fakeapi.Object {
		var ts []any
		for _, vals := range terms {
			ts = append(ts, map[string]any{"matchFields": []any{
				map[string]any{"key": "metadata.name", "operator": "In", "values": vals}}})
		}
		return &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: "p"},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"affinity": map[string]any{"nodeAffinity": map[string]any{
				"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": ts}}}}})}
	}
	for _, c := range []struct {
		p    *fakeapi.Object
		want string
	}{
		{pod([]any{"node-a"}), "node-a"},
		{pod([]any{"node-a", "node-b"}, []any{"node-c"}), ""},
		{pod([]any{}, []any{"node-c"}), ""},
	} {
		if got := daemonPodNode(c.p); got != c.want {
			t.Errorf("%v: node %q, want %q", c.p.Fields.Get("spec"), got, c.want)
		}
	}
}

// TestDaemonSetSelectingAllWarns: a DaemonSet whose selector selects
// everything (restored from a dump: the apiserver refuses to store one)
// gets syncDaemonSet's SelectingAll Warning and nothing else: no Pod for
// its Node, no revision, no status.
func TestDaemonSetSelectingAllWarns(t *testing.T) {
	for _, sel := range []map[string]any{{}, {"matchLabels": map[string]any{}}} {
		ds := &fakeapi.Object{APIVersion: "apps/v1", Kind: "DaemonSet", Metadata: fakeapi.ObjectMeta{Name: "agent", Namespace: "default", UID: "ds-agent"},
			Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"selector": sel,
				"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "agent"}},
					"spec": map[string]any{"containers": []any{map[string]any{"name": "a", "image": "a"}}}}}})}
		node := &fakeapi.Object{APIVersion: "v1", Kind: "Node", Metadata: fakeapi.ObjectMeta{Name: "node-1", UID: "node-1"}}
		w, err := NewWorld(Config{Controllers: []string{"daemonset"}, Restore: []*fakeapi.Object{node, ds}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := SettleQuietly(w, 100); err != nil {
			t.Fatal(err)
		}
		var events []string
		for _, e := range w.Store().Events() {
			events = append(events, e.Type+" "+e.Reason+": "+e.Message)
		}
		want := "Warning SelectingAll: This daemon set is selecting all pods. A non-empty selector is required."
		if len(events) == 0 || events[0] != want {
			t.Errorf("selector %v: events %q, want %q", sel, events, want)
		}
		for _, o := range w.Store().Objects() {
			if o.Kind == "Pod" || o.Kind == "ControllerRevision" {
				t.Errorf("selector %v: %s made", sel, fakeapi.RefOf(o))
			}
		}
		if got, _ := w.Store().Get("test", fakeapi.RefOf(ds)); got.Fields.Get("status") != nil {
			t.Errorf("selector %v: status written: %v", sel, got.Fields.Get("status"))
		}
	}
}
