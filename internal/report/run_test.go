package report

import (
	"context"
	"runtime"
	"strings"
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

// TestPlanDrops checks that a budget too small for every probe, even at
// the fewest rounds of the shortest runs, drops the last probes first and
// says why, and that a large one drops none.
func TestPlanDrops(t *testing.T) {
	sc, err := KernelScenario()
	if err != nil {
		t.Fatal(err)
	}
	if p := newPlan(sc, 0, 90*time.Second); len(p.dropped) != 0 {
		t.Errorf("90 s drops probes %v", p.dropped)
	}
	p := newPlan(sc, 0, 8*time.Second)
	last := len(sc.Probes) - 1
	if len(p.dropped) == 0 || !p.dropped[last] || p.dropped[0] {
		t.Errorf("8 s drops %v of %d probes, want the last ones and not the first", p.dropped, len(sc.Probes))
	}
	if why := p.droppedWhy(); !strings.Contains(why, "does not fit the budget") || !strings.Contains(why, "-budget") {
		t.Errorf("droppedWhy() = %q", why)
	}
}
