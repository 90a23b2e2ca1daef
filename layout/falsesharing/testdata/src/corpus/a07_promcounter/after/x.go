// Package promcounter reproduces the Counter of
// github.com/prometheus/client_golang as commit
// a2facc3074da810dcfc1d6251e03964fd80bce9d left it: integer increments go
// to valInt, others to the float bits in valBits. Verdict: clean on amd64
// and arm64. Both words belong to one metric and are read together by
// Write (the scrape); a metric is incremented either by Inc or by a
// fractional Add, so splitting them buys nothing; desc and labelPairs are
// written only by the constructor before the counter escapes.
package promcounter

import (
	"errors"
	"math"
	"sync/atomic"
)

// Desc describes a metric.
type Desc struct {
	FQName string
	Help   string
}

// LabelPair is one constant label.
type LabelPair struct{ Name, Value string }

// Counter is a monotonically increasing value.
type Counter struct {
	// valBits holds the float64 bits of non-integer additions, valInt the
	// integer ones. Both go first for 64-bit alignment on 32-bit platforms.
	valBits uint64
	valInt  uint64

	desc       *Desc
	labelPairs []LabelPair
}

// NewCounter returns a counter described by d.
func NewCounter(d *Desc, labels []LabelPair) *Counter {
	return &Counter{desc: d, labelPairs: labels}
}

// Desc returns the counter's description.
func (c *Counter) Desc() *Desc { return c.desc }

// Add adds v, which must not be negative.
func (c *Counter) Add(v float64) {
	if v < 0 {
		panic(errors.New("counter cannot decrease in value"))
	}
	ival := uint64(v)
	if float64(ival) == v {
		atomic.AddUint64(&c.valInt, ival)
		return
	}
	for {
		old := atomic.LoadUint64(&c.valBits)
		nb := math.Float64bits(math.Float64frombits(old) + v)
		if atomic.CompareAndSwapUint64(&c.valBits, old, nb) {
			return
		}
	}
}

// Inc adds one.
func (c *Counter) Inc() {
	atomic.AddUint64(&c.valInt, 1)
}

// Write returns the current value and the labels, for a scrape.
func (c *Counter) Write() (float64, []LabelPair) {
	f := math.Float64frombits(atomic.LoadUint64(&c.valBits))
	i := atomic.LoadUint64(&c.valInt)
	return f + float64(i), c.labelPairs
}
