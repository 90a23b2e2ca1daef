// Package xsyncrbmutex reproduces the reader-biased RWMutex of
// github.com/puzpuzpuz/xsync as commit
// 1f19135b1c7f27ff8ae0c65319b85752252ce0e8 left it. Verdict: clean on
// amd64, flag on arm64 (FS4): reader slots and pooled tokens are padded to
// a constant 64 bytes, so on 128-byte lines two slots (or two goroutines'
// tokens) still share a line. RBMutex itself is clean: rbias is written
// only by writers and by the slow path, the rest only by the constructor.
package xsyncrbmutex

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

const cacheLineSize = 64

var tokenPool sync.Pool

// RToken is a reader lock token.
type RToken struct {
	slot uint32
	_    [cacheLineSize - 4]byte
}

type rslot struct {
	mu int32
	_  [cacheLineSize - 4]byte
}

// RBMutex is a reader-biased reader/writer lock.
type RBMutex struct {
	rslots       []rslot
	rmask        uint32
	rbias        int32
	inhibitUntil time.Time
	rw           sync.RWMutex
}

// NewRBMutex returns an unlocked, reader-biased mutex.
func NewRBMutex() *RBMutex {
	n := uint32(1)
	for n < uint32(4*runtime.GOMAXPROCS(0)) {
		n <<= 1
	}
	return &RBMutex{rslots: make([]rslot, n), rmask: n - 1, rbias: 1}
}

// RLock locks m for reading and returns the token for RUnlock.
func (m *RBMutex) RLock() *RToken {
	if atomic.LoadInt32(&m.rbias) == 1 {
		t, ok := tokenPool.Get().(*RToken)
		if !ok {
			t = new(RToken)
			t.slot = rand.Uint32()
		}
		for i := 0; i < len(m.rslots); i++ {
			slot := t.slot + uint32(i)
			rs := &m.rslots[slot&m.rmask]
			n := atomic.LoadInt32(&rs.mu)
			if atomic.CompareAndSwapInt32(&rs.mu, n, n+1) {
				if atomic.LoadInt32(&m.rbias) == 1 {
					t.slot = slot
					return t
				}
				atomic.AddInt32(&rs.mu, -1)
				break
			}
		}
		tokenPool.Put(t)
	}
	m.rw.RLock()
	if atomic.LoadInt32(&m.rbias) == 0 && time.Now().After(m.inhibitUntil) {
		atomic.StoreInt32(&m.rbias, 1)
	}
	return nil
}

// RUnlock undoes one RLock.
func (m *RBMutex) RUnlock(t *RToken) {
	if t == nil {
		m.rw.RUnlock()
		return
	}
	atomic.AddInt32(&m.rslots[t.slot&m.rmask].mu, -1)
	tokenPool.Put(t)
}

// Lock locks m for writing and waits for the biased readers to leave.
func (m *RBMutex) Lock() {
	m.rw.Lock()
	if atomic.LoadInt32(&m.rbias) == 1 {
		atomic.StoreInt32(&m.rbias, 0)
		start := time.Now()
		for i := range m.rslots {
			for atomic.LoadInt32(&m.rslots[i].mu) > 0 {
				runtime.Gosched()
			}
		}
		m.inhibitUntil = time.Now().Add(time.Since(start) * 7)
	}
}

// Unlock unlocks m for writing.
func (m *RBMutex) Unlock() {
	m.rw.Unlock()
}
