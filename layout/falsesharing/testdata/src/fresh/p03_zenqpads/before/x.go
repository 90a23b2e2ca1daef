// Package before reproduces github.com/alphadose/ZenQ's queue header before
// bfd195c699ce28a6e8b66a7ab93800d1eac41179: besides the producers' writePos
// and the consumer's readPos, the read-mostly posMask, phase, getBox and
// putBox (indexMask, globalState, alloc, free upstream) each get a 64-byte
// line of their own: four lines of padding that separate nothing written on
// the hot path.
package before

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

const padSize = 64 // the project's pad for amd64 and arm64 alike

const (
	open, closedForWrites, fullyClosed = 0, 1, 2 // phase
	empty, busy, committed             = 0, 1, 2 // slot.state
)

type slot struct {
	state uint32
	item  any
}

// selector is the state the select helper goroutine shares with writers.
type selector struct {
	state   uint32
	aux     unsafe.Pointer
	backlog unsafe.Pointer
	wake    chan struct{}
}

type Queue struct {
	writePos uint64
	_        [padSize - unsafe.Sizeof(uint64(0))]byte
	readPos  uint64
	_        [padSize - unsafe.Sizeof(uint64(0))]byte
	posMask  uint64
	_        [padSize - unsafe.Sizeof(uint64(0))]byte
	phase    uint32
	_        [padSize - unsafe.Sizeof(uint32(0))]byte
	selector
	_      [padSize - unsafe.Sizeof(selector{})]byte
	getBox func() any
	_      [padSize - unsafe.Sizeof(func() {})]byte
	putBox func(any)
	_      [padSize - unsafe.Sizeof(func() {})]byte
	slots  []*slot
	_      [padSize]byte
}

// New builds a queue of size slots (a power of two) and starts its select
// helper goroutine.
func New(size uint64) *Queue {
	pool := &sync.Pool{New: func() any { return new(any) }}
	q := &Queue{posMask: size - 1, getBox: pool.Get, putBox: pool.Put}
	q.slots, q.wake = make([]*slot, size), make(chan struct{}, 1)
	for i := range q.slots {
		q.slots[i] = &slot{}
	}
	go q.selectLoop()
	return q
}

// Write claims the next slot; producers call it from any goroutine.
func (q *Queue) Write(v any) bool {
	if atomic.LoadUint32(&q.phase) != open {
		return false
	}
	s := q.slots[atomic.AddUint64(&q.writePos, 1)&q.posMask]
	for !atomic.CompareAndSwapUint32(&s.state, empty, busy) {
		if atomic.LoadUint32(&q.phase) != open {
			return false
		}
		runtime.Gosched()
	}
	s.item = v
	atomic.StoreUint32(&s.state, committed)
	return true
}

// Read takes the next slot; the consumer calls it.
func (q *Queue) Read() (any, bool) {
	s := q.slots[atomic.AddUint64(&q.readPos, 1)&q.posMask]
	for !atomic.CompareAndSwapUint32(&s.state, committed, busy) {
		if atomic.LoadUint32(&q.phase) == fullyClosed {
			return nil, false
		}
		box := q.getBox().(*any)
		runtime.Gosched()
		q.putBox(box)
	}
	v := s.item
	atomic.StoreUint32(&s.state, empty)
	return v, true
}

// Close stops further writes.
func (q *Queue) Close() {
	if atomic.CompareAndSwapUint32(&q.phase, open, closedForWrites) {
		atomic.StoreUint32(&q.phase, fullyClosed)
		q.wake <- struct{}{}
	}
}

func (q *Queue) selectLoop() {
	atomic.StorePointer(&q.aux, unsafe.Pointer(&q.wake))
	for range q.wake {
		if v, ok := q.Read(); ok {
			atomic.StorePointer(&q.backlog, unsafe.Pointer(&v))
		}
		atomic.StoreUint32(&q.state, 0)
		if atomic.LoadUint32(&q.phase) == fullyClosed {
			return
		}
	}
}
