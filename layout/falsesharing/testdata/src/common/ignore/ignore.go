// Package ignore holds shapes the analyzer would report, each suppressed
// or excluded by a directive: //mglayout:ignore REASON on the type or on
// a member, or //mglayout:cold on a member. Checked with
// -falsesharing.arch=amd64 and with amd64,arm64: nothing is reported.
package ignore

import "sync/atomic"

// Counter's 8-byte shards would be FS1, but the type is ignored.
//
//mglayout:ignore one shard per NUMA node, written a few times a second
type Counter struct {
	shards [8]struct{ n atomic.Int64 }
}

func (c *Counter) Add(node int) { c.shards[node%8].n.Add(1) }

// Table ignores the shard array itself.
type Table struct {
	shards [8]struct{ n atomic.Int64 } //mglayout:ignore sized by the benchmark in table_test.go
	name   string
}

func (t *Table) Add(cpu int) { t.shards[cpu%8].n.Add(1) }

// Limiter's limit would be FS2 beside hits (Limit reads it without
// writing hits); the member is ignored.
type Limiter struct {
	hits atomic.Int64
	// limit is read on every Allow; measured, the miss does not matter.
	//mglayout:ignore measured in BenchmarkAllow: no difference
	limit int64
}

func (l *Limiter) Allow() bool       { return l.hits.Add(1) <= l.limit }
func (l *Limiter) Fits(n int64) bool { return n <= l.limit }
func (l *Limiter) SetLimit(n int64)  { l.limit = n }

// Ring's tail would be FS2 beside head; head is ignored, so no pair is
// left to report.
type Ring struct {
	head atomic.Uint64 //mglayout:ignore the consumer polls rarely
	tail atomic.Uint64
}

func (r *Ring) Push() { r.tail.Add(1) }
func (r *Ring) Pop()  { r.head.Add(1) }

// Gauge's limit is marked cold: it takes part in no inferred path.
type Gauge struct {
	value atomic.Int64
	limit int64 //mglayout:cold
}

func (g *Gauge) Set(v int64)       { g.value.Store(v) }
func (g *Gauge) Fits(n int64) bool { return n <= g.limit }
func (g *Gauge) SetLimit(n int)    { g.limit = int64(n) }
