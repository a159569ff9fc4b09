//go:build !race

package fakeapi

import "testing"

// TestStoreKeepsWithoutAllocating: storing an object asks for its kind's
// storage version, and validating one checks its controller references;
// neither builds a list or a name it does not return (not under -race,
// which allocates on its own).
func TestStoreKeepsWithoutAllocating(t *testing.T) {
	s := NewStore(nil, nil)
	info, ok := s.reg.Lookup("apps/v1", "ReplicaSet")
	if !ok {
		t.Fatal("apps/v1 ReplicaSet is not served")
	}
	if n := testing.AllocsPerRun(100, func() { _ = s.storageVersion(info) }); n != 0 {
		t.Errorf("storageVersion: %v allocations", n)
	}
	refs := []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d8f7c9b4", UID: "u1", Controller: Bool(true)}}
	if n := testing.AllocsPerRun(100, func() { _ = validateOwnerReferences(refs) }); n != 0 {
		t.Errorf("validateOwnerReferences: %v allocations", n)
	}
}
