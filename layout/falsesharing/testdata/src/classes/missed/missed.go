// Package missed holds false sharing of the kinds that reproductions of
// real fixes showed the analyzer missing (class 10): counters bumped by
// closures kept in a slice and run by goroutines, a read-only mask beside
// a CAS'd tail, ring slots published by a producer and polled by
// consumers, package-level words CAS'd through unsafe.Pointer conversions,
// shards written with plain stores by the worker that owns each, a
// trailing zero-size member that makes padded cells a word longer, objects
// of one size class allocated one after another, reader stripes chosen by
// a per-reader token. Each is a defect, reported.
package missed

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Stage counts what its workers do. The workers are closures kept in a
// slice and run each by a goroutine of its own: every worker bumps its
// own counter, all of them on one line.
type Stage struct {
	done   [4]atomic.Int64 // want `elements of done are 8 bytes.*the goroutine started in \(\*Stage\).Run updates an element of done chosen per CPU or goroutine.*\(FS1, proven\)`
	errors atomic.Int64
}

func (s *Stage) Run(jobs []func() error) {
	var wg sync.WaitGroup
	workers := make([]func(), 0, 4)
	for w := range 4 {
		workers = append(workers, func() {
			for _, j := range jobs {
				if j() != nil {
					s.errors.Add(1)
				}
				s.done[w].Add(1)
			}
		})
	}
	for _, f := range workers {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}

// Queue is a bounded queue whose producers CAS tail and whose consumers
// CAS head; both read mask and the slots, which are set once, beside
// tail: every push takes the line of the mask that every pop reads.
type Queue struct {
	head  atomic.Uint64 // want `the padding after head leaves it on a line with the object before.*\(FS3, declared\)`
	_     [120]byte
	tail  atomic.Uint64 // want `tail shares a line with mask and slots.*\(\*Queue\).Push updates tail while \(\*Queue\).Pop reads mask.*\(FS2, proven\)`
	mask  uint64
	slots []atomic.Pointer[int]
}

func NewQueue(size int) *Queue {
	return &Queue{mask: uint64(size - 1), slots: make([]atomic.Pointer[int], size)}
}

func (q *Queue) Push(v *int) bool {
	for {
		t := q.tail.Load()
		s := &q.slots[t&q.mask]
		if s.Load() != nil {
			return false
		}
		if q.tail.CompareAndSwap(t, t+1) {
			s.Store(v)
			return true
		}
	}
}

func (q *Queue) Pop() *int {
	for {
		h := q.head.Load()
		s := &q.slots[h&q.mask]
		v := s.Load()
		if v == nil {
			return nil
		}
		if q.head.CompareAndSwap(h, h+1) {
			s.Store(nil)
			return v
		}
	}
}

// Ring's producer publishes each slot's sequence after writing it, and
// the consumers poll the sequence of the slot they wait for: slots
// side by side, 16 bytes each, share lines.
type Ring struct {
	slots [64]slot // want `elements of slots are 16 bytes.*\(\*Ring\).Publish stores an element of slots.*\(FS1, proven\)`
	next  atomic.Uint64
}

type slot struct {
	seq atomic.Uint64
	val uint64
}

func (r *Ring) Publish(v uint64) {
	i := r.next.Add(1) - 1
	s := &r.slots[i%64]
	s.val = v
	s.seq.Store(i + 1)
}

func (r *Ring) Poll(i uint64) (uint64, bool) {
	s := &r.slots[i%64]
	if s.seq.Load() != i+1 {
		return 0, false
	}
	return s.val, true
}

// Package-level words CAS'd through unsafe pointer conversions: the
// sequence every request takes and the epoch every reader loads.
var (
	sequence uint64 // want `sequence shares a line with epoch.*Next updates sequence while Stamp reads epoch.*\(FS2, proven\)`
	epoch    uint64
)

func Next() uint64 {
	for {
		old := atomic.LoadUint64((*uint64)(unsafe.Pointer(&sequence)))
		if atomic.CompareAndSwapUint64((*uint64)(unsafe.Pointer(&sequence)), old, old+1) {
			return old
		}
	}
}

// Stamp appends the current epoch to a record, on every record written.
func Stamp(rec []byte) []byte {
	e := atomic.LoadUint64((*uint64)(unsafe.Pointer(&epoch)))
	return append(rec, byte(e), byte(e>>8))
}

// Shards are written with plain stores by the worker that owns each,
// chosen by the worker's index.
type Shards struct {
	counts [8]int64 // want `elements of counts are 8 bytes.*\(\*Shards\).Work stores an element of counts chosen per CPU or goroutine.*\(FS1, proven\)`
}

func (s *Shards) Work(items [][]int) {
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, it := range items[w] {
				s.counts[w] += int64(it)
			}
		}()
	}
	wg.Wait()
}

// Padded's cells are padded to a 64-byte line, but the zero-size marker
// at the end makes each a word longer: 72 bytes, two counters to a
// 128-byte line.
type Padded struct {
	cells [8]paddedCell // want `the padding in the elements of cells makes them 72 bytes, too short for 128 B lines on arm64.*\(FS4, declared\)`
}

type paddedCell struct {
	n atomic.Int64
	_ [56]byte
	_ [0]func()
}

func (p *Padded) Add(i int) { p.cells[i%8].n.Add(1) }

// Session is allocated one after another, 48 bytes each: one session's
// state, CASed by its connection's goroutine on every frame, sits beside
// the session before's handler, which that session's goroutine reads
// on every frame.
type Session struct { // want `Session objects are 40 bytes, in the allocator.s 48-byte size class: allocated one by one \(in Serve\).*\(FS1, proven\)`
	state   atomic.Int32
	id      int64
	frames  chan []byte
	handler func([]byte)
	done    chan struct{}
}

func Serve(n int, frames func(i int) chan []byte) {
	for i := range n {
		s := &Session{id: int64(i), frames: frames(i), handler: func([]byte) {}, done: make(chan struct{})}
		go s.loop()
	}
}

func (s *Session) loop() {
	for f := range s.frames {
		if s.state.CompareAndSwap(0, 1) {
			s.handler(f)
			s.state.Store(0)
		}
	}
}

// RWLock is striped by reader: each reader takes a token when it
// starts and CASes the count of its stripe.
type RWLock struct {
	readers [8]atomic.Int32 // want `elements of readers are 4 bytes.*\(\*RWLock\).RLock updates an element of readers chosen per CPU or goroutine.*\(FS1, proven\)`
	writer  atomic.Bool
}

type Token int

func (l *RWLock) RLock(t Token) {
	for {
		n := l.readers[t%8].Load()
		if l.readers[t%8].CompareAndSwap(n, n+1) {
			return
		}
	}
}

func (l *RWLock) RUnlock(t Token) { l.readers[t%8].Add(-1) }
