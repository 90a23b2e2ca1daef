// Package tallyscope reproduces the Scope of github.com/uber-go/tally as
// commit 2499bd2c29bd1638f7aecf8bf2d35190ce43d8eb left it, when subscopes
// became closable. Verdict: clean on amd64 and arm64: closed is stored
// once, by Close, and loaded by the report loop once per interval; cm sits
// beside the map it guards, and the other members are written only by the
// constructor.
package tallyscope

import (
	"sync"
	"sync/atomic"
	"time"
)

type counter struct{ curr atomic.Int64 }

// Scope hands out counters and reports them every interval.
type Scope struct {
	prefix   string
	tags     map[string]string
	reporter func(name string, v int64)

	cm       sync.RWMutex
	counters map[string]*counter

	closed atomic.Bool
	done   chan struct{}
	root   bool
}

// NewRootScope returns a scope that reports every interval until closed.
func NewRootScope(prefix string, report func(string, int64), interval time.Duration) *Scope {
	s := &Scope{
		prefix:   prefix,
		tags:     map[string]string{},
		reporter: report,
		counters: map[string]*counter{},
		done:     make(chan struct{}),
		root:     true,
	}
	go s.reportLoop(interval)
	return s
}

// Inc adds v to the counter called name.
func (s *Scope) Inc(name string, v int64) {
	s.cm.RLock()
	c := s.counters[name]
	s.cm.RUnlock()
	if c == nil {
		s.cm.Lock()
		if c = s.counters[name]; c == nil {
			c = &counter{}
			s.counters[name] = c
		}
		s.cm.Unlock()
	}
	c.curr.Add(v)
}

func (s *Scope) reportLoop(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.reportLoopRun()
		case <-s.done:
			return
		}
	}
}

func (s *Scope) reportLoopRun() {
	if s.closed.Load() {
		return
	}
	s.cm.RLock()
	for name, c := range s.counters {
		s.reporter(s.prefix+name, c.curr.Swap(0))
	}
	s.cm.RUnlock()
}

// Close stops reporting; a second Close does nothing.
func (s *Scope) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return nil
	}
	close(s.done)
	if s.root {
		s.reportLoopRun()
	}
	return nil
}
