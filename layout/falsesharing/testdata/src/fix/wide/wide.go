// Package wide holds the FS1, FS2 and FS3 shapes of fs1, fs2 and fs3,
// checked with -falsesharing.arch=amd64,arm64: every fix pads for the
// largest line checked, arm64's 128 bytes, so that one fix serves both.
package wide

import "sync/atomic"

// Counter: FS1, padded to 128-byte elements.
type Counter struct {
	shards [8]struct { // want `elements of shards are 8 bytes.*pad each element to 128 bytes: .*\(FS1, proven\)`
		n atomic.Int64 // this CPU's count
	}
}

func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Ring: FS2, a pad that keeps head and tail apart on 128-byte lines.
type Ring struct {
	head atomic.Uint64 // consumer's // want `head shares a line with tail \(.*\), and \(\*Ring\)\.Pop updates head while \(\*Ring\)\.Push updates tail: false sharing; put them on separate lines \(FS2, proven\)`
	// tail is the producer's.
	tail atomic.Uint64
}

func (r *Ring) Push() { r.tail.Add(1) }
func (r *Ring) Pop()  { r.head.Add(1) }

// Stats: FS3 on both; the pad grows for 128-byte lines.
type Stats struct {
	name   string
	id     uint64
	flags  uint64
	reads  atomic.Int64 // by readers
	_      [24]byte     // to the end of the line
	writes atomic.Int64 // by writers // want `the padding between reads and writes separates them only at some of the offsets.*128 B line.*\(FS3, declared\)`
}

func NewStats(name string, id uint64) *Stats { return &Stats{name: name, id: id} }

func (s *Stats) Read()  { s.reads.Add(1) }
func (s *Stats) Write() { s.writes.Add(1) }
