// Package gometricsewma reproduces the EWMA behind the meters of
// github.com/rcrowley/go-metrics as it was before commit
// b08b7421c5a1684c85903d3a185332b51dcf064e. Verdict: clean on amd64 and
// arm64: Update adds to uncounted from every goroutine, and the members
// beside it (alpha, rate, init, the mutex) are touched only by the arbiter
// goroutine's Tick every five seconds and by Rate, a report.
package gometricsewma

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// EWMA is an exponentially weighted moving average of a rate.
type EWMA struct {
	uncounted int64 // first, for 64-bit alignment
	alpha     float64
	rate      float64
	init      bool
	mutex     sync.Mutex
}

// NewEWMA1 returns a one-minute EWMA ticked every five seconds.
func NewEWMA1() *EWMA {
	return &EWMA{alpha: 1 - math.Exp(-5.0/60.0)}
}

// Rate returns the moving average in events per second.
func (a *EWMA) Rate() float64 {
	a.mutex.Lock()
	defer a.mutex.Unlock()
	return a.rate * float64(1e9)
}

// Tick folds the uncounted events into the average.
func (a *EWMA) Tick() {
	count := atomic.LoadInt64(&a.uncounted)
	atomic.AddInt64(&a.uncounted, -count)
	instant := float64(count) / float64(5e9)
	a.mutex.Lock()
	defer a.mutex.Unlock()
	if a.init {
		a.rate += a.alpha * (instant - a.rate)
	} else {
		a.init = true
		a.rate = instant
	}
}

// Update records n events.
func (a *EWMA) Update(n int64) {
	atomic.AddInt64(&a.uncounted, n)
}

type arbiter struct {
	sync.RWMutex
	ewmas  map[*EWMA]struct{}
	ticker *time.Ticker
}

var meters = arbiter{ewmas: map[*EWMA]struct{}{}}
var startOnce sync.Once

// Register makes the arbiter tick a every five seconds.
func Register(a *EWMA) {
	meters.Lock()
	meters.ewmas[a] = struct{}{}
	meters.Unlock()
	startOnce.Do(func() {
		meters.ticker = time.NewTicker(5 * time.Second)
		go meters.tick()
	})
}

func (m *arbiter) tick() {
	for range m.ticker.C {
		m.RLock()
		for a := range m.ewmas {
			a.Tick()
		}
		m.RUnlock()
	}
}
