// Package after reproduces github.com/panjf2000/gnet's event loops as
// 04478b704bfc58e4fa13bec245c0026f69f89dff ("eliminate the code for
// preventing false-sharing") left them: 88-byte loops in size class 96.
// At 64-byte lines each loop's connCount still lands on a line of its own
// loop (clean on amd64); at 128 a loop's connCount, updated by its
// goroutine and read by the balancer, shares a line with the next loop's
// listener, server and poller pointers (FS1 on arm64).
package after

import (
	"sync/atomic"
)

type listener struct{ fd int }

type poller struct{ fd int }

type conn struct{ fd int }

// EventHandler handles a loop's events.
type EventHandler interface{ React(c *conn) }

type eventloop struct {
	ln           *listener
	idx          int
	svr          *Server
	poller       *poller
	buffer       []byte
	connCount    int32 // atomic: updated by the loop, read by the balancer
	connections  map[int]*conn
	eventHandler EventHandler
}

// Server owns one event loop per CPU.
type Server struct {
	loops []*eventloop
}

// NewServer allocates n event loops one by one and starts them.
func NewServer(n int, h EventHandler) *Server {
	s := &Server{}
	for i := 0; i < n; i++ {
		el := new(eventloop)
		el.idx = i
		el.svr = s
		el.poller = &poller{}
		el.buffer = make([]byte, 0x10000)
		el.connections = make(map[int]*conn)
		el.eventHandler = h
		s.loops = append(s.loops, el)
		go el.run()
	}
	return s
}

func (el *eventloop) run() {
	for fd := 0; ; fd++ {
		c := &conn{fd: fd}
		el.connections[fd] = c
		atomic.AddInt32(&el.connCount, 1)
		el.eventHandler.React(c)
		delete(el.connections, fd)
		atomic.AddInt32(&el.connCount, -1)
	}
}

// Next picks the loop with the fewest connections.
func (s *Server) Next() *eventloop {
	best := s.loops[0]
	for _, el := range s.loops[1:] {
		if atomic.LoadInt32(&el.connCount) < atomic.LoadInt32(&best.connCount) {
			best = el
		}
	}
	return best
}
