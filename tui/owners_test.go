package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// inspectorText is the inspector's lines for the selected object, plain.
func inspectorText(m *Model) string { return inspectorTextW(m, 80) }

func inspectorTextW(m *Model, w int) string {
	b, _ := m.inspector().lines(m, rect{w: w, h: 60})
	var out []string
	for _, l := range b {
		out = append(out, strings.TrimRight(strings.Trim(ansi.Strip(l), "│"), " "))
	}
	return strings.Join(out, "\n") + "\n"
}

// TestOwnerChain: the inspector follows ownerReferences up to the objects
// that own nothing, marks the controller reference, several owners side
// by side, an owner that is not in storage, and a cycle once.
func TestOwnerChain(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "create cm a")
	runLine(t, m, "create cm b --owner cm/a --controller --block")
	runLine(t, m, "create pod p --owner cm/b --owner secret/tls-cert")
	runLine(t, m, "create pod q --owner cm/gone@uid-nope")
	runLine(t, m, "create pod bare")
	for _, c := range []struct {
		name string
		want []string
	}{
		{"p", []string{"Pod/p\n", "  ↑ ConfigMap/b\n", "    ↑ ConfigMap/a [ctrl,block]\n", "  ↑ Secret/tls-cert\n", "    ↑ ConfigMap/ingress-a\n", "    ↑ ConfigMap/ingress-b\n"}},
		{"q", []string{"  ↑ ConfigMap/gone not in storage\n"}},
		{"bare", []string{"owned by nobody: the collector never deletes it"}},
	} {
		m.selectUID(lookup(m, "po", c.name).Metadata.UID)
		m.refresh()
		got := inspectorText(m)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("Pod/%s: the inspector lacks %q:\n%s", c.name, w, got)
			}
		}
	}
	// In a narrow pane the marks go under the name, not cut off.
	m.selectUID(lookup(m, "po", "p").Metadata.UID)
	m.refresh()
	if got := inspectorTextW(m, 24); !strings.Contains(got, "    ↑ ConfigMap/a\n       [ctrl,block]\n") {
		t.Errorf("at 24 columns [ctrl,block] is not under ConfigMap/a:\n%s", got)
	}
	// A cycle is drawn once, then marked.
	runLine(t, m, `patch cm/a '{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"`+lookup(m, "cm", "b").Metadata.UID+`"}]}}'`)
	m.selectUID(lookup(m, "cm", "b").Metadata.UID)
	m.refresh()
	if got := inspectorText(m); !strings.Contains(got, "    ↑ ConfigMap/b ↻cycle") {
		t.Errorf("the cycle b → a → b is not marked:\n%s", got)
	}
	// An object without owners is still the collector's to finish when it
	// is deleted in the foreground or with orphan (R47, R50): the
	// inspector must not say the collector leaves it alone.
	runLine(t, m, "create cm fg")
	runLine(t, m, "create cm fgdep --owner cm/fg --block")
	runLine(t, m, "delete cm/fg --cascade=foreground")
	runLine(t, m, "create cm c")
	runLine(t, m, "create pod r --owner cm/c")
	runLine(t, m, "delete cm/c --cascade=orphan")
	for _, c := range []struct{ name, want string }{
		{"fg", "owned by nobody; deleting in the foreground: the collector removes foregroundDeletion once no dependent blocks it"},
		{"c", "owned by nobody; deleting with orphan: the collector strips its dependents' references to it, then removes orphan"},
	} {
		o := lookup(m, "cm", c.name)
		m.selectUID(o.Metadata.UID)
		m.refresh()
		if got := strings.Join(strings.Fields(inspectorTextW(m, 200)), " "); !strings.Contains(got, c.want) {
			t.Errorf("ConfigMap/%s (finalizers %v): the inspector lacks %q:\n%s", c.name, o.Metadata.Finalizers, c.want, got)
		}
	}
}
