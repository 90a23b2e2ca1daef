// Package ristrettostats reproduces the hit-ratio counters of
// github.com/dgraph-io/ristretto as they were before commit
// b06ad4f219400f9203a3dc8c99bf2312e826d5de. Verdict: flag on amd64 and
// arm64 (FS1): every Get and Set adds to a randomly chosen uint64 of a
// 256-element array, so different CPUs increment neighbouring 8-byte
// elements of the same line.
package ristrettostats

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

type statKind int

const (
	statHit statKind = iota
	statMiss
	statDroppedSet
	numStats
)

type stats struct {
	all [numStats]*[256]uint64
}

func newStats() *stats {
	s := &stats{}
	for i := range s.all {
		s.all[i] = new([256]uint64)
	}
	return s
}

func (s *stats) add(k statKind, delta uint64) {
	slots := s.all[k]
	atomic.AddUint64(&slots[rand.Uint64()%256], delta)
}

func (s *stats) get(k statKind) uint64 {
	var total uint64
	slots := s.all[k]
	for i := range slots {
		total += atomic.LoadUint64(&slots[i])
	}
	return total
}

// Cache is a concurrent cache that records its hit ratio.
type Cache struct {
	data  sync.Map
	setCh chan uint64
	stats *stats
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{setCh: make(chan uint64, 64), stats: newStats()}
}

// Get looks key up and counts a hit or a miss.
func (c *Cache) Get(key uint64) (any, bool) {
	v, ok := c.data.Load(key)
	if ok {
		c.stats.add(statHit, 1)
	} else {
		c.stats.add(statMiss, 1)
	}
	return v, ok
}

// Set stores v unless the set buffer is full, when it counts a drop.
func (c *Cache) Set(key uint64, v any) bool {
	select {
	case c.setCh <- key:
		c.data.Store(key, v)
		<-c.setCh
		return true
	default:
		c.stats.add(statDroppedSet, 1)
		return false
	}
}

// Ratio returns hits / (hits + misses).
func (c *Cache) Ratio() float64 {
	h, m := c.stats.get(statHit), c.stats.get(statMiss)
	if h+m == 0 {
		return 0
	}
	return float64(h) / float64(h+m)
}
