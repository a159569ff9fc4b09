package tui

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The idle queues' line keeps every name it can within its rows, and
// counts the rest, so none is dropped without a number.
func TestIdleRows(t *testing.T) {
	names := []string{"deployment", "replicaset", "statefulset", "daemonset", "cronjob", "job", "orphanPod", "ttlafterfinished", "kubelet", "namespace"}
	for _, width := range []int{20, 27, 40, 56, 200} {
		for _, rows := range []int{1, 2, 3} {
			got := idleRows("idle", names, width, rows)
			if len(got) > rows {
				t.Errorf("width %d: %d rows, want at most %d: %q", width, len(got), rows, got)
			}
			shown, counted := 0, 0
			for _, r := range got {
				if w := ansi.StringWidth("idle") + ansi.StringWidth(r); w >= width {
					t.Errorf("width %d: row %q takes %d cells", width, r, w)
				}
				for _, f := range strings.Fields(r) {
					if n, ok := strings.CutPrefix(f, "+"); ok {
						c, err := strconv.Atoi(n)
						if err != nil {
							t.Fatalf("bad count %q", f)
						}
						counted += c
					} else {
						shown++
					}
				}
			}
			if shown+counted != len(names) {
				t.Errorf("width %d, %d rows: %d shown + %d counted, want %d: %q", width, rows, shown, counted, len(names), got)
			}
		}
	}
}
