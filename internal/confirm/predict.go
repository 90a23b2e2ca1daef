package confirm

import (
	"context"
	"fmt"
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
	return &Prediction{Change: ch, Agrees: costmodel.Agrees(ch.Reader, c)}, ""
}
