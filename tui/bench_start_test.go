package tui

import "testing"

// BenchmarkStarterNew measures the page's start on the Go side up to the
// model: tui.New for the starter world at 140x45 (the page's terminal at
// 1280x800): the starter parsed, built and settled.
func BenchmarkStarterNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Options{Width: 140, Height: 45, Theme: ThemeDark}); err != nil {
			b.Fatal(err)
		}
	}
}
