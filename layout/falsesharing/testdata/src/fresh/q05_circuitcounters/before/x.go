// Package before reproduces github.com/cep21/circuit's Circuit layout before
// da534a6bbeb9aad0901d44f298e919841434dff6: the two in-flight counters, added
// to and subtracted from by every Execute on every goroutine, sit between the
// open flag and the two state-machine interfaces that every Execute reads, so
// each request invalidates the read-mostly line all other cores are using.
package before

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Tracker is told about each run; ShouldOpen and Allow drive the breaker.
type Tracker interface {
	Success(now time.Time, took time.Duration)
	Failure(now time.Time, took time.Duration)
}

// ClosedToOpen decides when to trip; OpenToClosed when to let a call through.
type (
	ClosedToOpen interface {
		Tracker
		ShouldOpen(now time.Time) bool
	}
	OpenToClosed interface {
		Tracker
		Allow(now time.Time) bool
	}
)

type Config struct{ MaxConcurrent int64 }

type liveConfig struct {
	maxConcurrent atomic.Int64
	disabled      atomic.Bool
}

// Circuit guards calls to a dependency.
type Circuit struct {
	trackers         []Tracker
	fallbackTrackers []Tracker
	name             string
	cfg              Config
	cfgMu            sync.Mutex
	live             liveConfig
	isOpen           atomic.Bool
	running          atomic.Int64
	fallingBack      atomic.Int64
	closedToOpen     ClosedToOpen
	openToClose      OpenToClosed
	clock            func() time.Time
}

// New builds a circuit from its state machines and settings.
func New(name string, cfg Config, c2o ClosedToOpen, o2c OpenToClosed) *Circuit {
	c := &Circuit{name: name, cfg: cfg, closedToOpen: c2o, openToClose: o2c, clock: time.Now}
	c.trackers = []Tracker{c2o, o2c}
	c.live.maxConcurrent.Store(cfg.MaxConcurrent)
	return c
}

var errRejected = errors.New("circuit: rejected")

// Execute runs fn unless the circuit is open or saturated; called from any goroutine.
func (c *Circuit) Execute(ctx context.Context, fn func(context.Context) error, fallback func(error) error) error {
	if c.live.disabled.Load() {
		return fn(ctx)
	}
	now := c.clock()
	if c.isOpen.Load() && !c.openToClose.Allow(now) {
		return c.fallback(fallback, errRejected)
	}
	n := c.running.Add(1)
	defer c.running.Add(-1)
	if max := c.live.maxConcurrent.Load(); max >= 0 && n > max {
		return c.fallback(fallback, errRejected)
	}
	err := fn(ctx)
	took := c.clock().Sub(now)
	if err == nil {
		for _, t := range c.trackers {
			t.Success(now, took)
		}
		return nil
	}
	for _, t := range c.trackers {
		t.Failure(now, took)
	}
	if !c.isOpen.Load() && c.closedToOpen.ShouldOpen(now) {
		c.isOpen.Store(true)
	}
	return c.fallback(fallback, err)
}

func (c *Circuit) fallback(fb func(error) error, cause error) error {
	if fb == nil {
		return cause
	}
	c.fallingBack.Add(1)
	defer c.fallingBack.Add(-1)
	err := fb(cause)
	for _, t := range c.fallbackTrackers {
		t.Success(c.clock(), 0)
	}
	return err
}
