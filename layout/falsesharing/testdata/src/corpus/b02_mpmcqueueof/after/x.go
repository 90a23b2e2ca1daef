// Package after reproduces github.com/puzpuzpuz/xsync's MPMCQueueOf as
// c614e5792a46d9f43fa7c9f30e650234afe5e9c2 left it: a generic Sizeof is
// not a constant, so the slot gets a best-effort pad of cacheLineSize-8
// after its atomic turn. For MPMCQueueOf[int] a padded slot is 72 bytes:
// neighbouring slots' members stay 56 bytes apart, a line at 64 (clean on
// amd64) but not at 128 (FS4 on arm64). cap still shares head's line and
// is read by Dequeue (FS2 on both).
package after

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

const cacheLineSize = 64

// MPMCQueueOf is a bounded multi-producer multi-consumer queue.
type MPMCQueueOf[I any] struct {
	cap   uint64
	head  uint64
	hpad  [cacheLineSize - 8]byte
	tail  uint64
	tpad  [cacheLineSize - 8]byte
	slots []slotOfPadded[I]
}

type slotOfPadded[I any] struct {
	slotOf[I]
	// Best effort for items of up to 56 bytes.
	pad [cacheLineSize - unsafe.Sizeof(atomic.Uint64{})]byte
}

type slotOf[I any] struct {
	turn atomic.Uint64
	item I
}

// NewIntQueue returns a queue of ints.
func NewIntQueue(capacity int) *MPMCQueueOf[int] {
	return &MPMCQueueOf[int]{cap: uint64(capacity), slots: make([]slotOfPadded[int], capacity)}
}

// Enqueue inserts item, waiting while the queue is full.
func (q *MPMCQueueOf[I]) Enqueue(item I) {
	head := atomic.AddUint64(&q.head, 1) - 1
	s := &q.slots[head%q.cap]
	turn := head / q.cap * 2
	for s.turn.Load() != turn {
		runtime.Gosched()
	}
	s.item = item
	s.turn.Store(turn + 1)
}

// Dequeue removes the oldest item, waiting while the queue is empty.
func (q *MPMCQueueOf[I]) Dequeue() I {
	tail := atomic.AddUint64(&q.tail, 1) - 1
	s := &q.slots[tail%q.cap]
	turn := tail/q.cap*2 + 1
	for s.turn.Load() != turn {
		runtime.Gosched()
	}
	item := s.item
	var zero I
	s.item = zero
	s.turn.Store(turn + 1)
	return item
}
