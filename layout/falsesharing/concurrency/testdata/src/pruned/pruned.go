// Package pruned holds the shapes the model must read the same when it
// is built for some of the package's types only.
package pruned

import "sync"

// Table is the type the model is asked about.
type Table struct {
	mu    sync.Mutex
	n     int
	inner inner
}

type inner struct{ hits int }

// other is of no interest.
type other struct{ m int }

var tables [4]Table

// lock names no Table, yet locks Add's t.mu.
func lock(mu *sync.Mutex) { mu.Lock() }

func (t *Table) Add() {
	lock(&t.mu)
	t.n++
	t.mu.Unlock()
}

// bump names no Table, yet updates Bump's t.inner.hits.
func bump(p *int) { *p++ }

func (t *Table) Bump() { bump(&t.inner.hits) }

// even and odd call each other and name no Table. Each sees the other's
// summary as far as it is built, so what Count does to t.n depends on
// where the cycle is entered first: at even, by (*other).Reset, which is
// of no interest itself.
func even(p *int, k int) {
	if k > 0 {
		odd(p, k-1)
	}
	*p = k
}

func odd(p *int, k int) {
	if k > 0 {
		even(p, k-1)
	}
	_ = *p
}

func (o *other) Reset() { even(&o.m, 2) }

func Count(t *Table) { odd(&t.n, 3) }

func (o *other) Set() { o.m = 1 }

func Shard(i int) { tables[i%4].n++ }

func Each(f func(*Table)) {
	for i := range tables {
		f(&tables[i])
	}
}
