// Package before reproduces github.com/anthdm/hollywood's actor inbox queue
// before 62fc88f869cdc9675fda23e6bb974883bdfc837c: parked (isIdling upstream),
// stored by the consumer goroutine every time it parks and wakes, has no pad
// after it and shares a line with the ring slice header every sender reads on
// each Write.
package before

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

const linePad = 64

const (
	slotEmpty = iota
	slotBusy
	slotCommitted
)

const stateRunning, stateClosed = 0, 1

// Consumer receives the batches the inbox goroutine drains.
type Consumer interface{ Consume([]any) }

type slot struct {
	item any
	atomic.Uint32
}

type Queue struct {
	_        [linePad]byte
	writeSeq atomic.Uint32
	_        [linePad - unsafe.Sizeof(atomic.Uint32{})]byte
	readSeq  atomic.Uint32
	_        [linePad - unsafe.Sizeof(atomic.Uint32{})]byte
	runState atomic.Uint32
	_        [linePad - unsafe.Sizeof(atomic.Uint32{})]byte
	parked   atomic.Bool
	ring     []slot
	_        [linePad]byte
	mask     uint32
	sink     Consumer
	batch    []any
	wake     *sync.Cond
}

// Start builds the queue and runs its consumer goroutine, as an inbox does
// when its actor starts.
func Start(size uint32, c Consumer) *Queue {
	q := &Queue{ring: make([]slot, size), mask: size - 1, sink: c,
		batch: make([]any, size+1), wake: sync.NewCond(&sync.Mutex{})}
	go q.ReadN()
	return q
}

// Write is called by every sender goroutine.
func (q *Queue) Write(v any) {
	s := &q.ring[q.writeSeq.Add(1)&q.mask]
	for !s.CompareAndSwap(slotEmpty, slotBusy) {
		runtime.Gosched()
	}
	s.item = v
	s.Store(slotCommitted)
}

// Awake wakes the consumer if it parked; senders call it after Write.
func (q *Queue) Awake() {
	if q.parked.Load() {
		q.wake.Signal()
	}
}

// ReadN is the consumer loop.
func (q *Queue) ReadN() {
	current := q.readSeq.Load()
	for {
		lower, upper := current+1, q.writeSeq.Load()
		if lower <= upper {
			q.consume(lower, upper)
			q.readSeq.Store(upper)
			current = upper
		} else if q.runState.Load() == stateClosed {
			return
		} else {
			q.wake.L.Lock()
			q.parked.Store(true)
			q.wake.Wait()
			q.parked.Store(false)
			q.wake.L.Unlock()
		}
	}
}

func (q *Queue) consume(lower, upper uint32) {
	n := 0
	for ; lower <= upper; lower++ {
		s := &q.ring[lower&q.mask]
		for !s.CompareAndSwap(slotCommitted, slotBusy) {
			runtime.Gosched()
		}
		q.batch[n] = s.item
		s.Store(slotEmpty)
		n++
	}
	q.sink.Consume(q.batch[:n])
}

// Close stops the consumer loop.
func (q *Queue) Close() {
	q.runState.Store(stateClosed)
	q.wake.Signal()
}
