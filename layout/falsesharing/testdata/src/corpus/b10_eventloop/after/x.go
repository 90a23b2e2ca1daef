// Package after reproduces github.com/panjf2000/gnet's event loops as
// c3c3572d34326f7c740bec5b66f746bc6161d0e0 left them: the loop embeds its
// 96 bytes and pads them by 64 - size%64 to 128, so each loop, allocated
// in size class 128, starts on a line and owns its lines at 64 and at 128
// (clean on both; at 128 by luck of the size, as the pad is computed for
// 64).
package after

import (
	"sync/atomic"
	"unsafe"
)

type listener struct{ fd int }

type poller struct{ fd int }

type conn struct{ fd int }

// EventHandler handles a loop's events.
type EventHandler interface{ React(c *conn) }

type eventloop struct {
	internalEventloop

	// Prevents false sharing between loops allocated next to each other.
	_ [64 - unsafe.Sizeof(internalEventloop{})%64]byte
}

type internalEventloop struct {
	ln                *listener
	idx               int
	svr               *Server
	poller            *poller
	packet            []byte
	connCount         int32 // atomic: updated by the loop, read by the balancer
	connections       map[int]*conn
	eventHandler      EventHandler
	calibrateCallback func(*eventloop, int32)
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
		el.packet = make([]byte, 0x10000)
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
