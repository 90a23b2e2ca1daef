package placement

import (
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Policy is where the objects of a layout can start: the union of the
// phases of its contexts.
type Policy []Context

// For returns the policy of a layout: Declared where its alignment is
// declared (a kernel model, a C object, //mglayout:align), else the
// contexts of its source (Contexts).
func For(s *layout.Struct, declared bool) Policy {
	if declared {
		return Policy{Declared}
	}
	return Policy(Contexts(s))
}

// Phases returns the phases of the policy's contexts at a line size,
// united, and their reasons, each named by its context where there are
// several. A context that does not apply to the layout falls back to the
// layout's own alignment, saying why.
func (p Policy) Phases(s *layout.Struct, line int64) ([]int64, string) {
	var phases []int64
	var reasons []string
	for _, ctx := range p {
		pl, err := Phases(s, line, ctx)
		if err != nil {
			return s.Phases(line), err.Error()
		}
		phases = append(phases, pl.Phases...)
		reason := pl.Reason
		if len(p) > 1 {
			reason = ctx.String() + ": " + reason
		}
		reasons = append(reasons, reason)
	}
	slices.Sort(phases)
	return slices.Compact(phases), strings.Join(reasons, "; ")
}

// Func returns the policy for one layout as sharing.Object's Phases.
func (p Policy) Func(s *layout.Struct) func(int64) ([]int64, string) {
	return func(line int64) ([]int64, string) { return p.Phases(s, line) }
}
