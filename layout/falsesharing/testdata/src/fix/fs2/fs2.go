// Package fs2 holds hot members beside independently used ones, for the
// FS2 fix: insert a pad before the later member, above its comments.
// Checked with -falsesharing.arch=amd64 (64-byte lines).
package fs2

import "sync/atomic"

// Limiter's limit is read by Limit, which does not write hits.
type Limiter struct {
	hits atomic.Int64 // requests so far // want `hits shares a line with limit \(.*\), and \(\*Limiter\)\.Allow updates hits while \(\*Limiter\)\.Fits reads limit: false sharing; put them on separate lines \(FS2, proven\)`
	// limit is set by SetLimit and read on every request.
	limit int64
}

func (l *Limiter) Allow() bool       { return l.hits.Add(1) <= l.limit }
func (l *Limiter) Fits(n int64) bool { return n <= l.limit }
func (l *Limiter) SetLimit(n int64)  { l.limit = n }

// Ring's head and tail are written by the consumer and the producer.
type Ring struct {
	head atomic.Uint64 // consumer's // want `head shares a line with tail \(.*\), and \(\*Ring\)\.Pop updates head while \(\*Ring\)\.Push updates tail: false sharing; put them on separate lines \(FS2, proven\)`
	tail atomic.Uint64 // producer's
}

func (r *Ring) Push() { r.tail.Add(1) }
func (r *Ring) Pop()  { r.head.Add(1) }
