package render

import (
	"fmt"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/layoutjson"
)

// PlacementText says where the symbol table puts a placed variable and
// what shares its first and last lines at the line sizes: "At
// 0xffffffff8333fe80 (the symbol table): phase 0 at 64 B. On its first
// and last lines: tick_nsec +288 (8 bytes; 64 B)." Empty when the layout
// is not placed.
func PlacementText(js layoutjson.Struct, lines []int64) string {
	if js.Address == nil {
		return ""
	}
	s := &layout.Struct{Size: js.Size, Placed: true, Address: uint64(*js.Address)}
	for _, n := range js.Neighbours {
		s.Neighbours = append(s.Neighbours, layout.Neighbour(n))
	}
	text := fmt.Sprintf("At %#x (the symbol table): phase %s.", uint64(*js.Address), phaseSummary(s.Phases, lines))
	if n := neighboursText(s, lines); n != "" {
		text += " On its first and last lines: " + n + "."
	}
	return text
}
