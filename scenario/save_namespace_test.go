package scenario

import (
	"slices"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// A world with a namespace stuck in Terminating is saved and loaded back:
// the namespace is terminating again, with what holds it, and the
// namespace controller's next look writes the same conditions.
func TestSaveTerminatingNamespace(t *testing.T) {
	src := `name: a
controllers: [garbagecollector, namespace]
objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: held, namespace: team-a, finalizers: [example.com/hold]}}
  - {apiVersion: v1, kind: Secret, metadata: {name: token, namespace: team-a}}
steps:
  - delete: Namespace/team-a
  - settle: {}
`
	res := runSource(t, src)
	b, err := Save(res.World, "saved")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("saved.yaml", append(b, []byte("  - settle: {}\n")...))
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	again := Run(s, RunOptions{})
	if err := again.Err(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	conds := func(st *fakeapi.Store) []any {
		ns := st.Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team-a"})
		if ns == nil || ns.Metadata.DeletionTimestamp == nil || !slices.Equal(fakeapi.NamespaceFinalizers(ns), []string{"kubernetes"}) {
			t.Fatalf("namespace after load: %+v", ns)
		}
		var out []any
		for _, c := range ns.Fields.Get("status").(map[string]any)["conditions"].([]any) {
			m := c.(map[string]any)
			out = append(out, m["type"], m["status"], m["message"])
		}
		return out
	}
	if a, b := conds(res.World.Store()), conds(again.World.Store()); !slices.Equal(a, b) {
		t.Errorf("conditions after load differ:\n%v\n%v", a, b)
	}
	if again.World.Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "held"}) == nil {
		t.Error("the held ConfigMap was lost")
	}
}
