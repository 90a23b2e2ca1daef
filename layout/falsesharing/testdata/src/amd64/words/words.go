// Package words holds tables of plain words that sync/atomic updates:
// in a slice, in arrays a member points to, and the guards (indexes
// spread by a constant, indexes of an outer table) that keep them apart.
package words

import (
	"math/rand/v2"
	"sync/atomic"
)

// Counter stripes its count over a slice's words.
type Counter struct {
	cells []uint64 // want `elements of cells are 8 bytes, so neighbouring shards share lines \(64 B lines on amd64\).*\(\*Counter\)\.Add updates an element of cells chosen per CPU or goroutine, at random or by a ticket \(FS1, proven\)`
}

// NewCounter returns a counter of 64 cells.
func NewCounter() *Counter { return &Counter{cells: make([]uint64, 64)} }

// Add adds to a random cell.
func (c *Counter) Add(n uint64) { atomic.AddUint64(&c.cells[rand.IntN(len(c.cells))], n) }

// Kinds keeps one array of cells per kind, each an allocation of its own.
type Kinds struct {
	all [2]*[64]uint64 // want `elements of all are 8 bytes`
}

// Add adds to a random cell of kind k.
func (c *Kinds) Add(k int, n uint64) {
	cells := c.all[k&1]
	atomic.AddUint64(&cells[rand.IntN(64)], n)
}

// Spread places consecutive tickets eight words apart: each on a line
// of its own.
type Spread struct {
	next  atomic.Uint64
	cells []uint64
}

func spread(t uint64) uint64 { return (t % 8) * 8 }

// Put stores v in the slot of the next ticket.
func (s *Spread) Put(v uint64) {
	t := s.next.Add(1)
	atomic.StoreUint64(&s.cells[spread(t)], v)
}

// Buckets counts values in buckets chosen by the value: the outer index
// (hot or cold half) is a ticket, the bucket is not.
type Buckets struct {
	n      atomic.Uint64
	halves [2]half
}

type half struct {
	counts []uint64
}

// Observe counts v in its bucket of the hot half.
func (b *Buckets) Observe(v uint64) {
	n := b.n.Add(1)
	h := &b.halves[n%2]
	atomic.AddUint64(&h.counts[v%16], 1)
}

// ByValue counts in a cell chosen by the value.
type ByValue struct {
	cells []uint64
}

// Count counts v.
func (c *ByValue) Count(v uint64) { atomic.AddUint64(&c.cells[v%64], 1) }
