// Package setup holds operations whose accesses do not all weigh the
// same: goroutines that serve in a loop and do some of their work once,
// before the loop or after it; calls that grow a table now and then; a
// call that waits for a channel before it touches a lock. What they do
// once, now and then, or after sleeping is no steady state, neither a
// write that contends nor a touch of the line that would make the other
// reads true sharing.
package setup

import (
	"io"
	"sync"
	"sync/atomic"
)

// Conn's read loop takes mu once, to reset the queue, then reads rbuf
// and counts on every message; every Send takes mu. The loop is a
// victim of Send's lock.
type Conn struct {
	mu     sync.Mutex // want `mu shares a line with rbuf .*\(\*Conn\)\.Send updates mu while \(\*Conn\)\.Serve reads rbuf.*FS2, proven`
	queued int
	rbuf   []byte
}

func (c *Conn) Send(b []byte) {
	c.mu.Lock()
	c.queued += len(b)
	c.mu.Unlock()
}

func (c *Conn) Serve(r io.Reader, handle func([]byte)) {
	c.mu.Lock()
	c.queued = 0
	c.mu.Unlock()
	for {
		n, err := r.Read(c.rbuf)
		if err != nil {
			return
		}
		handle(c.rbuf[:n])
	}
}

// Worker stores its state once as it starts and once as it stops; every
// Submit reads limit and sends on jobs. No steady writer of state:
// quiet.
type Worker struct {
	state atomic.Int32
	jobs  chan func()
	limit int
}

func (w *Worker) Submit(f func()) bool {
	if len(w.jobs) >= w.limit {
		return false
	}
	w.jobs <- f
	return true
}

func (w *Worker) Run() {
	w.state.Store(1)
	for f := range w.jobs {
		f()
	}
	w.state.Store(2)
}

func (w *Worker) Running() bool { return w.state.Load() == 1 }

// Table grows now and then inside Put; every Get reads seed. The grows
// counter is written only by the resize: quiet.
type Table struct {
	grows atomic.Int64
	seed  uint64
	slots atomic.Pointer[[]atomic.Pointer[string]]
}

func (t *Table) Put(i uint64, v *string) {
	s := *t.slots.Load()
	if i >= uint64(len(s)) {
		t.resize(i)
		s = *t.slots.Load()
	}
	s[i].Store(v)
}

func (t *Table) resize(n uint64) {
	t.grows.Add(1)
	s := make([]atomic.Pointer[string], 2*n+1)
	t.slots.Store(&s)
}

func (t *Table) Get(i uint64) *string {
	s := *t.slots.Load()
	return s[(i^t.seed)%uint64(len(s))].Load()
}

// Queue's Take waits on its own channel when the queue is empty, and
// takes closedMu only once it wakes; every Offer reads open and items
// under mu. Take's wait dwarfs any miss on closedMu's line: quiet.
type Queue struct {
	mu       sync.Mutex
	items    []int
	closedMu sync.Mutex
	closed   bool
	open     bool
}

func (q *Queue) Offer(v int) {
	q.mu.Lock()
	if q.open {
		q.items = append(q.items, v)
	}
	q.mu.Unlock()
}

func (q *Queue) Take(ready chan int) int {
	q.mu.Lock()
	if len(q.items) == 0 {
		q.mu.Unlock()
		v := <-ready
		q.closedMu.Lock()
		defer q.closedMu.Unlock()
		if q.closed {
			return -1
		}
		return v
	}
	v := q.items[0]
	q.items = q.items[1:]
	q.mu.Unlock()
	return v
}
