// Package field misspells a field directive: reported at the directive,
// with the forms a field accepts.
package field

import "sync/atomic"

type Limiter struct {
	hits atomic.Int64
	// want +1 `^malformed directive "//mglayout:hto" \(accepted on a field: //mglayout:hot, //mglayout:cold, //mglayout:ignore REASON\)$`
	//mglayout:hto
	limit int64
}

func (l *Limiter) Allow() bool       { return l.hits.Add(1) <= l.limit }
func (l *Limiter) Fits(n int64) bool { return n <= l.limit }
