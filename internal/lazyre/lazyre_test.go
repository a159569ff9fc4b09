package lazyre

import (
	"sync"
	"testing"
)

func TestCompiledOnceOnFirstUse(t *testing.T) {
	r := New(`^(\d+)-([a-z]+)$`)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := r.Get().FindStringSubmatch("07-owners"); m != nil {
				got[i] = m[2]
			}
		}()
	}
	wg.Wait()
	for i, g := range got {
		if g != "owners" {
			t.Fatalf("match %d: got %q, want %q", i, g, "owners")
		}
	}
	first := r.Get()
	if again := r.Get(); again != first {
		t.Fatal("compiled more than once")
	}
}

func TestInvalidPanicsOnFirstUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("an invalid expression did not panic on Get")
		}
	}()
	r.Get()
}
