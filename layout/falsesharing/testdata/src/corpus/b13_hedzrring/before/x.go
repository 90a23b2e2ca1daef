// Package before reproduces github.com/hedzr/go-ringbuf's fast ring before
// 1942e7287943882a5293b4cc913f67bdccc1651f: head, advanced by getters,
// tail, advanced by putters, and the wait counters share one line (FS2 on
// both). rbItem pads by CacheLinePadSize - 16 as if the interface value
// were 8 bytes, so items are a line plus 8 and neighbouring items share a
// line at most phases (FS3 on both).
package before

import (
	"errors"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// CacheLinePadSize is the line size of the GOARCH.
const CacheLinePadSize = unsafe.Sizeof(cpu.CacheLinePad{})

// ErrFull and ErrEmpty are returned when no slot is ready.
var (
	ErrFull  = errors.New("ringbuf: full")
	ErrEmpty = errors.New("ringbuf: empty")
)

// RingBuf is a bounded lock-free queue.
type RingBuf struct {
	cap        uint32
	capModMask uint32
	head       uint32
	tail       uint32
	putWaits   uint64
	getWaits   uint64
	_          [CacheLinePadSize - 8 - 8 - 4*4]byte
	data       []rbItem
}

type rbItem struct {
	readWrite uint64      // 0 writable, 1 readable, 2 writing, 3 reading
	value     interface{} // the item
	_         [CacheLinePadSize - 8 - 8]byte
}

// New returns a ring of size slots, a power of two.
func New(size uint32) *RingBuf {
	return &RingBuf{cap: size, capModMask: size - 1, data: make([]rbItem, size)}
}

// Enqueue adds item; putters call it on any CPU.
func (rb *RingBuf) Enqueue(item interface{}) error {
	for {
		tail := atomic.LoadUint32(&rb.tail)
		head := atomic.LoadUint32(&rb.head)
		nt := (tail + 1) & rb.capModMask
		if nt == head {
			atomic.AddUint64(&rb.putWaits, 1)
			return ErrFull
		}
		if atomic.CompareAndSwapUint32(&rb.tail, tail, nt) {
			it := &rb.data[tail]
			it.value = item
			atomic.StoreUint64(&it.readWrite, 1)
			return nil
		}
	}
}

// Dequeue takes the oldest item; getters call it on any CPU.
func (rb *RingBuf) Dequeue() (interface{}, error) {
	for {
		head := atomic.LoadUint32(&rb.head)
		tail := atomic.LoadUint32(&rb.tail)
		if head == tail {
			atomic.AddUint64(&rb.getWaits, 1)
			return nil, ErrEmpty
		}
		it := &rb.data[head]
		if atomic.LoadUint64(&it.readWrite) != 1 {
			continue
		}
		if atomic.CompareAndSwapUint32(&rb.head, head, (head+1)&rb.capModMask) {
			v := it.value
			it.value = nil
			atomic.StoreUint64(&it.readWrite, 0)
			return v, nil
		}
	}
}
