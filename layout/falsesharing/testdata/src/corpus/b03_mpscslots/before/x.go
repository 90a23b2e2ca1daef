// Package before reproduces github.com/maypok86/otter's generic MPSC queue
// before 0ac93887dbe14d164d14d9f0d89f9840c6bafcdf: each slot is padded by
// CacheLineSize-16 (CacheLineSize = 64), which makes paddedSlot[*entry]
// exactly 64 bytes: one slot per line on amd64, two per line on arm64
// (FS4). capacity and sleep share head's line and the consumer reads
// capacity in Remove without writing head (FS2 on both); the 56-byte
// head/tail pads are short on arm64.
package before

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
	slots        []paddedSlot[T]
}

type paddedSlot[T any] struct {
	slot[T]
	padding [CacheLineSize - unsafe.Sizeof(atomic.Uint64{}) - 8]byte
}

type slot[T any] struct {
	turn atomic.Uint64
	item T
}

type entry struct{ key, value string }

// NewEntryQueue returns a queue of entries.
func NewEntryQueue(capacity int) *MPSC[*entry] {
	return &MPSC[*entry]{sleep: make(chan struct{}), capacity: uint64(capacity), slots: make([]paddedSlot[*entry], capacity)}
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
