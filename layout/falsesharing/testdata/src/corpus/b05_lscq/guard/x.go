// Package guard reproduces the queue headers of github.com/bytedance/gopkg's
// LSCQ as added in 585986c1961bbfc26040b2c10159b3f359157858: head and
// tail pointers, and the SCQ's head, tail and threshold counters, are
// separated by pads of unsafe.Sizeof(cpu.CacheLinePad{}) minus the member,
// a whole line apart on both GOARCHes, and consecutive tickets are spread
// over the ring's lines (LSCQ's cacheRemap16Byte), so that neighbouring
// producers store into different lines: clean on both.
package guard

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/cpu"
)

const (
	scqsize       = 1 << 10
	cacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})
)

// Uint64Queue is an unbounded queue of linked bounded queues.
type Uint64Queue struct {
	head *uint64SCQ
	_    [cacheLineSize - unsafe.Sizeof(new(uintptr))]byte
	tail *uint64SCQ
}

type uint64SCQ struct {
	_         [cacheLineSize]byte
	head      uint64
	_         [cacheLineSize - unsafe.Sizeof(new(uint64))]byte
	tail      uint64
	_         [cacheLineSize - unsafe.Sizeof(new(uint64))]byte
	threshold int64
	_         [cacheLineSize - unsafe.Sizeof(new(uint64))]byte
	next      *uint64SCQ
	ring      []uint64
	mu        sync.Mutex
}

// NewUint64 returns an empty queue.
func NewUint64() *Uint64Queue {
	q := &uint64SCQ{head: scqsize, tail: scqsize, threshold: -1, ring: make([]uint64, scqsize)}
	return &Uint64Queue{head: q, tail: q}
}

// slot spreads consecutive tickets over the ring's lines: ticket t goes
// to line t%lines, at position t/lines in it.
func slot(t uint64) uint64 {
	const perLine = uint64(cacheLineSize / 8)
	const lines = scqsize / perLine
	i := t % scqsize
	return (i%lines)*perLine + i/lines
}

func (q *uint64SCQ) enqueue(v uint64) bool {
	t := atomic.AddUint64(&q.tail, 1) - 1
	if t-atomic.LoadUint64(&q.head) >= scqsize {
		return false
	}
	atomic.StoreUint64(&q.ring[slot(t)], v)
	atomic.StoreInt64(&q.threshold, 2*scqsize-1)
	return true
}

func (q *uint64SCQ) dequeue() (uint64, bool) {
	if atomic.LoadInt64(&q.threshold) < 0 {
		return 0, false
	}
	h := atomic.AddUint64(&q.head, 1) - 1
	if h >= atomic.LoadUint64(&q.tail) {
		atomic.AddInt64(&q.threshold, -1)
		return 0, false
	}
	return atomic.SwapUint64(&q.ring[slot(h)], 0), true
}

// Enqueue appends v at the tail.
func (q *Uint64Queue) Enqueue(v uint64) bool {
	cq := (*uint64SCQ)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&q.tail))))
	return cq.enqueue(v)
}

// Dequeue removes the value at the head.
func (q *Uint64Queue) Dequeue() (uint64, bool) {
	cq := (*uint64SCQ)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(&q.head))))
	return cq.dequeue()
}
