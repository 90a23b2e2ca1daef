// Package metrics holds the sharded metrics counters of amd64/metrics,
// checked with -falsesharing.arch=amd64,arm64: 64-byte lines on amd64,
// 128-byte lines on arm64, so padding for 64 bytes no longer suffices.
package metrics

import "sync/atomic"

// Counter has 8-byte shards: eight per 64-byte line, sixteen per
// 128-byte one. The fix pads for the larger line.
type Counter struct {
	shards [8]struct{ n atomic.Int64 } // want `elements of shards are 8 bytes, so neighbouring shards share lines \(64 B lines on amd64; 128 B lines on arm64\) and the CPUs writing them false-share; pad each element to 128 bytes: .*\(FS1, proven\)`
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
	shards [16]struct{ hits, misses uint64 } // want `elements of shards are 16 bytes, so neighbouring shards share lines \(64 B lines on amd64; 128 B lines on arm64\).*pad each element to 128 bytes: .*\(FS1, proven\)`
}

func (s *CacheStats) Hit(cpu int)  { atomic.AddUint64(&s.shards[cpu%16].hits, 1) }
func (s *CacheStats) Miss(cpu int) { atomic.AddUint64(&s.shards[cpu%16].misses, 1) }

// Padded64 pads each shard to 64 bytes: right on amd64, but two shards
// share each 128-byte line on arm64. The padding was sized for the
// smaller line, so this is FS4, not FS1.
type Padded64 struct {
	shards [8]struct { // want `the padding in the elements of shards makes them 64 bytes, too short for 128 B lines on arm64: neighbouring shards share lines there; pad each element to 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)`
		n atomic.Int64
		_ [56]byte
	}
}

func (c *Padded64) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Padded128 pads each shard to 128 bytes: clean on both.
type Padded128 struct {
	shards [8]struct {
		n atomic.Int64
		_ [120]byte
	}
}

func (c *Padded128) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Named's shards are a whole 64-byte line each, but two hot counters sit
// at the end of each: the table holds pointers and is 1 KiB, so the
// allocator puts an 8-byte malloc header in front of it and the table
// starts 8 bytes into a line. Then misses of shard i and hits of shard
// i+1 share a line. The stride is a line, yet not at every phase; and
// on arm64 two shards share every 128-byte line anyway.
type Named struct {
	shards [16]struct { // want `elements of shards are 64 bytes, so neighbouring shards share lines \(64 B lines on amd64; 128 B lines on arm64\) and the CPUs writing them false-share; pad each element to 128 bytes: .*\(FS1, declared\)`
		name   *string
		_      [40]byte
		hits   atomic.Uint64
		misses atomic.Uint64
	}
}

func (s *Named) Hit(cpu int)  { s.shards[cpu%16].hits.Add(1) }
func (s *Named) Miss(cpu int) { s.shards[cpu%16].misses.Add(1) }
