// Package before reproduces github.com/puzpuzpuz/xsync's Map buckets before
// 80cfe83b9ec4480a32b28a44fe75afc740f077d5: seven entries and the
// lock word make a 128-byte bucket padded to 2*cacheLineSize, two lines
// at 64 and one at 128, so no two buckets, locked and written by
// different goroutines, share a line: clean on both.
package before

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

const (
	cacheLineSize       = 64
	entriesPerMapBucket = 7
)

// Map is a concurrent hash map of string keys.
type Map struct {
	table []bucketPadded
}

type bucketPadded struct {
	pad [2*cacheLineSize - unsafe.Sizeof(bucket{})]byte
	bucket
}

type bucket struct {
	next   unsafe.Pointer // *bucketPadded
	keys   [entriesPerMapBucket]unsafe.Pointer
	values [entriesPerMapBucket]unsafe.Pointer
	// topHashMutex packs the entries' top hash bits and a spin lock.
	topHashMutex uint64
}

const lockBit = 1

// NewMap returns a map of n buckets.
func NewMap(n int) *Map { return &Map{table: make([]bucketPadded, n)} }

func (b *bucket) lock() {
	for {
		v := atomic.LoadUint64(&b.topHashMutex)
		if v&lockBit == 0 && atomic.CompareAndSwapUint64(&b.topHashMutex, v, v|lockBit) {
			return
		}
		runtime.Gosched()
	}
}

func (b *bucket) unlock() {
	atomic.StoreUint64(&b.topHashMutex, atomic.LoadUint64(&b.topHashMutex)&^lockBit)
}

// Store puts value under key in the bucket of hash h.
func (m *Map) Store(h uint64, key, value *string) {
	b := &m.table[h%uint64(len(m.table))].bucket
	b.lock()
	for i := range b.keys {
		if k := (*string)(atomic.LoadPointer(&b.keys[i])); k == nil || *k == *key {
			atomic.StorePointer(&b.values[i], unsafe.Pointer(value))
			atomic.StorePointer(&b.keys[i], unsafe.Pointer(key))
			break
		}
	}
	b.unlock()
}

// Load returns the value under key, without locking.
func (m *Map) Load(h uint64, key string) (*string, bool) {
	b := &m.table[h%uint64(len(m.table))].bucket
	for i := range b.keys {
		if k := (*string)(atomic.LoadPointer(&b.keys[i])); k != nil && *k == key {
			return (*string)(atomic.LoadPointer(&b.values[i])), true
		}
	}
	return nil, false
}
