package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

const stuckNamespace = `name: stuck
controllers: [garbagecollector, namespace, kubelet]
objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: held, namespace: team-a, finalizers: [example.com/hold]}
  - {apiVersion: v1, kind: Secret, metadata: {name: token, namespace: team-a}}
`

// TestNamespaceWhy drives the playground as a learner: delete a
// namespace whose ConfigMap has a custom finalizer, run, select the
// terminating namespace and read what holds it; release the finalizer,
// run, and watch the namespace go.
func TestNamespaceWhy(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		name := fmt.Sprintf("namespace-why-%dx%d", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			m, _ := newTest(t, size[0], size[1])
			m.files = NewMemFiles(map[string][]byte{"stuck.yaml": []byte(stuckNamespace)})
			runLine(t, m, "load stuck.yaml")
			runLine(t, m, "delete ns/team-a")
			press(t, m, "r")
			press(t, m, "down")
			if size[0] < 120 {
				press(t, m, "tab", "tab") // the narrow layout shows the inspector in turn
			}
			scr := screen(m)
			wants := []string{"Namespace/team-a terminating", "Why Namespace/team-a is", "next: only the controller"}
			if size[0] >= 120 {
				wants = append(wants, "next: only the controller that put example.com/hold", "(finalizer remove")
			}
			for _, want := range wants {
				if !strings.Contains(scr, want) {
					t.Errorf("the screen lacks %q:\n%s", want, scr)
				}
			}
			golden(t, name, scr)
			runLine(t, m, "finalizer remove configmap/held example.com/hold -n team-a")
			press(t, m, "r")
			ns := m.s.h.World().Store().Lookup(fakeapi.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team-a"})
			if scr := screen(m); ns != nil || strings.Contains(scr, "Namespace/team-a terminating") {
				t.Errorf("the namespace did not go once released:\n%s", scr)
			}
		})
	}
}
