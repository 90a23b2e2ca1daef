// Package limiter holds token-bucket rate limiters whose two atomics are
// written by different goroutines. Checked with -falsesharing.arch=amd64.
package limiter

import "sync/atomic"

// Padded56 separates tokens and last with 56 bytes: the two are a whole
// 64-byte line apart, so on amd64 they never share a line, at any phase.
// But a Padded56 is 72 bytes, in the 80-byte size class: where it starts
// mid-line, tokens' line holds the last of the limiter before it.
type Padded56 struct {
	tokens atomic.Int64 // taken by Allow on every request // want `the padding after tokens leaves it on a line with the object before: a Padded56 of the allocator's 80-byte size class starts mid-line \(64 B lines on amd64 when the Padded56 starts 16, 32 or 48 bytes into one\), and the object before it, another Padded56 there, has last on tokens's line; pad before tokens too \(FS3, declared\)`
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

// Named's tail holds only its name, which String reads for logs: the
// limiter before a mid-line Named brings nothing hot onto tokens' line.
type Named struct {
	tokens atomic.Int64
	_      [56]byte
	name   string
}

func (l *Named) Allow() bool    { return l.tokens.Add(-1) >= 0 }
func (l *Named) String() string { return l.name }
