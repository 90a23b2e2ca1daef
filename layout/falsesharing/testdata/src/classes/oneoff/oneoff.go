// Package oneoff holds calls that a user makes now and then, not on
// every request: a sync, a flatten, a garbage collection run, a build,
// an info dump. What they write contends with nothing.
package oneoff

import (
	"sync"
	"sync/atomic"
)

// DB's Get reads opts on every call; the one-off calls write beside it.
type DB struct {
	syncs    atomic.Int64
	flattens atomic.Int64
	gcRuns   atomic.Int64
	infos    atomic.Int64
	opts     *Options
	mu       sync.Mutex
	tables   []string
}

type Options struct{ Dir string }

func (db *DB) Get(k string) string { return db.opts.Dir + k }

func (db *DB) Sync() error { db.syncs.Add(1); return nil }

func (db *DB) Flatten(workers int) error { db.flattens.Add(int64(workers)); return nil }

func (db *DB) RunValueLogGC(ratio float64) error { db.gcRuns.Add(1); return nil }

func (db *DB) Info() []string {
	db.infos.Add(1)
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.tables
}

// Builder's Build runs once per builder; every Add reads limit.
type Builder struct {
	built atomic.Bool
	n     atomic.Int64
	limit int64
}

func (b *Builder) Add() bool { return b.n.Add(1) <= b.limit }

func (b *Builder) Build() int64 { b.built.Store(true); return b.n.Load() }

// Pool's Start is a one-off call, but the workers it starts serve for
// as long as the pool runs: their counting is the steady state. Every
// Submit reads limit on the line of done.
type Pool struct {
	done  atomic.Int64 // want `done shares a line with limit .*the goroutine started in \(\*Pool\)\.Start updates done while \(\*Pool\)\.Submit reads limit.*FS2, proven`
	limit int
	tasks chan func()
}

func (p *Pool) Start(n int) {
	for range n {
		go func() {
			for task := range p.tasks {
				task()
				p.done.Add(1)
			}
		}()
	}
}

func (p *Pool) Submit(task func()) bool {
	if len(p.tasks) >= p.limit {
		return false
	}
	p.tasks <- task
	return true
}

// Inbox's Write takes a message in from every sender: its steady state,
// not the scrape a metric's Write(*dto.Metric) is. Every Write bumps
// seq on the line of mask, which the reader loads on every message, and
// stores into a slot beside the next sender's.
type Inbox struct {
	seq   atomic.Uint64 // want `seq shares a line with mask .*\(\*Inbox\)\.Write updates seq while \(\*Inbox\)\.Read reads mask.*FS2, proven`
	mask  uint64
	slots []atomic.Pointer[string] // want `elements of slots are 8 bytes.*\(\*Inbox\)\.Write stores an element of slots chosen per CPU or goroutine.*FS1, proven`
}

func (in *Inbox) Write(v *string) { in.slots[in.seq.Add(1)&in.mask].Store(v) }

func (in *Inbox) Read(i uint64) *string { return in.slots[i&in.mask].Swap(nil) }
