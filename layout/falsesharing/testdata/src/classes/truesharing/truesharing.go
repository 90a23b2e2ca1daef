// Package truesharing holds lines that look falsely shared and are not:
// every operation that writes one member also reads the other on every
// call, or reads the very words others write. Padding would remove none
// of the misses: no finding.
package truesharing

import (
	"math/rand/v2"
	"sync/atomic"
)

// Queue's producers load head to see whether the queue is full and
// take tickets from tail; its consumers load tail to see whether it is
// empty and take tickets from head.
type Queue struct {
	head  atomic.Uint64
	tail  atomic.Uint64
	slots []atomic.Pointer[int]
}

func (q *Queue) Push(v *int) bool {
	for {
		t, h := q.tail.Load(), q.head.Load()
		if t-h >= uint64(len(q.slots)) {
			return false
		}
		if q.tail.CompareAndSwap(t, t+1) {
			q.slots[t%uint64(len(q.slots))].Store(v)
			return true
		}
	}
}

func (q *Queue) Pop() *int {
	for {
		h, t := q.head.Load(), q.tail.Load()
		if h == t {
			return nil
		}
		if q.head.CompareAndSwap(h, h+1) {
			return q.slots[h%uint64(len(q.slots))].Swap(nil)
		}
	}
}

// backend counts the calls in flight to one server.
type backend struct {
	inflight atomic.Int64
}

// Balancer picks the least loaded backend for every call, starting from
// one at random: it loads each backend's count, then bumps the one it
// picks. Every pick reads the words the others write.
type Balancer struct {
	backends []backend
}

func (b *Balancer) Call(do func(int)) {
	best := rand.IntN(len(b.backends))
	for i := range b.backends {
		if b.backends[i].inflight.Load() < b.backends[best].inflight.Load() {
			best = i
		}
	}
	b.backends[best].inflight.Add(1)
	do(best)
	b.backends[best].inflight.Add(-1)
}
