// Package fs3 holds padding that works only when the object starts on a
// line, for the FS3 fix: grow the pad so that the members are a line
// apart at every phase. Checked with -falsesharing.arch=amd64.
package fs3

import "sync/atomic"

// Stats pads reads and writes apart as if it started on a line.
type Stats struct {
	name   string
	id     uint64
	flags  uint64
	reads  atomic.Int64 // by readers
	_      [24]byte     // to the end of the line
	writes atomic.Int64 // by writers // want `the padding between reads and writes separates them only at some of the offsets.*\(FS3, declared\)`
}

func NewStats(name string, id uint64) *Stats { return &Stats{name: name, id: id} }

func (s *Stats) Read()  { s.reads.Add(1) }
func (s *Stats) Write() { s.writes.Add(1) }
