// Package after reproduces github.com/maypok86/otter's generic MPSC queue
// as 0ac93887dbe14d164d14d9f0d89f9840c6bafcdf left it: the slot padding
// was removed, so slot[*entry] is 16 bytes and four (amd64) or eight
// (arm64) slots, each written by the producer that claimed it and by the
// consumer, share a line (FS1 on both). capacity still shares head's
// line (FS2 on both).
package after

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// CacheLineSize is the line size the padding assumes.
const CacheLineSize = 64

// MPSC is a bounded multi-producer single-consumer queue.
type MPSC[T any] struct {
	capacity     uint64
	sleep        chan struct{}
	head         atomic.Uint64
	headPadding  [CacheLineSize - unsafe.Sizeof(atomic.Uint64{})]byte
	tail         uint64
	tailPadding  [CacheLineSize - 8]byte
	isSleep      atomic.Uint64
	sleepPadding [CacheLineSize - unsafe.Sizeof(atomic.Uint64{})]byte
	slots        []slot[T]
}

type slot[T any] struct {
	turn atomic.Uint64
	item T
}

type entry struct{ key, value string }

// NewEntryQueue returns a queue of entries.
func NewEntryQueue(capacity int) *MPSC[*entry] {
	return &MPSC[*entry]{sleep: make(chan struct{}), capacity: uint64(capacity), slots: make([]slot[*entry], capacity)}
}

// Insert adds item, waiting while the queue is full.
func (q *MPSC[T]) Insert(item T) {
	head := q.head.Add(1) - 1
	if q.isSleep.Load() == 1 && q.isSleep.CompareAndSwap(1, 0) {
		q.sleep <- struct{}{}
	}
	s := &q.slots[head%q.capacity]
	turn := head / q.capacity * 2
	for s.turn.Load() != turn {
		runtime.Gosched()
	}
	s.item = item
	s.turn.Store(turn + 1)
}

// Remove takes the oldest item; only the consumer calls it.
func (q *MPSC[T]) Remove() T {
	tail := q.tail
	s := &q.slots[tail%q.capacity]
	turn := 2*(tail/q.capacity) + 1
	for s.turn.Load() != turn {
		q.isSleep.Store(1)
		<-q.sleep
	}
	item := s.item
	var zero T
	s.item = zero
	s.turn.Store(turn + 1)
	q.tail++
	return item
}
