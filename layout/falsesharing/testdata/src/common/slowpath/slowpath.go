// Package slowpath holds a lock-free operation that takes a lock only on
// its slow path: what it does under the lock runs now and then, and
// meets no steady writer.
package slowpath

import (
	"sync"
	"sync/atomic"
)

type Histogram struct {
	exMu   sync.Mutex // every ObserveWithExemplar takes it
	ex     int64
	slowMu sync.Mutex // Observe takes it once in 1024 calls
	limit  int64
	_      [128]byte
	count  atomic.Uint64
}

func (h *Histogram) ObserveWithExemplar(v int64) {
	h.exMu.Lock()
	h.ex = v
	h.exMu.Unlock()
}

func (h *Histogram) Observe(v int64) {
	if h.count.Add(1)%1024 != 0 {
		return
	}
	h.slowMu.Lock()
	if v > h.limit {
		h.limit = v
	}
	h.slowMu.Unlock()
}
