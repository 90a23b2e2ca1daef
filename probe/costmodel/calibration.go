package costmodel

import (
	"fmt"
	"math"
	"slices"

	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/probe/stats"
)

// Kinds are what the two sides do: the writer to its word, the reader to
// its own.
type Kinds struct {
	Writer, Reader access.Op
}

func (k Kinds) String() string { return k.Writer.String() + "/" + k.Reader.String() }

// AllKinds are the pairs a host's calibration measures for check and
// diff: a writer that stores, adds or CASes, beside a reader that loads,
// stores or adds.
var AllKinds = func() []Kinds {
	var out []Kinds
	for _, w := range []access.Op{access.Write, access.Add, access.CAS} {
		for _, r := range []access.Op{access.Read, access.Write, access.Add} {
			out = append(out, Kinds{w, r})
		}
	}
	return out
}()

// Calibration is one host's cost of a shared line, per pair of operation
// kinds, as a calibration run measured it.
type Calibration struct {
	Host     string   `json:"host"` // the CPU, as CPUID names it
	Line     int64    `json:"line"` // the host's line size, which the relations refer to
	CPUs     [2]int   `json:"cpus"` // the writer's and the reader's
	Rounds   int      `json:"rounds"`
	Duration string   `json:"duration"` // of one run
	Curves   []*Curve `json:"curves"`
}

// Curve is one pair of operation kinds: the medians, per relation, of
// the reader's and the writer's operations per second, the two running at
// once.
type Curve struct {
	Writer string             `json:"writer_op"`
	Reader string             `json:"reader_op"`
	Rates  map[Relation]Rates `json:"rates"`
	// Interferes is set when the reader ran significantly slower, by
	// noiseFloor or more, on the writer's line than far from it (P, Holm
	// over the calibration's curves): without it, the two seldom ran at
	// once (other work on these CPUs), or a shared line costs this host
	// nothing, and a prediction from the curve says so.
	Interferes bool    `json:"interferes"`
	P          float64 `json:"p"`
}

// Rates are both sides' medians at one relation, operations per second.
type Rates struct {
	Reader float64 `json:"reader"`
	Writer float64 `json:"writer"`
}

// Curve returns the curve of a pair of kinds, or nil.
func (c *Calibration) Curve(k Kinds) *Curve {
	i := slices.IndexFunc(c.Curves, func(cv *Curve) bool { return cv.Writer == k.Writer.String() && cv.Reader == k.Reader.String() })
	if i < 0 {
		return nil
	}
	return c.Curves[i]
}

// Change is a predicted change of each side's rate, as a fraction:
// positive where the side runs faster.
type Change struct {
	Reader float64 `json:"reader"`
	Writer float64 `json:"writer"`
}

// Predict is the change when the writer's word moves from one relation
// to the reader's word to another, the two sides doing what k says. It
// fails when the calibration has no curve for k.
func (c *Calibration) Predict(k Kinds, from, to Relation) (Change, error) {
	cv := c.Curve(k)
	if cv == nil {
		return Change{}, fmt.Errorf("uncalibrated: the calibration on %s measured no writer that does %s beside a reader that does %s", c.Host, k.Writer, k.Reader)
	}
	a, b := cv.Rates[from], cv.Rates[to]
	return Change{Reader: b.Reader/a.Reader - 1, Writer: b.Writer/a.Writer - 1}, nil
}

// Validate checks a calibration read from a file: a line size, and for
// each curve two known operation kinds and a positive rate of each side at
// every relation.
func (c *Calibration) Validate() error {
	if c.Line < 16 || c.Line&(c.Line-1) != 0 {
		return fmt.Errorf("line %d is not a power of two of 16 or more", c.Line)
	}
	if len(c.Curves) == 0 {
		return fmt.Errorf("it has no curves")
	}
	for _, cv := range c.Curves {
		for _, op := range []string{cv.Writer, cv.Reader} {
			if _, ok := access.ParseOp(op); !ok {
				return fmt.Errorf("curve %s/%s: %q is not an operation (read, write, add, cas)", cv.Writer, cv.Reader, op)
			}
		}
		for _, r := range Relations {
			// Operations per second a CPU can do: a rate outside
			// makes predictions of no meaning (or infinite ones).
			if x := cv.Rates[r]; !(x.Reader >= 1 && x.Reader <= 1e12) || !(x.Writer >= 1 && x.Writer <= 1e12) {
				return fmt.Errorf("curve %s/%s: no rates between 1 and 10¹² per second at %q", cv.Writer, cv.Reader, r)
			}
		}
	}
	return nil
}

// Agrees reports whether a measurement agrees with a prediction: within
// 25 % of the measured change, within the smallest change the
// measurement could have seen, or within the few per cent by which two
// runs of one loop differ on a shared host (noiseFloor).
func Agrees(predicted float64, c stats.Comparison) bool {
	diff := math.Abs(c.Delta - predicted)
	return diff <= max(0.25*math.Abs(c.Delta), c.MDE, noiseFloor)
}

// noiseFloor is the change below which a measurement is no change: the
// probe's own threshold for a slowdown that counts.
const noiseFloor = 0.05

// Caveats say, one per curve that saw no significant cost of a shared
// line, why predictions from it may mean nothing.
func (c *Calibration) Caveats() []string {
	var out []string
	for _, cv := range c.Curves {
		if !cv.Interferes {
			out = append(out, fmt.Sprintf("the calibration saw no significant cost of a shared line for %s/%s (p=%.3f): its two workers may seldom have run at once (other work on these CPUs?), and predictions from it mean little",
				cv.Writer, cv.Reader, cv.P))
		}
	}
	return out
}
