package suggest

import "github.com/mglayout/mglayout/layout"

// node is a member and its members, so that an aggregate's members can be
// put in another order and the offsets recomputed.
type node struct {
	f    layout.Field // offsets relative to the parent while laying out
	orig int          // index in the original Struct.Fields; -1 for padding
	kids []*node
}

// tree builds the member tree of s; the root stands for the object.
func tree(s *layout.Struct) *node {
	// A size that is not a multiple of the alignment means the alignment
	// belongs to the variable (C's attribute on a declarator, as for
	// mg_floor), which places the object without padding it: the size
	// rounds up to the members' alignment only.
	align := s.Align
	if s.Size%s.Align != 0 {
		align = 1
		for _, i := range s.Members(-1) {
			align = max(align, s.Fields[i].Align)
		}
	}
	root := &node{f: layout.Field{Kind: layout.KindStruct, Size: s.Size, Align: align, Decl: s.Decl}, orig: -1}
	nodes := make([]*node, len(s.Fields))
	for i := range s.Fields {
		nodes[i] = &node{f: s.Fields[i], orig: i}
		parent := root
		if p := s.Fields[i].Parent; p >= 0 {
			parent = nodes[p]
		}
		parent.kids = append(parent.kids, nodes[i])
	}
	return root
}

// relayout computes the offsets of n's members in their current order and
// n's size, bottom up, by the rules C and Go share: each member at the next
// multiple of its alignment, the size rounded up to the alignment. Go adds
// a byte after a trailing zero-size member of a non-empty struct, so that
// a pointer to it does not point past the object. Unions and members
// without members keep their size.
func (n *node) relayout(goRules bool) {
	if n.f.Kind == layout.KindUnion {
		for _, k := range n.kids {
			k.relayout(goRules)
			k.f.Offset = 0
		}
		return
	}
	if n.f.Kind != layout.KindStruct || len(n.kids) == 0 {
		return
	}
	var off int64
	for _, k := range n.kids {
		k.relayout(goRules)
		off = roundUp(off, max(k.f.Align, 1))
		k.f.Offset = off
		off += k.f.Size
	}
	if last := n.kids[len(n.kids)-1]; goRules && last.f.Size == 0 && off > 0 {
		off++
	}
	n.f.Size = roundUp(off, max(n.f.Align, 1))
}

func roundUp(n, a int64) int64 { return (n + a - 1) / a * a }

// flatten turns a laid-out tree back into a Struct like s, with absolute
// offsets and the members in their new order.
func flatten(s *layout.Struct, root *node) *layout.Struct {
	out := *s
	out.Size = root.f.Size
	out.Fields = nil
	var walk func(n *node, parent int, base int64)
	walk = func(n *node, parent int, base int64) {
		for _, k := range n.kids {
			f := k.f
			f.Offset = base + k.f.Offset
			f.Parent = parent
			out.Fields = append(out.Fields, f)
			walk(k, len(out.Fields)-1, f.Offset)
		}
	}
	walk(root, -1, 0)
	return &out
}
