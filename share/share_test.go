package share_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/share"
	"github.com/gcplay/gcplay/tui"
)

// play returns a playground on the starter world after the given command
// lines, with every command they return run to its end.
func play(t *testing.T, lines ...string) *tui.Model {
	t.Helper()
	m, err := tui.New(tui.Options{Width: 120, Height: 40, NoColor: true, Theme: tui.ThemeDark, Files: tui.NewMemFiles(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		drain(m, m.Execute(l))
	}
	return m
}

// drain runs cmd and the commands its messages return (a run in chunks).
func drain(m *tui.Model, cmd tea.Cmd) {
	for i := 0; cmd != nil && i < 1000; i++ {
		msg := cmd()
		if msg == nil {
			return
		}
		_, cmd = m.Update(msg)
	}
}

func link(t *testing.T, m *tui.Model) *share.Link {
	t.Helper()
	_, _, h := m.Timeline()
	name, src := tui.StarterScenario()
	l, err := share.New(name, src, h)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func records(h *engine.History) []string {
	var out []string
	for i := range h.Len() {
		out = append(out, h.Record(i).String())
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	m := play(t,
		"create cm owner",
		"create pod dep --owner cm/owner --block",
		"step 3",
		"delete cm/owner --cascade=foreground",
		"run",
		"advance 30s",
		"finalizer remove po/db-0 example.com/flush",
		"run",
		"back 4",
	)
	_, _, h := m.Timeline()
	if h.Pos() != h.Len()-4 || h.Len() < 10 {
		t.Fatalf("timeline at %d of %d, want 4 before the end of a long one", h.Pos(), h.Len())
	}
	l := link(t, m)
	text, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(text, "+/=#&?") {
		t.Fatalf("link text is not base64url without padding: %q", text)
	}
	back, err := share.Decode("#s=" + text)
	if err != nil {
		t.Fatal(err)
	}
	o, err := back.Open()
	if err != nil {
		t.Fatal(err)
	}
	if o.Note != "" {
		t.Fatalf("replay stopped: %s", o.Note)
	}
	got, want := records(o.History), records(h)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replayed timeline differs:\n got %d records\nwant %d records\n got: %q\nwant: %q", len(got), len(want), got, want)
	}
	if o.History.Pos() != h.Pos() {
		t.Fatalf("position %d, want %d", o.History.Pos(), h.Pos())
	}
	if g, w := o.History.World().Describe(), h.World().Describe(); g != w {
		t.Fatalf("world differs: %q, want %q", g, w)
	}

	// Restored into a fresh playground, it draws the same screen.
	m2 := play(t)
	m2.Restore(o.Origin, o.Start, o.History, "restored")
	m.Notify("restored", false)
	if g, w := timelinePane(m2), timelinePane(m); g != w {
		t.Fatalf("restored playground draws the timeline differently:\n%s\n---- want\n%s", g, w)
	}
}

// timelinePane returns the status line, the timeline pane's title and its
// current step, without styles (the scroll offset may differ).
func timelinePane(m *tui.Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	out := []string{lines[0]}
	for _, l := range lines {
		if strings.Contains(l, "Timeline") || strings.Contains(l, "▶") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestLinkOfAnUntouchedWorldIsSmall(t *testing.T) {
	text, err := link(t, play(t)).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if len(text) > 2000 {
		t.Fatalf("the starter world's link is %d characters; want it short enough to paste (≤ 2000)", len(text))
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{"#s=%%%", "#s=AAAA", "#s="} {
		if _, err := share.Decode(in); err == nil {
			t.Errorf("Decode(%q) = nil error", in)
		} else if !strings.Contains(err.Error(), "link") {
			t.Errorf("Decode(%q) = %v; want it to talk about the link", in, err)
		}
	}
}

func TestOpenStopsAtAFailingRequest(t *testing.T) {
	l := link(t, play(t, "create cm owner"))
	l.Actions = append(l.Actions, l.Actions[0]) // the same create again: AlreadyExists
	l.Pos = 2
	o, err := l.Open()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(o.Note, "AlreadyExists") && !strings.Contains(o.Note, "already exists") {
		t.Fatalf("note %q does not say why the replay stopped", o.Note)
	}
}

// Breakpoints travel with the link; a link without them (as all links
// made before them were) opens with none.
func TestLinkCarriesBreakpoints(t *testing.T) {
	b := share.NewBreakpoints(true, map[string]string{"uid-0009": "Pod/web-2", "uid-0007": "ReplicaSet/web"})
	if b == nil || !b.Orphan || len(b.Watch) != 2 || b.Watch[0].UID != "uid-0007" {
		t.Fatalf("NewBreakpoints = %+v, want orphan and two watches sorted by UID", b)
	}
	l := &share.Link{V: share.Version, File: "x.yaml", Scenario: "name: x\n", Breakpoints: b}
	text, err := l.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := share.Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Breakpoints.Orphan || len(back.Breakpoints.Watched()) != 2 || back.Breakpoints.Watched()["uid-0009"] != "Pod/web-2" {
		t.Fatalf("breakpoints after a round trip: %+v", back.Breakpoints)
	}
	if share.NewBreakpoints(false, nil) != nil {
		t.Fatal("no breakpoints should give no field at all")
	}
	plain, err := (&share.Link{V: share.Version, File: "x.yaml", Scenario: "name: x\n"}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	old, err := share.Decode(plain)
	if err != nil {
		t.Fatal(err)
	}
	if old.Breakpoints != nil || len(old.Breakpoints.Watched()) != 0 {
		t.Fatalf("a link without breakpoints came back with %+v", old.Breakpoints)
	}
}

// TestRoundTripWorkloadCommands: a timeline with scale (a merge patch) and
// rollout undo is carried by a link and replays to the same records.
func TestRoundTripWorkloadCommands(t *testing.T) {
	m := play(t,
		"scale deploy/web --replicas=1",
		"run",
		`patch deploy/web '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}}}'`,
		"run",
		"rollout undo deploy/web --to-revision=1",
		"run",
	)
	_, _, h := m.Timeline()
	var undone bool
	for _, a := range h.Actions() {
		if u, ok := a.(engine.RolloutUndo); ok && u.ToRevision == 1 {
			undone = true
		}
	}
	if !undone {
		t.Fatalf("the timeline has no rollout undo --to-revision=1: %q", records(h))
	}
	text, err := link(t, m).Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := share.Decode(text)
	if err != nil {
		t.Fatal(err)
	}
	o, err := back.Open()
	if err != nil {
		t.Fatal(err)
	}
	if o.Note != "" {
		t.Fatalf("replay stopped: %s", o.Note)
	}
	if got, want := records(o.History), records(h); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replayed timeline differs:\n got: %q\nwant: %q", got, want)
	}
}
