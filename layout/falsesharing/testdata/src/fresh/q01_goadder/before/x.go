// Package before reproduces github.com/linxGnu/go-adder's Striped64 cell
// table before 9815dd407e07dc508ed64cc43d344f5aa6d17457: each cell is a lone
// int64 allocated on its own (the 8-byte size class), so cells attached one
// after another share a line and goroutines CASing different cells collide.
package before

import (
	"math/rand/v2"
	"sync/atomic"
)

// slot is one striped summand; every adding goroutine CASes the one it hashes to.
type slot struct {
	n int64
}

// Adder keeps a base word and a lazily grown table of heap-allocated slots.
type Adder struct {
	slots []*slot
	busy  int32
	base  int64
}

// NewAdder returns an adder whose table is created on first contention.
func NewAdder() *Adder { return &Adder{} }

// Add adds d; it is called concurrently from any number of goroutines.
func (a *Adder) Add(d int64) {
	h := rand.Uint32() | 1
	for {
		tab := a.slots
		if tab == nil {
			old := atomic.LoadInt64(&a.base)
			if atomic.CompareAndSwapInt64(&a.base, old, old+d) {
				return
			}
			a.locked(func() {
				if a.slots == nil {
					a.slots = make([]*slot, 64)
				}
			})
			continue
		}
		i := int(h) & (len(tab) - 1)
		s := tab[i]
		if s == nil {
			a.locked(func() {
				if tab[i] == nil {
					tab[i] = &slot{}
				}
			})
			continue
		}
		old := atomic.LoadInt64(&s.n)
		if atomic.CompareAndSwapInt64(&s.n, old, old+d) {
			return
		}
		h ^= h << 13
		h ^= h >> 17
		h ^= h << 5
	}
}

// locked runs f under the table spin flag, or skips it if another goroutine holds it.
func (a *Adder) locked(f func()) {
	if atomic.CompareAndSwapInt32(&a.busy, 0, 1) {
		f()
		atomic.StoreInt32(&a.busy, 0)
	}
}

// Sum adds up the base and every slot.
func (a *Adder) Sum() int64 {
	total := atomic.LoadInt64(&a.base)
	for _, s := range a.slots {
		if s != nil {
			total += atomic.LoadInt64(&s.n)
		}
	}
	return total
}
