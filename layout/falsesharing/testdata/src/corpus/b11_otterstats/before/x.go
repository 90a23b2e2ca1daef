// Package before reproduces github.com/maypok86/otter's Stats before
// 56016da720bfc166276512f538796164cbde5e20: evictedCount and evictedCost,
// added to by the eviction policy, share a line with the counter
// pointers that every Get loads to count a hit or a miss (FS2 on both).
package before

import (
	"runtime"
	"sync/atomic"
)

// CacheLineSize is the line size the padding assumes.
const CacheLineSize = 64

// counter is a striped counter; its stripes are elsewhere.
type counter struct {
	stripes []stripe
	mask    uint32
}

type stripe struct {
	n int64
	_ [CacheLineSize - 8]byte
}

func newCounter() *counter {
	n := uint32(1)
	for n < uint32(runtime.GOMAXPROCS(0)) {
		n *= 2
	}
	return &counter{stripes: make([]stripe, n), mask: n - 1}
}

func (c *counter) increment(hint uint32) { atomic.AddInt64(&c.stripes[hint&c.mask].n, 1) }

// Stats collects the cache's statistics.
type Stats struct {
	hits         *counter
	misses       *counter
	rejectedSets *counter
	evictedCount atomic.Int64
	evictedCost  atomic.Int64
}

// New returns empty statistics.
func New() *Stats {
	return &Stats{hits: newCounter(), misses: newCounter(), rejectedSets: newCounter()}
}

// IncHits counts a hit; Get calls it on every CPU.
func (s *Stats) IncHits(hint uint32) { s.hits.increment(hint) }

// IncMisses counts a miss.
func (s *Stats) IncMisses(hint uint32) { s.misses.increment(hint) }

// AddEvicted counts an eviction; the policy goroutine calls it.
func (s *Stats) AddEvicted(cost int64) {
	s.evictedCount.Add(1)
	s.evictedCost.Add(cost)
}

// EvictedCost returns the total cost evicted.
func (s *Stats) EvictedCost() int64 { return s.evictedCost.Load() }
