// Package tallycounter reproduces the counter and gauge of
// github.com/uber-go/tally as its initial commit
// f54dfb68e81f9159d1ef1bb3dbcd62e3c385bcea has them. Verdict: clean on
// amd64 and arm64. Inc adds to curr from every goroutine; prev is loaded
// and stored only by the reporting goroutine, the one writer that reads
// it, once per interval. A gauge's Update stores curr and updated
// together, and the reporter swaps updated.
package tallycounter

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// Reporter receives deltas and values.
type Reporter interface {
	ReportCounter(name string, delta int64)
	ReportGauge(name string, value float64)
}

type counter struct {
	prev int64
	curr int64
}

// Inc adds v.
func (c *counter) Inc(v int64) {
	atomic.AddInt64(&c.curr, v)
}

func (c *counter) report(name string, r Reporter) {
	curr := atomic.LoadInt64(&c.curr)
	prev := atomic.LoadInt64(&c.prev)
	if prev == curr {
		return
	}
	atomic.StoreInt64(&c.prev, curr)
	r.ReportCounter(name, curr-prev)
}

type gauge struct {
	updated uint64
	curr    uint64
}

// Update sets the gauge to v.
func (g *gauge) Update(v float64) {
	atomic.StoreUint64(&g.curr, math.Float64bits(v))
	atomic.StoreUint64(&g.updated, 1)
}

func (g *gauge) report(name string, r Reporter) {
	if atomic.SwapUint64(&g.updated, 0) == 1 {
		r.ReportGauge(name, math.Float64frombits(atomic.LoadUint64(&g.curr)))
	}
}

// Scope hands out metrics and reports them every interval.
type Scope struct {
	mu       sync.RWMutex
	counters map[string]*counter
	gauges   map[string]*gauge
}

// NewScope returns a scope that reports to r every interval.
func NewScope(r Reporter, interval time.Duration) *Scope {
	s := &Scope{counters: map[string]*counter{}, gauges: map[string]*gauge{}}
	go s.reportLoop(r, interval)
	return s
}

// Counter returns the counter called name.
func (s *Scope) Counter(name string) *counter {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.counters[name]
	if c == nil {
		c = &counter{}
		s.counters[name] = c
	}
	return c
}

// Gauge returns the gauge called name.
func (s *Scope) Gauge(name string) *gauge {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.gauges[name]
	if g == nil {
		g = &gauge{}
		s.gauges[name] = g
	}
	return g
}

func (s *Scope) reportLoop(r Reporter, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for range t.C {
		s.mu.RLock()
		for name, c := range s.counters {
			c.report(name, r)
		}
		for name, g := range s.gauges {
			g.report(name, r)
		}
		s.mu.RUnlock()
	}
}
