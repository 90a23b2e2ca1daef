// Package before reproduces github.com/puzpuzpuz/xsync's MPMCQueueOf as it
// was before a0168dbc8fcd6da7309f108d896d308d182ac1e1 and
// c614e5792a46d9f43fa7c9f30e650234afe5e9c2: the generic slot's pad was
// computed from the size of the non-generic slot (24 bytes), so for
// MPMCQueueOf[int] a padded slot is 56 bytes and neighbouring slots,
// written by different producers and consumers, share lines (FS1 on
// both). cap sits on head's line and Dequeue reads it without writing
// head (FS2 on both); the 56-byte hpad/tpad are also short on arm64.
package before

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

const cacheLineSize = 64

// slot is the element of the non-generic queue.
type slot struct {
	turn uint64
	item interface{}
}

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
	pad [cacheLineSize - (unsafe.Sizeof(slot{}) % cacheLineSize)]byte
}

type slotOf[I any] struct {
	turn uint64
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
	for atomic.LoadUint64(&s.turn) != turn {
		runtime.Gosched()
	}
	s.item = item
	atomic.StoreUint64(&s.turn, turn+1)
}

// Dequeue removes the oldest item, waiting while the queue is empty.
func (q *MPMCQueueOf[I]) Dequeue() I {
	tail := atomic.AddUint64(&q.tail, 1) - 1
	s := &q.slots[tail%q.cap]
	turn := tail/q.cap*2 + 1
	for atomic.LoadUint64(&s.turn) != turn {
		runtime.Gosched()
	}
	item := s.item
	var zero I
	s.item = zero
	atomic.StoreUint64(&s.turn, turn+1)
	return item
}
