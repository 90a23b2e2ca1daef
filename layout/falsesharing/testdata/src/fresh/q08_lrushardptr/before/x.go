// Package before reproduces github.com/phuslu/lru's shard table before
// 5458460cdda6da260f0ad1f6cd8034c94a51c5dc: the slice of shards holds
// pointers, each padded by 56 bytes to a 64-byte element, but those slots are
// written once at construction and only read afterwards, while the shards
// they point to are separate 128-byte objects that the size class already
// starts on a line of their own: the 56 bytes per shard buy nothing.
package before

import "sync"

type entry[K comparable, V any] struct {
	key   K
	value V
}

type elem[T any] struct {
	next, prev *elem[T]
	Value      T
}

type list[T any] struct {
	root elem[T]
	len  int
}

func (l *list[T]) toFront(e *elem[T]) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = &l.root, l.root.next
	l.root.next.prev, l.root.next = e, e
}

// table is an open-addressing index; hdib holds hash+1, 0 when free, ^0 when deleted.
type table[K comparable, V any] struct {
	hdib                                []uint64
	buckets                             []entry[K, V]
	cap, length, mask, growAt, shrinkAt int
}

func (t *table[K, V]) find(h uint64, k K) (int, bool) {
	i := int(h) & t.mask
	for n := 0; n < len(t.hdib) && t.hdib[i] != 0; n++ {
		if t.hdib[i] == h+1 && t.buckets[i].key == k {
			return i, true
		}
		i = (i + 1) & t.mask
	}
	return i, false
}

type shard[K comparable, V any] struct {
	mu    sync.Mutex
	list  list[*entry[K, V]]
	index table[K, *elem[*entry[K, V]]]
}

type paddedShard[K comparable, V any] struct {
	*shard[K, V]
	_ [56]byte
}

// Cache is an LRU split over many independently locked shards.
type Cache[K comparable, V any] struct {
	shards []paddedShard[K, V]
	mask   uint64
	hash   func(K) uint64
}

// New makes n shards (a power of two) of size entries, each its own allocation.
func New[K comparable, V any](n, size int, hash func(K) uint64) *Cache[K, V] {
	c := &Cache[K, V]{shards: make([]paddedShard[K, V], n), mask: uint64(n - 1), hash: hash}
	for i := range c.shards {
		s := &shard[K, V]{}
		s.list.root.next, s.list.root.prev = &s.list.root, &s.list.root
		for j := 0; j < size; j++ {
			e := &elem[*entry[K, V]]{Value: &entry[K, V]{}, prev: s.list.root.prev, next: &s.list.root}
			s.list.root.prev.next, s.list.root.prev = e, e
			s.list.len++
		}
		s.index.hdib, s.index.mask, s.index.cap = make([]uint64, 4*size), 4*size-1, size
		s.index.buckets = make([]entry[K, *elem[*entry[K, V]]], 4*size)
		c.shards[i].shard = s
	}
	return c
}

// Get returns the value for k and marks it recently used; any goroutine calls it.
func (c *Cache[K, V]) Get(k K) (v V, ok bool) {
	h := c.hash(k)
	s := c.shards[h&c.mask].shard
	s.mu.Lock()
	if i, hit := s.index.find(h, k); hit {
		e := s.index.buckets[i].value
		s.list.toFront(e)
		v, ok = e.Value.value, true
	}
	s.mu.Unlock()
	return v, ok
}

// Set stores k, recycling the least recently used entry of its shard.
func (c *Cache[K, V]) Set(k K, v V) {
	h := c.hash(k)
	s := c.shards[h&c.mask].shard
	s.mu.Lock()
	i, hit := s.index.find(h, k)
	if !hit {
		e := s.list.root.prev // least recently used
		if j, old := s.index.find(c.hash(e.Value.key), e.Value.key); old && s.index.buckets[j].value == e {
			s.index.hdib[j] = ^uint64(0)
			s.index.length--
		}
		e.Value.key = k
		s.index.hdib[i], s.index.buckets[i] = h+1, entry[K, *elem[*entry[K, V]]]{k, e}
		s.index.length++
	}
	e := s.index.buckets[i].value
	e.Value.value = v
	s.list.toFront(e)
	s.mu.Unlock()
}
