// Package guard reproduces github.com/bruceshao/lockfree's write cursor as of
// e89824c0a6e914fe085171628a97ab6bf00811c0: the sequence every producer bumps
// sits between seven padding words on each side, a 120-byte object the
// allocator rounds to its own 128-byte, 128-aligned block.
package guard

import (
	"errors"
	"runtime"
	"sync/atomic"
)

type cursor struct {
	l1, l2, l3, l4, l5, l6, l7 uint64
	v                          uint64
	r1, r2, r3, r4, r5, r6, r7 uint64
}

func (c *cursor) increment() uint64 { return atomic.AddUint64(&c.v, 1) }

// sequencer pairs the shared write cursor with the read position, which only
// the consumer goroutine advances and producers load on every write.
type sequencer struct {
	readSeq  uint64
	size     uint64
	writeCur *cursor
}

type entry struct {
	c   uint64
	val any
}

// Queue is written by any number of producers and drained by one consumer.
type Queue struct {
	seq    *sequencer
	buf    []entry
	mask   uint64
	closed int32
}

var ErrClosed = errors.New("queue closed")

// New builds a queue of size slots (a power of two) and starts its
// consumer goroutine, which passes every value to handle.
func New(size int, handle func(any)) *Queue {
	q := &Queue{
		seq:  &sequencer{readSeq: 1, size: uint64(size), writeCur: &cursor{}},
		buf:  make([]entry, size),
		mask: uint64(size) - 1,
	}
	go q.consume(handle)
	return q
}

// Write claims the next sequence and publishes v into its slot.
func (q *Queue) Write(v any) error {
	next := q.seq.writeCur.increment()
	for {
		if atomic.LoadInt32(&q.closed) != 0 {
			return ErrClosed
		}
		if r := atomic.LoadUint64(&q.seq.readSeq) - 1; next <= r+q.seq.size {
			e := &q.buf[(next-1)&q.mask]
			e.val = v
			atomic.StoreUint64(&e.c, next)
			return nil
		}
		runtime.Gosched()
	}
}

func (q *Queue) consume(handle func(any)) {
	readSeq := atomic.LoadUint64(&q.seq.readSeq)
	for atomic.LoadInt32(&q.closed) == 0 {
		e := &q.buf[(readSeq-1)&q.mask]
		if atomic.LoadUint64(&e.c) != readSeq {
			runtime.Gosched()
			continue
		}
		v := e.val
		readSeq = atomic.AddUint64(&q.seq.readSeq, 1)
		handle(v)
	}
}

// Close stops producers and the consumer.
func (q *Queue) Close() { atomic.StoreInt32(&q.closed, 1) }
