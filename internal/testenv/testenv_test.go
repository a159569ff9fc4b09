package testenv

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how the test ended.
type recorder struct {
	testing.TB
	ended string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.ended = "fail: " + fmt.Sprintf(format, args...)
}
func (r *recorder) Skipf(format string, args ...any) {
	r.ended = "skip: " + fmt.Sprintf(format, args...)
}

func TestMissingTool(t *testing.T) {
	for _, c := range []struct{ ci, want string }{
		{"", "skip: tmux is not installed (apt-get install tmux)"},
		{"false", "skip: tmux is not installed (apt-get install tmux)"},
		{"true", "fail: tmux is not installed (apt-get install tmux); with CI=true a test that needs a missing tool fails instead of skipping"},
	} {
		t.Run("CI="+c.ci, func(t *testing.T) {
			t.Setenv("CI", c.ci)
			r := &recorder{TB: t}
			MissingTool(r, "tmux", "apt-get install tmux")
			if r.ended != c.want {
				t.Errorf("got %q, want %q", r.ended, c.want)
			}
		})
	}
}
