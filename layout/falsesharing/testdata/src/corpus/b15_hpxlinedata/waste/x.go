// Package waste reproduces HPX's cache_line_data (TheHPXProject/hpx,
// hpx/util/cache_aligned_data.hpp) before 14f82108ac4a6790a5c689e435eb6a0db9d63430
// ("Fix padding calculation"): the pad is L - size%L, so data that is
// already a whole line gets a second, empty line. The 64-byte per-worker
// counters waste a line in every element on amd64 (FS5); on arm64 the
// same pad is the 64 bytes needed to reach 128 (clean).
package waste

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
	pad  [cacheLineSize - unsafe.Sizeof(workerCounters{})%cacheLineSize]byte
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
