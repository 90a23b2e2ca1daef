// Package hasher holds striped lock tables whose stripe comes from a
// hash that the code computes through a value: a hasher interface, a
// function kept in a field, hash/maphash, or a helper that takes the
// hash as a plain parameter. Each is a table of locks taken by a hash
// from every CPU: FS1.
package hasher

import (
	"hash/maphash"
	"sync"
)

type stripe struct {
	mu sync.Mutex
	n  int
}

// Hasher hashes keys; callers choose the function.
type Hasher interface{ Sum(key string) uint64 }

// ByInterface takes the stripe of a hasher the caller gave.
type ByInterface struct {
	h       Hasher
	stripes [64]stripe // want `elements of stripes are 16 bytes.*\(\*ByInterface\)\.Add updates the lock of an element of stripes chosen by a hash \(FS1, proven\)`
}

func (t *ByInterface) Add(name string) {
	s := &t.stripes[t.h.Sum(name)%64]
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// ByFunc keeps the hash function in a field.
type ByFunc struct {
	hash    func(string) uint64
	stripes [64]stripe // want `elements of stripes are 16 bytes.*chosen by a hash \(FS1, proven\)`
}

func (t *ByFunc) Add(name string) {
	s := &t.stripes[t.hash(name)&63]
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// BySeed hashes with hash/maphash and a seed of its own.
type BySeed struct {
	seed    maphash.Seed
	stripes [64]stripe // want `elements of stripes are 16 bytes.*chosen by a hash \(FS1, proven\)`
}

func (t *BySeed) Add(name string) {
	s := &t.stripes[maphash.String(t.seed, name)&63]
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

// ByHelper hashes in the caller and picks the stripe in a helper whose
// parameter's name says nothing.
type ByHelper struct {
	seed    maphash.Seed
	stripes [64]stripe // want `elements of stripes are 16 bytes.*chosen by a hash \(FS1, proven\)`
}

func (t *ByHelper) at(v uint64) *stripe { return &t.stripes[v&63] }

func (t *ByHelper) Add(name string) {
	s := t.at(maphash.String(t.seed, name))
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}
