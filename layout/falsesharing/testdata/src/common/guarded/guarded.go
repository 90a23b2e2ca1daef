// Package guarded holds the most common Go shape of all: a mutex beside
// the data it guards. Whoever reads the data holds the lock, so the line
// they share is truly shared, and nothing may be reported, on any
// GOARCH. Checked with -falsesharing.arch=amd64 and with amd64,arm64.
package guarded

import "sync"

// Cache reads m only under mu, once through a helper that its callers
// call with the lock held (the Go convention of a "Locked" suffix). The
// helper takes no lock itself, but it is no independent reader: it runs
// inside Len's critical section.
type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func (c *Cache) Get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lenLocked()
}

// lenLocked must be called with c.mu held.
func (c *Cache) lenLocked() int { return len(c.m) }

// Registry guards its map with an RWMutex, all accesses in the methods
// that lock it: clean.
type Registry struct {
	mu    sync.RWMutex
	byID  map[int]string
	count int
}

func (r *Registry) Add(id int, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byID[id] = name
	r.count++
}

func (r *Registry) Name(id int) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.byID[id]
}
