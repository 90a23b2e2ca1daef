package concurrency

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// rootKind is what a chain of member selections starts from.
type rootKind uint8

const (
	other   rootKind = iota // a value loaded from elsewhere, a call's result
	param                   // a parameter of the function
	freeVar                 // a variable captured by a closure
	fresh                   // an object the function allocated, or one handed over through a channel
	global                  // a package-level variable
)

// chain is a member reached from a root through selections and
// indexes: tokens "a", "[]", "b" for root.a[i].b.
type chain struct {
	tokens []string
	// cands are the struct types (or package-level variables) along the
	// chain that the member belongs to, with the token the member path
	// starts at: for t.c.v, (T, 0) for "c.v" and (counter, 1) for "v".
	cands []cand
	root  rootKind
	index int // the parameter or free variable, for param and freeVar
	// idx is how the outermost element index of the chain is computed;
	// constIdx is its value when it is a constant, and idxParam the
	// parameter it is (-1 if none), for callers passing a constant.
	idx      Index
	constIdx string
	idxParam int
	// idxAt is the token idx indexes, -1 if none: an index before a
	// candidate's member path is not how that member's elements are
	// chosen (counts[n%2].buckets[i] for the type of counts' elements).
	idxAt int
}

type cand struct {
	obj   types.Object
	start int
	// site is the block that selects the object's member: where the
	// code names it (&s.hits in Get, however far down a wrapper's inc
	// adds to it).
	site *ssa.BasicBlock
}

// path joins tokens from i on: "a", "[]", "b" is "a[].b".
func path(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		if sb.Len() > 0 && !strings.HasPrefix(t, "[") {
			sb.WriteByte('.')
		}
		sb.WriteString(t)
	}
	return sb.String()
}

// loadsArrayPointer reports whether v is a pointer to an array loaded
// from memory (a member *[256]uint64), as opposed to the address of an
// array inside the object.
func loadsArrayPointer(v ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	p, ok := coreType(u.Type()).(*types.Pointer)
	if !ok {
		return false
	}
	_, isArray := coreType(p.Elem()).(*types.Array)
	return isArray
}

// resolve walks an address (or a value projected from a struct) up to
// its root.
func (b *builder) resolve(fn *ssa.Function, v ssa.Value) chain {
	var rev []string // tokens, innermost first
	type revCand struct {
		obj  types.Object
		n    int // tokens from the innermost that belong to it
		site *ssa.BasicBlock
	}
	var cands []revCand
	var idx Index
	var idxVal ssa.Value
	var frozen bool
	idxRev := -1
	// The block of the address: where the code names the member.
	var here *ssa.BasicBlock
	if in, ok := v.(ssa.Instruction); ok {
		here = in.Block()
	}
	addCand := func(t types.Type, in ssa.Instruction) {
		if obj := b.structObj(t); obj != nil {
			cands = append(cands, revCand{obj, len(rev), in.Block()})
		}
	}
	for range 64 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			elem := deref(x.X.Type())
			st, ok := coreType(elem).(*types.Struct)
			if !ok {
				goto done
			}
			rev = append(rev, st.Field(x.Field).Name())
			addCand(elem, x)
			v = x.X
		case *ssa.Field:
			st, ok := coreType(x.X.Type()).(*types.Struct)
			if !ok {
				goto done
			}
			rev = append(rev, st.Field(x.Field).Name())
			addCand(x.X.Type(), x)
			v = x.X
		case *ssa.IndexAddr:
			tok := "[]"
			_, isSlice := coreType(x.X.Type()).(*types.Slice)
			pointee := loadsArrayPointer(x.X)
			if isSlice || pointee {
				tok = "[*]"
			}
			rev = append(rev, tok)
			if !frozen {
				idx, idxVal, idxRev = b.classify(x.Index, 0), x.Index, len(rev)-1
			}
			// An array that a member points to is a table of its own:
			// its index is the one that says who writes which element
			// (all[k][rand]: the random one).
			frozen = frozen || pointee
			v = x.X
		case *ssa.Index:
			rev = append(rev, "[]")
			if !frozen {
				idx, idxVal, idxRev = b.classify(x.Index, 0), x.Index, len(rev)-1
			}
			v = x.X
		case *ssa.UnOp:
			// A slice member's header is loaded before its elements
			// are indexed: t.shards[i] goes through *(&t.shards).
			if _, isSlice := coreType(x.Type()).(*types.Slice); x.Op == token.MUL && (isSlice || loadsArrayPointer(x)) {
				v = x.X
				continue
			}
			goto done
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			// (*uint64)(unsafe.Pointer(&x.n)): the same memory.
			if !pointerLike(x.Type()) || !pointerLike(x.X.Type()) {
				goto done
			}
			v = x.X
		case *ssa.Call:
			// An element picked by a helper (getShard(key)): the
			// address it returns, rooted at what the call passes.
			cc, ok := b.returnedChain(x.Common())
			if !ok {
				goto done
			}
			before := len(rev)
			for i := len(cc.tokens) - 1; i >= 0; i-- {
				rev = append(rev, cc.tokens[i])
			}
			for _, cd := range cc.cands {
				cands = append(cands, revCand{cd.obj, before + len(cc.tokens) - cd.start, x.Block()})
			}
			if !frozen && cc.idxAt >= 0 {
				idx, idxVal, idxRev = cc.idx, nil, before+len(cc.tokens)-1-cc.idxAt
				if cc.idxParam >= 0 && cc.idxParam < len(x.Call.Args) {
					idxVal = x.Call.Args[cc.idxParam]
					idx = max(idx, b.classify(idxVal, 0))
				}
			}
			v = x.Call.Args[cc.index]
		default:
			goto done
		}
	}
done:
	c := chain{idx: idx, idxParam: -1, idxAt: -1}
	switch iv := indexSource(idxVal).(type) {
	case *ssa.Const:
		c.constIdx = constOf(iv)
	case *ssa.Parameter:
		c.idxParam = slices.Index(fn.Params, iv)
	}
	n := len(rev)
	if idxRev >= 0 {
		c.idxAt = n - 1 - idxRev
	}
	for i := range rev {
		c.tokens = append(c.tokens, rev[n-1-i])
	}
	for _, rc := range cands {
		c.cands = append(c.cands, cand{rc.obj, n - rc.n, rc.site})
	}
	// The elements of a named slice type of the package belong to it:
	// for type stripes []sync.RWMutex, s[i] is "stripes[*]".
	if len(c.tokens) > 0 && c.tokens[0] == "[*]" {
		if n, ok := types.Unalias(v.Type()).(*types.Named); ok && n.Obj().Pkg() == b.pkg.Pkg {
			c.under(n.Obj(), here)
		}
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		c.root, c.index = param, slices.Index(fn.Params, x)
		if sends(fn, x) {
			c.root = fresh // the function's own until it hands it on
		}
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			c.root = fresh // received: handed over to the function
		}
	case *ssa.Extract:
		if _, ok := x.Tuple.(*ssa.Select); ok {
			c.root = fresh
		}
	case *ssa.FreeVar:
		c.root, c.index = freeVar, slices.Index(fn.FreeVars, x)
	case *ssa.Alloc:
		c.root = fresh
	case *ssa.Global:
		c.root = global
		if obj, ok := x.Object().(*types.Var); ok && obj.Pkg() == b.pkg.Pkg {
			c.under(obj, here)
		}
	}
	return c
}

// pointerLike reports whether values of t are addresses: pointers and
// unsafe.Pointer.
func pointerLike(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// returnedChain returns the chain of the address that an in-package
// helper returns, the same on every return but those of nil, when it is
// rooted at one of its parameters (return &t.shards[h&t.mask]): what a
// call of it points to is that member of what the call passes. Helpers
// that call helpers are followed a few deep.
func (b *builder) returnedChain(c *ssa.CallCommon) (chain, bool) {
	fn := c.StaticCallee()
	if !b.inPkg(fn) || fn.Signature.Results().Len() != 1 || b.retDepth > 3 {
		return chain{}, false
	}
	if cc, ok := b.returned[fn]; ok {
		return cc, cc.root == param && cc.index < len(c.Args)
	}
	b.returned[fn] = chain{} // a recursive helper tells nothing
	b.retDepth++
	var out chain
	found := false
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if k, ok := ret.Results[0].(*ssa.Const); ok && k.IsNil() {
			continue
		}
		cc := b.resolve(fn, ret.Results[0])
		if cc.root != param || len(cc.tokens) == 0 || found && !slices.Equal(cc.tokens, out.tokens) {
			found, out = false, chain{}
			break
		}
		out, found = cc, true
	}
	b.retDepth--
	if !found {
		return chain{}, false
	}
	b.returned[fn] = out
	return out, out.index < len(c.Args)
}

// indexSource returns the value an index is computed from, through
// conversions and the reduction of a value to the table's size (v&63,
// v%n, v&t.mask): the parameter a helper picks its element by, or the
// constant an index is.
func indexSource(v ssa.Value) ssa.Value {
	for range 8 {
		switch x := v.(type) {
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.BinOp:
			if x.Op != token.AND && x.Op != token.REM {
				return v
			}
			_, left := indexSource(x.X).(*ssa.Parameter)
			_, right := indexSource(x.Y).(*ssa.Parameter)
			switch {
			case left && !right:
				v = x.X
			case right && !left:
				v = x.Y
			default:
				return v
			}
		default:
			return v
		}
	}
	return v
}

// under makes the chain a member path of obj, named by obj: the
// elements of a named slice type, a package-level variable's members.
func (c *chain) under(obj types.Object, site *ssa.BasicBlock) {
	c.tokens = append([]string{obj.Name()}, c.tokens...)
	for i := range c.cands {
		c.cands[i].start++
	}
	c.cands = append(c.cands, cand{obj, 0, site})
}

// structObj returns the type name of a named struct type of the
// package, or nil. An instance of a generic type stands for its origin.
func (b *builder) structObj(t types.Type) types.Object {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	n = n.Origin()
	if n.Obj().Pkg() != b.pkg.Pkg {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n.Obj()
}

func deref(t types.Type) types.Type {
	if p, ok := coreType(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// coreType is a type's underlying type, or a type parameter's single
// underlying type.
func coreType(t types.Type) types.Type {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		var only types.Type
		iface := tp.Constraint().Underlying().(*types.Interface)
		for i := range iface.NumEmbeddeds() {
			if u, ok := iface.EmbeddedType(i).(*types.Union); ok && u.Len() == 1 {
				only = u.Term(0).Type().Underlying()
			}
		}
		if only != nil {
			return only
		}
		return tp.Underlying()
	}
	return t.Underlying()
}

// sends reports whether a function sends a value on a channel: it hands
// the object over, and what it does to it before is done alone.
func sends(fn *ssa.Function, v ssa.Value) bool {
	sent := func(x ssa.Value) bool {
		if mi, ok := x.(*ssa.MakeInterface); ok {
			x = mi.X
		}
		return x == v
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Send:
				if sent(in.X) {
					return true
				}
			case *ssa.Select:
				for _, st := range in.States {
					if st.Dir == types.SendOnly && sent(st.Send) {
						return true
					}
				}
			}
		}
	}
	return false
}
