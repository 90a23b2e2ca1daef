// Package xtimerate reproduces the token-bucket Limiter of
// golang.org/x/time/rate (github.com/golang/time) as commit
// 3d9bcec796af48977d9ac9ca4a0445c8d09e5049 introduced it. Verdict: clean on
// amd64 and arm64: the mutex sits beside the very members it guards, and
// every member, limit and burst included, is read and written under it.
package xtimerate

import (
	"math"
	"sync"
	"time"
)

// Limit is a rate in events per second.
type Limit float64

// Limiter lets events happen at rate limit with bursts of up to burst.
type Limiter struct {
	limit Limit
	burst int

	mu     sync.Mutex
	tokens float64
	// last is the last time tokens was updated.
	last time.Time
	// lastEvent is the latest time of a rate-limited event.
	lastEvent time.Time
}

// NewLimiter returns a limiter with rate r and bucket size b.
func NewLimiter(r Limit, b int) *Limiter {
	return &Limiter{limit: r, burst: b}
}

// Allow reports whether an event may happen now.
func (lim *Limiter) Allow() bool {
	return lim.reserveN(time.Now(), 1, 0)
}

// SetLimit changes the rate.
func (lim *Limiter) SetLimit(r Limit) {
	lim.mu.Lock()
	defer lim.mu.Unlock()
	now := time.Now()
	lim.tokens = lim.advance(now)
	lim.last = now
	lim.limit = r
}

func (lim *Limiter) reserveN(now time.Time, n int, maxWait time.Duration) bool {
	lim.mu.Lock()
	defer lim.mu.Unlock()
	if lim.limit == Limit(math.Inf(1)) {
		return true
	}
	tokens := lim.advance(now) - float64(n)
	var wait time.Duration
	if tokens < 0 {
		wait = time.Duration(-tokens / float64(lim.limit) * float64(time.Second))
	}
	if n > lim.burst || wait > maxWait {
		return false
	}
	lim.last = now
	lim.tokens = tokens
	lim.lastEvent = now.Add(wait)
	return true
}

func (lim *Limiter) advance(now time.Time) float64 {
	last := lim.last
	if now.Before(last) {
		last = now
	}
	elapsed := now.Sub(last)
	tokens := lim.tokens + elapsed.Seconds()*float64(lim.limit)
	if b := float64(lim.burst); tokens > b {
		tokens = b
	}
	return tokens
}
