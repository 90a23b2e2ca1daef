// Package vmhistogram reproduces the Histogram of
// github.com/VictoriaMetrics/metrics as commit
// 984b12dbb5d4caf2841bc7cebcc9a99f8e95c247 introduced it. Verdict: clean on
// amd64 and arm64: every member, the bucket pointers, lower, upper and
// sum, is written under mu, which sits beside them, so the line bounces
// with the lock anyway.
package vmhistogram

import (
	"math"
	"sync"
)

const (
	e10Min              = -9
	e10Max              = 18
	bucketsPerDecimal   = 18
	decimalBucketsCount = e10Max - e10Min
	bucketsCount        = decimalBucketsCount * bucketsPerDecimal
)

// Histogram is a histogram with logarithmic buckets.
type Histogram struct {
	mu sync.Mutex

	decimalBuckets [decimalBucketsCount]*[bucketsPerDecimal]uint64

	lower uint64
	upper uint64

	sum float64
}

// Update records v.
func (h *Histogram) Update(v float64) {
	if math.IsNaN(v) || v < 0 {
		return
	}
	idx := (math.Log10(v) - e10Min) * bucketsPerDecimal
	h.mu.Lock()
	h.sum += v
	switch {
	case idx < 0:
		h.lower++
	case idx >= bucketsCount:
		h.upper++
	default:
		i := uint(idx)
		db := h.decimalBuckets[i/bucketsPerDecimal]
		if db == nil {
			db = new([bucketsPerDecimal]uint64)
			h.decimalBuckets[i/bucketsPerDecimal] = db
		}
		db[i%bucketsPerDecimal]++
	}
	h.mu.Unlock()
}

// Reset clears the histogram.
func (h *Histogram) Reset() {
	h.mu.Lock()
	for _, db := range h.decimalBuckets {
		if db != nil {
			*db = [bucketsPerDecimal]uint64{}
		}
	}
	h.lower, h.upper, h.sum = 0, 0, 0
	h.mu.Unlock()
}

// VisitNonZeroBuckets calls f for each non-empty bucket, for a scrape.
func (h *Histogram) VisitNonZeroBuckets(f func(idx int, count uint64)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for d, db := range h.decimalBuckets {
		if db == nil {
			continue
		}
		for o, c := range db {
			if c > 0 {
				f(d*bucketsPerDecimal+o, c)
			}
		}
	}
}
