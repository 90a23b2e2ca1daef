// Package after reproduces github.com/google/gvisor's systrap context queue
// after ed4f838901afa316b697ce5b970bb2cc18097ba5: the control words are
// grouped by writer (Sentry, stubs, both) and each group is padded to
// hostarch.CacheLineSize, which is 64 on amd64 and on arm64 alike, so the
// Sentry's tail and the stubs' head still share a 128-byte line on arm64.
package after

import (
	"runtime"
	"sync/atomic"
)

const (
	cacheLineSize = 64   // hostarch.CacheLineSize on both architectures
	maxEntries    = 4096 // the queue is a large, page-aligned object
	invalidID     = ^uint32(0)
	indexShift    = 32
	entriesMask   = maxEntries - 1
)

type ContextQueue struct {
	tail uint32 // advanced by the Sentry
	_    [cacheLineSize - 4]byte

	head uint32 // taken by stub threads
	_    [cacheLineSize - 4]byte

	fastPathOff   uint32 // Sentry-written
	awakeContexts uint32
	_             [cacheLineSize - 8]byte

	activeStubs   uint32 // stub-written
	spinningStubs uint32
	_             [cacheLineSize - 8]byte

	wakeRequests uint32 // both sides, also a futex word
	_            [cacheLineSize - 4]byte

	activeContexts uint32 // both sides
	fastPathUsed   uint32
	_              [cacheLineSize - 8]byte

	ring [maxEntries]uint64
}

// NewQueue returns an empty queue shared by the Sentry and its stubs.
func NewQueue() *ContextQueue {
	q := new(ContextQueue)
	for i := range q.ring {
		q.ring[i] = uint64(invalidID)
	}
	return q
}

// Add queues a context to be resumed; only the Sentry calls it.
func (q *ContextQueue) Add(id uint32, fast bool) {
	disabled := uint32(1)
	if fast {
		disabled = 0
	}
	if atomic.LoadUint32(&q.fastPathOff) != disabled {
		atomic.StoreUint32(&q.fastPathOff, disabled)
	}
	atomic.AddUint32(&q.activeContexts, 1)
	next := atomic.AddUint32(&q.tail, 1) - 1
	atomic.StoreUint64(&q.ring[next&entriesMask], uint64(next)<<indexShift|uint64(id))
	if atomic.LoadUint32(&q.fastPathUsed) != 0 && atomic.SwapUint32(&q.fastPathUsed, 0) != 0 {
		atomic.AddUint32(&q.awakeContexts, 1)
	}
	if atomic.LoadUint32(&q.spinningStubs) == 0 {
		atomic.AddUint32(&q.wakeRequests, 1)
	}
}

// StartStubs runs n stub threads, each polling the ring for contexts and
// handing them to run.
func (q *ContextQueue) StartStubs(n int, run func(uint32)) {
	for i := 0; i < n; i++ {
		go q.stub(run)
	}
}

func (q *ContextQueue) stub(run func(uint32)) {
	atomic.AddUint32(&q.activeStubs, 1)
	defer atomic.AddUint32(&q.activeStubs, ^uint32(0))
	for {
		atomic.AddUint32(&q.spinningStubs, 1)
		id := q.take()
		atomic.AddUint32(&q.spinningStubs, ^uint32(0))
		if id == invalidID {
			if atomic.LoadUint32(&q.fastPathOff) != 0 {
				if n := atomic.LoadUint32(&q.wakeRequests); n > 0 {
					atomic.CompareAndSwapUint32(&q.wakeRequests, n, n-1)
				}
			}
			runtime.Gosched()
			continue
		}
		atomic.StoreUint32(&q.fastPathUsed, 1)
		run(id)
		atomic.AddUint32(&q.activeContexts, ^uint32(0))
	}
}

func (q *ContextQueue) take() uint32 {
	for {
		head := atomic.LoadUint32(&q.head)
		if head == atomic.LoadUint32(&q.tail) {
			return invalidID
		}
		v := atomic.LoadUint64(&q.ring[head&entriesMask])
		if uint32(v>>indexShift) != head {
			return invalidID
		}
		if atomic.CompareAndSwapUint32(&q.head, head, head+1) {
			return uint32(v)
		}
	}
}
