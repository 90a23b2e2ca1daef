// Package before reproduces github.com/puzpuzpuz/xsync's SPSCQueueOf as
// added in 0a87a63d462d840861c6238b1f2a2fec03d8622a, after rigtorp's ring
// buffer: each index and its cached copy has a line of its own, but cap
// was left on the producer index's line, and the consumer reads cap on
// every dequeue while the producer stores p_idx on every enqueue (FS2 on
// both). The cacheLineSize = 64 pads are also short on arm64.
package before

import "sync/atomic"

const cacheLineSize = 64

// SPSCQueueOf is a bounded single-producer single-consumer queue.
type SPSCQueueOf[I any] struct {
	cap          uint64
	p_idx        uint64
	pad0         [cacheLineSize - 8]byte
	p_cached_idx uint64
	pad1         [cacheLineSize - 8]byte
	c_idx        uint64
	pad2         [cacheLineSize - 8]byte
	c_cached_idx uint64
	pad3         [cacheLineSize - 8]byte
	items        []I
}

// NewStringQueue returns a queue of strings.
func NewStringQueue(capacity int) *SPSCQueueOf[string] {
	return &SPSCQueueOf[string]{cap: uint64(capacity + 1), items: make([]string, capacity+1)}
}

// TryEnqueue adds item unless the queue is full; only the producer calls it.
func (q *SPSCQueueOf[I]) TryEnqueue(item I) bool {
	idx := atomic.LoadUint64(&q.p_idx)
	next := idx + 1
	if next == q.cap {
		next = 0
	}
	if next == q.c_cached_idx {
		q.c_cached_idx = atomic.LoadUint64(&q.c_idx)
		if next == q.c_cached_idx {
			return false
		}
	}
	q.items[idx] = item
	atomic.StoreUint64(&q.p_idx, next)
	return true
}

// TryDequeue takes the oldest item; only the consumer calls it.
func (q *SPSCQueueOf[I]) TryDequeue() (item I, ok bool) {
	idx := atomic.LoadUint64(&q.c_idx)
	if idx == q.p_cached_idx {
		q.p_cached_idx = atomic.LoadUint64(&q.p_idx)
		if idx == q.p_cached_idx {
			return item, false
		}
	}
	item = q.items[idx]
	var zero I
	q.items[idx] = zero
	next := idx + 1
	if next == q.cap {
		next = 0
	}
	atomic.StoreUint64(&q.c_idx, next)
	return item, true
}
