package model

import (
	"errors"
	"sync"
	"sync/atomic"
)

// Table counts on its exceptional paths.
type Table struct {
	mu      sync.Mutex
	cond    *sync.Cond
	hits    atomic.Int64
	absent  atomic.Int64
	waiting atomic.Int64
	late    atomic.Int64
	closed  atomic.Bool
	stopped uint32
	m       map[string]int
}

var errAbsent = errors.New("absent")

// Delete counts deletes of absent keys on its way to returning an error.
func (t *Table) Delete(k string) error {
	if _, ok := t.m[k]; !ok {
		t.absent.Add(1)
		return errAbsent
	}
	delete(t.m, k)
	t.hits.Add(1)
	return nil
}

// Take counts itself waiting beside the wait that blocks it.
func (t *Table) Take() {
	t.mu.Lock()
	for len(t.m) == 0 {
		t.waiting.Add(1)
		t.cond.Wait()
		t.waiting.Add(-1)
	}
	t.mu.Unlock()
}

// Use counts the uses after Close on the closed path.
func (t *Table) Use() {
	if t.closed.Load() || atomic.LoadUint32(&t.stopped) != 0 {
		t.late.Add(1)
		return
	}
	t.hits.Add(1)
}

// RWBiased is a reader-biased lock: writers are rare.
type RWBiased struct {
	readers atomic.Int32
	writer  sync.Mutex
}

func (l *RWBiased) RLock()   { l.readers.Add(1) }
func (l *RWBiased) RUnlock() { l.readers.Add(-1) }
func (l *RWBiased) Lock()    { l.writer.Lock() }
func (l *RWBiased) Unlock()  { l.writer.Unlock() }

// RWPlain says nothing of its writers.
type RWPlain struct {
	readers atomic.Int32
	writer  sync.Mutex
}

func (l *RWPlain) RLock() { l.readers.Add(1) }
func (l *RWPlain) Lock()  { l.writer.Lock() }

// CachedReport reports the counts: a scrape.
func (t *Table) CachedReport() int64 { return t.hits.Load() }

// CachedRing keeps a cached copy of the consumer's index, as rigtorp's queues
// do: the producer reads head itself only when the copy runs out.
type CachedRing struct {
	tail       atomic.Uint64
	cachedHead uint64
	head       atomic.Uint64
}

// Put refreshes its copy of head only when the ring looks full.
func (r *CachedRing) Put() bool {
	t := r.tail.Load()
	if t-r.cachedHead == 8 {
		r.cachedHead = r.head.Load()
		if t-r.cachedHead == 8 {
			return false
		}
	}
	r.tail.Store(t + 1)
	return true
}
