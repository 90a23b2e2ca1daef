// Package typo misspells a type directive. The analyzer reports it at the
// directive, with the accepted forms, and checks nothing else in the
// package: a directive is never silently ignored.
package typo

import "sync/atomic"

// Counter would be FS1; the bad directive is reported instead.
//
// want +2 `^malformed directive "//mglayout:algin 64" \(accepted: //mglayout:path NAME .*; //mglayout:align N; //mglayout:padded N; //mglayout:union; //mglayout:model NAME; //mglayout:ignore REASON\)$`
//
//mglayout:algin 64
type Counter struct {
	shards [8]struct{ n atomic.Int64 }
}

func (c *Counter) Add(cpu int) { c.shards[cpu%8].n.Add(1) }
