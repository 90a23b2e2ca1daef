// Package limiter holds token-bucket rate limiters whose two atomics are
// written by different goroutines. Checked with -falsesharing.arch=amd64.
package limiter

import "sync/atomic"

// Padded56 separates tokens and last with 56 bytes: the two are a whole
// 64-byte line apart, so on amd64 they never share a line, at any phase.
type Padded56 struct {
	tokens atomic.Int64 // taken by Allow on every request
	_      [56]byte
	last   atomic.Int64 // written by the refill goroutine
}

func (l *Padded56) Allow() bool { return l.tokens.Add(-1) >= 0 }

func (l *Padded56) Refill(now, rate int64) {
	n := (now - l.last.Swap(now)) * rate
	l.tokens.Add(n)
}

// Unpadded keeps the request counter beside the limit that only SetLimit
// writes: Allow reads limit on every call without writing it, and every
// Allow on one CPU makes the others miss on limit.
type Unpadded struct {
	hits  atomic.Int64 // want `hits shares a line with limit \(.*\), and \(\*Unpadded\)\.Allow updates hits while \(\*Unpadded\)\.Fits reads limit: false sharing; put them on separate lines \(FS2, proven\)`
	limit int64
}

func (l *Unpadded) Allow() bool { return l.hits.Add(1) <= l.limit }

func (l *Unpadded) Fits(n int64) bool { return n <= l.limit }

func (l *Unpadded) SetLimit(n int64) { l.limit = n }
