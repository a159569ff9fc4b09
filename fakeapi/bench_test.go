package fakeapi

import (
	"fmt"
	"testing"
)

// BenchmarkCreateDelete creates a ConfigMap and deletes it in the
// background: the common path of a garbage collection pass.
func BenchmarkCreateDelete(b *testing.B) {
	s := NewStore(nil, nil)
	s.Watch(func(WatchEvent) {})
	ref := cmRef("x")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Create("bench", configMap("x")); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Delete("bench", ref, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBackgroundDelete shows that deleting an object with no
// finalizers costs the same however large the world is: copy-on-write
// touches one map entry and copies nothing else.
func BenchmarkBackgroundDelete(b *testing.B) {
	for _, size := range []int{10, 10000} {
		b.Run(fmt.Sprintf("objects=%d", size), func(b *testing.B) {
			s := NewStore(nil, nil)
			for i := range size {
				if _, err := s.Create("bench", configMap(fmt.Sprintf("cm-%d", i))); err != nil {
					b.Fatal(err)
				}
			}
			victim := configMap("victim")
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if _, err := s.Create("bench", victim); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Delete("bench", cmRef("victim"), &DeleteOptions{PropagationPolicy: policy(DeletePropagationBackground).PropagationPolicy}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkClone measures the snapshot the engine takes to rewind.
func BenchmarkClone(b *testing.B) {
	s := NewStore(nil, nil)
	for i := range 1000 {
		if _, err := s.Create("bench", configMap(fmt.Sprintf("cm-%d", i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Clone(nil)
	}
}
