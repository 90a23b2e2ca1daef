// Package after reproduces golang.org/x/sys/cpu as
// 20c2bfdbfe249b02ea905477d7cff52673dadfa2 left it: CacheLinePad is 128
// bytes on arm64 (Apple M1 and others have 128-byte lines), so the same
// queue's indexes are a whole line apart on both GOARCHes: clean on both.
package after

import "sync/atomic"

// CacheLinePad pads structs to avoid false sharing, as x/sys/cpu does,
// sized by the GOARCH's cacheLineSize.
type CacheLinePad struct{ _ [cacheLineSize]byte }

// SPSC is a single-producer single-consumer queue of ints.
type SPSC struct {
	_    CacheLinePad
	head atomic.Uint64 // next slot to read; stored by the consumer on every item
	_    CacheLinePad
	tail atomic.Uint64 // next slot to write; stored by the producer on every item
	_    CacheLinePad
	buf  []int
}

// NewSPSC returns a queue of n slots, a power of two.
func NewSPSC(n int) *SPSC { return &SPSC{buf: make([]int, n)} }

// Push adds v unless the queue is full; only the producer calls it.
func (q *SPSC) Push(v int) bool {
	t := q.tail.Load()
	if t-q.head.Load() == uint64(len(q.buf)) {
		return false
	}
	q.buf[t%uint64(len(q.buf))] = v
	q.tail.Store(t + 1)
	return true
}

// Pop takes the oldest value; only the consumer calls it.
func (q *SPSC) Pop() (int, bool) {
	h := q.head.Load()
	if h == q.tail.Load() {
		return 0, false
	}
	v := q.buf[h%uint64(len(q.buf))]
	q.head.Store(h + 1)
	return v, true
}

// Run moves n values through a new queue with a producer goroutine.
func Run(n int) int {
	q := NewSPSC(64)
	go func() {
		for i := 0; i < n; {
			if q.Push(i) {
				i++
			}
		}
	}()
	sum := 0
	for got := 0; got < n; {
		if v, ok := q.Pop(); ok {
			sum += v
			got++
		}
	}
	return sum
}
