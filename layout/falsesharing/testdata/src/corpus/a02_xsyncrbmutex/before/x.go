// Package xsyncrbmutex reproduces the reader-biased RWMutex of
// github.com/puzpuzpuz/xsync as it was before commit
// 1f19135b1c7f27ff8ae0c65319b85752252ce0e8. Verdict: flag on amd64 and
// arm64 (FS1): readers pick one of 4096 int32 slots at random and CAS it,
// so sixteen (amd64) or thirty-two (arm64) slots that readers on
// different CPUs lock share each line.
package xsyncrbmutex

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

const readerSlots = 4096 // a power of two

var tokenPool sync.Pool

// RToken is a reader lock token.
type RToken struct {
	slot uint32
}

// RBMutex is a reader-biased reader/writer lock.
type RBMutex struct {
	readers      [readerSlots]int32
	rbias        int32
	inhibitUntil time.Time
	rw           sync.RWMutex
}

// NewRBMutex returns an unlocked, reader-biased mutex.
func NewRBMutex() *RBMutex {
	return &RBMutex{rbias: 1}
}

// RLock locks m for reading and returns the token for RUnlock.
func (m *RBMutex) RLock() *RToken {
	if atomic.LoadInt32(&m.rbias) == 1 {
		t, ok := tokenPool.Get().(*RToken)
		if !ok {
			t = &RToken{slot: rand.Uint32() & (readerSlots - 1)}
		}
		if atomic.CompareAndSwapInt32(&m.readers[t.slot], 0, 1) {
			if atomic.LoadInt32(&m.rbias) == 1 {
				return t
			}
			atomic.StoreInt32(&m.readers[t.slot], 0)
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
	atomic.StoreInt32(&m.readers[t.slot], 0)
	tokenPool.Put(t)
}

// Lock locks m for writing and waits for the biased readers to leave.
func (m *RBMutex) Lock() {
	m.rw.Lock()
	if atomic.LoadInt32(&m.rbias) == 1 {
		atomic.StoreInt32(&m.rbias, 0)
		start := time.Now()
		for i := range m.readers {
			for atomic.LoadInt32(&m.readers[i]) > 0 {
				runtime.Gosched()
			}
		}
		m.inhibitUntil = time.Now().Add(time.Since(start) * 9)
	}
}

// Unlock unlocks m for writing.
func (m *RBMutex) Unlock() {
	m.rw.Unlock()
}
