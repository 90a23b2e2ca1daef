// Package after reproduces go.uber.org/ratelimit's atomic limiter as
// a59f964aa620e6d1e18ce922b51ea78d98a7a271 left it: the pad is spelled
// 64 - unsafe.Sizeof(unsafe.Pointer(nil)), the same 56 bytes. Every
// reader of the configuration also writes state: clean on both.
package after

import (
	"sync/atomic"
	"time"
	"unsafe"
)

type state struct {
	last     time.Time
	sleepFor time.Duration
}

// Clock is the limiter's source of time.
type Clock interface {
	Now() time.Time
	Sleep(time.Duration)
}

type atomicLimiter struct {
	state   unsafe.Pointer // *state
	padding [64 - unsafe.Sizeof(unsafe.Pointer(nil))]byte

	perRequest time.Duration
	maxSlack   time.Duration
	clock      Clock
}

// New returns a limiter of rate calls per second.
func New(rate int, clock Clock) *atomicLimiter {
	l := &atomicLimiter{perRequest: time.Second / time.Duration(rate), clock: clock}
	l.maxSlack = -10 * l.perRequest
	atomic.StorePointer(&l.state, unsafe.Pointer(&state{}))
	return l
}

// Take blocks until the next call is allowed.
func (t *atomicLimiter) Take() time.Time {
	var next state
	var interval time.Duration
	for {
		now := t.clock.Now()
		prev := atomic.LoadPointer(&t.state)
		old := (*state)(prev)
		next = state{last: now, sleepFor: old.sleepFor}
		if !old.last.IsZero() {
			next.sleepFor += t.perRequest - now.Sub(old.last)
			if next.sleepFor < t.maxSlack {
				next.sleepFor = t.maxSlack
			}
			if next.sleepFor > 0 {
				next.last = next.last.Add(next.sleepFor)
				interval, next.sleepFor = next.sleepFor, 0
			}
		}
		if atomic.CompareAndSwapPointer(&t.state, prev, unsafe.Pointer(&next)) {
			break
		}
		interval = 0
	}
	t.clock.Sleep(interval)
	return next.last
}
