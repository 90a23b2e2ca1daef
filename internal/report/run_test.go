package report

import (
	"context"
	"runtime"
	"testing"
	"time"
)

func needTwoCPUs(t *testing.T) {
	t.Helper()
	if runtime.NumCPU() < 2 {
		t.Skip("the report's probes need at least 2 CPUs; this machine has 1")
	}
}

// TestRunWithinBudget runs the kernel scenario with a short budget and
// checks that it ends within it, with every section filled.
func TestRunWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole report for 20 s")
	}
	needTwoCPUs(t)
	sc, err := KernelScenario()
	if err != nil {
		t.Fatal(err)
	}
	budget := 20 * time.Second
	start := time.Now()
	r, err := Run(context.Background(), sc, Options{Budget: budget, Lines: []int64{64, 128}})
	if err != nil {
		t.Fatal(err)
	}
	// Generous: a shared 2-core VM may stall a run, but the plan leaves a
	// fifth of the budget spare.
	if elapsed := time.Since(start); elapsed > budget+budget/2 {
		t.Errorf("the report took %v with a budget of %v", elapsed, budget)
	}
	// Seven probes, natively and emulated: the padding at the tick's
	// rate and unthrottled, the floor, the reorder and the three later
	// steps.
	if !r.Complete || r.Sweep == nil || r.Clocks == nil || r.Kernel == nil || len(r.Probes) != 14 || len(r.Conclusions) != 5 {
		t.Errorf("complete %v, sweep %v, clocks %v, kernel %v, %d probes, %d conclusions", r.Complete, r.Sweep != nil, r.Clocks != nil, r.Kernel != nil, len(r.Probes), len(r.Conclusions))
	}
	for _, p := range r.Probes {
		if p.Skipped == "" && p.Rounds < 6 {
			t.Errorf("probe %q (%s): %d rounds, want at least 6 for intervals", p.Title, p.Mode, p.Rounds)
		}
	}
}
