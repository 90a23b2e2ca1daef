// Package setup holds goroutines that serve in a loop and do some of
// their work once, before the loop or after it: what they do once is no
// steady state, neither a write that contends nor a touch of the line
// that would make the loop's reads true sharing.
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
