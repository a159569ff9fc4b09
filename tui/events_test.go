package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestExplain_EventCount: a step whose recorder counted an Event up shows
// the PATCH with the count, " (x2)" as kubectl describe shows it, in the
// explain view at 80 columns. Twelve Pods: the 10th SuccessfulCreate is
// the aggregate Event, the 11th and 12th count it up.
func TestExplain_EventCount(t *testing.T) {
	m, _ := newTest(t, 80, 24)
	runLine(t, m, "create rs many --replicas 12")
	runLine(t, m, "run")
	idx := -1
	for i := 0; i < m.s.h.Len(); i++ {
		if strings.Contains(m.s.h.Record(i).Detail(), "PATCH Event/") {
			idx = i
			break
		}
	}
	if idx < 0 {
		t.Fatal("no step patched an Event")
	}
	// The aggregate Event's name, the one patched.
	name := regexp.MustCompile(`PATCH Event/many\.([0-9a-f]{16}) `).FindStringSubmatch(m.s.h.Record(idx).Detail())[1]
	m.explainIdx = idx
	body := m.overlays.explainLines(m, 78, nil).body
	text := ansi.Strip(strings.Join(body, "\n"))
	for _, want := range []string{"event Normal SuccessfulCreate about ReplicaSet/many (x2) -> 200",
		"event Normal SuccessfulCreate about ReplicaSet/many (x3) -> 200"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "PATCH Event/many."+name+" "+want) {
			t.Errorf("explain lacks %q:\n%s", want, text)
		}
	}
	for _, l := range body {
		if w := ansi.StringWidth(l); w > 78 {
			t.Errorf("line of %d columns: %q", w, ansi.Strip(l))
		}
	}
}
