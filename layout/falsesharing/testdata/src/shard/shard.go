// Package shard exports a counter whose member is a plain int64 updated
// through sync/atomic inside this package. Nothing in the type says it is
// hot; the analyzer records it in a fact on Counter, which importers
// read.
package shard

import "sync/atomic"

// Counter is 8 bytes: harmless alone, false sharing in an array.
type Counter struct {
	n int64
}

func (c *Counter) Inc() { atomic.AddInt64(&c.n, 1) }

func (c *Counter) Load() int64 { return atomic.LoadInt64(&c.n) }

// gauge is updated through sync/atomic too, but it is unexported: no
// other package can use it, so it needs no fact.
type gauge struct {
	v int64
}

func (g *gauge) Set(v int64) { atomic.StoreInt64(&g.v, v) }

// Meter is exported and holds a gauge: its fact says g.v, as an
// importer holding a gauge of its own would compose it.
type Meter struct {
	g    gauge
	name string
}
