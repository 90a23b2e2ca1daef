// Package before reproduces github.com/timescale/promscale's CLOCK cache
// before 3349550808c2809c325a67a03e305ec35d1eb3bc: every element of the
// storage slice carries a 16-byte pad to fill a 64-byte line, although the
// only word readers write, the used bit, is stored only when it is clear
// (a load guards the store) and the cache holds millions of elements: the
// maintainers measured no gain and dropped the pad to save the memory.
package before

import (
	"sync"
	"sync/atomic"
)

const usedBit = uint32(1) << 31

type element struct {
	key   any
	value any
	// used flag in the top bit, insertion time (unix seconds) below it
	usedWithTs uint32
	size       uint64
	_          [16]byte
}

// Cache is a CLOCK approximation of LRU: Get needs only the read lock.
type Cache struct {
	lock     sync.RWMutex
	index    map[any]*element
	storage  []element
	dataSize uint64

	insertLock sync.Mutex // one inserter/evictor at a time
	hand       int
}

// WithMax preallocates room for max elements.
func WithMax(max int) *Cache {
	return &Cache{index: make(map[any]*element, max), storage: make([]element, 0, max)}
}

// Get is called by many goroutines at once.
func (c *Cache) Get(key any) (any, bool) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	e, ok := c.index[key]
	if !ok {
		return nil, false
	}
	if v := atomic.LoadUint32(&e.usedWithTs); v&usedBit == 0 {
		atomic.StoreUint32(&e.usedWithTs, v|usedBit)
	}
	return e.value, true
}

// Insert adds key, evicting the first element the sweep finds unused.
func (c *Cache) Insert(key, value any, size uint64, now uint32) {
	c.insertLock.Lock()
	defer c.insertLock.Unlock()
	slot := c.sweep()
	c.lock.Lock()
	defer c.lock.Unlock()
	if _, ok := c.index[key]; ok {
		return
	}
	fresh := element{key: key, value: value, usedWithTs: now &^ usedBit, size: size}
	if slot == nil {
		c.storage = append(c.storage, fresh)
		slot = &c.storage[len(c.storage)-1]
	} else {
		delete(c.index, slot.key)
		c.dataSize -= slot.size
		*slot = fresh
	}
	c.dataSize += size
	c.index[key] = slot
}

// sweep clears used bits around the ring until it meets an element whose bit
// was already clear; it returns nil while there is still room to append.
func (c *Cache) sweep() *element {
	if len(c.storage) < cap(c.storage) {
		return nil
	}
	for n := 0; n < 2*len(c.storage); n++ {
		e := &c.storage[c.hand]
		c.hand = (c.hand + 1) % len(c.storage)
		old := atomic.LoadUint32(&e.usedWithTs)
		if atomic.SwapUint32(&e.usedWithTs, old&^usedBit)&usedBit == 0 {
			return e
		}
	}
	return &c.storage[c.hand]
}
