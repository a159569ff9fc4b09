package tui

import "testing"

// TestTimelineRowsKeptAsFresh: the timeline rows kept from the frame
// before are the rows drawn afresh, after every key of a delete stepped
// through, stepped back over, branched (other records at the same steps)
// and scrolled, in English and in Chinese.
func TestTimelineRowsKeptAsFresh(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			m, err := New(Options{Width: 140, Height: 45, Theme: ThemeDark, Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			check := func(after string) {
				t.Helper()
				kept := m.View().Content
				m.statusBar.cache.steps = nil
				if fresh := m.View().Content; kept != fresh {
					t.Fatalf("after %s, the frame with the kept timeline rows differs from the one drawn afresh:\nkept:\n%s\nfresh:\n%s", after, kept, fresh)
				}
			}
			check("the start")
			runLine(t, m, "delete deploy/web --cascade=foreground")
			check("the delete")
			for _, k := range []string{"s", "s", "s", "s", "s", "left", "left", "left", "right", "left"} {
				press(t, m, k)
				check(k)
			}
			runLine(t, m, "create cm branch") // a branch: other records from here
			check("the branch")
			for _, k := range []string{"s", "s", "left", "tab", "tab", "tab", "up", "up", "down", "s"} {
				press(t, m, k)
				check(k)
			}
		})
	}
}
