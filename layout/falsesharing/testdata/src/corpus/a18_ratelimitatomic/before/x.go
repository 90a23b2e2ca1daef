// Package ratelimitatomic reproduces the CAS-based limiter of
// github.com/uber-go/ratelimit as it was before commit
// a59f964aa620e6d1e18ce922b51ea78d98a7a271, with a literal [56]byte after
// the state pointer. Verdict: flag on amd64 and arm64 (FS3): the pad only
// follows the state, and a 96-byte limiter starts 32 bytes into a line
// every other slot of its size class, so then the state shares its line
// with the previous object's tail (another limiter's perRequest and clock,
// read by its own Take).
package ratelimitatomic

import (
	"sync/atomic"
	"time"
	"unsafe"
)

type state struct {
	last     time.Time
	sleepFor time.Duration
}

// Clock tells time and sleeps.
type Clock interface {
	Now() time.Time
	Sleep(time.Duration)
}

type wallClock struct{}

func (wallClock) Now() time.Time        { return time.Now() }
func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }

type atomicLimiter struct {
	state unsafe.Pointer
	//lint:ignore U1000 Padding is unused but it is crucial to maintain performance
	// of this rate limiter in case of collocation with other frequently accessed memory.
	padding [56]byte // cache line size - state pointer size = 64 - 8; created to avoid false sharing.

	perRequest time.Duration
	maxSlack   time.Duration
	clock      Clock
}

// New returns a limiter allowing rate Takes per second.
func New(rate, slack int) *atomicLimiter {
	per := time.Second / time.Duration(rate)
	l := &atomicLimiter{perRequest: per, maxSlack: -time.Duration(slack) * per, clock: wallClock{}}
	atomic.StorePointer(&l.state, unsafe.Pointer(&state{}))
	return l
}

// Take blocks so that Takes are on average perRequest apart.
func (t *atomicLimiter) Take() time.Time {
	var next state
	var wait time.Duration
	for taken := false; !taken; {
		now := t.clock.Now()
		prevp := atomic.LoadPointer(&t.state)
		prev := (*state)(prevp)
		next = state{last: now, sleepFor: prev.sleepFor}
		if !prev.last.IsZero() {
			next.sleepFor += t.perRequest - now.Sub(prev.last)
			if next.sleepFor < t.maxSlack {
				next.sleepFor = t.maxSlack
			}
			if next.sleepFor > 0 {
				next.last = next.last.Add(next.sleepFor)
				wait, next.sleepFor = next.sleepFor, 0
			}
		}
		taken = atomic.CompareAndSwapPointer(&t.state, prevp, unsafe.Pointer(&next))
	}
	t.clock.Sleep(wait)
	return next.last
}
