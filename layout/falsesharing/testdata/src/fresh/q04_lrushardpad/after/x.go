// Package after reproduces github.com/phuslu/lru's inline shards after
// bd637fffa012f0cd1e422afd6eff927aab3348bb: a trailing pad computed from the
// member sizes brings every shard to exactly 128 bytes, and since the shard
// slice is a multiple of 128 bytes long each shard starts on a 128-byte
// boundary: one 128-byte line, two 64-byte lines, no neighbour.
package after

import (
	"runtime"
	"sync"
	"unsafe"
)

type node[K comparable, V any] struct {
	key        K
	value      V
	next, prev uint32
}

type nodeList[K comparable, V any] struct {
	items []node[K, V] // items[0] is the sentinel
}

func (l *nodeList[K, V]) toFront(i uint32) {
	n := &l.items[i]
	l.items[n.prev].next, l.items[n.next].prev = n.next, n.prev
	n.prev, n.next = 0, l.items[0].next
	l.items[l.items[0].next].prev = i
	l.items[0].next = i
}

type hashIndex[K comparable] struct {
	buckets          []struct{ hash, slot uint32 } // slot 0 empty, ^0 deleted
	keyOf            func(slot uint32) K
	cap, length      int
	mask             uint32
	growAt, shrinkAt int
}

func (t *hashIndex[K]) find(h uint32, k K) (pos uint32, ok bool) {
	pos = h & t.mask
	for n := 0; n < len(t.buckets) && t.buckets[pos].slot != 0; n++ {
		if b := t.buckets[pos]; b.slot != ^uint32(0) && b.hash == h && t.keyOf(b.slot) == k {
			return pos, true
		}
		pos = (pos + 1) & t.mask
	}
	return pos, false
}

type shard[K comparable, V any] struct {
	mu    sync.Mutex
	list  nodeList[K, V]
	index hashIndex[K]
	_     [128 - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(nodeList[K, V]{}) - unsafe.Sizeof(hashIndex[K]{})]byte
}

// Cache is an LRU split into a power-of-two number of inline shards.
type Cache[K comparable, V any] struct {
	shards []shard[K, V]
	mask   uint32
	hash   func(K) uint32
}

// New builds a cache with sixteen shards or more per CPU (a power of two),
// each holding size entries.
func New[K comparable, V any](size int, hash func(K) uint32) *Cache[K, V] {
	n := 1
	for n < runtime.NumCPU()*16 {
		n *= 2
	}
	c := &Cache[K, V]{shards: make([]shard[K, V], n), mask: uint32(n - 1), hash: hash}
	for i := range c.shards {
		s := &c.shards[i]
		s.list.items = make([]node[K, V], size+1)
		for j := range s.list.items {
			s.list.items[j].next, s.list.items[j].prev = uint32((j+1)%(size+1)), uint32((j+size)%(size+1))
		}
		s.index.buckets, s.index.mask, s.index.cap = make([]struct{ hash, slot uint32 }, 4*size), uint32(4*size-1), size
		s.index.keyOf = func(slot uint32) K { return s.list.items[slot].key }
	}
	return c
}

// Get looks a key up and marks it recently used; any goroutine calls it.
func (c *Cache[K, V]) Get(k K) (v V, ok bool) {
	h := c.hash(k)
	s := &c.shards[h&c.mask]
	s.mu.Lock()
	if pos, found := s.index.find(h, k); found {
		v, ok = s.list.items[s.index.buckets[pos].slot].value, true
		s.list.toFront(s.index.buckets[pos].slot)
	}
	s.mu.Unlock()
	return v, ok
}

// Set stores a key in the least recently used node of its shard.
func (c *Cache[K, V]) Set(k K, v V) {
	h := c.hash(k)
	s := &c.shards[h&c.mask]
	s.mu.Lock()
	pos, found := s.index.find(h, k)
	slot := s.index.buckets[pos].slot
	if !found {
		slot = s.list.items[0].prev // the least recently used node
		if old := s.list.items[slot]; s.index.length == s.index.cap {
			if p, hit := s.index.find(c.hash(old.key), old.key); hit {
				s.index.buckets[p].slot = ^uint32(0)
			}
			s.index.length--
		}
		s.list.items[slot].key = k
		s.index.buckets[pos].hash, s.index.buckets[pos].slot = h, slot
		s.index.length++
	}
	s.list.items[slot].value = v
	s.list.toFront(slot)
	s.mu.Unlock()
}
