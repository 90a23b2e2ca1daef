package confirm

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/costmodel"
	"github.com/mglayout/mglayout/probe/stats"
)

// Calibrate measures this host's cost model for the operation kinds of
// the experiments, with the options' CPUs, rounds and run length.
func Calibrate(ctx context.Context, exps []*Experiment, o probe.Options) (*costmodel.Calibration, error) {
	var kinds []costmodel.Kinds
	for _, e := range exps {
		if k := e.Kinds(); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return costmodel.Measure(ctx, kinds, o)
}

// predict is the cost model's prediction for an experiment and whether
// the comparison agrees with it, or why there is none.
func predict(cal *costmodel.Calibration, e *Experiment, c stats.Comparison) (*Prediction, string) {
	if cal == nil {
		return nil, "uncalibrated (no calibration ran)"
	}
	if cal.Line != e.HostLine {
		return nil, fmt.Sprintf("uncalibrated: the calibration is of %d-byte lines, this host's are %d", cal.Line, e.HostLine)
	}
	ch, err := cal.Predict(e.Kinds(), e.From, e.To)
	if err != nil {
		return nil, err.Error()
	}
	return &Prediction{Change: ch, Agrees: Agrees(ch.Reader, c)}, ""
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
