// Package linepad pads with golang.org/x/sys/cpu.CacheLinePad, checked
// with -falsesharing.arch=amd64 and with amd64,arm64. CacheLinePad is
// sized per GOARCH (cacheLineSize: 64 in cpu_amd64.go, 128 in
// cpu_arm64.go, as in the real package), so code padded with it is right
// on every GOARCH and must not be reported: the analyzer has to lay
// CacheLinePad out as the GOARCH it checks compiles it, not as the
// package was type-checked (for the host).
package linepad

import (
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// Sharded's counters are 72 bytes apart on amd64 and 136 on arm64: more
// than a line on each, clean.
type Sharded struct {
	shards [8]struct {
		_ cpu.CacheLinePad
		n atomic.Int64
	}
}

func (c *Sharded) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

// Limiter keeps two independently written atomics a CacheLinePad apart,
// as x/sys/cpu's own feature structs do: clean.
type Limiter struct {
	tokens atomic.Int64
	_      cpu.CacheLinePad
	last   atomic.Int64
}

func (l *Limiter) Allow() bool { return l.tokens.Add(-1) >= 0 }

func (l *Limiter) Refill(now int64) { l.last.Store(now) }
