package falsesharing

import (
	"go/types"

	"github.com/mglayout/mglayout/layout/gosrc"
	"github.com/mglayout/mglayout/layout/placement"
)

// placementOf returns where a struct type's objects can start, as check
// places it (gosrc.Holders.Policy).
func (c *checker) placementOf(tn *types.TypeName) placement.Policy {
	return c.holders().Policy(tn, false)
}

// holders indexes how the package holds its struct types, on first use.
func (c *checker) holders() *gosrc.Holders {
	if c.held == nil {
		c.held = gosrc.NewHolders(c.pass.Pkg, c.pass.TypesInfo)
	}
	return c.held
}
