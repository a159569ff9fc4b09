package tui

import (
	"strings"
	"testing"
)

// TestExitCommand: exit reports a Pod's containers ended, as the scenario
// format's exit step; misuse changes nothing and says how to use it.
func TestExitCommand(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "create pod a -l job-name=pi")
	runLine(t, m, "create pod b -l job-name=pi")
	phase := func(name string) string {
		p := lookup(m, "po", name)
		if p == nil {
			t.Fatalf("pod %s is missing", name)
		}
		st, _ := p.Fields.Get("status").(map[string]any)
		s, _ := st["phase"].(string)
		return s
	}
	runLine(t, m, "exit pod/a --code 2")
	if phase("a") != "Failed" || phase("b") == "Failed" {
		t.Fatalf("after exit pod/a --code 2: a %q, b %q; message %q", phase("a"), phase("b"), m.msg)
	}
	for _, c := range []struct{ line, want string }{
		{"exit", "quit, or q, leaves gcplay"},
		{"exit -l job-name=pi --count 2", "only 1 in namespace"},
		{"exit cm/ingress-a", "not of a ConfigMap"},
		{"exit pod/b --count 1", "--count goes with -l"},
		{"exit pod/b --code 300", "--code is an exit code"},
	} {
		v := m.s.version
		runLine(t, m, c.line)
		if m.msgKind != msgErr || !strings.Contains(m.msg, c.want) {
			t.Errorf("%s: message %q, want an error containing %q", c.line, m.msg, c.want)
		}
		if m.s.version != v {
			t.Errorf("%s: the world changed", c.line)
		}
	}
	runLine(t, m, "exit -l job-name=pi")
	if phase("b") != "Succeeded" {
		t.Errorf("exit -l job-name=pi: b is %q; message %q", phase("b"), m.msg)
	}
}
