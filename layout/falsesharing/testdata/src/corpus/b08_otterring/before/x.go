// Package before reproduces the lossy read buffer of github.com/maypok86/otter
// before 021c460b55e5e36cf91513076c78c63cabf029bc, when CacheLineSize was
// unsafe.Sizeof(cpu.CacheLinePad{}): the consumer-owned head and the
// producer-CASed tail of the generic ring are a whole line apart on both
// GOARCHes: clean on both.
package before

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// CacheLineSize is the line size the ring is padded to.
const CacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

const (
	bufferSize = 16
	mask       = bufferSize - 1
)

type node[K comparable, V any] struct {
	key   K
	value V
}

type ring[K comparable, V any] struct {
	head   atomic.Uint64
	_      [CacheLineSize - unsafe.Sizeof(atomic.Uint64{})]byte
	tail   atomic.Uint64
	_      [CacheLineSize - unsafe.Sizeof(atomic.Uint64{})]byte
	buffer [bufferSize]unsafe.Pointer // *node[K, V]
}

// Buffer records reads of string keys for the policy.
type Buffer struct {
	r *ring[string, int]
}

// NewBuffer returns an empty buffer.
func NewBuffer() *Buffer { return &Buffer{r: &ring[string, int]{}} }

// Add records n; readers on every CPU call it.
func (b *Buffer) Add(n *node[string, int]) bool {
	r := b.r
	head := r.head.Load()
	tail := r.tail.Load()
	if tail-head >= bufferSize {
		return false
	}
	if r.tail.CompareAndSwap(tail, tail+1) {
		atomic.StorePointer(&r.buffer[tail&mask], unsafe.Pointer(n))
		return true
	}
	return false
}

// DrainTo hands the recorded nodes to consume; the policy goroutine
// calls it under its lock.
func (b *Buffer) DrainTo(consume func(*node[string, int])) {
	r := b.r
	head := r.head.Load()
	tail := r.tail.Load()
	for head != tail {
		p := atomic.LoadPointer(&r.buffer[head&mask])
		if p == nil {
			break
		}
		atomic.StorePointer(&r.buffer[head&mask], nil)
		consume((*node[string, int])(p))
		head++
	}
	r.head.Store(head)
}
