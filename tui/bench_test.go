package tui

import (
	"fmt"
	"testing"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// benchWorld returns a settled world of n objects: owners (ConfigMaps)
// with nine blocking Pods each.
func benchWorld(tb testing.TB, n int) *engine.World {
	tb.Helper()
	w, err := engine.NewWorld(engine.Config{Controllers: []string{engine.ControllerGC}})
	if err != nil {
		tb.Fatal(err)
	}
	var owner *fakeapi.Object
	for i := 0; i < n; i++ {
		var o *fakeapi.Object
		if i%10 == 0 {
			o = &fakeapi.Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: fakeapi.ObjectMeta{Name: fmt.Sprintf("owner-%06d", i), Namespace: "default"}}
		} else {
			o = &fakeapi.Object{APIVersion: "v1", Kind: "Pod", Metadata: fakeapi.ObjectMeta{Name: fmt.Sprintf("pod-%06d", i), Namespace: "default",
				OwnerReferences: []fakeapi.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Metadata.Name, UID: owner.Metadata.UID,
					Controller: fakeapi.Bool(true), BlockOwnerDeletion: fakeapi.Bool(true)}}}}
		}
		if _, err := w.Do(engine.Create{Object: o}); err != nil {
			tb.Fatal(err)
		}
		if i%10 == 0 {
			owner = w.Store().Lookup(fakeapi.RefOf(o))
		}
	}
	if _, err := engine.Settle(w, 10*n+100); err != nil {
		tb.Fatal(err)
	}
	return w
}

func benchModel(b *testing.B, n int) *Model {
	w := benchWorld(b, n)
	m := newModel(Options{Width: 120, Height: 40, Theme: ThemeDark}, newSession(&scenario.Scenario{Name: "bench"}, w))
	// A foreground delete in the middle of the world, stepped twice, so
	// the queues, the timeline and the selection have something to show.
	m.sel = len(m.snap.tree.rows) / 2
	m.selUID = m.snap.tree.rows[m.sel].uid
	m.ensureVisible()
	press(b, m, "d", "1", "s", "s")
	m.View()
	return m
}

// BenchmarkView measures one frame at 120x40 in worlds of 1,000 and
// 100,000 objects. The flattened tree and the queues are built once per
// world change (BenchmarkRefresh), so a frame only draws what is in view.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			m := benchModel(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				m.View()
			}
		})
	}
}

// BenchmarkRefresh measures rebuilding the cached views after the world
// changed (once per step, not per frame): "step" is a step that wrote
// nothing to storage (the tree is kept), "write" one that did (the tree is
// flattened again).
func BenchmarkRefresh(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		for _, kind := range []string{"step", "write"} {
			b.Run(fmt.Sprintf("objects=%d/%s", n, kind), func(b *testing.B) {
				m := benchModel(b, n)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					m.s.version++
					if kind == "write" {
						m.snap.tree = nil
					}
					m.refresh()
				}
			})
		}
	}
}

// starterKeyModel is the starter world at 140x45 (the page's terminal at
// 1280x800) in language lang, during a Foreground delete of
// Deployment/web, ready for key k: for "left" (a step back) ten steps are
// taken first.
func starterKeyModel(b *testing.B, lang, k string) *Model {
	b.Helper()
	m, err := New(Options{Width: 140, Height: 45, Theme: ThemeDark, Lang: lang})
	if err != nil {
		b.Fatal(err)
	}
	runLine(b, m, "delete deploy/web --cascade=foreground")
	if k == "left" {
		press(b, m, "s", "s", "s", "s", "s", "s", "s", "s", "s", "s")
	}
	return m
}

// BenchmarkStarterKey measures what the page's key → render goal is about
// on the Go side: one key and the frame after it, on the starter world at
// 140x45 (the page's terminal at 1280x800), during a Foreground delete of
// Deployment/web: "s" a step, "left" a step back; "zh/s" and "zh/left" the
// same on the Chinese page.
func BenchmarkStarterKey(b *testing.B) {
	for _, lang := range []string{"", "zh"} {
		for _, k := range []string{"s", "left"} {
			name := k
			if lang != "" {
				name = lang + "/" + k
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				var m *Model
				i := 0
				for b.Loop() {
					if i%10 == 0 {
						b.StopTimer()
						m = starterKeyModel(b, lang, k)
						m.View()
						b.StartTimer()
					}
					press(b, m, k)
					m.View()
					i++
				}
			})
		}
	}
}
