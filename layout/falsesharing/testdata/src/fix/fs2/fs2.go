// Package fs2 holds hot members beside independently used ones, for the
// FS2 fix: insert a pad before the later member, above its comments.
// Checked with -falsesharing.arch=amd64 (64-byte lines).
package fs2

import "sync/atomic"

// Limiter's limit is read by Limit, which does not write hits.
type Limiter struct {
	hits atomic.Int64 // requests so far
	// limit is set by SetLimit and read on every request.
	limit int64 // want `limit shares a line with hits \(64 B lines on amd64\), and method Limit reads limit without writing hits: false sharing; put them on separate lines \(FS2\)`
}

func (l *Limiter) Allow() bool      { return l.hits.Add(1) <= l.limit }
func (l *Limiter) Limit() int64     { return l.limit }
func (l *Limiter) SetLimit(n int64) { l.limit = n }

// Ring's head and tail are written by the consumer and the producer.
type Ring struct {
	head atomic.Uint64 // consumer's
	tail atomic.Uint64 // producer's // want `tail shares a line with head \(64 B lines on amd64\), and head and tail are written by different functions: false sharing; put them on separate lines \(FS2\)`
}

func (r *Ring) Push() { r.tail.Add(1) }
func (r *Ring) Pop()  { r.head.Add(1) }
