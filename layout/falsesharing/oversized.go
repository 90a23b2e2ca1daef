package falsesharing

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/mglayout/mglayout/internal/textfmt"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/placement"
)

// minWasteLine is the smallest line padding is measured against for
// waste: x86's adjacent-line prefetcher fetches 128-byte pairs, so a pad
// to 128 bytes on amd64 is no waste.
const minWasteLine = 128

// checkOversizedPadding reports trailing padding longer than the line it
// keeps the next element or object off needs (FS6): for each struct type
// of the package with padding at its end, on each GOARCH, the size the
// data rounded up to the line would take, where that size is one the
// allocator starts on a line boundary.
func (c *checker) checkOversizedPadding() error {
	for tn, named := range structTypes(c.pass.Pkg) {
		if d := c.dirs.Type(tn); d != nil && (d.Ignore != "" || d.Align > 0) {
			continue
		}
		var best *oversized
		var holds []Holding
		for _, arch := range c.cfg.archs {
			b, err := c.builder(arch)
			if err != nil {
				return err
			}
			s, err := b.Build(tn.Name(), named, 0, "")
			if err != nil {
				return err
			}
			o := c.oversizedPad(tn, s, arch)
			if o == nil {
				continue
			}
			holds = append(holds, Holding{GOARCH: arch, Line: o.line, Reason: o.why})
			if best == nil || o.lost > best.lost {
				best = o
			}
		}
		if best != nil {
			c.reportOversized(tn, best, holds)
		}
	}
	return nil
}

// oversized is trailing padding found too long on a GOARCH.
type oversized struct {
	size, need int64 // the struct's size, and what would do
	lost       int64
	line       int64
	pad        *layout.Field // the last member, the padding to shorten
	after      string        // the last member before the padding
	element    bool          // a slice's element, or an object of its own
	why        string        // why the smaller size starts on a line
}

func (c *checker) oversizedPad(tn *types.TypeName, s *layout.Struct, arch string) *oversized {
	var top []*layout.Field
	for i := range s.Fields {
		if s.Fields[i].Depth == 0 {
			top = append(top, &s.Fields[i])
		}
	}
	n := len(top)
	for n > 0 && isPadding(top[n-1]) {
		n--
	}
	if n == 0 || n == len(top) {
		return nil // no trailing padding, or nothing but padding
	}
	// Padding sized for a line, at the end only: a pad of pages, or pads
	// between the members too, are laid out for more than the next
	// object.
	if slices.ContainsFunc(top[:n], isPadding) {
		return nil
	}
	data := roundUp(top[n-1].Offset+top[n-1].Size, s.Align)
	line := max(int64(minWasteLine), slices.Max(c.cfg.linesFor(arch)))
	if s.Size-data > 2*line {
		return nil
	}
	need := roundUp(data, line)
	lost := s.Size - need
	if lost < 16 || 8*lost < s.Size {
		return nil
	}
	o := &oversized{size: s.Size, need: need, lost: lost, line: line, pad: top[len(top)-1], after: top[n-1].Name}
	smaller := *s
	smaller.Size = need
	// apart reports whether, objects of the smaller size stride bytes
	// apart starting at every phase, the data of each stays off the
	// lines of the next one's.
	apart := func(phases []int64, stride int64) bool {
		for _, p := range phases {
			if stride == 0 || p%line+data > stride-stride%line {
				return false
			}
		}
		return len(phases) > 0
	}
	switch {
	case c.valueElements()[tn]:
		// A table: only a slice's backing array, an allocation of
		// its own, starts where the allocator puts it; an array
		// member starts where its holder does.
		if !c.onlyInSlices(tn) {
			return nil
		}
		for k := int64(2); k <= shardElements; k++ {
			arr := smaller
			arr.Size = k * need
			p, err := placement.Phases(&arr, line, placement.Heap)
			if err != nil || !apart(p.Phases, need) {
				return nil
			}
		}
		o.element, o.why = true, fmt.Sprintf("in a slice's backing array, the data of each %d-byte element keeps off the next one's lines", need)
	default:
		p, err := placement.Phases(&smaller, line, placement.Heap)
		stride, _ := placement.Stride(&smaller)
		if err != nil || !apart(p.Phases, stride) || c.holders().Globals[tn] {
			return nil
		}
		o.why = p.Reason
	}
	return o
}

// onlyInSlices reports whether the package holds values of a type as
// elements of slices only: no member of its struct types and no
// package-level variable is an array of them. A conversion to an array
// pointer ((*[1 << 20]T)(p), a view of a slice's backing array) holds
// nothing.
func (c *checker) onlyInSlices(tn *types.TypeName) bool {
	arrayOf := func(t types.Type) bool {
		a, ok := t.Underlying().(*types.Array)
		if !ok {
			return false
		}
		n, ok := types.Unalias(a.Elem()).(*types.Named)
		return ok && n.Obj() == tn
	}
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Var:
			if arrayOf(obj.Type()) {
				return false
			}
		case *types.TypeName:
			for _, v := range c.hot.memberVars(obj.Type()) {
				if arrayOf(v.Type()) {
					return false
				}
			}
		}
	}
	return true
}

func (c *checker) reportOversized(tn *types.TypeName, o *oversized, holds []Holding) {
	st := c.structOf(tn)
	if st == nil || len(st.Fields.List) == 0 {
		return
	}
	last := st.Fields.List[len(st.Fields.List)-1]
	for _, f := range c.result.Findings {
		if f.Rule == WholeLinePadding && last.Pos() <= f.Pos && f.Pos < last.End() {
			return // FS5 says it already: the pad comes to a whole line
		}
	}
	what := fmt.Sprintf("%s objects are %d bytes, where %d would keep each off the next one's %d-byte lines", tn.Name(), o.size, o.need, o.line)
	if o.element {
		what = fmt.Sprintf("elements of []%s are %d bytes, where %d would keep them %d-byte lines apart", tn.Name(), o.size, o.need, o.line)
	}
	f := &Finding{Rule: OversizedPadding, Tier: Declared, Object: tn.Name(), Member: o.pad.Path, Partners: []string{o.after}, Holds: holds}
	d := analysis.Diagnostic{
		Pos: last.Pos(), End: last.End(), Category: OversizedPadding.ID, URL: OversizedPadding.URL(),
		Message: fmt.Sprintf("%s (on %s: %s): the padding after %s is %d bytes longer than it needs to be, lost in each one (%s, %s)",
			what, textfmt.JoinWords(f.GOARCHes()), o.why, o.after, o.lost, OversizedPadding.ID, Declared),
	}
	if at, ok := last.Type.(*ast.ArrayType); ok {
		if elt, ok := at.Elt.(*ast.Ident); ok && elt.Name == "byte" {
			if n, ok := intLit(at.Len); ok && n > o.lost {
				d.SuggestedFixes = []analysis.SuggestedFix{{
					Message:   fmt.Sprintf("Pad %d bytes instead of %d", n-o.lost, n),
					TextEdits: []analysis.TextEdit{{Pos: at.Len.Pos(), End: at.Len.End(), NewText: []byte(strconv.FormatInt(n-o.lost, 10))}},
				}}
			}
		}
	}
	c.report(d, f)
}
