// Package ratelimitint64 reproduces the int64-based limiter of
// github.com/uber-go/ratelimit as commit
// f04376ca03323df7b66b8e18a9ee12175613e266 introduced it: 64 bytes before
// the CAS'd state and 56 after, so on 64-byte lines no other memory shares
// its line wherever the object starts. Verdict: clean on amd64, flag on
// arm64 (FS4): the pads are sized for 64-byte lines, and on 128-byte lines
// the state shares a line with the previous object or with perRequest and
// the clock. The config members are written only by the constructor.
package ratelimitint64

import (
	"sync/atomic"
	"time"
)

// Clock tells time and sleeps.
type Clock interface {
	Now() time.Time
	Sleep(time.Duration)
}

type wallClock struct{}

func (wallClock) Now() time.Time        { return time.Now() }
func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }

type atomicInt64Limiter struct {
	prepadding [64]byte // cache line size = 64; avoids false sharing.
	state      int64    // unix nanoseconds of the next permission.
	//lint:ignore U1000 like prepadding.
	postpadding [56]byte // cache line size - state size = 64 - 8.

	perRequest time.Duration
	maxSlack   time.Duration
	clock      Clock
}

// New returns a limiter allowing rate Takes per second.
func New(rate int, slack int) *atomicInt64Limiter {
	per := time.Second / time.Duration(rate)
	return &atomicInt64Limiter{
		perRequest: per,
		maxSlack:   time.Duration(slack) * per,
		clock:      wallClock{},
	}
}

// Take blocks until the next permission and returns its time.
func (l *atomicInt64Limiter) Take() time.Time {
	var next, now int64
	for {
		now = l.clock.Now().UnixNano()
		prev := atomic.LoadInt64(&l.state)
		switch {
		case prev == 0 || (l.maxSlack == 0 && now-prev > int64(l.perRequest)):
			next = now
		case l.maxSlack > 0 && now-prev > int64(l.maxSlack)+int64(l.perRequest):
			next = now - int64(l.maxSlack)
		default:
			next = prev + int64(l.perRequest)
		}
		if atomic.CompareAndSwapInt64(&l.state, prev, next) {
			break
		}
	}
	if d := time.Duration(next - now); d > 0 {
		l.clock.Sleep(d)
		return time.Unix(0, next)
	}
	return time.Unix(0, now)
}
