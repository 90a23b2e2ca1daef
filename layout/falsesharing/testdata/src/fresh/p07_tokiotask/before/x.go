// Package before reproduces github.com/tokio-rs/tokio's task cell before
// 2e62374e4a643015ea9ecf5a1d012c3429eed42f (transcribed from Rust): every
// spawned task is one 96-byte heap object whose header state is CASed by the
// worker polling or waking it, so tasks spawned back to back share lines with
// neighbours that other workers poll at the same time.
package before

import (
	"sync"
	"sync/atomic"
)

const (
	idle uint64 = iota
	running
	notified
	complete
)

type header struct {
	state     atomic.Uint64
	queueNext *cell // link in the injection queue
	vtable    *vtable
	ownerID   uint64
}

type vtable struct{ poll func(*cell) }

type core struct {
	scheduler *Runtime
	taskID    uint64
	stage     struct {
		future func() bool // returns true when done
		polls  uint64
	}
}

// Waker is told when a task completes (a JoinHandle waiting on it).
type Waker interface{ Wake() }

type trailer struct {
	prev, next *cell // owned-tasks list
	waker      Waker
}

type cell struct {
	header  header
	core    core
	trailer trailer
}

// Runtime runs tasks on a fixed set of worker goroutines.
type Runtime struct {
	mu     sync.Mutex
	owned  *cell
	queues []chan *cell
	nextID atomic.Uint64
}

var taskVtable = &vtable{poll: pollTask}

// NewRuntime starts one goroutine per worker.
func NewRuntime(workers int) *Runtime {
	rt := &Runtime{queues: make([]chan *cell, workers)}
	for i := range rt.queues {
		rt.queues[i] = make(chan *cell, 1024)
		go rt.work(rt.queues[i])
	}
	return rt
}

// Spawn allocates a task and hands it to a worker.
func (rt *Runtime) Spawn(f func() bool, onDone Waker) {
	t := &cell{}
	t.header.vtable = taskVtable
	t.core.scheduler, t.core.taskID = rt, rt.nextID.Add(1)
	t.core.stage.future, t.trailer.waker = f, onDone
	rt.mu.Lock()
	t.trailer.next, rt.owned = rt.owned, t
	if t.trailer.next != nil {
		t.trailer.next.trailer.prev = t
	}
	rt.mu.Unlock()
	rt.schedule(t)
}

// Wake may be called from any goroutine.
func (rt *Runtime) Wake(t *cell) {
	if t.header.state.CompareAndSwap(idle, notified) {
		rt.schedule(t)
	}
}

func (rt *Runtime) schedule(t *cell) {
	rt.queues[t.core.taskID%uint64(len(rt.queues))] <- t
}

func (rt *Runtime) work(q chan *cell) {
	for t := range q {
		t.header.vtable.poll(t)
	}
}

func pollTask(t *cell) {
	s := t.header.state.Load()
	if s == complete || !t.header.state.CompareAndSwap(s, running) {
		return
	}
	t.core.stage.polls++
	if t.core.stage.future() {
		t.header.state.Store(complete)
		t.trailer.waker.Wake()
		return
	}
	t.header.state.Store(idle)
}
