package tui

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// TestStory drives the playground with keys through the story a learner
// follows: create an owner and a blocking dependent, delete the owner in
// the foreground, step the collector until the world is settled, rewind,
// and act in the past (a new branch).
func TestStory(t *testing.T) {
	m, _ := newTest(t, 120, 40)

	runLine(t, m, "create cm owner")
	if lookup(m, "cm", "owner") == nil {
		t.Fatalf("create cm owner: not created; message: %s", m.msg)
	}
	runLine(t, m, "create pod p --owner cm/owner --block")
	p := lookup(m, "po", "p")
	if p == nil {
		t.Fatalf("create pod: not created; message: %s", m.msg)
	}
	if refs := p.Metadata.OwnerReferences; len(refs) != 1 || refs[0].Name != "owner" || !refs[0].Blocks() {
		t.Fatalf("pod p's ownerReferences = %+v, want one blocking reference to owner", refs)
	}
	if m.selUID != p.Metadata.UID {
		t.Errorf("after create the selection is %q, want the new pod", m.selUID)
	}
	press(t, m, "r")
	if !strings.HasPrefix(m.msg, "settled after") {
		t.Fatalf("r: message %q, want settled", m.msg)
	}

	// Foreground delete through the picker.
	selectRef(t, m, "ConfigMap/owner")
	press(t, m, "d")
	if m.mode != modeDelete {
		t.Fatal("d did not open the delete picker")
	}
	if got := m.picker.choices[0].what; !strings.Contains(got, "owner waits until 1 blocking pod is gone") {
		t.Errorf("foreground explanation = %q", got)
	}
	press(t, m, "1")
	deletedAt := m.s.h.Pos()
	owner := lookup(m, "cm", "owner")
	if owner == nil || owner.Metadata.DeletionTimestamp == nil || !owner.Metadata.HasFinalizer(fakeapi.FinalizerDeleteDependents) {
		t.Fatalf("after a foreground delete, owner = %+v, want terminating with foregroundDeletion", owner)
	}

	// Step until nothing is ready.
	for i := 0; m.s.ready(""); i++ {
		if i > 100 {
			t.Fatal("the collector did not settle in 100 steps")
		}
		press(t, m, "s")
	}
	if _, ok := m.s.world().NextDue(); ok {
		press(t, m, "r") // what waits on the clock
	}
	if lookup(m, "cm", "owner") != nil || lookup(m, "po", "p") != nil {
		t.Fatalf("after settling, owner and p should be gone; message %q", m.msg)
	}
	end := m.s.h.Len()

	// Rewind to just after the delete: both exist, owner terminating.
	for m.s.h.Pos() > deletedAt {
		press(t, m, "left")
	}
	if o := lookup(m, "cm", "owner"); o == nil || o.Metadata.DeletionTimestamp == nil {
		t.Fatalf("rewound to step %d: owner = %+v, want terminating", deletedAt, o)
	}
	if lookup(m, "po", "p") == nil {
		t.Fatal("rewound: pod p should exist again")
	}
	if !strings.Contains(screen(m), "rewound: acting here starts a branch") {
		t.Error("the timeline does not say that acting now starts a branch")
	}
	press(t, m, "left")
	if o := lookup(m, "cm", "owner"); o == nil || o.Metadata.DeletionTimestamp != nil {
		t.Fatalf("before the delete, owner = %+v, want not terminating", o)
	}
	// Forward again replays.
	press(t, m, "right")
	if o := lookup(m, "cm", "owner"); o == nil || o.Metadata.DeletionTimestamp == nil {
		t.Fatal("forward: owner should be terminating again")
	}
	press(t, m, "left")

	// Acting in the past starts a branch, said on screen.
	selectRef(t, m, "ConfigMap/owner")
	press(t, m, "d", "3")
	if !strings.Contains(m.msg, "New branch") {
		t.Errorf("acting in the past: message %q, want it to say a new branch started", m.msg)
	}
	if m.s.h.Len() != deletedAt || m.s.h.Len() >= end {
		t.Errorf("after the branch the timeline has %d steps, want %d", m.s.h.Len(), deletedAt)
	}
	if !strings.Contains(screen(m), "branch@") {
		t.Error("the status line does not show the branch")
	}
}

// TestBadCommandsChangeNothing: a mistyped or impossible command leaves
// the world and the timeline alone and says what would be valid.
func TestBadCommandsChangeNothing(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	cases := []struct{ line, want string }{
		{"delet deploy/web", `did you mean: delete deploy/web`},
		{"delete deploy/web --cascade=foregrond", "did you mean --cascade=foreground"},
		{"delete deploy/web --casade=orphan", "did you mean --cascade"},
		{"create", "usage: create KIND NAME"},
		{"create cmm x", "did you mean: create cm x"},
		{"create cm ingress-a", `Error from server (AlreadyExists): configmaps "ingress-a" already exists`},
		{"delete po/nope", `Error from server (NotFound): pods "nope" not found`},
		{"create pod x --owner cm/ghost", "--owner cm/ghost@some-uid"},
		{"patch po/db-0 {bad", "not a JSON object"},
		{"finalizer remove po/db-0 example.com/none", "has no finalizer example.com/none (it has: example.com/flush)"},
		{"step nosuchqueue", "no queue"},
		{"goto 99", "the timeline has steps 0 to 0"},
		{"load missing.yaml", "nothing changed"},
		{`patch sts/db '{"metadata":{"finalizers":["orphan","foregroundDeletion"]}}'`, "Error from server (Invalid)"},
	}
	for _, c := range cases {
		v, n := m.s.version, m.s.h.Len()
		runLine(t, m, c.line)
		if m.msgKind != msgErr || !strings.Contains(m.msg, c.want) {
			t.Errorf("%s: message %q (kind %d), want an error containing %q", c.line, m.msg, m.msgKind, c.want)
		}
		if m.s.version != v || m.s.h.Len() != n {
			t.Errorf("%s: the world changed", c.line)
		}
	}
}

// TestSaveLoad: save writes a scenario that load reads back to the same
// objects; a bad file changes nothing.
func TestSaveLoad(t *testing.T) {
	m, files := newTest(t, 120, 40)
	press(t, m, "d", "1", "s", "s")
	runLine(t, m, "save mid.yaml")
	if m.msgKind != msgOK {
		t.Fatalf("save: %s", m.msg)
	}
	want := objectStates(m.s.world())
	runLine(t, m, "reset")
	runLine(t, m, "load mid.yaml")
	if m.msgKind != msgOK {
		t.Fatalf("load: %s", m.msg)
	}
	if got := objectStates(m.s.world()); got != want {
		t.Errorf("after load:\n%s\nwant:\n%s", got, want)
	}
	if m.s.h.Len() != 0 {
		t.Errorf("after load the timeline has %d steps, want a fresh one", m.s.h.Len())
	}

	files.WriteFile("bad.yaml", []byte("name: bad\nobjects:\n  - {apiVersion: v1, kind: Nope, metadata: {name: x}}\n"))
	v := m.s.version
	runLine(t, m, "load bad.yaml")
	if m.msgKind != msgErr || !strings.Contains(m.msg, "cannot load bad.yaml, nothing changed") || !strings.Contains(m.msg, "Nope") {
		t.Errorf("load bad.yaml: %q", m.msg)
	}
	if m.s.version != v {
		t.Error("loading a bad file changed the world")
	}

	runLine(t, m, "export dot g.dot")
	if b, err := files.ReadFile("g.dot"); err != nil || !strings.HasPrefix(string(b), "strict digraph full {") {
		t.Errorf("export dot: %v %q", err, b)
	}
	runLine(t, m, "export mermaid g.mmd")
	if b, err := files.ReadFile("g.mmd"); err != nil || !strings.HasPrefix(string(b), "flowchart BT") {
		t.Errorf("export mermaid: %v %q", err, b)
	}
}

func objectStates(w *engine.World) string {
	var b strings.Builder
	for _, o := range w.Store().Objects() {
		if o.Kind == "Event" {
			continue
		}
		b.WriteString(o.String())
		if o.Metadata.DeletionTimestamp != nil {
			b.WriteString(" terminating")
		}
		b.WriteString(" " + strings.Join(o.Metadata.Finalizers, ","))
		for _, r := range o.Metadata.OwnerReferences {
			b.WriteString(" ->" + r.Kind + "/" + r.Name)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestUndoSkipsNoOps: undo goes back past steps that changed nothing.
func TestUndoSkipsNoOps(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	press(t, m, "d", "1", "r")
	n := m.s.h.Len()
	recs := m.s.h.AppendRecords(nil, 0, n)
	want := n - 1
	for want > 0 && len(recs[want].Changed) == 0 && recs[want].Actor != "user" {
		want--
	}
	press(t, m, "u")
	if m.s.h.Pos() != want {
		t.Errorf("undo went to step %d, want %d", m.s.h.Pos(), want)
	}
	if want < n-1 && !strings.Contains(m.msg, "changed nothing") {
		t.Errorf("undo message %q does not mention the skipped steps", m.msg)
	}
}

// TestBreakpoints: autoplay stops when attemptToOrphan gets an item, and
// when a watched object changes.
func TestBreakpoints(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	press(t, m, "B")
	selectRef(t, m, "StatefulSet/db")
	press(t, m, "d", "3") // orphan
	send(t, m, keyMsg("p"))
	for i := 0; m.playing && i < 50; i++ {
		send(t, m, tickMsg{gen: m.gen})
	}
	if m.playing || !strings.Contains(m.msg, "breakpoint: attemptToOrphan got StatefulSet/db") {
		t.Fatalf("autoplay did not stop at the attemptToOrphan breakpoint: playing=%v msg=%q", m.playing, m.msg)
	}

	m, _ = newTest(t, 120, 40)
	selectRef(t, m, "Pod/db-0")
	press(t, m, "b")
	selectRef(t, m, "StatefulSet/db")
	press(t, m, "d", "2") // background
	press(t, m, "r")
	if !strings.Contains(m.msg, "breakpoint: Pod/db-0 changed") {
		t.Fatalf("run did not stop when Pod/db-0 changed: %q", m.msg)
	}
}

// TestDeleteExplanations checks the picker's sentences for the starter
// world's objects.
func TestDeleteExplanations(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	check := func(ref string, want ...string) {
		t.Helper()
		selectRef(t, m, ref)
		press(t, m, "d")
		var all []string
		for _, c := range m.picker.choices {
			all = append(all, c.label+": "+c.what)
		}
		text := strings.Join(all, "\n")
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: picker says\n%s\nwant it to contain %q", ref, text, w)
			}
		}
		press(t, m, "esc")
	}
	check("StatefulSet/db", "Foreground: db waits until 2 blocking dependents are gone", "Orphan: db gets the orphan finalizer")
	check("Pod/db-0", "stays terminating until example.com/flush is removed")
	check("ConfigMap/ingress-a", "1 with another owner only loses the reference")
	check("Deployment/web", "Default: no propagationPolicy: the apiserver applies apps/v1 Deployment's default, Background")
}

// TestCompletionAndHistory: tab completes commands, kinds, references and
// flag values; ↑ recalls the last command.
func TestCompletionAndHistory(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	press(t, m, ":")
	typeText(t, m, "del")
	press(t, m, "tab")
	if got := m.cmd.String(); got != "delete " {
		t.Errorf("tab after del: %q", got)
	}
	typeText(t, m, "sts/")
	press(t, m, "tab")
	if got := m.cmd.String(); got != "delete sts/db " {
		t.Errorf("tab after sts/: %q", got)
	}
	typeText(t, m, "--cascade=f")
	press(t, m, "tab")
	if got := m.cmd.String(); got != "delete sts/db --cascade=foreground " {
		t.Errorf("tab after --cascade=f: %q", got)
	}
	press(t, m, "esc")
	runLine(t, m, "step")
	press(t, m, ":", "up")
	if got := m.cmd.String(); got != "step" {
		t.Errorf("↑ recalled %q, want step", got)
	}
}

// TestPanicsAreReported: a panic in Update or View is caught and shown.
func TestPanicsAreReported(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	m.s.h = nil // any step now panics
	send(t, m, keyMsg("s"))
	if m.msgKind != msgErr || !strings.Contains(m.msg, "internal error") {
		t.Errorf("after a panic in Update: %q", m.msg)
	}
	m.snap = nil
	v := m.View()
	if !strings.Contains(v.Content, "could not draw this screen") {
		t.Errorf("after a panic in View: %q", v.Content)
	}
}

// TestResizeAndThemes: every line fits the terminal after a resize, too
// small a terminal says so, and NO_COLOR leaves out colours.
func TestResizeAndThemes(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	for _, size := range [][2]int{{80, 24}, {100, 30}, {200, 60}, {61, 17}} {
		send(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(strings.TrimSuffix(screen(m), "\n"), "\n")
		if len(lines) != size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for i, l := range lines {
			if w := len([]rune(l)); w > size[0] {
				t.Errorf("%dx%d: line %d is %d cells: %q", size[0], size[1], i, w, l)
			}
		}
	}
	send(t, m, tea.WindowSizeMsg{Width: 40, Height: 10})
	if !strings.Contains(screen(m), "gcplay needs at least") {
		t.Error("a tiny terminal does not say it is too small")
	}
	send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	if strings.Contains(m.View().Content, "38;2;") {
		t.Error("NO_COLOR: the view has colours")
	}
	hc, err := New(Options{Width: 120, Height: 40, Theme: ThemeHighContrast})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hc.View().Content, "38;2;") {
		t.Error("high-contrast: the view has no colours")
	}
	// Only a theme that depends on the background asks the terminal for it.
	if hc.Init() == nil {
		t.Error("high-contrast: Init does not ask for the background colour")
	}
	if cmd := m.Init(); cmd != nil {
		t.Errorf("dark: Init asks the terminal for something (%T); the theme needs no answer", cmd())
	}
	auto, _ := New(Options{Width: 120, Height: 40})
	if auto.Init() == nil {
		t.Error("auto: Init does not ask for the background colour")
	}
	send(t, auto, tea.BackgroundColorMsg{Color: color.White})
	if auto.th.name != ThemeLight {
		t.Errorf("on a white background the theme is %q, want light", auto.th.name)
	}
	send(t, auto, tea.BackgroundColorMsg{Color: color.Black})
	if auto.th.name != ThemeDark {
		t.Errorf("on a black background the theme is %q, want dark", auto.th.name)
	}
	if _, err := New(Options{Theme: "neon"}); err == nil {
		t.Error("an unknown theme was accepted")
	}
}

// TestMouse: a click selects a row of the world, or moves the timeline;
// the wheel scrolls.
func TestMouse(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	l := m.layout()
	send(t, m, tea.MouseClickMsg{X: 5, Y: l.world.y + 1, Button: tea.MouseLeft})
	if m.sel != 0 || m.focus != paneWorld {
		t.Errorf("click on the first world row: sel %d focus %v", m.sel, m.focus)
	}
	send(t, m, tea.MouseWheelMsg{X: 5, Y: l.world.y + 3, Button: tea.MouseWheelDown})
	if m.sel != 3 {
		t.Errorf("wheel down in the world: sel %d, want 3", m.sel)
	}
	press(t, m, "d", "1", "s", "s")
	l = m.layout() // the message area may have grown
	send(t, m, tea.MouseClickMsg{X: 5, Y: l.timeline.y + 1, Button: tea.MouseLeft})
	if m.s.h.Pos() != 0 {
		t.Errorf("click on the timeline's first row: at step %d, want 0", m.s.h.Pos())
	}
}

// TestTreeKeptWhenShapeSame: a step that changes objects but not who owns
// whom keeps the flattened tree (and still shows the new state); a step
// that removes an object rebuilds it.
func TestTreeKeptWhenShapeSame(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	before := m.snap.tree
	selectRef(t, m, "StatefulSet/db")
	press(t, m, "d", "1") // foreground: db gets a deletionTimestamp and a finalizer
	if m.snap.tree != before {
		t.Error("a delete that only marked db terminating rebuilt the tree")
	}
	if !strings.Contains(screen(m), "StatefulSet/db terminating {foregroundDeletion}") {
		t.Errorf("the kept tree does not show db's new state:\n%s", screen(m))
	}
	runLine(t, m, `patch po/db-0 '{"metadata":{"finalizers":null}}'`)
	press(t, m, "r")
	if m.snap.tree == before {
		t.Error("objects were removed but the tree was kept")
	}
	for _, r := range m.snap.tree.rows {
		if r.obj != nil && r.obj.String() == "StatefulSet/db" {
			t.Errorf("db is gone but still in the tree:\n%s", screen(m))
		}
	}
}

// TestReplayInThePast: in the past, stepping, autoplay and run move along
// the recorded timeline instead of cutting it, and stop before the user's
// own next action.
func TestReplayInThePast(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	press(t, m, "d", "1", "r")
	n := m.s.h.Len()
	runLine(t, m, "goto 1")
	press(t, m, "s")
	if m.s.h.Pos() != 2 || m.s.h.Len() != n || !strings.HasPrefix(m.msg, "replayed") {
		t.Fatalf("s in the past: at %d of %d, msg %q; want a replay to 2 of %d", m.s.h.Pos(), m.s.h.Len(), m.msg, n)
	}
	press(t, m, "r")
	if m.s.h.Pos() != n || m.s.h.Len() != n {
		t.Fatalf("r in the past: at %d of %d, want the end of the same timeline (%d)", m.s.h.Pos(), m.s.h.Len(), n)
	}
	runLine(t, m, "goto 0")
	press(t, m, "r")
	if m.s.h.Pos() != 0 || !strings.Contains(m.msg, "next in the timeline is your own delete Deployment/web") {
		t.Fatalf("r before the user's delete: at %d, msg %q", m.s.h.Pos(), m.msg)
	}
}

// TestStepThroughLoad: with StepThrough, a scenario file's objects are the
// start and its steps the timeline, ready to rewind; a failing step stops
// the timeline there with a warning.
func TestStepThroughLoad(t *testing.T) {
	file := []byte(`name: fg
objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: owner}}
  - apiVersion: v1
    kind: Pod
    metadata:
      name: p
      ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, blockOwnerDeletion: true}]
    spec: {containers: [{name: c, image: nginx}]}
steps:
  - settle: {}
  - delete: cm/owner
    propagationPolicy: Foreground
  - settle: {}
  - expect: {absent: [ConfigMap/owner, Pod/p]}
`)
	files := NewMemFiles(map[string][]byte{"fg.yaml": file})
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Files: files, File: "fg.yaml", StepThrough: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.s.h.Len() == 0 || m.s.h.Pos() != m.s.h.Len() {
		t.Fatalf("timeline %d/%d, want the file's steps, at their end", m.s.h.Pos(), m.s.h.Len())
	}
	if lookup(m, "cm", "owner") != nil || !strings.Contains(m.msg, "expect step is not checked here") {
		t.Fatalf("at the end owner should be gone; message %q", m.msg)
	}
	runLine(t, m, "goto 0")
	if lookup(m, "cm", "owner") == nil || lookup(m, "po", "p") == nil {
		t.Fatal("at step 0 the file's objects should exist")
	}

	files.WriteFile("bad-step.yaml", []byte("name: bad\nobjects:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\nsteps:\n  - delete: cm/nope\n"))
	m.opts.StepThrough = false
	runLine(t, m, "load bad-step.yaml")
	if m.msgKind != msgErr || !strings.Contains(m.msg, "nothing changed") {
		t.Fatalf("without StepThrough a failing file is refused; message %q", m.msg)
	}
	m.opts.StepThrough = true
	runLine(t, m, "load bad-step.yaml")
	if m.msgKind != msgWarn || !strings.Contains(m.msg, `step 0 (delete ConfigMap/nope) failed`) || lookup(m, "cm", "a") == nil {
		t.Errorf("load of a file whose step fails: kind %d, %q", m.msgKind, m.msg)
	}
}

// TestRunPausesAtItsStepCap: a run that reaches its step cap without
// settling (a large world) pauses with a warning that names the next work
// and says how to go on, not an error; r runs on from there to settled.
func TestRunPausesAtItsStepCap(t *testing.T) {
	m, _ := newTest(t, 160, 48)
	m.s.runCap = 40
	runLine(t, m, "create deployment big --replicas 20")
	press(t, m, "r")
	scr := screen(m)
	if !strings.Contains(scr, "paused after 40 steps, not settled yet (next: ") || !strings.Contains(scr, "r runs on") {
		t.Fatalf("a run at its cap should pause with a warning; the screen shows:\n%s", scr)
	}
	if strings.Contains(scr, "Error") {
		t.Fatalf("reaching the cap is not an error; the screen shows:\n%s", scr)
	}
	for i := 0; i < 50 && !strings.Contains(screen(m), "settled after"); i++ {
		press(t, m, "r")
	}
	if !strings.Contains(screen(m), "settled after") {
		t.Fatalf("r never settled the world; the screen shows:\n%s", screen(m))
	}
	if n := len(m.s.world().Store().Objects()); n < 22 {
		t.Fatalf("%d objects after settling, want the Deployment, its ReplicaSet and 20 Pods at least", n)
	}
}

// TestHistoryOfCarried: the inspector's list of the records that changed
// the selected object, carried from snapshot to snapshot and extended by
// the records added since, is the list a scan of the whole timeline
// gives, step after step, and after a branch cuts the timeline.
func TestHistoryOfCarried(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	selectRef(t, m, "Deployment/web")
	uid := m.selUID
	scan := func() []int {
		out := []int{}
		for i := range m.s.h.Len() {
			if slices.Contains(m.s.h.Changed(i), uid) {
				out = append(out, i)
			}
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		screen(m) // draws the inspector, which asks for the history
		c, ok := m.snap.history[uid]
		if !ok {
			t.Fatalf("%s: the inspector did not ask for web's history", when)
		}
		if want := scan(); !slices.Equal(c.at, want) || c.upto != m.s.h.Len() {
			t.Fatalf("%s: history %v (of %d records), want %v (of %d)", when, c.at, c.upto, want, m.s.h.Len())
		}
	}
	check("start")
	press(t, m, "d", "1") // foreground: web stays until its dependents are gone
	check("after the delete")
	carried := 0
	for range 12 {
		before := m.snap.history[uid]
		press(t, m, "s")
		check("after a step")
		if c := m.snap.history[uid]; before.upto > 0 && c.upto > before.upto && len(c.at) >= len(before.at) {
			carried++
		}
	}
	if carried == 0 {
		t.Error("no step carried the history over")
	}
	press(t, m, "r") // web's dependents go, then web: its history reaches the end
	selectRef(t, m, "StatefulSet/db")
	runLine(t, m, "goto 1")
	selectRef(t, m, "Deployment/web")
	check("back at 1")
	if last := m.snap.history[uid].at; last[len(last)-1] < 2 {
		t.Fatalf("web's history %v ends before 2: the branch below would cut none of it", last)
	}
	runLine(t, m, "delete statefulset/db") // acting in the past cuts the timeline
	check("after the branch")
	press(t, m, "r")
	uid = m.selUID // the inspector may show another object now
	check("after a run on the branch")
}

// TestErrTextWithoutReason: an answer of the apiserver with no reason (a
// 500 made of a plain error) is worded as kubectl words it, not as an
// error of the playground's own.
func TestErrTextWithoutReason(t *testing.T) {
	err := fakeapi.NewUnknownError("resourceVersion should not be set on objects to be created")
	if got, want := errText(err), "Error from server: resourceVersion should not be set on objects to be created"; got != want {
		t.Errorf("errText = %q, want %q", got, want)
	}
	if got, want := errText(fakeapi.NewNotFound("pods", "p")), `Error from server (NotFound): pods "p" not found`; got != want {
		t.Errorf("errText = %q, want %q", got, want)
	}
}
