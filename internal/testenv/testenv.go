// Package testenv decides what a test does when a tool it needs (tmux,
// Chromium) is not installed: on a developer's machine it skips, saying
// which tool is missing and how to get it; in CI (CI=true) it fails, so a
// CI run never passes with a test that did not run.
package testenv

import (
	"os"
	"testing"
)

// InCI reports whether the tests run in CI: the CI environment variable is
// "true", as CI services and .ci/run set it.
func InCI() bool { return os.Getenv("CI") == "true" }

// MissingTool ends the test because tool is not installed: a skip, or a
// failure in CI. how says how to install it.
func MissingTool(t testing.TB, tool, how string) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s is not installed (%s); with CI=true a test that needs a missing tool fails instead of skipping", tool, how)
		return
	}
	t.Skipf("%s is not installed (%s)", tool, how)
}
