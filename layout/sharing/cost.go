package sharing

import "cmp"

// Cost is what one path pays in one case: the figures every judgement of
// a layout weighs, each by one of the policies below. diff's gate
// (GateUnits), suggest's search (SearchCost) and the worst case of a line
// size (Worst) all read it from here.
type Cost struct {
	Line       int64   // the case's line size
	Lines      int     // lines touched
	Blocks128  int     // 128-byte blocks touched; equal to Lines from 128 up
	FalseLines int     // lines on which the path takes part in false sharing
	Rate       float64 // the path's accesses per second (access.Path.Weight)
}

// Cost returns the path's cost in a case of the line size.
func (f *PathFigures) Cost(line int64) Cost {
	return Cost{Line: line, Lines: len(f.Lines), Blocks128: f.Blocks128, FalseLines: len(f.FalseLines), Rate: f.Path.Weight(nominalCPUs)}
}

// GateUnits is the gate's count of a path in a case (diff.GateRule): the
// lines it touches, plus the 128-byte blocks below 128-byte lines, plus
// the lines on which it takes part in false sharing.
func (c Cost) GateUnits() int {
	n := c.Lines + c.FalseLines
	if c.Line < 128 {
		n += c.Blocks128
	}
	return n
}

// searchWeight is the path's part in SearchCost: the lines it touches, a
// 128-byte block counting half a line below 128 (the prefetcher fetches
// the pair's other half at a fraction of a miss), by its rate.
func (c Cost) searchWeight() float64 {
	lines := float64(c.Lines)
	if c.Line < 128 {
		lines += 0.5 * float64(c.Blocks128)
	}
	return lines * c.Rate
}

// falsePenalty weighs a false-sharing pair in SearchCost against a line
// touched: a line that bounces between writers costs a miss per write,
// several times a line that is only read.
const falsePenalty = 4

// SearchCost is suggest's objective for a case: what its paths pay, by
// rate, plus the weight of its false-sharing pairs.
func (c *Case) SearchCost() float64 {
	var total float64
	for i := range c.Paths {
		total += c.Paths[i].Cost(c.Line).searchWeight()
	}
	return total + falsePenalty*c.FalseWeight()
}

// worse orders the cases of a line size for Worst: the weight of false
// sharing first, then the lines all paths touch together.
func worse(a, b *Case) int {
	if r := cmp.Compare(a.FalseWeight(), b.FalseWeight()); r != 0 {
		return r
	}
	return cmp.Compare(a.LinesTouched(), b.LinesTouched())
}

// LinesTouched is the lines all paths of the case touch, summed.
func (c *Case) LinesTouched() int {
	n := 0
	for _, p := range c.Paths {
		n += len(p.Lines)
	}
	return n
}
