// Package guard reproduces github.com/smartystreets-prototypes/go-disruptor's
// sequence cursors as of c96477fd7a6a34a34ea9fc1650ab5b5175e86750: each cursor
// is its own [8]int64 heap object of 64 bytes, so the writer's cursor and the
// readers' cursors, allocated one after another in the 64-byte size class, get
// a line each on amd64 but pair up in one 128-byte line on arm64.
package guard

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// Seq pads its sequence to 64 bytes so no other data shares its line.
type Seq [8]int64

func NewSeq() *Seq {
	var c Seq
	c[0] = -1
	return &c
}

func (c *Seq) Store(v int64) { atomic.StoreInt64(&c[0], v) }
func (c *Seq) Load() int64   { return atomic.LoadInt64(&c[0]) }

type barrier interface{ Load() int64 }

type composite []*Seq

func (c composite) Load() int64 {
	m := int64(math.MaxInt64)
	for _, s := range c {
		if v := s.Load(); v < m {
			m = v
		}
	}
	return m
}

// Writer reserves and publishes ring slots; one goroutine owns it.
type Writer struct {
	published *Seq
	readers   barrier
	size      int64
	claimed   int64
	gate      int64
}

func (w *Writer) Reserve(count int64) int64 {
	w.claimed += count
	for w.claimed-w.size > w.gate {
		runtime.Gosched()
		w.gate = w.readers.Load()
	}
	return w.claimed
}

func (w *Writer) Commit(_, upper int64) { w.published.Store(upper) }

type reader struct {
	state     int64
	current   *Seq
	published *Seq
	consume   func(lower, upper int64)
	gate      barrier
}

func (r *reader) run() {
	current := r.current.Load()
	for atomic.LoadInt64(&r.state) == 0 {
		lower, upper := current+1, r.gate.Load()
		if lower > upper {
			runtime.Gosched()
			continue
		}
		r.consume(lower, upper)
		r.current.Store(upper)
		current = upper
	}
}

// Readers runs every reader on a goroutine of its own.
type Readers []*reader

func (rs Readers) Read() {
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func(r *reader) { defer wg.Done(); r.run() }(r)
	}
	wg.Wait()
}

func (rs Readers) Close() {
	for _, r := range rs {
		atomic.StoreInt64(&r.state, 1)
	}
}

// New wires one writer cursor and one cursor per consumer, allocated back to
// back.
func New(size int64, consumers ...func(lower, upper int64)) (*Writer, Readers) {
	published := NewSeq()
	var rs Readers
	var seqs composite
	for _, c := range consumers {
		cur := NewSeq()
		rs = append(rs, &reader{current: cur, published: published, consume: c, gate: published})
		seqs = append(seqs, cur)
	}
	return &Writer{published: published, readers: seqs, size: size, claimed: -1, gate: -1}, rs
}
