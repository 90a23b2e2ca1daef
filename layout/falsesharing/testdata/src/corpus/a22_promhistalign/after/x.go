// Package promhistalign reproduces the Histogram of
// github.com/prometheus/client_golang as commit
// 7973e4709d98873b5b5bb9776a13156277c30dc5 laid it out for 64-bit
// alignment on 32-bit platforms: countAndHotIdx moved first and the two
// counts behind pointers. Verdict: clean on amd64 and arm64: the hot word
// now shares its line with upperBounds and the counts pointers, which
// Observe reads in the same call that adds to countAndHotIdx, and with
// writeMtx, name and hotIdx, which only Write (the scrape) and Desc use.
package promhistalign

import (
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

type histogramCounts struct {
	sumBits uint64
	count   uint64
	buckets []uint64
}

// Histogram counts observations in buckets.
type Histogram struct {
	// The total count in the upper 63 bits, the hot index in the lowest.
	// First, for 64-bit alignment on 32-bit platforms.
	countAndHotIdx uint64

	name     string
	writeMtx sync.Mutex // Only used in Write.

	upperBounds []float64

	// Two counts: the hot one takes observations, the cold one is written out.
	counts [2]*histogramCounts

	hotIdx int // Only used within Write.

	labels []string
}

// NewHistogram returns a histogram with the given bucket upper bounds.
func NewHistogram(name string, bounds []float64) *Histogram {
	h := &Histogram{name: name, upperBounds: bounds}
	for i := range h.counts {
		h.counts[i] = &histogramCounts{buckets: make([]uint64, len(bounds))}
	}
	return h
}

// Desc returns the histogram's name, for registration.
func (h *Histogram) Desc() string { return h.name }

// Observe adds one observation.
func (h *Histogram) Observe(v float64) {
	i := sort.SearchFloat64s(h.upperBounds, v)
	n := atomic.AddUint64(&h.countAndHotIdx, 2)
	hot := h.counts[n%2]
	if i < len(h.upperBounds) {
		atomic.AddUint64(&hot.buckets[i], 1)
	}
	for {
		old := atomic.LoadUint64(&hot.sumBits)
		nb := math.Float64bits(math.Float64frombits(old) + v)
		if atomic.CompareAndSwapUint64(&hot.sumBits, old, nb) {
			break
		}
	}
	atomic.AddUint64(&hot.count, 1)
}

// Write swaps hot and cold counts and returns the cumulative buckets.
func (h *Histogram) Write() (count uint64, sum float64, cumulative []uint64) {
	h.writeMtx.Lock()
	defer h.writeMtx.Unlock()

	var hot, cold *histogramCounts
	if h.hotIdx == 0 {
		count = atomic.AddUint64(&h.countAndHotIdx, 1) >> 1
		h.hotIdx = 1
		hot, cold = h.counts[1], h.counts[0]
	} else {
		count = atomic.AddUint64(&h.countAndHotIdx, ^uint64(0)) >> 1
		h.hotIdx = 0
		hot, cold = h.counts[0], h.counts[1]
	}
	for count != atomic.LoadUint64(&cold.count) {
		runtime.Gosched()
	}
	sum = math.Float64frombits(atomic.LoadUint64(&cold.sumBits))
	var cum uint64
	for i := range h.upperBounds {
		cum += atomic.LoadUint64(&cold.buckets[i])
		cumulative = append(cumulative, cum)
	}

	atomic.AddUint64(&hot.count, count)
	atomic.StoreUint64(&cold.count, 0)
	for {
		old := atomic.LoadUint64(&hot.sumBits)
		nb := math.Float64bits(math.Float64frombits(old) + sum)
		if atomic.CompareAndSwapUint64(&hot.sumBits, old, nb) {
			atomic.StoreUint64(&cold.sumBits, 0)
			break
		}
	}
	for i := range h.upperBounds {
		atomic.AddUint64(&hot.buckets[i], atomic.LoadUint64(&cold.buckets[i]))
		atomic.StoreUint64(&cold.buckets[i], 0)
	}
	return count, sum, cumulative
}
