package placement

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Policy is where the objects of a layout can start: the union of the
// phases of its contexts. The empty policy places an object as its
// layout says, at any multiple of its alignment or at its address, with
// no claim about who aligned it.
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

// Check reports whether every context of the policy applies to the
// layout: Heap and Global to Go layouts of a gc GOARCH only.
func (p Policy) Check(s *layout.Struct) error {
	for _, ctx := range p {
		if _, err := Phases(s, 64, ctx); err != nil {
			return err
		}
	}
	return nil
}

// Phases returns the phases of the policy's contexts at a line size,
// united, and their reasons, each named by its context where there are
// several. A context that does not apply to the layout falls back to the
// layout's own alignment, saying why.
func (p Policy) Phases(s *layout.Struct, line int64) ([]int64, string) {
	if len(p) == 0 {
		if s.Placed {
			d := declared(s, line)
			return d.Phases, d.Reason
		}
		return s.Phases(line), fmt.Sprintf("aligned to %d", s.Align)
	}
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
