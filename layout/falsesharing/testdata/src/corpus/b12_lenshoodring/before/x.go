// Package before reproduces github.com/LENSHOOD/go-lock-free-ring-buffer's
// MPSC ring before b5ac66ed585831a14e61fac54c145a1a2cba1b83: head, CASed
// by the consumer, and tail, CASed by every producer, share a line with
// capacity and mask. Offer and Poll each load both indexes on every
// call, so the line is truly shared: clean on both GOARCHes (the upstream
// padding removes none of its misses).
package before

import (
	"sync/atomic"
	"unsafe"
)

type ringBufferBasement struct {
	head     uint64
	tail     uint64
	capacity uint64
	mask     uint64
}

// MPSC is a bounded multi-producer single-consumer ring.
type MPSC struct {
	ringBufferBasement
	element []interface{}
}

// NewMPSC returns a ring of capacity slots, a power of two.
func NewMPSC(capacity uint64) *MPSC {
	r := &MPSC{element: make([]interface{}, capacity)}
	r.capacity = capacity
	r.mask = capacity - 1
	return r
}

func (r *MPSC) slot(i uint64) *unsafe.Pointer {
	return (*unsafe.Pointer)(unsafe.Pointer(&r.element[i&r.mask]))
}

// Offer adds value; producers call it on any CPU.
func (r *MPSC) Offer(value interface{}) bool {
	oldTail := atomic.LoadUint64(&r.tail)
	oldHead := atomic.LoadUint64(&r.head)
	if oldTail-oldHead >= r.capacity {
		return false
	}
	newTail := oldTail + 1
	if atomic.LoadPointer(r.slot(newTail)) != nil {
		return false
	}
	if !atomic.CompareAndSwapUint64(&r.tail, oldTail, newTail) {
		return false
	}
	atomic.StorePointer(r.slot(newTail), unsafe.Pointer(&value))
	return true
}

// Poll takes the oldest value; the consumer calls it.
func (r *MPSC) Poll() (interface{}, bool) {
	oldTail := atomic.LoadUint64(&r.tail)
	oldHead := atomic.LoadUint64(&r.head)
	if oldTail == oldHead {
		return nil, false
	}
	newHead := oldHead + 1
	p := atomic.LoadPointer(r.slot(newHead))
	if p == nil || !atomic.CompareAndSwapUint64(&r.head, oldHead, newHead) {
		return nil, false
	}
	atomic.StorePointer(r.slot(newHead), nil)
	return *(*interface{})(p), true
}
