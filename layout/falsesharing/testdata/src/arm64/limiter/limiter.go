// Package limiter holds the token-bucket rate limiters of
// amd64/limiter, checked with -falsesharing.arch=amd64,arm64: 64-byte
// lines on amd64, 128-byte lines on arm64.
package limiter

import "sync/atomic"

// Padded56's 56-byte pad keeps tokens and last a 64-byte line apart:
// clean on amd64, but on arm64 they share a 128-byte line at the phases
// in the first half of a line. The 72-byte object is in the 80-byte size
// class, which starts it at every multiple of 16.
type Padded56 struct {
	tokens atomic.Int64 // taken by Allow on every request
	_      [56]byte
	last   atomic.Int64 // want `the padding between tokens and last is too short for 128 B lines on arm64 when the Padded56 starts 0, 16, 32 or 48 bytes into one: they share a line there; pad for 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)`
}

func (l *Padded56) Allow() bool { return l.tokens.Add(-1) >= 0 }

func (l *Padded56) Refill(now, rate int64) {
	n := (now - l.last.Swap(now)) * rate
	l.tokens.Add(n)
}

// Unpadded: FS2 at every line size.
type Unpadded struct {
	hits  atomic.Int64 // want `hits shares a line with limit \(.*\), and \(\*Unpadded\)\.Allow updates hits while \(\*Unpadded\)\.Fits reads limit: false sharing; put them on separate lines \(FS2, proven\)`
	limit int64
}

func (l *Unpadded) Allow() bool { return l.hits.Add(1) <= l.limit }

func (l *Unpadded) Fits(n int64) bool { return n <= l.limit }

func (l *Unpadded) SetLimit(n int64) { l.limit = n }
