package main

import (
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/placement"
)

// phasesFor returns where an object of s can start, for the analysis: at
// multiples of its alignment when that is declared (kernel models, C
// objects, //mglayout:align), otherwise wherever the Go allocator or the
// linker may put it, the union of both with both reasons.
func phasesFor(s *layout.Struct, declared bool) func(int64) ([]int64, string) {
	contexts := placement.Contexts(s)
	if declared {
		contexts = []placement.Context{placement.Declared}
	}
	return func(line int64) ([]int64, string) {
		var phases []int64
		var reasons []string
		for _, ctx := range contexts {
			p, err := placement.Phases(s, line, ctx)
			if err != nil {
				// The line size was checked and the GOARCH loaded, so
				// this is a bug: fall back to the type's alignment.
				return s.Phases(line), err.Error()
			}
			phases = append(phases, p.Phases...)
			reason := p.Reason
			if len(contexts) > 1 {
				reason = ctx.String() + ": " + reason
			}
			reasons = append(reasons, reason)
		}
		slices.Sort(phases)
		return slices.Compact(phases), strings.Join(reasons, "; ")
	}
}
