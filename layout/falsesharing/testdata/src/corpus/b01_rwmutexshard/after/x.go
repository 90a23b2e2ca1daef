// Package after reproduces github.com/bytedance/gopkg's syncx.RWMutex as
// 0b1ca6bbd6094dcae1451f5a983faf624e4173e5 left it: the pad follows the
// mutex and is sized from x/sys/cpu.CacheLinePad, so every shard is one
// whole line (64 bytes on amd64, 128 on arm64) and no two shards' mutexes
// share a line: clean on both.
package after

import (
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/cpu"
)

const cacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

// RWMutex is a reader-writer lock with one shard per P.
type RWMutex []rwMutexShard

type rwMutexShard struct {
	sync.RWMutex
	_pad [cacheLineSize - unsafe.Sizeof(sync.RWMutex{})]byte
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
