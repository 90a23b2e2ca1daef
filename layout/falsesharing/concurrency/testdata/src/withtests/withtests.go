// Package withtests has tests that call into it: the tests are no
// operations of the package.
package withtests

import "sync/atomic"

// Stats counts.
type Stats struct {
	n     atomic.Int64
	limit int64
}

// Add counts one.
func (s *Stats) Add() { s.n.Add(1) }
