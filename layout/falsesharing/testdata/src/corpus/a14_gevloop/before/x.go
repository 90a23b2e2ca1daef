// Package gevloop reproduces the EventLoop of github.com/Allenxuxu/gev as
// it was before commit c3302f92720284db1290627936508261e01e248d. Verdict:
// flag on amd64 and arm64 (FS2): a server runs one loop per CPU, each
// allocated on its own, and an 80-byte loop lands in the 80-byte size
// class, so the spinlock and eventHandling flag of one loop, written by its
// goroutine and by QueueInLoop callers, share lines with the neighbouring
// loop's members.
package gevloop

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type spinLock uint32

func (l *spinLock) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		runtime.Gosched()
	}
}

func (l *spinLock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }

// Poller waits for events on file descriptors.
type Poller struct{ wake chan struct{} }

// EventLoop runs the handlers of the sockets a poller reports.
type EventLoop struct {
	poll    *Poller
	sockets *sync.Map
	packet  []byte

	eventHandling atomic.Int32

	pendingFunc []func()
	mu          spinLock
}

// New returns an event loop with its own poller.
func New() *EventLoop {
	return &EventLoop{
		poll:    &Poller{wake: make(chan struct{}, 1)},
		sockets: &sync.Map{},
		packet:  make([]byte, 0xFFFF),
	}
}

// RunLoop handles events until the poller closes.
func (l *EventLoop) RunLoop() {
	for range l.poll.wake {
		l.handleEvent(-1)
	}
}

// QueueInLoop runs f on the loop's goroutine.
func (l *EventLoop) QueueInLoop(f func()) {
	l.mu.Lock()
	l.pendingFunc = append(l.pendingFunc, f)
	l.mu.Unlock()
	if l.eventHandling.Load() == 0 {
		select {
		case l.poll.wake <- struct{}{}:
		default:
		}
	}
}

func (l *EventLoop) handleEvent(fd int) {
	l.eventHandling.Store(1)
	if s, ok := l.sockets.Load(fd); ok {
		s.(func([]byte))(l.packet)
	}
	l.eventHandling.Store(0)

	l.mu.Lock()
	pf := l.pendingFunc
	l.pendingFunc = nil
	l.mu.Unlock()
	for _, f := range pf {
		f()
	}
}
