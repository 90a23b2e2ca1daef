// Package fs1 holds shard tables whose elements are smaller than a line,
// for the FS1 fix: pad each element to a whole line, keeping every
// comment. Checked with -falsesharing.arch=amd64 (64-byte lines).
package fs1

import "sync/atomic"

// Counter's shards fit on one source line; the fix pads inside it.
type Counter struct {
	// shards holds one counter per CPU.
	shards [8]struct{ n atomic.Int64 } // indexed by CPU // want `elements of shards are 8 bytes.*pad each element to 64 bytes: .*\(FS1, proven\)`
}

func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Stats' shards are declared over several lines, with comments inside;
// the pad goes last, after them.
type Stats struct {
	shards [16]struct { // want `elements of shards are 16 bytes.*pad each element to 64 bytes: .*\(FS1, proven\)`
		// hits counts lookups that found their key.
		hits   atomic.Uint64 // hot
		misses atomic.Uint64 // hot too
		// no more members
	}
}

func (s *Stats) Hit(cpu int)  { s.shards[cpu%16].hits.Add(1) }
func (s *Stats) Miss(cpu int) { s.shards[cpu%16].misses.Add(1) }

// slot is the element of Slots: the fix pads its declaration.
type slot struct {
	n   atomic.Int64 // the count
	tag uint32       // who owns the slot
}

type Slots struct {
	s [4]slot // want `elements of s are 16 bytes.*pad each element to 64 bytes: .*\(FS1, proven\)`
}

func (t *Slots) Add(cpu int) { t.s[cpu%4].n.Add(1) }
