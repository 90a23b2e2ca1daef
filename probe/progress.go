package probe

import "fmt"

// Progress is where a measurement stands, told between runs: run Run of
// Runs in round Round of Rounds (both from 1), and what the run measures.
type Progress struct {
	Round, Rounds int
	Run, Runs     int
	What          string // a distance, a clock, a workload, a case
}

func (p Progress) String() string {
	return fmt.Sprintf("round %d/%d, run %d/%d: %s", p.Round, p.Rounds, p.Run, p.Runs, p.What)
}
