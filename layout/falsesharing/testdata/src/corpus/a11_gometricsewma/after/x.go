// Package gometricsewma reproduces the EWMA behind the meters of
// github.com/rcrowley/go-metrics as commit
// b08b7421c5a1684c85903d3a185332b51dcf064e left it: rate and init became
// atomics so that Rate and all but the first Tick take no lock. Verdict:
// clean on amd64 and arm64: rate and init are stored only by the arbiter
// goroutine's Tick every five seconds, a careless reading of the new
// atomics beside uncounted would flag them.
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
	rate      uint64
	init      uint32
	mutex     sync.Mutex
}

// NewEWMA1 returns a one-minute EWMA ticked every five seconds.
func NewEWMA1() *EWMA {
	return &EWMA{alpha: 1 - math.Exp(-5.0/60.0)}
}

// Rate returns the moving average in events per second.
func (a *EWMA) Rate() float64 {
	return math.Float64frombits(atomic.LoadUint64(&a.rate)) * float64(1e9)
}

// Tick folds the uncounted events into the average.
func (a *EWMA) Tick() {
	if atomic.LoadUint32(&a.init) == 1 {
		a.updateRate(a.fetchInstantRate())
		return
	}
	a.mutex.Lock()
	if atomic.LoadUint32(&a.init) == 1 {
		a.updateRate(a.fetchInstantRate())
	} else {
		atomic.StoreUint32(&a.init, 1)
		atomic.StoreUint64(&a.rate, math.Float64bits(a.fetchInstantRate()))
	}
	a.mutex.Unlock()
}

func (a *EWMA) fetchInstantRate() float64 {
	count := atomic.LoadInt64(&a.uncounted)
	atomic.AddInt64(&a.uncounted, -count)
	return float64(count) / float64(5e9)
}

func (a *EWMA) updateRate(instant float64) {
	r := math.Float64frombits(atomic.LoadUint64(&a.rate))
	r += a.alpha * (instant - r)
	atomic.StoreUint64(&a.rate, math.Float64bits(r))
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
