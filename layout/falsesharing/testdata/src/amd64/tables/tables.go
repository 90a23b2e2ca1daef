// Package tables holds per-CPU tables that are not arrays inside a
// struct: a slice of shards, as make([]shard, runtime.GOMAXPROCS(0))
// builds it, and a package-level array. Their elements are 8 bytes, so
// neighbouring shards share lines exactly as in an array member (FS1, as
// the design asks for "elements of an array/slice"). Checked with
// -falsesharing.arch=amd64.
package tables

import (
	"runtime"
	"sync/atomic"
)

type shard struct {
	n atomic.Int64
}

// Sharded's table is a slice, one element per P.
type Sharded struct {
	shards []shard // want `elements of shards are 8 bytes.*\(FS1, proven\)`
}

func NewSharded() *Sharded {
	return &Sharded{shards: make([]shard, runtime.GOMAXPROCS(0))}
}

func (s *Sharded) Add(cpu int) { s.shards[cpu%len(s.shards)].n.Add(1) }

// counters is a package-level per-CPU table.
var counters [8]struct{ n atomic.Int64 } // want `elements of counters are 8 bytes.*\(FS1, proven\)`

func Add(cpu int) { counters[cpu%8].n.Add(1) }

// Queue hands each producer a ticket from an atomic counter, and the
// ticket picks its slot: consecutive producers write neighbouring 16-byte
// slots, four to a line.
type Queue struct {
	head  atomic.Uint64
	slots []struct { // want `elements of slots are 16 bytes, so neighbouring shards share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad each element to 64 bytes: \(\*Queue\)\.Push stores an element of slots chosen per CPU or goroutine, at random or by a ticket \(FS1, proven\)`
		turn atomic.Uint64
		item int
	}
}

func (q *Queue) Push(v int) {
	t := q.head.Add(1) - 1
	s := &q.slots[t%uint64(len(q.slots))]
	s.item = v
	s.turn.Store(t + 1)
}

// worker is allocated one by one in a loop, each with a goroutine of its
// own that counts what it does: 40-byte objects in the 48-byte size
// class sit 48 bytes apart, so neighbours' counters share lines.
type worker struct { // want `worker objects are 40 bytes, in the allocator's 48-byte size class: allocated one by one \(in StartWorkers\) they sit 48 bytes apart, so the hot members of neighbours share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad worker to 64 bytes: the goroutine running \(\*worker\)\.run updates done of its object \(FS1, proven\)`
	id   int
	jobs chan int
	done atomic.Int64
	name string
}

func (w *worker) run() {
	for range w.jobs {
		w.done.Add(1)
	}
}

// StartWorkers starts n workers.
func StartWorkers(n int) []*worker {
	var ws []*worker
	for i := range n {
		w := &worker{id: i, jobs: make(chan int)}
		ws = append(ws, w)
		go w.run()
	}
	return ws
}
