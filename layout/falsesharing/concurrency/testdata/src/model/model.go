// Package model holds the shapes the concurrency model must read right.
package model

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

type counter struct{ v uintptr }

func (c *counter) inc() { atomic.AddUintptr(&c.v, 1) }

// Stats is written by Add on every call.
type Stats struct {
	hits  counter
	limit int64
	mu    sync.Mutex
	items []int
	cfg   int
	done  atomic.Bool
	slots [8]struct{ n atomic.Int64 }
}

func NewStats() *Stats {
	s := &Stats{limit: 10}
	s.hits.inc()
	go s.loop()
	return s
}

func (s *Stats) Add(cpu int) bool {
	s.hits.inc()
	s.slots[cpu%8].n.Add(1)
	return s.limit > 0
}

func (s *Stats) Push(x int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pushLocked(x)
}

func (s *Stats) pushLocked(x int) { s.items = append(s.items, x) }

func (s *Stats) SetLimit(n int64) { s.limit = n }

func (s *Stats) Close() { s.done.Store(true) }

func (s *Stats) loop() {
	t := time.NewTicker(time.Second)
	for range t.C {
		s.cfg++
	}
}

// Do counts the failures of f: only once an error has occurred.
func (s *Stats) Do(f func() error) {
	if err := f(); err != nil {
		s.mu.Lock()
		s.cfg--
		s.mu.Unlock()
	}
}

// Token is a reader's slot, drawn at random once and kept.
type Token struct{ slot uint32 }

// Readers counts readers in slots that each reader's token chooses.
type Readers struct {
	slots    [64]atomic.Int32
	deadline time.Time
}

// Enter takes the reader's slot. Comparing times is no timer: Enter runs
// on the steady state.
func (r *Readers) Enter(t *Token) bool {
	if t.slot == 0 {
		t.slot = rand.Uint32()
	}
	r.slots[t.slot%64].Add(1)
	return time.Now().After(r.deadline)
}

// Buf is handed over through Pool's channel: whoever holds it uses it
// alone.
type Buf struct {
	n   atomic.Int64
	tag string
}

type Pool struct{ ch chan *Buf }

func (p *Pool) Get() *Buf {
	b := <-p.ch
	b.tag = "x"
	return b
}

func (p *Pool) Put(b *Buf) {
	b.n.Store(0)
	p.ch <- b
}

// Vec.CurryWith derives a labelled copy of a vector: a constructor in all but
// name.
type Vec struct {
	mu     sync.RWMutex
	labels []string
}

func (v *Vec) CurryWith(l string) (*Vec, error) {
	if l == "" {
		return nil, nil
	}
	return &Vec{labels: append(v.labels[:len(v.labels):len(v.labels)], l)}, nil
}

func (v *Vec) WriteText(w interface{ WriteString(string) (int, error) }) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	for _, l := range v.labels {
		w.WriteString(l)
	}
}

func (v *Vec) MustCurryWith(l string) *Vec {
	c, err := v.CurryWith(l)
	if err != nil {
		panic(err)
	}
	return c
}

// Ring's slots live in their own allocation: Put writes a slot, and only
// reads the slice header beside next.
type Ring struct {
	next   atomic.Uint64
	slots  []slot
	warned uint32
}

// Warn warns once: a flag raised from 0 to 1.
func (r *Ring) Warn() {
	if atomic.CompareAndSwapUint32(&r.warned, 0, 1) {
		println("ring full")
	}
}

type slot struct{ seq atomic.Uint64 }

func (r *Ring) Put() {
	i := r.next.Add(1)
	r.slots[i%uint64(len(r.slots))].seq.Store(i)
}

var verbose uint32

// Verbose sets a package setting: a setter, whatever its name.
func Verbose(v bool) {
	n := uint32(0)
	if v {
		n = 1
	}
	atomic.StoreUint32(&verbose, n)
}

// Copier is implemented by Vec: CurryAny derives through it.
type Copier interface {
	WriteText(interface{ WriteString(string) (int, error) })
}

func (v *Vec) CurryAny(l string) (Copier, error) {
	return &Vec{labels: append(v.labels[:len(v.labels):len(v.labels)], l)}, nil
}

// Sink is the one Reporter of the package: Record runs its Report.
type Reporter interface{ Report(n int64) }

type Sink struct {
	mu    sync.Mutex
	total int64
}

func (s *Sink) Report(n int64) {
	s.mu.Lock()
	s.total += n
	s.mu.Unlock()
}

type Timer struct{ r Reporter }

func (t *Timer) Record(n int64) { t.r.Report(n) }

// Group's Close resets its members in parallel, through a helper.
type Group struct{ members []*Stats }

func (g *Group) Close() { inParallel(g.members) }

func inParallel(ss []*Stats) {
	for _, s := range ss {
		go func() { s.cfg = 0 }()
	}
}

// Limit reads under the lock that guards what it reads: a getter.
func (s *Stats) Limit() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limit
}

// Shard calls the removal callback its Cache chose when it was built.
type Shard struct {
	mu       sync.Mutex
	onRemove removal
}

type removal func(int)

type Cache struct {
	shards  []*Shard
	removed int64
}

func NewCache(verbose bool) *Cache {
	c := &Cache{}
	cb := c.countRemove
	if verbose {
		cb = c.logRemove
	}
	c.shards = append(c.shards, newShard(cb))
	return c
}

func newShard(cb removal) *Shard { return &Shard{onRemove: cb} }

func (c *Cache) countRemove(n int) { atomic.AddInt64(&c.removed, int64(n)) }

func (c *Cache) logRemove(n int) {
	println("removed", n)
	atomic.AddInt64(&c.removed, int64(n))
}

func (s *Shard) Delete(n int) {
	s.mu.Lock()
	s.onRemove(n)
	s.mu.Unlock()
}

// ForEachShard walks every shard: a scrape.
func (c *Cache) ForEachShard(f func(*Shard)) {
	for _, s := range c.shards {
		f(s)
	}
}

// Bump counts without the lock, and takes it only to record a peak.
func (s *Stats) Bump(n int64) {
	s.slots[0].n.Add(n)
	if n > 100 {
		s.mu.Lock()
		s.cfg = int(n)
		s.mu.Unlock()
	}
}

// UpdateLimit reconfigures: a setter.
func (s *Stats) UpdateLimit(n int64) { s.limit = n }
