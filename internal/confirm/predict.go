package confirm

import (
	"context"
	"fmt"
	"math"

	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// Calibration is what this host's own sweep says a falsely shared line
// costs: the reader's rate with the writer on its line (distance 0)
// against the far control, from which the static prediction of a fix is
// made. Without one, a prediction is uncalibrated and says so.
type Calibration struct {
	// Gain is the reader's change when the writer moves from its line
	// to the far control: far median over distance-0 median, less one.
	Gain float64 `json:"gain"`
	Far  int64   `json:"far"` // the control distance
	// Rounds and Duration are the sweep's.
	Rounds   int    `json:"rounds"`
	Duration string `json:"duration"`
}

// Calibrate measures the host's sweep at distance 0 and at the far
// control, with the options' CPUs, rounds and run length.
func Calibrate(ctx context.Context, o probe.Options) (*Calibration, error) {
	sw, err := probe.Sweep(ctx, probe.SweepOptions{Max: 0, Step: 8, Far: 4096, Duration: o.Duration, Count: o.Count, CPUs: o.CPUs})
	if err != nil {
		return nil, err
	}
	if sw.Rounds == 0 || len(sw.Points) == 0 {
		return nil, fmt.Errorf("the calibration sweep completed no round")
	}
	near := stats.Summarize(sw.Points[0].Reader).Median
	far := stats.Summarize(sw.Far.Reader).Median
	if !(near > 0) || !(far > 0) {
		return nil, fmt.Errorf("the calibration sweep measured no reader")
	}
	return &Calibration{Gain: far/near - 1, Far: sw.Far.Distance, Rounds: sw.Rounds, Duration: o.Duration.String()}, nil
}

// Predict is the static prediction of a fix's effect on the reader: the
// calibration's gain where the experiment's members share a line on this
// host (a line the writer dirties, which the reader then misses), none
// where they are apart.
func (c *Calibration) Predict(e *Experiment) float64 {
	if e.Apart {
		return 0
	}
	return c.Gain
}

// Agrees reports whether a measurement agrees with the prediction:
// within 25 % of the measured change, within the smallest change the
// measurement could have seen, or within the few per cent by which two
// runs of one loop differ on a shared host (noiseFloor).
func Agrees(predicted float64, c stats.Comparison) bool {
	diff := math.Abs(c.Delta - predicted)
	return diff <= max(0.25*math.Abs(c.Delta), c.MDE, noiseFloor)
}

// noiseFloor is the change below which a measurement is no change: the
// probe's own threshold for a slowdown that counts.
const noiseFloor = 0.05
