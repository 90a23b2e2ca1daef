// Package after reproduces the striped counter of github.com/Yiling-J/theine-go
// as 5a347aa5a6941392a8b7c15810dfa50847948d40 left it: CacheLineSize is
// unsafe.Sizeof(cpu.CacheLinePad{}), so every stripe is a whole line on
// both GOARCHes: clean on both.
package after

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// CacheLineSize is the line size the stripes are padded to.
const CacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

var ptokenPool sync.Pool

var nextToken atomic.Uint32

// ptoken points a goroutine at a stripe.
type ptoken struct {
	idx uint32
	pad [CacheLineSize - 4]byte
}

// Counter is a striped int64 counter.
type Counter struct {
	stripes []cstripe
	mask    uint32
}

type cstripe struct {
	c   int64
	pad [CacheLineSize - 8]byte
}

// NewCounter returns a counter with a power of two stripes.
func NewCounter() *Counter {
	n := uint32(1)
	for n < uint32(runtime.GOMAXPROCS(0)) {
		n *= 2
	}
	return &Counter{stripes: make([]cstripe, n), mask: n - 1}
}

// Add adds delta to the stripe of the calling goroutine.
func (c *Counter) Add(delta int64) {
	t, ok := ptokenPool.Get().(*ptoken)
	if !ok {
		t = &ptoken{idx: nextToken.Add(1)}
	}
	atomic.AddInt64(&c.stripes[t.idx&c.mask].c, delta)
	ptokenPool.Put(t)
}

// Value sums the stripes.
func (c *Counter) Value() int64 {
	var v int64
	for i := range c.stripes {
		v += atomic.LoadInt64(&c.stripes[i].c)
	}
	return v
}
