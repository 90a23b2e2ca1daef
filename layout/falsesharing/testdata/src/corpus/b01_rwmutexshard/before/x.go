// Package before reproduces github.com/bytedance/gopkg's syncx.RWMutex
// before 0b1ca6bbd6094dcae1451f5a983faf624e4173e5. The per-P shards put a
// fixed 64-byte pad in front of each sync.RWMutex: 88-byte elements keep
// neighbouring mutexes 64 bytes apart, enough at 64-byte lines (clean on
// amd64) but two shards' mutexes share a 128-byte line on arm64 (FS4).
package before

import (
	"runtime"
	"sync"
)

const cacheLineSize = 64

// RWMutex is a reader-writer lock with one shard per P.
type RWMutex []rwMutexShard

type rwMutexShard struct {
	_ [cacheLineSize]byte
	sync.RWMutex
}

// NewRWMutex returns a lock with a shard for every P.
func NewRWMutex() RWMutex { return make(RWMutex, runtime.GOMAXPROCS(0)) }

// RLock read-locks the shard of processor p and returns its index for
// RUnlock.
func (m RWMutex) RLock(p int) int {
	i := p % len(m)
	m[i].RWMutex.RLock()
	return i
}

// RUnlock read-unlocks shard i.
func (m RWMutex) RUnlock(i int) { m[i].RWMutex.RUnlock() }

// Lock write-locks every shard.
func (m RWMutex) Lock() {
	for i := range m {
		m[i].RWMutex.Lock()
	}
}

// Unlock write-unlocks every shard.
func (m RWMutex) Unlock() {
	for i := range m {
		m[i].RWMutex.Unlock()
	}
}
