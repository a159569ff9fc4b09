package strarena

import (
	"fmt"
	"strings"
	"testing"
)

// Every string handed out keeps its value while many more are made, by
// the arena and by a copy of it.
func TestStringsNeverChange(t *testing.T) {
	var a Arena
	var got, want []string
	for i := range 20_000 {
		s := fmt.Sprintf("delete Pod/web-%d-%d", i/1000, i%1000)
		if i%97 == 0 {
			s = "delete " + strings.Repeat("x", maxShared+i%7) // a long one: its own allocation
		}
		got = append(got, a.Join("delete ", s[len("delete "):]))
		want = append(want, s)
		got = append(got, a.String([]byte(s)))
		want = append(want, s)
	}
	b := a // a copy must not write into a's block
	for i := range 5_000 {
		b.Join("overwrite?", fmt.Sprint(i))
		a.Join("and again", fmt.Sprint(i))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
	if a.Join() != "" || a.String(nil) != "" || a.Join("", "") != "" {
		t.Fatal("empty joins should be empty")
	}
}

func TestCopyStartsOwnBlock(t *testing.T) {
	var a Arena
	first := a.Join("abc")
	b := a
	fromB := b.Join("XYZ")
	fromA := a.Join("def")
	// Sharing the block, a and b would both have written at the same
	// place: the later write would show in the earlier string.
	if first != "abc" || fromB != "XYZ" || fromA != "def" {
		t.Fatalf("got %q %q %q, want abc XYZ def", first, fromB, fromA)
	}
}

func BenchmarkJoin(b *testing.B) {
	var a Arena
	for i := 0; b.Loop(); i++ {
		_ = a.Join("delete ", "Pod", "/", "web-3-17")
	}
}

func BenchmarkConcat(b *testing.B) {
	var s string
	kind := "Pod"
	for i := 0; b.Loop(); i++ {
		s = "delete " + kind + "/" + "web-3-17"
	}
	_ = s
}
