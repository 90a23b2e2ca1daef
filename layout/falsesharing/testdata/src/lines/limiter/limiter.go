// Package limiter is checked with -falsesharing.arch=amd64 and
// -falsesharing.lines=128: besides amd64's own 64-byte lines, 128-byte
// lines on amd64 too (the pair of lines the adjacent-line prefetcher
// fetches together, say). A 56-byte pad keeps the atomics a 64-byte line
// apart only, so it is short for the 128-byte lines asked for.
package limiter

import "sync/atomic"

type Padded56 struct {
	tokens atomic.Int64
	_      [56]byte
	last   atomic.Int64 // want `the padding between tokens and last is too short for 128 B lines on amd64 when the Padded56 starts 0, 16, 32 or 48 bytes into one: they share a line there; pad for 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)`
}

func (l *Padded56) Allow() bool      { return l.tokens.Add(-1) >= 0 }
func (l *Padded56) Refill(now int64) { l.last.Store(now) }

// Padded120 keeps them 128 bytes apart: clean at both sizes.
type Padded120 struct {
	tokens atomic.Int64
	_      [120]byte
	last   atomic.Int64
}

func (l *Padded120) Allow() bool      { return l.tokens.Add(-1) >= 0 }
func (l *Padded120) Refill(now int64) { l.last.Store(now) }
