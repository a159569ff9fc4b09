package tui

import (
	"image/color"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPaneRowsKeptAsFresh: every frame drawn with the lines and rows the
// panes kept from the frames before (the world tree's, the collector's,
// the inspector's and the timeline's, and their borders) is the frame
// drawn afresh, along a walk through a Foreground delete: steps, steps
// back, a branch (the inspector then shows a step the timeline drew
// with another record), the selection moved over the tree, a watch set, the
// focus taken round every pane and the focused pane scrolled, the
// terminal resized (to the narrow layout, where the right pane is
// toggled, and back), the terminal's background turning light (a new
// theme) and jumps over steps; then a world whose owner never existed
// (a virtual node, the absent-owner cache); in English and in Chinese.
func TestPaneRowsKeptAsFresh(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			m, err := New(Options{Width: 140, Height: 45, Theme: ThemeAuto, Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			frames := 0
			check := func(after string) {
				t.Helper()
				kept := m.View().Content
				c := m.statusBar.cache
				m.statusBar.cache = &statusBarCache{}
				fresh := m.View().Content
				m.statusBar.cache = c // the kept path goes on from its own frames
				if kept != fresh {
					t.Fatalf("after %s, the frame with the kept rows differs from the one drawn afresh:\nkept:\n%s\nfresh:\n%s", after, kept, fresh)
				}
				frames++
			}
			keys := func(ks ...string) {
				t.Helper()
				for _, k := range ks {
					press(t, m, k)
					check(k)
				}
			}
			size := func(w, h int) {
				t.Helper()
				send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
				check("a resize")
			}
			check("the start")
			runLine(t, m, "delete deploy/web --cascade=foreground")
			check("the delete")
			keys("s", "s", "s", "s", "s", "left", "left", "left", "right", "left")
			keys("down", "down", "down", "b", "s", "s", "up", "s", "end", "s", "home")
			keys("tab", "down", "down", "s", "pgdown", "s", "tab", "down", "down", "s", "up", "tab", "up", "left", "s", "tab")
			size(100, 40) // narrow: one pane at the right, tab toggles it
			keys("s", "left", "tab", "s", "tab", "s", "tab", "down", "s", "tab", "tab")
			size(141, 46)
			keys("s", "left", "s")
			size(140, 60) // room in the inspector for the new object's history
			keys("left", "left", "left")
			runLine(t, m, "create cm branch") // a branch: other records from here
			check("the branch")
			size(140, 45)
			keys("s", "s", "left", "down", "down", "s")
			send(t, m, tea.BackgroundColorMsg{Color: color.White})
			check("a light background")
			keys("s", "left", "up", "s", "s")
			for _, to := range []string{"goto 3", "goto 9", "goto 1", "goto 12"} { // jumps over steps
				runLine(t, m, to)
				check(to)
			}

			// A dangling owner: a virtual node, then the absent-owner cache.
			files := NewMemFiles(map[string][]byte{"d.yaml": []byte(danglingOwner)})
			m, err = New(Options{Width: 140, Height: 45, Theme: ThemeDark, Lang: lang, Files: files, File: "d.yaml"})
			if err != nil {
				t.Fatal(err)
			}
			check("the dangling owner's start")
			for range 14 {
				keys("s")
			}
			keys("left", "left", "down", "down", "down", "left", "right", "right", "s", "s")
			for _, to := range []string{"goto 4", "goto 13", "goto 0", "goto 15"} {
				runLine(t, m, to)
				check(to)
			}
			if frames < 100 {
				t.Fatalf("only %d frames checked", frames)
			}
		})
	}
}

// danglingOwner is two Pods whose owner never existed.
const danglingOwner = `name: dangling
objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: keep}}
  - apiVersion: v1
    kind: Pod
    metadata:
      name: p
      ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: gone, uid: 5e1d6a0c-0000-4000-8000-000000000001}]
    spec: {containers: [{name: c, image: nginx}]}
  - apiVersion: v1
    kind: Pod
    metadata:
      name: q
      ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: gone, uid: 5e1d6a0c-0000-4000-8000-000000000001}]
    spec: {containers: [{name: c, image: nginx}]}
`

// TestIdleLinesKeptByNames: the collector's idle-queue lines kept from the
// frame before are used only for the same idle queues, not for as many
// other ones.
func TestIdleLinesKeptByNames(t *testing.T) {
	m, err := New(Options{Width: 140, Height: 45, Theme: ThemeDark})
	if err != nil {
		t.Fatal(err)
	}
	sn := &snapshot{queues: []queueView{{name: "replicaset"}, {name: "deployment"}, {name: "kubelet"}}}
	text := func(ls []*line) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(l.render(60, nil) + "\n")
		}
		return b.String()
	}
	for _, idle := range [][]int{{0, 1}, {0, 1}, {0, 2}, {1, 2}, {1, 2, 0}, {2}} {
		kept := text(m.idleLines(sn, idle, 60, 2))
		c := m.statusBar.cache
		m.statusBar.cache = nil // nothing kept
		fresh := text(m.idleLines(sn, idle, 60, 2))
		m.statusBar.cache = c
		if kept != fresh {
			t.Fatalf("idle queues %v: kept lines\n%s\nwant\n%s", idle, kept, fresh)
		}
	}
}

// TestNormalKeysKeptAsMade: the key tables kept for each focused pane are
// the tables made afresh (the same keys, help, places in the one-line
// help and handlers), with and without the quit key, after keys that
// took the focus round every pane and changed the world.
func TestNormalKeysKeptAsMade(t *testing.T) {
	for _, noQuit := range []bool{false, true} {
		m, err := New(Options{Width: 140, Height: 45, Theme: ThemeDark, NoQuitKey: noQuit})
		if err != nil {
			t.Fatal(err)
		}
		press(t, m, "s", "tab", "down", "tab", "s", "tab", "up", "tab", "left", "tab")
		c := m.statusBar.cache
		for p := range numPanes {
			m.focus = p
			m.statusBar.cache = c
			kept := m.normalComponents()
			if c.normal[p] == nil {
				t.Fatalf("pane %d: no tables kept", p)
			}
			m.statusBar.cache = nil
			fresh := m.normalComponents()
			if len(kept) != len(fresh) {
				t.Fatalf("pane %d: %d tables kept, %d made", p, len(kept), len(fresh))
			}
			for i := range fresh {
				if len(kept[i]) != len(fresh[i]) {
					t.Fatalf("pane %d, table %d: %d actions kept, %d made", p, i, len(kept[i]), len(fresh[i]))
				}
				for j, f := range fresh[i] {
					k := kept[i][j]
					if !reflect.DeepEqual(k.b.Keys(), f.b.Keys()) || k.b.Help() != f.b.Help() || k.b.Enabled() != f.b.Enabled() ||
						k.short != f.short || reflect.ValueOf(k.do).Pointer() != reflect.ValueOf(f.do).Pointer() {
						t.Fatalf("quit key off %v, pane %d, table %d, action %d: kept %v %+v, made %v %+v", noQuit, p, i, j, k.b.Keys(), k.short, f.b.Keys(), f.short)
					}
				}
			}
		}
		m.statusBar.cache = c
	}
}
