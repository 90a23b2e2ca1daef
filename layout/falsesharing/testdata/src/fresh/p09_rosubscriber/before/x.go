// Package before reproduces github.com/samber/ro's subscriber before
// 8c6498be11bb24c0a63d12639fec37eb467d4729: a 64-byte object of interface
// headers and mode bytes, all fixed at construction, plus a state word (status
// upstream) that producers load on every Next and only a terminal event ever
// writes.
package before

import (
	"sync"
	"sync/atomic"
)

// Observer receives the values of a stream.
type Observer interface {
	Next(v any)
	Error(err error)
	Complete()
}

// Subscription can be cancelled.
type Subscription interface{ Unsubscribe() }

type locker interface {
	Lock()
	Unlock()
	TryLock() bool
}

type noLock struct{}

func (noLock) Lock()         {}
func (noLock) Unlock()       {}
func (noLock) TryLock() bool { return true }

type subscription struct {
	mu   sync.Mutex
	done bool
}

func (s *subscription) Unsubscribe() { s.mu.Lock(); s.done = true; s.mu.Unlock() }

const (
	backpressureBlock int8 = iota
	backpressureDrop
)

type subscriber struct {
	Subscription
	dest Observer

	kind     int8
	mu       locker
	dropMode int8

	state int32 // 0 next, 1 error, 2 complete
}

// NewSubscriber wraps dest; safe subscribers get a lock of their own.
func NewSubscriber(dest Observer, safe, drop bool) *subscriber {
	s := &subscriber{Subscription: &subscription{}, dest: dest, mu: noLock{}}
	if safe {
		s.kind, s.mu = 1, &sync.Mutex{}
	}
	if drop {
		s.dropMode = backpressureDrop
	}
	return s
}

// Next is called by the producer goroutines of the stream.
func (s *subscriber) Next(v any) {
	if s.dropMode == backpressureDrop {
		if !s.mu.TryLock() {
			return
		}
	} else {
		s.mu.Lock()
	}
	if atomic.LoadInt32(&s.state) == 0 {
		s.dest.Next(v)
	}
	s.mu.Unlock()
}

// Error ends the stream with err.
func (s *subscriber) Error(err error) {
	s.mu.Lock()
	if atomic.CompareAndSwapInt32(&s.state, 0, 1) {
		s.dest.Error(err)
	}
	s.mu.Unlock()
	s.Subscription.Unsubscribe()
}

// Complete ends the stream.
func (s *subscriber) Complete() {
	s.mu.Lock()
	if atomic.CompareAndSwapInt32(&s.state, 0, 2) {
		s.dest.Complete()
	}
	s.mu.Unlock()
	s.Subscription.Unsubscribe()
}

// IsClosed may be polled from any goroutine.
func (s *subscriber) IsClosed() bool { return atomic.LoadInt32(&s.state) != 0 }

// Unsubscribe cancels the stream.
func (s *subscriber) Unsubscribe() {
	if atomic.CompareAndSwapInt32(&s.state, 0, 2) {
		s.Subscription.Unsubscribe()
	}
}
