package tui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gcplay/gcplay/engine"
)

// sameTree reports how got differs from want, a tree built from
// Store.Objects, or "" when they are the same row for row.
func sameTree(got, want *tree) string {
	if len(got.rows) != len(want.rows) {
		return fmt.Sprintf("%d rows, want %d", len(got.rows), len(want.rows))
	}
	for i := range got.rows {
		g, w := got.rows[i], want.rows[i]
		if g != w {
			return fmt.Sprintf("row %d is %+v, want %+v", i, g, w)
		}
	}
	if got.objects != want.objects || got.hiddenNS != want.hiddenNS || got.events != want.events {
		return fmt.Sprintf("counts %d, %d, %d, want %d, %d, %d", got.objects, got.hiddenNS, got.events, want.objects, want.hiddenNS, want.events)
	}
	if !slices.Equal(got.all, want.all) {
		return "the objects differ from Store.Objects"
	}
	return ""
}

// TestTreeAfterRemovalsNotSorted: a frame after objects were only removed
// (or changed) builds the tree from the last tree's objects, not by
// sorting every stored object again, and the tree is the one
// Store.Objects gives, row for row; after a creation or a jump back, the
// objects that came are merged into the last tree's objects.
func TestTreeAfterRemovalsNotSorted(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "create cm owner")
	for _, n := range []string{"a", "b", "c", "d"} {
		runLine(t, m, "create cm "+n+" --owner cm/owner")
	}
	runLine(t, m, "create pod p --owner cm/c --owner cm/a")
	created := m.s.h.Pos()
	check := func(what string, sorted bool) {
		t.Helper()
		m.refresh()
		want := buildTree(m.s.world().Store().Objects(), m.snap.reg)
		if d := sameTree(m.snap.tree, want); d != "" {
			t.Fatalf("after %s: %s", what, d)
		}
		if m.snap.sorted != sorted {
			t.Errorf("after %s: sorted %v, want %v", what, m.snap.sorted, sorted)
		}
	}
	runLine(t, m, "delete cm/b")
	check("a leaf removed", false)
	runLine(t, m, "delete cm/a --cascade=orphan")
	press(t, m, "r")
	check("an owner removed with orphan", false)
	runLine(t, m, "delete cm/owner")
	press(t, m, "r")
	check("a cascade", false)
	removed := m.s.h.Pos()
	runLine(t, m, "create cm e")
	check("a creation", false)
	// Back before the removals: objects return, in their places.
	runLine(t, m, fmt.Sprintf("goto %d", created))
	check("a jump back", false)
	runLine(t, m, fmt.Sprintf("goto %d", removed))
	check("a jump forward over removals", false)
}

// TestTreeAfterStepsBackMerged: stepping back one record at a time
// through a cascade (a Deployment's ReplicaSet and Pods, an orphaned
// ConfigMap's dependents in another namespace), each frame whose step
// back brought objects back merges them into the last tree's objects
// rather than sorting every stored object, and the tree is the one
// Store.Objects gives, row for row.
func TestTreeAfterStepsBackMerged(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "create deployment web --replicas 3")
	runLine(t, m, "create cm owner -n kube-system")
	runLine(t, m, "create cm a -n kube-system --owner cm/owner")
	runLine(t, m, "create cm zz")
	press(t, m, "r")
	runLine(t, m, "delete deploy/web")
	runLine(t, m, "delete cm/owner -n kube-system")
	press(t, m, "r")
	m.refresh()
	end := m.s.h.Pos()
	back, merged := 0, 0
	for m.s.h.Pos() > end-200 && m.s.h.Pos() > 0 {
		before, last := m.s.world().Store().Len(), m.snap.tree
		press(t, m, "left")
		m.refresh()
		if m.snap.tree == last {
			continue // the same shape: the rows look their objects up when drawn
		}
		want := buildTree(m.s.world().Store().Objects(), m.snap.reg)
		if d := sameTree(m.snap.tree, want); d != "" {
			t.Fatalf("at %d: %s", m.s.h.Pos(), d)
		}
		if m.s.world().Store().Len() > before {
			back++
			if !m.snap.sorted {
				merged++
			}
		}
	}
	if back < 5 {
		t.Fatalf("only %d steps back brought objects back: the test does not exercise the merge", back)
	}
	if merged != back {
		t.Errorf("%d of %d steps back that brought objects back sorted the store's objects", back-merged, back)
	}
}

// historyScan is historyOf's answer by a scan of the whole timeline.
func historyScan(h *engine.History, uid string) []int {
	out := []int{}
	for i := range h.Len() {
		if slices.Contains(h.Changed(i), uid) {
			out = append(out, i)
		}
	}
	return out
}

// TestHistoryOfTheNextSelection: when the selected object is removed and
// the selection moves to the row that took its place, the inspector's
// history of the new selection scans only the records added since it
// scanned for the one removed (the rows near a selection are scanned for
// with it), not the timeline from its start; and every history is the
// whole timeline's.
func TestHistoryOfTheNextSelection(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "create cm owner")
	for _, n := range []string{"a", "b", "c"} {
		runLine(t, m, "create cm "+n+" --owner cm/owner")
	}
	runLine(t, m, "create pod p --owner cm/c")
	a, b := lookup(m, "cm", "a").Metadata.UID, lookup(m, "cm", "b").Metadata.UID
	m.selectUID(a)
	m.refresh()
	m.View()
	if got, want := m.snap.historyOf(m.s.h, a), historyScan(m.s.h, a); !slices.Equal(got, want) {
		t.Fatalf("history of cm/a %v, want %v", got, want)
	}
	scannedAt := m.s.h.Len()
	runLine(t, m, "delete cm/a")
	m.refresh()
	if m.selUID != b {
		t.Fatalf("the selection moved to %s, want cm/b (%s)", m.selUID, b)
	}
	before := m.snap.scanned
	got := m.snap.historyOf(m.s.h, b)
	if want := historyScan(m.s.h, b); !slices.Equal(got, want) {
		t.Fatalf("history of cm/b %v, want %v", got, want)
	}
	if n, want := m.snap.scanned-before, m.s.h.Len()-scannedAt; n != want {
		t.Errorf("the new selection's history read %d records, want the %d added since (of %d)", n, want, m.s.h.Len())
	}
	for _, name := range []string{"c", "owner"} {
		uid := lookup(m, "cm", name).Metadata.UID
		if got, want := m.snap.historyOf(m.s.h, uid), historyScan(m.s.h, uid); !slices.Equal(got, want) {
			t.Errorf("history of cm/%s %v, want %v", name, got, want)
		}
	}
	p := lookup(m, "po", "p").Metadata.UID
	if got, want := m.snap.historyOf(m.s.h, p), historyScan(m.s.h, p); !slices.Equal(got, want) {
		t.Errorf("history of pod/p %v, want %v", got, want)
	}
}
