// Package after reproduces github.com/maypok86/otter's Stats as
// 56016da720bfc166276512f538796164cbde5e20 left it: a pad of
// CacheLineSize - 16 (CacheLineSize = 64) moves the eviction counters to
// offset 72, off the pointers' line at 64 bytes for the phases of its
// size class (clean on amd64), but all of Stats is one 128-byte line on
// arm64 (FS4).
package after

import (
	"runtime"
	"sync/atomic"
	"unsafe"
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
	hits                   *counter
	misses                 *counter
	rejectedSets           *counter
	evictedCountersPadding [CacheLineSize - 2*unsafe.Sizeof(atomic.Int64{})]byte
	evictedCount           atomic.Int64
	evictedCost            atomic.Int64
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
