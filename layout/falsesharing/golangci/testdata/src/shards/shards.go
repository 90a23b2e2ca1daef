// Package shards is a sharded counter, first without padding and then
// padded to a 128-byte line per shard, which is clean on every GOARCH.
package shards

import "sync/atomic"

type Counter struct {
	shards [8]struct{ n atomic.Int64 } // want `\(FS1, proven\)$`
}

func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }

type Padded struct {
	shards [8]struct {
		n atomic.Int64
		_ [120]byte
	}
}

func (c *Padded) Add(cpu int) { c.shards[cpu%8].n.Add(1) }
