// Package fs4 holds padding sized for 64-byte lines, for the FS4 fix:
// grow it for arm64's 128-byte lines. Checked with
// -falsesharing.arch=amd64,arm64.
package fs4

import "sync/atomic"

// Limiter's 56-byte pad is a line on amd64 only.
type Limiter struct {
	tokens atomic.Int64 // taken by Allow
	_      [56]byte     // a 64-byte line
	// last is the time of the last refill.
	last atomic.Int64 // want `the padding between tokens and last is too short for 128 B lines on arm64.*\(FS4, declared\)`
}

func (l *Limiter) Allow() bool      { return l.tokens.Add(-1) >= 0 }
func (l *Limiter) Refill(now int64) { l.last.Store(now) }

// Counter's shards are padded to 64 bytes.
type Counter struct {
	shards [8]struct { // want `the padding in the elements of shards makes them 64 bytes, too short for 128 B lines on arm64.*\(FS4, declared\)`
		n atomic.Int64 // this CPU's count
		_ [56]byte     // to a 64-byte line
	}
}

func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }
