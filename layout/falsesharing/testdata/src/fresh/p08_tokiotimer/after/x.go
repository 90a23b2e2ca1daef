// Package after reproduces github.com/tokio-rs/tokio's timer entry after
// 0dc1b71e6e53782ed2314935a70631b667686805 (transcribed from Rust): the cache
// padding is gone and the driver's links and deadlines sit next to the state
// word and the waker, a 72-byte entry inside each sleep.
package after

import (
	"sync"
	"sync/atomic"
)

// Waker is notified when the timer fires.
type Waker interface{ Wake() }

type atomicWaker struct {
	state atomic.Uint64
	waker Waker
}

type stateCell struct {
	state  atomic.Uint64 // deadline, or ^0 once fired
	result uint8
	waker  atomicWaker
}

type timerShared struct {
	// driver state: wheel links and the deadline the entry is filed under
	prev, next *timerShared
	cachedWhen atomic.Uint64
	trueWhen   atomic.Uint64

	state stateCell
}

// Sleep is the future a task awaits; its entry lives inside it.
type Sleep struct {
	entry    timerShared
	deadline uint64
	driver   *Driver
}

// Driver owns the timer wheel and fires entries from its own goroutine.
type Driver struct {
	mu    sync.Mutex
	head  *timerShared
	clock func() uint64
	reg   chan *timerShared
}

// NewDriver starts the driver goroutine.
func NewDriver(clock func() uint64) *Driver {
	d := &Driver{clock: clock, reg: make(chan *timerShared, 256)}
	go d.run()
	return d
}

// NewSleep registers a timer for deadline.
func (d *Driver) NewSleep(deadline uint64) *Sleep {
	s := &Sleep{deadline: deadline, driver: d}
	s.entry.trueWhen.Store(deadline)
	s.entry.state.state.Store(deadline)
	d.reg <- &s.entry
	return s
}

// Poll is called by the task; it reports whether the timer has fired.
func (s *Sleep) Poll(w Waker) bool {
	if s.entry.state.state.Load() == ^uint64(0) {
		return true
	}
	if s.entry.state.waker.state.CompareAndSwap(0, 1) {
		s.entry.state.waker.waker = w
		s.entry.state.waker.state.Store(0)
	}
	return s.entry.state.state.Load() == ^uint64(0)
}

func (d *Driver) run() {
	for t := range d.reg {
		d.mu.Lock()
		t.cachedWhen.Store(t.trueWhen.Load())
		t.next, d.head = d.head, t
		for e, prev := d.head, (*timerShared)(nil); e != nil; e = e.next {
			if e.cachedWhen.Load() > d.clock() {
				prev = e
				continue
			}
			e.state.result = 1
			e.state.state.Store(^uint64(0))
			if e.state.waker.state.CompareAndSwap(0, 1) {
				if w := e.state.waker.waker; w != nil {
					w.Wake()
				}
				e.state.waker.state.Store(0)
			}
			if prev == nil {
				d.head = e.next
			} else {
				prev.next = e.next
			}
		}
		d.mu.Unlock()
	}
}
