// Package limiter is checked with -falsesharing.arch=amd64 and
// -falsesharing.lines=64,128: besides amd64's own 64-byte lines, 128-byte
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

// Padded120 keeps them 128 bytes apart at both sizes, but its 144-byte
// size class starts it mid-line, beside the last of the limiter before.
type Padded120 struct {
	tokens atomic.Int64 // want `the padding after tokens leaves it on a line with the object before: a Padded120 of the allocator's 144-byte size class starts mid-line \(64 B lines on amd64 when the Padded120 starts 16, 32 or 48 bytes into one; 128 B lines on amd64 when the Padded120 starts 16, 32, 48, 64, 80, 96 or 112 bytes into one\), and the object before it, another Padded120 there, has last on tokens's line; pad before tokens too \(FS3, declared\)`
	_      [120]byte
	last   atomic.Int64
}

func (l *Padded120) Allow() bool      { return l.tokens.Add(-1) >= 0 }
func (l *Padded120) Refill(now int64) { l.last.Store(now) }
