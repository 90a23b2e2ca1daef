package shapes

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// A sharded metrics counter: eight 8-byte shards per 64-byte line.
type Metrics struct {
	shards [8]struct{ n atomic.Int64 } // want `elements of shards are 8 bytes`
}

func (m *Metrics) Inc(cpu int) { m.shards[cpu%8].n.Add(1) }

// Padded shards: one 64-byte line each at 64; two per 128-byte line.
type PaddedMetrics struct {
	shards [8]struct {
		n atomic.Int64
		_ [56]byte
	}
}

func (m *PaddedMetrics) Inc(cpu int) { m.shards[cpu%8].n.Add(1) }

// A rate limiter: the counter written on every call beside the limit that
// only SetLimit writes.
type Limiter struct {
	hits  atomic.Int64 // want `hits shares a line with limit \(.*\), and \(\*Limiter\)\.Allow updates hits while \(\*Limiter\)\.Fits reads limit: false sharing; put them on separate lines \(FS2, proven\)`
	limit int64
}

func (l *Limiter) Allow() bool { return l.hits.Add(1) <= l.limit }

func (l *Limiter) Fits(n int64) bool { return n <= l.limit }

func (l *Limiter) SetLimit(n int64) { l.limit = n }

// Written together: true sharing, no finding.
type Pair struct {
	a, b atomic.Int64
}

func (p *Pair) Both() { p.a.Add(1); p.b.Add(1) }

// Padding that works only if the object is line-aligned.
// A package-level variable is aligned to 32 bytes by the linker: at 32
// the padding separates a and b, at 0 it does not.
var fragile Fragile

type Fragile struct {
	a atomic.Int64
	_ [48]byte
	b atomic.Int64 // want `separates them only at some of the offsets`
}

func (f *Fragile) A() { f.a.Add(1) }
func (f *Fragile) B() { f.b.Add(1) }

// A sync.Pool-style padded local.
type poolLocalInternal struct {
	private any
	shared  []any
	mu      sync.Mutex
}

type poolLocal struct {
	poolLocalInternal
	pad [128 - unsafe.Sizeof(poolLocalInternal{})%128]byte
}

type whole struct {
	a   [64]byte
	pad [64 - unsafe.Sizeof([64]byte{})%64]byte // want `comes to a whole 64-byte line`
}
