package tui

import (
	"strings"
	"testing"
)

// TestJoinFrameAsJoinColumns: the frame written in one buffer is the
// frame the overlays' path builds from joinColumns and strings.Join, with
// columns of unequal heights and empty parts.
func TestJoinFrameAsJoinColumns(t *testing.T) {
	for _, tc := range []struct{ top, left, right, bottom []string }{
		{[]string{"status"}, []string{"a1", "a2", "a3"}, []string{"b1", "b2", "b3"}, []string{"t", "", "help"}},
		{[]string{"status"}, []string{"a1", "a2", "a3"}, []string{"b1"}, []string{"help"}},
		{[]string{"status"}, []string{"a1"}, []string{"b1", "b2"}, nil},
		{nil, nil, nil, []string{"only"}},
		{[]string{""}, nil, nil, []string{""}},
		{nil, nil, nil, nil},
	} {
		var screen []string
		screen = append(screen, tc.top...)
		screen = append(screen, joinColumns(tc.left, tc.right)...)
		screen = append(screen, tc.bottom...)
		want := strings.Join(screen, "\n")
		if got := joinFrame(tc.top, tc.left, tc.right, tc.bottom); got != want {
			t.Errorf("joinFrame(%q, %q, %q, %q) = %q, want %q", tc.top, tc.left, tc.right, tc.bottom, got, want)
		}
	}
}
