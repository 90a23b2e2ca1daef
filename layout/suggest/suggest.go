// Package suggest finds a cache-aware order of a struct's members, and
// padding where it removes false sharing, for every requested line size
// and every reachable phase at once.
//
// The cost of a layout is what its access paths pay, summed over line
// sizes and phases: each path's lines touched (and, below 128 bytes, half
// a line for each 128-byte block, for the adjacent-line prefetcher),
// weighted by the path's rate, plus four times the weight of every
// false-sharing pair. The search starts from the members grouped by the
// paths that touch them, hottest first, and improves by moving one member
// at a time while the cost falls.
//
// It never moves a member across deliberate padding (a blank field, a
// member named pad or padding, cpu.CacheLinePad), never reorders a struct
// marked structs.HostLayout unless forced, and reorders a struct type only
// where the object holds it once, since a new order changes the type
// everywhere it is used.
package suggest

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/diff"
	"github.com/mglayout/mglayout/layout/sharing"
)

// Options control the search.
type Options struct {
	Lines []int64
	// Force reorders structs marked structs.HostLayout too.
	Force bool
}

// Result is the suggestion.
type Result struct {
	// Object is the object suggested for; every candidate is placed by
	// its placement policy (the size of a Go object decides its size
	// class, so each candidate has phases of its own).
	Object              *sharing.Object
	Original, Suggested *layout.Struct
	Paths               []*access.Path
	CostBefore          float64
	CostAfter           float64
	// Reordered lists the aggregates whose members moved, by path ("" for
	// the object itself); Frozen says, per aggregate left alone, why.
	Reordered []string
	Frozen    map[string]string
	// Padding lists the padding inserted to separate false sharers, by
	// the member it precedes.
	Padding []Pad
	// Unresolved describes false sharing that neither order nor padding
	// between members can remove, such as elements of one array.
	Unresolved []string
}

// Pad is padding inserted before a member.
type Pad struct {
	Before string
	Bytes  int64
}

// Suggest searches for a better layout of the object.
func Suggest(obj *sharing.Object, o Options) (*Result, error) {
	s := obj.Layout
	r := &Result{Object: obj, Original: s, Paths: obj.Paths, Frozen: map[string]string{}}
	if len(obj.Paths) == 0 {
		return nil, fmt.Errorf("%s has no access paths, so no order is better than another (declare them with //mglayout:path)", s.Name)
	}
	var err error
	if r.CostBefore, err = cost(obj, o); err != nil {
		return nil, err
	}
	before, err := sharing.Analyze([]*sharing.Object{obj}, o.Lines)
	if err != nil {
		return nil, err
	}
	// A candidate is what its paths pay, and the search takes only what
	// diff's gate accepts against the declared layout: a suggestion that
	// diff would call a regression is none.
	eval := func(cand *layout.Struct) (float64, error) {
		c, err := cost(obj.Relaid(cand), o)
		if err != nil || c >= r.CostBefore {
			return c, err
		}
		ok, err := passesGate(&before.Objects[0], obj.Relaid(cand), o.Lines)
		if err != nil || !ok {
			return math.Inf(1), err
		}
		return c, nil
	}

	root := tree(s)
	goRules := s.Source == layout.SourceGo
	aggs := r.reorderable(s, root, o.Force)

	current := s
	best := r.CostBefore
	try := func() (float64, *layout.Struct, error) {
		root.relayout(goRules)
		cand := flatten(s, root)
		c, err := eval(cand)
		return c, cand, err
	}
	for _, a := range aggs {
		// Start from the members grouped by the paths that touch them.
		var grouped []*node
		for _, seg := range segments(a.n.kids) {
			groupByHeat(seg, current, obj.Paths)
			grouped = append(grouped, seg...)
		}
		a.n.kids = grouped
		if c, cand, err := try(); err != nil {
			return nil, err
		} else if c < best {
			best, current = c, cand
		} else {
			a.n.kids = slices.Clone(a.original)
		}
		// Then move one member at a time while that helps.
		for pass := 0; pass < 20; pass++ {
			improved := false
			for _, seg := range a.segmentRanges() {
				for i := seg[0]; i < seg[1]; i++ {
					for j := seg[0]; j < seg[1]; j++ {
						if i == j {
							continue
						}
						saved := a.n.kids
						a.n.kids = moveTo(saved, i, j)
						c, cand, err := try()
						if err != nil {
							return nil, err
						}
						if c < best-1e-9 {
							best, current, improved = c, cand, true
						} else {
							a.n.kids = saved
						}
					}
				}
			}
			if !improved {
				break
			}
		}
		if !slices.Equal(a.n.kids, a.original) {
			r.Reordered = append(r.Reordered, a.path)
		}
	}
	root.relayout(goRules)
	ordered := flatten(s, root)

	current, pads, unresolved, err := separate(obj.Relaid(ordered), o)
	if err != nil {
		return nil, err
	}
	r.Padding, r.Unresolved = pads, unresolved
	r.Suggested = current
	if r.CostAfter, err = eval(current); err != nil {
		return nil, err
	}
	if r.CostAfter >= r.CostBefore && len(pads) > 0 {
		// The padding costs more than it saves, or the gate calls it a
		// regression: the order alone, if it helps.
		r.Padding = nil
		if c, err := eval(ordered); err == nil && c < r.CostBefore {
			r.Suggested, r.CostAfter = ordered, c
		}
	}
	if r.CostAfter >= r.CostBefore {
		// Never suggest what costs as much as the start, or more.
		r.Suggested, r.CostAfter, r.Reordered, r.Padding = s, r.CostBefore, nil, nil
	}
	return r, nil
}

// passesGate reports whether diff's gate, as diff judges by default,
// accepts a candidate layout in place of the analysed one.
func passesGate(before *sharing.ObjectAnalysis, cand *sharing.Object, lines []int64) (bool, error) {
	a, err := sharing.Analyze([]*sharing.Object{cand}, lines)
	if err != nil {
		return false, err
	}
	d, err := diff.Compare(before, &a.Objects[0], lines)
	if err != nil {
		return false, err
	}
	return !d.Regressed(), nil
}

// aggregate is a struct whose members may be reordered.
type aggregate struct {
	path     string
	n        *node
	original []*node
}

func (r *Result) reorderable(s *layout.Struct, root *node, force bool) []*aggregate {
	uses := map[string]int{}
	var walk func(n *node)
	walk = func(n *node) {
		for _, k := range n.kids {
			if k.f.Decl != "" {
				uses[k.f.Decl]++
			}
			walk(k)
		}
	}
	walk(root)

	var out []*aggregate
	var visit func(n *node, path string)
	visit = func(n *node, path string) {
		ok := n.f.Kind == layout.KindStruct && len(n.kids) > 1
		switch {
		case !ok:
		case n != root && n.f.Decl == "":
			r.Frozen[path] = "its type has no name to declare the new order under"
			ok = false
		case n != root && uses[n.f.Decl] > 1:
			r.Frozen[path] = fmt.Sprintf("its type %s is used %d times in the object", n.f.Decl, uses[n.f.Decl])
			ok = false
		case hostLayout(n) && !force:
			r.Frozen[path] = "it is marked structs.HostLayout (use -force to reorder it)"
			ok = false
		}
		if ok {
			out = append(out, &aggregate{path: path, n: n, original: slices.Clone(n.kids)})
		}
		for _, k := range n.kids {
			visit(k, k.f.Path)
		}
	}
	visit(root, "")
	return out
}

func hostLayout(n *node) bool {
	return slices.ContainsFunc(n.kids, func(k *node) bool { return k.f.Type == "structs.HostLayout" })
}

// segmentRanges returns the [start, end) index ranges of members between
// barriers.
func (a *aggregate) segmentRanges() [][2]int {
	var out [][2]int
	start := 0
	for i, k := range a.n.kids {
		if k.f.Padding() {
			if i > start {
				out = append(out, [2]int{start, i})
			}
			start = i + 1
		}
	}
	if len(a.n.kids) > start {
		out = append(out, [2]int{start, len(a.n.kids)})
	}
	return out
}

// segments splits members at barriers; barriers are segments of their own.
func segments(kids []*node) [][]*node {
	var out [][]*node
	var cur []*node
	for _, k := range kids {
		if k.f.Padding() {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			out = append(out, []*node{k})
			cur = nil
			continue
		}
		cur = append(cur, k)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// moveTo returns a copy of kids with the member at i moved to index j.
func moveTo(kids []*node, i, j int) []*node {
	out := slices.Delete(slices.Clone(kids), i, i+1)
	return slices.Insert(out, j, kids[i])
}

// groupByHeat sorts a segment so that members touched by the same paths
// sit together, the group read by the heaviest paths first, and members no
// reader touches last; ties keep the declared order.
func groupByHeat(seg []*node, s *layout.Struct, paths []*access.Path) {
	heat := map[*node]float64{}
	sig := map[*node]string{}
	for _, k := range seg {
		var names []string
		for _, p := range paths {
			if touchesSubtree(p, s, k) {
				names = append(names, p.Name)
				if !p.Writes() {
					heat[k] += p.Weight(8)
				}
			}
		}
		sig[k] = strings.Join(names, ",")
	}
	groupHeat := map[string]float64{}
	for _, k := range seg {
		groupHeat[sig[k]] = max(groupHeat[sig[k]], heat[k])
	}
	slices.SortStableFunc(seg, func(a, b *node) int {
		return cmp.Or(cmp.Compare(groupHeat[sig[b]], groupHeat[sig[a]]), strings.Compare(sig[a], sig[b]))
	})
}

// touchesSubtree reports whether the path accesses any byte of the member
// (in the layout s, where the member is at its current offset).
func touchesSubtree(p *access.Path, s *layout.Struct, k *node) bool {
	f := s.Field(k.f.Path)
	if f == nil {
		return false
	}
	ts, err := access.Resolve(p, s)
	if err != nil {
		return false
	}
	for _, t := range ts {
		if t.Offset < f.End() && f.Offset < t.End || (f.Size == 0 && t.Offset <= f.Offset && f.Offset < t.End) {
			return true
		}
	}
	return false
}

// cost is what the paths pay in a layout, summed over every case.
func cost(obj *sharing.Object, o Options) (float64, error) {
	a, err := sharing.Analyze([]*sharing.Object{obj}, o.Lines)
	if err != nil {
		return 0, err
	}
	var total float64
	for i := range a.Objects[0].Cases {
		total += a.Objects[0].Cases[i].SearchCost()
	}
	return total, nil
}
