// Package xsynccounter reproduces the striped Counter of
// github.com/puzpuzpuz/xsync as commit
// 47f8ee9adbdf2e766e9d0ae8e8774205a9f8270f introduced it: 32 stripes, each
// an int64 padded by a constant cacheLineSize of 64. Verdict for stripe:
// clean on amd64, flag on arm64 (FS4): on 128-byte lines two stripes that
// goroutines on different CPUs add to share a line. The pooled token
// holds a pointer chosen once, when the token is made.
package xsynccounter

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

const cacheLineSize = 64

const cstripes = 32

var tokenPool sync.Pool

type token struct {
	ptr *int64
}

type stripe struct {
	c   int64
	pad [cacheLineSize - 8]byte
}

// Counter is a striped int64 counter.
type Counter struct {
	stripes [cstripes]stripe
}

// Inc adds one.
func (c *Counter) Inc() { c.Add(1) }

// Add adds delta to the calling goroutine's stripe.
func (c *Counter) Add(delta int64) {
	t, ok := tokenPool.Get().(*token)
	if !ok {
		t = new(token)
		h := uintptr(unsafe.Pointer(t)) * 0x9E3779B97F4A7C15
		t.ptr = &c.stripes[(h>>32)%cstripes].c
	}
	atomic.AddInt64(t.ptr, delta)
	tokenPool.Put(t)
}

// Value sums the stripes.
func (c *Counter) Value() int64 {
	var v int64
	for i := range c.stripes {
		v += atomic.LoadInt64(&c.stripes[i].c)
	}
	return v
}

// Reset zeroes the counter; only for when nothing adds concurrently.
func (c *Counter) Reset() {
	for i := range c.stripes {
		atomic.StoreInt64(&c.stripes[i].c, 0)
	}
}
