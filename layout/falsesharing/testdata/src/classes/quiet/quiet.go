// Package quiet holds lines that a reader might take for falsely shared
// and that are not (class 11): counters that one sweep writes together,
// objects of a 128-byte size class, one to a line, and heads kept apart
// by cpu.CacheLinePad. No finding.
package quiet

import (
	"sync/atomic"
	"time"

	"golang.org/x/sys/cpu"
)

// Stats is written only by its sweep, which updates every counter on
// each pass; readers load them all together. The counters share their
// line truly: padding one from another removes no miss.
type Stats struct {
	scanned atomic.Int64
	expired atomic.Int64
	bytes   atomic.Int64
	last    atomic.Int64
}

func (s *Stats) Sweep(items []int, now time.Time) {
	var scanned, expired, bytes int64
	for _, it := range items {
		scanned++
		if it < 0 {
			expired++
		}
		bytes += int64(it)
	}
	s.scanned.Add(scanned)
	s.expired.Add(expired)
	s.bytes.Add(bytes)
	s.last.Store(now.UnixNano())
}

func (s *Stats) Snapshot() (scanned, expired, bytes, last int64) {
	return s.scanned.Load(), s.expired.Load(), s.bytes.Load(), s.last.Load()
}

// Conn is 128 bytes, the size of its size class: allocated one after
// another, each starts on a 128-byte boundary, and its hot state never
// meets a neighbour's members.
type Conn struct {
	state atomic.Int64
	id    int64
	name  string
	_     [96]byte
}

func Dial(n int) []*Conn {
	out := make([]*Conn, n)
	for i := range out {
		out[i] = &Conn{id: int64(i)}
		go out[i].loop()
	}
	return out
}

func (c *Conn) loop() {
	for c.state.Load() != 2 {
		c.state.CompareAndSwap(0, 1)
		c.state.Store(0)
	}
}

// Queue's head and tail are kept apart by cpu.CacheLinePad, a line of
// each GOARCH's size.
type Queue struct {
	_    cpu.CacheLinePad
	head atomic.Uint64
	_    cpu.CacheLinePad
	tail atomic.Uint64
	_    cpu.CacheLinePad
}

func (q *Queue) Push() uint64 { return q.tail.Add(1) }
func (q *Queue) Pop() uint64  { return q.head.Add(1) }
