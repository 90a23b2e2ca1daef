// Package before reproduces github.com/storozhukBM/pcache's striped map cache
// (its benchmark baseline) before 9d6895f6e9e2310cdb1504b022139f6c6dc0e6a2:
// each stripe, a RWMutex plus a map pointer, is 32 bytes and allocated one
// after another, so two stripes share a line and readers of one stripe
// (RLock writes the reader count) bounce the lock word of its neighbour.
package before

import (
	"hash/maphash"
	"sync"
)

const stripeCount = 64

type stripe struct {
	mu    sync.RWMutex
	items map[string]any
}

// StripedCache spreads keys over stripeCount independently locked maps.
type StripedCache struct {
	perStripe int
	stripes   []*stripe
}

var seed = maphash.MakeSeed()

// NewStripedCache allocates the stripes in a row.
func NewStripedCache(perStripe int) *StripedCache {
	c := &StripedCache{perStripe: perStripe, stripes: make([]*stripe, 0, stripeCount)}
	for i := 0; i < stripeCount; i++ {
		c.stripes = append(c.stripes, &stripe{items: make(map[string]any)})
	}
	return c
}

func (c *StripedCache) pick(key string) *stripe {
	return c.stripes[maphash.String(seed, key)&(stripeCount-1)]
}

// Load reads a key under the stripe's read lock.
func (c *StripedCache) Load(key string) (any, bool) {
	s := c.pick(key)
	s.mu.RLock()
	v, ok := s.items[key]
	s.mu.RUnlock()
	return v, ok
}

// Store writes a key and drops an arbitrary one when the stripe is full.
func (c *StripedCache) Store(key string, v any) {
	s := c.pick(key)
	s.mu.Lock()
	s.items[key] = v
	if len(s.items) > c.perStripe {
		for k := range s.items {
			delete(s.items, k)
			break
		}
	}
	s.mu.Unlock()
}

// Hammer runs one goroutine per worker, each storing and loading its keys.
func Hammer(c *StripedCache, workers, rounds int, keys []string) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				k := keys[(w+i)%len(keys)]
				c.Store(keys[len(keys)-1-(i%len(keys))], k)
				c.Load(k)
			}
		}(w)
	}
	wg.Wait()
}
