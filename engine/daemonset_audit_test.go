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
