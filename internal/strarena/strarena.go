// Package strarena hands out many small strings carved from a few large
// blocks.
//
// A cascade of 100,000 objects writes half a million short sentences into
// its records ("delete Pod/web-3-17", ...), one allocation each. An Arena
// copies each into the free end of a shared 8 KiB block instead: one
// allocation per block, and no size-class rounding.
//
// Why it is safe: a Go string must never change. The bytes of a block are
// written once, just before the string over them is made, and never again:
// strings only ever claim the free end of a block, and a full block is
// dropped, not reused. A block stays alive while any string points into it,
// which is what a record that keeps its sentences needs.
package strarena

import "unsafe"

const (
	blockSize = 8 << 10
	// maxShared is the longest string carved from a block; a longer one
	// gets an allocation of its own, so that a block is not mostly wasted.
	maxShared = blockSize / 16
)

// Arena hands out strings. The zero Arena is ready to use. An Arena must
// not be used by two goroutines at once. A copy of an Arena (as when the
// struct holding it is copied) starts a new block on first use, so that
// the two never write into the same block.
type Arena struct {
	free  []byte // the unclaimed end of the current block
	owner *Arena
}

// claim returns n bytes nobody has been given, to be filled in once.
func (a *Arena) claim(n int) []byte {
	if a.owner != a {
		a.owner, a.free = a, nil
	}
	if n > maxShared {
		return make([]byte, n)
	}
	if len(a.free) < n {
		a.free = make([]byte, blockSize)
	}
	b := a.free[:n:n]
	a.free = a.free[n:]
	return b
}

// String returns b as a string.
func (a *Arena) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	c := a.claim(len(b))
	copy(c, b)
	return unsafe.String(&c[0], len(c))
}

// Join returns the concatenation of parts.
func (a *Arena) Join(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return ""
	}
	c := a.claim(n)
	i := 0
	for _, p := range parts {
		i += copy(c[i:], p)
	}
	return unsafe.String(&c[0], n)
}
