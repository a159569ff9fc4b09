package uidmap

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

func TestFormatAndSerial(t *testing.T) {
	for _, n := range []int{0, 1, 42, 999, 9999, 10000, 123456, 999999999} {
		uid := Format(n)
		if want := fmt.Sprintf("uid-%04d", n); uid != want {
			t.Errorf("Format(%d) = %q, want %q", n, uid, want)
		}
		if s, ok := Serial(uid); !ok || s != n {
			t.Errorf("Serial(%q) = %d, %v; want %d, true", uid, s, ok, n)
		}
	}
	for _, uid := range []string{"", "uid-", "uid-1", "uid-042", "uid-00042", "uid-01234", "uid-12a4", "UID-1234",
		"uid-1234 ", "uid-+123", "uid-1234567890", "abc-1234", "8b5e9f7c-3a2d-4e1f-9c6b-0d4a1e2f3b5c"} {
		if s, ok := Serial(uid); ok {
			t.Errorf("Serial(%q) = %d, true; want not a generated UID", uid, s)
		}
	}
}

// TestMapAgainstGoMap runs random operations on a Map and a Go map side by
// side, with generated UIDs, UIDs far ahead of the slice, and UIDs of
// other shapes, and compares them after every operation.
func TestMapAgainstGoMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func() string {
		switch r.IntN(6) {
		case 0:
			return Format(r.IntN(50) + 1_000_000) // far ahead: the map
		case 1:
			return fmt.Sprintf("given-%d", r.IntN(50))
		case 2:
			return fmt.Sprintf("uid-%03d", r.IntN(50)) // not canonical
		default:
			return Format(r.IntN(6000))
		}
	}
	var m Map[int]
	want := map[string]int{}
	for i := range 200_000 {
		uid := pick()
		if r.IntN(500) == 0 {
			m.Grow(r.IntN(100)) // keeps every entry, in the slice and the map
		}
		switch r.IntN(3) {
		case 0, 1:
			m.Set(uid, i)
			want[uid] = i
		case 2:
			m.Delete(uid)
			delete(want, uid)
		}
		if v, ok := m.Get(uid); ok != (want[uid] == v && ok) || m.Has(uid) != ok {
			t.Fatalf("op %d: Get(%q) = %d, %v; want %d", i, uid, v, ok, want[uid])
		}
		if _, ok := want[uid]; ok != m.Has(uid) {
			t.Fatalf("op %d: Has(%q) = %v", i, uid, m.Has(uid))
		}
		if m.Len() != len(want) {
			t.Fatalf("op %d: Len() = %d, want %d", i, m.Len(), len(want))
		}
	}
	got := maps.Collect(m.All())
	if !maps.Equal(got, want) {
		t.Fatalf("All() has %d entries, want %d", len(got), len(want))
	}
	c := m.Clone(func(v int) int { return -v })
	m.Set(Format(1), 7)
	for uid, v := range want {
		if cv, ok := c.Get(uid); !ok || cv != -v {
			t.Fatalf("clone: Get(%q) = %d, %v; want %d", uid, cv, ok, -v)
		}
	}
	if c.Len() != len(want) {
		t.Fatalf("clone: Len() = %d, want %d", c.Len(), len(want))
	}
}

// A UID stored while the slice was short stays where it was put when the
// slice later grows past it.
func TestMapKeepsEarlyFarUIDInMap(t *testing.T) {
	var m Map[string]
	far := Format(denseSlack + 10)
	m.Set(far, "far")
	for n := range denseSlack + 20 {
		if u := Format(n); u != far {
			m.Set(u, "near")
		}
	}
	m.Set(far, "updated")
	if v, _ := m.Get(far); v != "updated" || m.Len() != denseSlack+20 {
		t.Fatalf("Get(far) = %q, Len() = %d", v, m.Len())
	}
	m.Delete(far)
	if m.Has(far) || m.Len() != denseSlack+19 {
		t.Fatalf("after Delete: Has = %v, Len() = %d", m.Has(far), m.Len())
	}
}

func BenchmarkGetGenerated(b *testing.B) {
	var m Map[int]
	uids := make([]string, 100_000)
	for i := range uids {
		uids[i] = Format(i + 1)
		m.Set(uids[i], i)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		m.Get(uids[i%len(uids)])
	}
}
