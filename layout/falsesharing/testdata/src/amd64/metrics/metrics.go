// Package metrics holds sharded metrics counters, as a per-CPU counter
// table is written in real code: each CPU adds to its own shard and a
// reader sums them all. Checked with -falsesharing.arch=amd64 (64-byte
// lines).
package metrics

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// Counter has 8-byte shards: eight of them per 64-byte line, so every
// Add by one CPU steals the line from seven others.
type Counter struct {
	shards [8]struct{ n atomic.Int64 } // want `elements of shards are 8 bytes, so neighbouring shards share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad each element to 64 bytes: .*\(FS1, proven\)`
}

func (c *Counter) Add(cpu int, n int64) { c.shards[cpu%len(c.shards)].n.Add(n) }

func (c *Counter) Sum() (s int64) {
	for i := range c.shards {
		s += c.shards[i].n.Load()
	}
	return s
}

// Hits and misses are plain integers updated through sync/atomic
// functions: the address passed to sync/atomic makes them hot, and the
// exported type carries a fact saying so to the packages that import it.
type CacheStats struct {
	shards [16]struct{ hits, misses uint64 } // want `elements of shards are 16 bytes.*pad each element to 64 bytes: .*\(FS1, proven\)`
}

func (s *CacheStats) Hit(cpu int)  { atomic.AddUint64(&s.shards[cpu%16].hits, 1) }
func (s *CacheStats) Miss(cpu int) { atomic.AddUint64(&s.shards[cpu%16].misses, 1) }

// Padded64 pads each shard to one 64-byte line: clean where lines are 64
// bytes, at every phase (the 512-byte table sits in a 512-byte size
// class, and the shards' counters are a whole line apart anyway).
type Padded64 struct {
	shards [8]struct {
		n atomic.Int64
		_ [56]byte
	}
}

func (c *Padded64) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Padded128 pads each shard to 128 bytes: clean on every GOARCH checked.
type Padded128 struct {
	shards [8]struct {
		n atomic.Int64
		_ [120]byte
	}
}

func (c *Padded128) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// LinePadded pads with x/sys/cpu's CacheLinePad, sized for each GOARCH.
type LinePadded struct {
	shards [8]struct {
		_ cpu.CacheLinePad
		n atomic.Int64
	}
}

func (c *LinePadded) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Named's shards are a whole 64-byte line each, but two hot counters sit
// at the end of each: the table holds pointers and is 1 KiB, so the
// allocator puts an 8-byte malloc header in front of it and the table
// starts 8 bytes into a line. Then misses of shard i and hits of shard
// i+1 share a line. The stride is a line, yet not at every phase.
type Named struct {
	shards [16]struct { // want `the hot members of neighbouring elements of shards share a line \(64 B lines on amd64\); pad each element so that they are a whole line apart: .*\(FS1, declared\)`
		name   *string
		_      [40]byte
		hits   atomic.Uint64
		misses atomic.Uint64
	}
}

func (s *Named) Hit(cpu int)  { s.shards[cpu%16].hits.Add(1) }
func (s *Named) Miss(cpu int) { s.shards[cpu%16].misses.Add(1) }
