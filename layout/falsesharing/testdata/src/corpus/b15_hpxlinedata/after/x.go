// Package after reproduces HPX's cache_line_data as
// 14f82108ac4a6790a5c689e435eb6a0db9d63430 left it: the pad is
// (L - size%L) % L, nothing when the data is already a whole line (amd64)
// and 64 bytes on arm64: clean on both.
package after

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/cpu"
)

const cacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

// workerCounters are one worker's statistics: 64 bytes.
type workerCounters struct {
	executed, stolen, pending, idleLoops atomic.Int64
	busyNanos, idleNanos, wakeups, spins atomic.Int64
}

// cacheLineData pads workerCounters to a whole number of lines.
type cacheLineData struct {
	// The pad comes first: a zero-size last member would cost Go 8 bytes.
	pad  [(cacheLineSize - unsafe.Sizeof(workerCounters{})%cacheLineSize) % cacheLineSize]byte
	data workerCounters
}

// Scheduler has one counter block per worker.
type Scheduler struct {
	counters []cacheLineData
}

// NewScheduler returns a scheduler of n workers.
func NewScheduler(n int) *Scheduler { return &Scheduler{counters: make([]cacheLineData, n)} }

// Executed counts a task run by worker w.
func (s *Scheduler) Executed(w int) { s.counters[w].data.executed.Add(1) }

// Stolen counts a task worker w stole.
func (s *Scheduler) Stolen(w int) { s.counters[w].data.stolen.Add(1) }

// Total sums the executed counts.
func (s *Scheduler) Total() int64 {
	var n int64
	for i := range s.counters {
		n += s.counters[i].data.executed.Load()
	}
	return n
}
