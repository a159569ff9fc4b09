package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/internal/testenv"
)

// TestEndToEndTmux runs the gcplay binary in a real terminal (tmux) and
// follows the learner's story with keys: create an owner and a blocking
// dependent, run, delete the owner in the foreground, run to settled,
// rewind to the delete, quit. It reads the screen with capture-pane.
func TestEndToEndTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		testenv.MissingTool(t, "tmux", "apt-get install tmux; .ci/run does it")
	}
	if testing.Short() {
		t.Skip("end-to-end test skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "gcplay")
	build := exec.Command("go", "build", "-o", bin, "github.com/gcplay/gcplay/cmd/gcplay")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tm := &tmux{t: t, socket: fmt.Sprintf("gcplay-e2e-%d", os.Getpid())}
	// The shell prints the exit status once gcplay has given the terminal
	// back, so the test sees both.
	// Its own config directory: the world it keeps on q is the test's.
	start := fmt.Sprintf("cd %s && XDG_CONFIG_HOME=%s/config %s; echo gcplay-exited-$?", dir, dir, bin)
	tm.run("new-session", "-d", "-s", "e2e", "-x", "120", "-y", "40", start+"; sleep 60")
	t.Cleanup(func() { exec.Command("tmux", "-L", tm.socket, "kill-server").Run() })

	tm.waitFor("Opened the starter world")
	tm.waitFor("Deployment/web")

	tm.keys(":", "create cm owner", "Enter")
	tm.waitFor("ConfigMap/owner created")
	tm.keys(":", "create pod p --owner cm/owner --block", "Enter")
	tm.waitFor("Pod/p created")
	tm.keys("r")
	tm.waitFor("settled after")

	// The new pod is selected; its owner is the row above it.
	tm.keys("k", "d")
	tm.waitFor("Delete ConfigMap/owner")
	tm.waitFor("owner waits until 1 blocking pod is gone")
	tm.keys("1")
	tm.waitFor("ConfigMap/owner terminating {foregroundDeletion}")
	m := regexp.MustCompile(`gcplay │ step (\d+) `).FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatalf("no step number on the status line:\n%s", tm.screen())
	}
	tm.keys("s")
	tm.waitFor("graphChanges update ConfigMap/owner")
	tm.keys("r")
	tm.waitFor("settled after")
	if s := tm.screen(); strings.Contains(s, "ConfigMap/owner") && !strings.Contains(s, "delete ConfigMap/owner") {
		t.Fatalf("after settling, ConfigMap/owner is still in the world:\n%s", s)
	}

	// Rewind to the delete: the owner is back, terminating.
	tm.keys(":", "goto "+m[1], "Enter")
	tm.waitFor("rewound to step " + m[1])
	tm.waitFor("ConfigMap/owner terminating {foregroundDeletion}")
	tm.waitFor("rewound: acting here starts a branch")
	tm.keys("Left")
	tm.waitFor(fmt.Sprintf("rewound to step %d", atoi(m[1])-1))
	if s := tm.screen(); strings.Contains(s, "ConfigMap/owner terminating") {
		t.Fatalf("before the delete the owner should not be terminating:\n%s", s)
	}

	// Resize, then quit: the terminal is given back. At 80 columns the
	// collector and the inspector share one pane, which tab switches.
	if s := tm.screen(); strings.Contains(s, "(tab: inspector)") {
		t.Fatalf("at 120 columns the inspector should have its own pane:\n%s", s)
	}
	tm.run("resize-window", "-t", "e2e", "-x", "80", "-y", "24")
	tm.waitFor("Collector (tab: inspector)")
	tm.keys("q")
	tm.waitFor("gcplay-exited-0")

	// q kept the world: the next gcplay offers it back, timeline and all.
	tm.waitFor("the next gcplay offers to resume them")
	if s := tm.screen(); strings.Contains(s, "Keeping your world") {
		t.Fatalf("the line shown while the world is kept should be replaced by the outcome:\n%s", s)
	}
	tm.run("respawn-pane", "-k", "-t", "e2e", start+"; sleep 60")
	tm.waitFor("Resume?")
	tm.keys("Enter")
	tm.waitFor(fmt.Sprintf("Resumed the starter world, at step %d of", atoi(m[1])-1))
	tm.keys("q")
	tm.waitFor("gcplay-exited-0")
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

type tmux struct {
	t      *testing.T
	socket string
}

func (tm *tmux) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", tm.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends each argument: a tmux key name (Enter, Left) or literal text.
func (tm *tmux) keys(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		switch k {
		case "Enter", "Left", "Right", "Up", "Down", "Escape", "Tab":
			tm.run("send-keys", "-t", "e2e", k)
		default:
			tm.run("send-keys", "-t", "e2e", "-l", k)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (tm *tmux) screen() string { return tm.run("capture-pane", "-t", "e2e", "-p") }

// waitFor waits until text is on the screen.
func (tm *tmux) waitFor(text string) {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := tm.screen()
		if strings.Contains(s, text) {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waited 15s for %q; the screen is:\n%s", text, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
