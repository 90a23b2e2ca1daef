// Package reason ignores a type without saying why.
package reason

import "sync/atomic"

// want +2 `^//mglayout:ignore needs a reason \(//mglayout:ignore REASON\), so that whoever reads it later knows why$`
//
//mglayout:ignore
type Counter struct {
	shards [8]struct{ n atomic.Int64 }
}

func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }
