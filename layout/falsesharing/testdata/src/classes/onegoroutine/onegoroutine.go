// Package onegoroutine holds objects that one goroutine uses at a time,
// as their docs say, in words the analyzer was not first written
// against, and per-worker blocks of a table picked by a worker's index:
// their members are never written by two CPUs at once.
package onegoroutine

import "sync/atomic"

// Txn is a transaction. Transactions are not safe to share between
// goroutines: each is used by the goroutine that began it.
type Txn struct {
	reads  atomic.Int64
	writes atomic.Int64
	done   bool
}

func (t *Txn) Get(k string) string { t.reads.Add(1); return k }

func (t *Txn) Set(k, v string) { t.writes.Add(1) }

// Request is one call's state.
type Request struct {
	sent     atomic.Int64
	received atomic.Int64
}

// NewRequest returns a request, which must not be used by several
// goroutines at once.
func NewRequest() *Request { return &Request{} }

func (r *Request) Send() { r.sent.Add(1) }

func (r *Request) Receive() { r.received.Add(1) }

// block holds one worker's counts.
type block struct {
	runs   atomic.Int64
	steals atomic.Int64
}

// Scheduler keeps a block per worker; each worker counts in its own,
// by an index its caller passes.
type Scheduler struct {
	blocks []block
}

func NewScheduler(n int) *Scheduler { return &Scheduler{blocks: make([]block, n)} }

func (s *Scheduler) Ran(w int) { s.blocks[w].runs.Add(1) }

func (s *Scheduler) Stole(w int) { s.blocks[w].steals.Add(1) }

// entry is one key's: Set makes one per key and keeps it in the map;
// the calls that handle its key touch it, one key at a time, and its
// CAS contends only on a hot key.
type entry struct {
	value   atomic.Pointer[string]
	version atomic.Uint64
	hits    atomic.Int64
}

// Cache keeps an entry per key.
type Cache struct {
	m map[string]*entry
}

func NewCache() *Cache { return &Cache{m: map[string]*entry{}} }

func (c *Cache) Set(k string, v *string) {
	e := &entry{}
	e.value.Store(v)
	c.m[k] = e
}

func (c *Cache) Get(k string) *string {
	e := c.m[k]
	e.hits.Add(1)
	return e.value.Load()
}

func (c *Cache) Update(k string, v *string) {
	e := c.m[k]
	e.value.Store(v)
	e.version.Add(1)
}
