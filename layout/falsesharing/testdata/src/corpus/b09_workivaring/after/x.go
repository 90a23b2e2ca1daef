// Package after reproduces github.com/Workiva/go-datastructures' queue
// RingBuffer as 6532aed3db80316d61b7919ccfe55acc8c3bace2 ("Added buffers
// in the queue to improve performance") left it: [8]uint64 buffers put
// queue, dequeue and mask/disposed 64 bytes apart, a line on amd64
// (clean) but short of a 128-byte line on arm64 (FS4).
package after

import (
	"errors"
	"runtime"
	"sync/atomic"
)

// ErrDisposed is returned after Dispose.
var ErrDisposed = errors.New("queue: disposed")

type node struct {
	position uint64
	data     interface{}
}

type nodes []*node

// RingBuffer is a bounded MPMC queue after Vyukov's design.
type RingBuffer struct {
	nodes          nodes
	buffer0        [8]uint64
	queue          uint64
	buffer1        [8]uint64
	dequeue        uint64
	buffer2        [8]uint64
	mask, disposed uint64
}

// NewRingBuffer returns a buffer of size entries, a power of two.
func NewRingBuffer(size uint64) *RingBuffer {
	rb := &RingBuffer{nodes: make(nodes, size), mask: size - 1}
	for i := range rb.nodes {
		rb.nodes[i] = &node{position: uint64(i)}
	}
	return rb
}

// Put adds item, waiting while the buffer is full.
func (rb *RingBuffer) Put(item interface{}) error {
	pos := atomic.LoadUint64(&rb.queue)
	for {
		if atomic.LoadUint64(&rb.disposed) == 1 {
			return ErrDisposed
		}
		n := rb.nodes[pos&rb.mask]
		seq := atomic.LoadUint64(&n.position)
		if seq == pos && atomic.CompareAndSwapUint64(&rb.queue, pos, pos+1) {
			n.data = item
			atomic.StoreUint64(&n.position, pos+1)
			return nil
		}
		runtime.Gosched()
		pos = atomic.LoadUint64(&rb.queue)
	}
}

// Get takes the oldest item, waiting while the buffer is empty.
func (rb *RingBuffer) Get() (interface{}, error) {
	pos := atomic.LoadUint64(&rb.dequeue)
	for {
		if atomic.LoadUint64(&rb.disposed) == 1 {
			return nil, ErrDisposed
		}
		n := rb.nodes[pos&rb.mask]
		seq := atomic.LoadUint64(&n.position)
		if seq == pos+1 && atomic.CompareAndSwapUint64(&rb.dequeue, pos, pos+1) {
			data := n.data
			n.data = nil
			atomic.StoreUint64(&n.position, pos+rb.mask+1)
			return data, nil
		}
		runtime.Gosched()
		pos = atomic.LoadUint64(&rb.dequeue)
	}
}

// Len returns the number of queued items.
func (rb *RingBuffer) Len() uint64 {
	return atomic.LoadUint64(&rb.queue) - atomic.LoadUint64(&rb.dequeue)
}

// Dispose wakes and fails every waiter.
func (rb *RingBuffer) Dispose() { atomic.CompareAndSwapUint64(&rb.disposed, 0, 1) }
