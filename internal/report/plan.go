package report

import (
	"fmt"
	"time"

	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/stats"
)

// plan is how long each run lasts so that the measurements fit the time
// left of the budget.
type plan struct {
	count        int
	sweep, probe time.Duration
	// dropped are the probes, by index in the scenario, that do not fit
	// even at the fewest rounds of the shortest runs: the last first.
	dropped map[int]bool
	// budget is what the plan had, for the words of a dropped probe.
	budget time.Duration
}

// droppedWhy says why a probe is not run.
func (p *plan) droppedWhy() string {
	return fmt.Sprintf("it does not fit the budget (%v left for the measurements, %d rounds of %v runs at the fewest); run the report with a larger -budget", p.budget.Round(time.Second), p.count, p.probe)
}

// The settings used when the budget allows them, and the overhead of one
// run (starting, pinning and stopping the workers, mapping memory).
const (
	defaultCount = 10
	sweepRun     = 30 * time.Millisecond
	probeRun     = 100 * time.Millisecond
	runOverhead  = 10 * time.Millisecond
	sweepPoints  = 256/16 + 1 + 1 // 0..256 by 16, and the control
	clockRows    = 7              // reads of the clock, each a run as long as a sweep run
	kernelRuns   = 2              // the pipe workloads, each a run as long as a probe run
	// calibrationRuns are the runs of the cost model per pair of kinds,
	// each as long as a sweep run: three relations, beside the writer and
	// alone.
	calibrationRuns = 6
	budgetReserve   = 0.8 // leave a fifth for writing and for the unexpected
)

// newPlan fits the runs into what is left of the budget, with the cost
// model calibrated for that many pairs of kinds: first shorter runs, down
// to probe.MinDuration, then fewer rounds, down to the fewest that give a
// confidence interval; then without the probes that still do not fit,
// the last of the scenario first.
func newPlan(sc Scenario, calibrated int, left time.Duration) *plan {
	runs := make([]int, len(sc.Probes))
	for i, spec := range sc.Probes {
		cases := 0
		for _, v := range spec.Variants {
			seen := map[string]bool{}
			for _, o := range v.Objects {
				for _, p := range o.Paths {
					if !seen[p.Name] && (len(spec.Paths) == 0 || contains(spec.Paths, p.Name)) {
						seen[p.Name] = true
						cases += 2 // beside the writers, and alone
					}
				}
			}
		}
		runs[i] = 2 * cases // native and emulated
	}
	p := &plan{count: defaultCount, sweep: sweepRun, probe: probeRun, dropped: map[int]bool{}, budget: left}
	cost := func() time.Duration {
		probeRuns := 0
		for i, n := range runs {
			if !p.dropped[i] {
				probeRuns += n
			}
		}
		per := time.Duration(sweepPoints+clockRows+calibrated*calibrationRuns)*(p.sweep+runOverhead) + time.Duration(probeRuns+kernelRuns)*(p.probe+runOverhead)
		return time.Duration(p.count) * per
	}
	limit := time.Duration(float64(left) * budgetReserve)
	for cost() > limit && p.probe > probe.MinDuration {
		// Whole milliseconds: "rounds of 17ms", not of 17.797851ms.
		p.probe = max(probe.MinDuration, (p.probe * 3 / 4).Truncate(time.Millisecond))
		p.sweep = max(probe.MinDuration, (p.sweep * 3 / 4).Truncate(time.Millisecond))
	}
	for cost() > limit && p.count > stats.MinForCI {
		p.count--
	}
	for i := len(runs) - 1; cost() > limit && i >= 0; i-- {
		p.dropped[i] = true
	}
	return p
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
