// Package testonly holds a fake clock declared beside the real one, as
// packages do for their tests: only its tests make one, so no user's
// call runs its methods, through the Clock interface or otherwise.
package testonly

import (
	"sync"
	"sync/atomic"
	"time"
)

type Clock interface{ Now() int64 }

type realClock struct{}

func (realClock) Now() int64 { return time.Now().UnixNano() }

// fakeClock counts the readings that tests make of it, and moves when
// they say.
type fakeClock struct {
	reads atomic.Int64
	now   atomic.Int64
}

func (f *fakeClock) Now() int64 {
	f.reads.Add(1)
	return f.now.Load()
}

func (f *fakeClock) Advance(d int64) { f.now.Add(d) }

// Cache stamps every Get.
type Cache struct {
	clock Clock
	mu    sync.Mutex
	items map[string]int64
}

func NewCache() *Cache { return &Cache{clock: realClock{}, items: map[string]int64{}} }

func (c *Cache) Get(k string) int64 {
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = now
	return now
}
