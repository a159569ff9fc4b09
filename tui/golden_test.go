package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden compares the screen, as plain text, with the files in
// testdata at 80x24 and 120x40, for each pane focused, the delete picker,
// the help, the explain view, the command bar and an error. Rewrite them
// with go test ./tui -run TestGolden -update.
func TestGolden(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, m *Model)
	}{
		{"start", func(t *testing.T, m *Model) {}},
		{"collector", func(t *testing.T, m *Model) {
			press(t, m, "d", "1", "s", "s")
			press(t, m, "tab")
		}},
		{"inspector", func(t *testing.T, m *Model) { press(t, m, "tab", "tab") }},
		// A Pod's owners up the chain: ReplicaSet, then Deployment.
		{"inspector-owners", func(t *testing.T, m *Model) { press(t, m, "j", "j", "tab", "tab") }},
		{"timeline", func(t *testing.T, m *Model) {
			press(t, m, "d", "1", "r", "left", "left", "left")
			press(t, m, "tab", "tab", "tab")
		}},
		{"delete-picker", func(t *testing.T, m *Model) { press(t, m, "d") }},
		{"help", func(t *testing.T, m *Model) { press(t, m, "?") }},
		{"explain", func(t *testing.T, m *Model) { press(t, m, "d", "1", "s", "e") }},
		{"command", func(t *testing.T, m *Model) {
			press(t, m, ":")
			typeText(t, m, "delete deploy/web --cas")
			press(t, m, "tab")
		}},
		{"error", func(t *testing.T, m *Model) { runLine(t, m, "delet deploy/web --cascade=foreground") }},
		{"api-error", func(t *testing.T, m *Model) { runLine(t, m, "create cm ingress-a") }},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, c := range cases {
			name := fmt.Sprintf("%s-%dx%d", c.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				m, _ := newTest(t, size[0], size[1])
				c.setup(t, m)
				golden(t, name, screen(m))
			})
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -run TestGolden -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("screen differs from %s (rewrite with -update if the change is intended)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}
