// Package user uses shard.Counter as the element of a per-CPU table.
// Only the fact exported by the analysis of package shard tells that
// each element's n is written concurrently: user itself never touches
// it.
package user

import "shard"

// Table's 8-byte counters share lines: FS1, known through the fact.
type Table struct {
	cs [8]shard.Counter // want `elements of cs are 8 bytes, so neighbouring shards share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad each element to 64 bytes: .*\(FS1, proven\)`
}

func (t *Table) Inc(cpu int) { t.cs[cpu%8].Inc() }

// Padded wraps each counter in a whole line: clean.
type Padded struct {
	cs [8]struct {
		c shard.Counter
		_ [56]byte
	}
}

func (p *Padded) Inc(cpu int) { p.cs[cpu%8].c.Inc() }

// Single holds one counter beside a name: nothing is shared between
// CPUs that write different elements, and nobody reads name, so clean.
type Single struct {
	c    shard.Counter
	name string
}

func (s *Single) Inc() { s.c.Inc() }
