// Package exposed holds hot members beside cache-line padding whose line
// can also hold another object: the neighbouring element of a table, or,
// past padding at an edge of the object, whatever the allocator put
// next to it.
package exposed

import "sync/atomic"

// limiter pads before and after its state for 64-byte lines: a 152-byte
// object in the 160-byte size class starts 0 or 32 bytes into a 64-byte
// line, and either way the state's line holds the limiter's own bytes
// only. On 128-byte lines it can start 32 bytes into one, where the
// previous object's tail shares the state's line.
type limiter struct {
	_     [64]byte
	state atomic.Int64
	_     [56]byte
	per   int64
	slack int64
	clock func() int64
}

func NewLimiter(per int64, clock func() int64) *limiter {
	return &limiter{per: per, clock: clock}
}

func (l *limiter) Take() int64 {
	for {
		now := l.clock()
		prev := l.state.Load()
		next := max(now, prev+l.per-l.slack)
		if l.state.CompareAndSwap(prev, next) {
			return next
		}
	}
}

// item is a ring's slot: its state is first and its padding last, so
// that the line holding one item's state can hold the previous item's
// value too, at the elements' 72-byte stride.
type item struct {
	state atomic.Uint64 // want `the padding beside state keeps other memory off its line only at some of the offsets where an item can start: the neighbouring object or element shares state's line \(64 B lines on amd64 when the item starts 56 bytes into one\); pad so that state has a whole line to itself wherever the item starts \(FS3, declared\)`
	value any
	_     [48]byte
}

type Ring struct {
	items []item
	tail  atomic.Uint64
}

func NewRing(n int) *Ring { return &Ring{items: make([]item, n)} }

func (r *Ring) Put(v any) {
	t := r.tail.Add(1) - 1
	it := &r.items[t%uint64(len(r.items))]
	it.value = v
	it.state.Store(1)
}

// stats pads its counters away from the pointers that every lookup reads;
// with no padding at its edges it declares nothing about its neighbours.
type stats struct {
	hits, misses *atomic.Int64
	_            [48]byte
	evicted      atomic.Int64
	evictedCost  atomic.Int64
}

func NewStats() *stats { return &stats{hits: new(atomic.Int64), misses: new(atomic.Int64)} }

func (s *stats) Evict(cost int64) {
	s.evicted.Add(1)
	s.evictedCost.Add(cost)
}

func (s *stats) Hit() { s.hits.Add(1) }

// lock is a table's element padded to one 64-byte line: the elements
// meet only where the table starts mid-line, which the allocator decides.
type lock struct {
	mu atomic.Int32
	_  [60]byte
}

type Locks struct{ locks []lock }

func NewLocks(n int) *Locks { return &Locks{locks: make([]lock, n)} }

func (l *Locks) Lock(i int) {
	for !l.locks[i%len(l.locks)].mu.CompareAndSwap(0, 1) {
	}
}

// config pads between members that only its constructor and Dispose
// write: the padding separates nothing that contends.
type config struct {
	mask     uint64
	_        [56]byte
	disposed uint64
}

func NewConfig(n uint64) *config { return &config{mask: n - 1} }

func (c *config) Dispose() { atomic.StoreUint64(&c.disposed, 1) }

func (c *config) Slot(i uint64) (uint64, bool) {
	return i & c.mask, atomic.LoadUint64(&c.disposed) == 1
}
