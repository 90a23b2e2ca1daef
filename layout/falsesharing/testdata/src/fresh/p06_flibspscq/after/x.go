// Package after reproduces github.com/fmstephe/flib's single-producer
// single-consumer queue header after f049a08963e37b84001cf5caa5649d0495f7cc08:
// the 128-byte buffer is gone; the 56 bytes that lead the producer's writePos
// still keep it off the 64-byte line holding capacity, mask and backoff, which
// both goroutines read.
package after

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

const cacheLineBytes = 64 // flib only defines this for amd64

type padInt struct {
	lead  [cacheLineBytes - 8]byte
	Value int64
	trail [cacheLineBytes]byte
}

type commonQ struct {
	// read-only after construction
	capacity int64
	mask     int64
	backoff  int64
	// written by the producer
	writePos    padInt
	writeSpan   padInt
	writeMisses padInt
	cachedRead  padInt
	// written by the consumer
	readPos     padInt
	readSpan    padInt
	readMisses  padInt
	cachedWrite padInt
}

// PointerQ is used by exactly one writer goroutine and one reader goroutine.
type PointerQ struct {
	commonQ
	ring []unsafe.Pointer
}

// NewPointerQ returns a queue of capacity slots (a power of two).
func NewPointerQ(capacity, backoff int64) *PointerQ {
	q := &PointerQ{ring: make([]unsafe.Pointer, capacity)}
	q.capacity, q.mask, q.backoff = capacity, capacity-1, backoff
	return q
}

func (q *commonQ) wait() {
	for i := int64(0); i < q.backoff; i++ {
		runtime.Gosched()
	}
}

// WriteSingle is called by the writer goroutine.
func (q *PointerQ) WriteSingle(val unsafe.Pointer) bool {
	w := q.writePos.Value
	if limit := w - q.capacity; limit == q.cachedRead.Value {
		q.cachedRead.Value = atomic.LoadInt64(&q.readPos.Value)
		if limit == q.cachedRead.Value {
			q.writeMisses.Value++
			q.wait()
			return false
		}
	}
	q.ring[w&q.mask] = val
	atomic.AddInt64(&q.writePos.Value, 1)
	return true
}

// ReadSingle is called by the reader goroutine.
func (q *PointerQ) ReadSingle() unsafe.Pointer {
	r := q.readPos.Value
	if r == q.cachedWrite.Value {
		q.cachedWrite.Value = atomic.LoadInt64(&q.writePos.Value)
		if r == q.cachedWrite.Value {
			q.readMisses.Value++
			q.wait()
			return nil
		}
	}
	val := q.ring[r&q.mask]
	atomic.AddInt64(&q.readPos.Value, 1)
	return val
}

// AcquireWrite reserves up to n slots for the writer goroutine.
func (q *PointerQ) AcquireWrite(n int64) []unsafe.Pointer {
	from := q.writePos.Value & q.mask
	to := min(from+n, q.capacity)
	if limit := q.writePos.Value + (to - from) - q.capacity; limit > q.cachedRead.Value {
		q.cachedRead.Value = atomic.LoadInt64(&q.readPos.Value)
		if limit > q.cachedRead.Value {
			to = q.cachedRead.Value & q.mask
		}
	}
	q.writeSpan.Value = to - from
	return q.ring[from:to]
}

// ReleaseWrite publishes the slots taken by AcquireWrite.
func (q *PointerQ) ReleaseWrite() {
	atomic.AddInt64(&q.writePos.Value, q.writeSpan.Value)
	q.writeSpan.Value = 0
}

// FailedReads may be polled by any goroutine.
func (q *PointerQ) FailedReads() int64 { return atomic.LoadInt64(&q.readMisses.Value) }
