package concurrency

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// classify says how an index value is computed, following it back
// through arithmetic, conversions and phi nodes to its sources; the
// strongest source wins (a stripe over a hash over a loop).
func (b *builder) classify(v ssa.Value, depth int) Index {
	if depth > 12 {
		return Unknown
	}
	if k, ok := b.indexes[v]; ok {
		return k
	}
	b.indexes[v] = Unknown // a cycle through phi nodes tells nothing more
	k := b.classifyOnce(v, depth)
	b.indexes[v] = k
	return k
}

func (b *builder) classifyOnce(v ssa.Value, depth int) Index {
	switch x := v.(type) {
	case *ssa.Const:
		return Const
	case *ssa.Parameter:
		// A parameter named, or of a type named, for what it picks: a
		// worker's index, a reader's token.
		k := max(b.spawnedIndex(x, depth), nameIndex(x.Name()))
		if n, ok := types.Unalias(x.Type()).(*types.Named); ok {
			k = max(k, nameIndex(n.Obj().Name()))
		}
		return k
	case *ssa.Call:
		return b.callIndex(x.Common(), depth)
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok {
			return b.callIndex(call.Common(), depth)
		}
	case *ssa.BinOp:
		return binOpIndex(x, func(v ssa.Value) Index { return b.classify(v, depth+1) })
	case *ssa.Convert:
		return b.classify(x.X, depth+1)
	case *ssa.ChangeType:
		return b.classify(x.X, depth+1)
	case *ssa.FreeVar:
		return b.boundIndex(x, depth)
	case *ssa.UnOp:
		if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL {
			return b.boundIndex(fv, depth) // a variable captured by reference
		}
		if x.Op == token.MUL {
			// A loaded value: a field that holds what the package
			// stores into it (a token's slot drawn at random), or one
			// named for what it holds.
			if fa, ok := x.X.(*ssa.FieldAddr); ok {
				if st, ok := coreType(deref(fa.X.Type())).(*types.Struct); ok {
					f := st.Field(fa.Field)
					return max(Unknown, b.storedIndex(f.Origin(), depth), nameIndex(f.Name()))
				}
			}
			return Unknown
		}
		return b.classify(x.X, depth+1)
	case *ssa.Phi:
		out := NoIndex
		loop := false
		for _, e := range x.Edges {
			if bin, ok := e.(*ssa.BinOp); ok && (bin.X == x || bin.Y == x) && bin.Op == token.ADD {
				loop = true
				continue
			}
			out = max(out, b.classify(e, depth+1))
		}
		if loop && out <= Const {
			return Loop
		}
		return max(out, Unknown)
	}
	return Unknown
}

// binOpIndex classifies arithmetic on indexes, whose operands operand
// classifies: the strongest operand wins, but for the high bits of a
// counter and for an index scaled by a constant.
func binOpIndex(x *ssa.BinOp, operand func(ssa.Value) Index) Index {
	if x.Op == token.SHR || x.Op == token.QUO && isConst(x.Y) {
		// The high bits of a counter stay the same for long runs
		// (a hot/cold switch): no stripe.
		return Unknown
	}
	if (x.Op == token.MUL || x.Op == token.SHL) && (isConst(x.X) || isConst(x.Y)) {
		// An index scaled by a constant spaces the elements it picks
		// (LSCQ's remap of consecutive tickets to different lines):
		// whether they still share lines is the spacing's question,
		// not the index's.
		return Unknown
	}
	return max(operand(x.X), operand(x.Y))
}

// returnedIndex classifies the index an in-package helper returns (one
// return of one result), its parameters standing for what the call
// passes: slot(t) of a ticket t is what slot makes of a ticket.
func (b *builder) returnedIndex(f *ssa.Function, c *ssa.CallCommon, depth int) (Index, bool) {
	var ret ssa.Value
	for _, blk := range f.Blocks {
		if r, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok {
			if ret != nil || len(r.Results) != 1 {
				return 0, false
			}
			ret = r.Results[0]
		}
	}
	if ret == nil {
		return 0, false
	}
	args := map[*ssa.Parameter]Index{}
	for i, p := range f.Params {
		if i < len(c.Args) {
			args[p] = b.classify(c.Args[i], depth+1)
		}
	}
	var expr func(v ssa.Value, depth int) Index
	expr = func(v ssa.Value, depth int) Index {
		if depth > 12 {
			return Unknown
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			if k, ok := args[x]; ok {
				return k
			}
		case *ssa.BinOp:
			return binOpIndex(x, func(v ssa.Value) Index { return expr(v, depth+1) })
		case *ssa.Convert:
			return expr(x.X, depth+1)
		case *ssa.ChangeType:
			return expr(x.X, depth+1)
		}
		return b.classify(v, depth)
	}
	return expr(ret, depth+1), true
}

func isConst(v ssa.Value) bool {
	_, ok := v.(*ssa.Const)
	return ok
}

// callIndex classifies a call's result used as an index.
func (b *builder) callIndex(c *ssa.CallCommon, depth int) Index {
	var names []string
	if f := c.StaticCallee(); f != nil {
		names = append(names, f.Name())
		if f.Pkg != nil && f.Pkg.Pkg.Path() == "math/rand" || f.Pkg != nil && f.Pkg.Pkg.Path() == "math/rand/v2" {
			return Stripe
		}
		// A ticket from an atomic counter: each caller its own element,
		// consecutive callers neighbouring ones (a queue's slots).
		if pkg, _, name := funcID(f); pkg == "sync/atomic" && strings.HasPrefix(name, "Add") {
			return Stripe
		}
		if f.Pkg != nil && hashPackage(f.Pkg.Pkg.Path()) {
			return Hash
		}
	} else {
		// A function or interface the caller chose: what the value is
		// named, its method, and its interface (t.hasher.Sum(k) of a
		// Hasher).
		if c.IsInvoke() {
			names = append(names, c.Method.Name())
			if n, ok := types.Unalias(c.Value.Type()).(*types.Named); ok {
				names = append(names, n.Obj().Name())
			}
		}
		names = append(names, valueName(c.Value))
	}
	k := Unknown
	for _, name := range names {
		k = max(k, nameIndex(name))
	}
	if k > Unknown {
		return k
	}
	// A helper of the package that computes the index from its
	// arguments: what it makes of them, or else what it is given.
	if f := c.StaticCallee(); f != nil && f.Pkg == b.pkg && len(f.Blocks) > 0 {
		if k, ok := b.returnedIndex(f, c, depth); ok {
			return k
		}
	}
	out := Unknown
	for _, a := range c.Args {
		if k := b.classify(a, depth+1); k == Hash || k == Stripe {
			out = max(out, k)
		}
	}
	return out
}

// valueName is the name of the field or parameter a value is loaded
// from, or "".
func valueName(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.Parameter:
		return x.Name()
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if st, ok := coreType(deref(fa.X.Type())).(*types.Struct); ok {
				return st.Field(fa.Field).Name()
			}
		}
	}
	return ""
}

// hashPackage reports whether an import path is a package of hash
// functions: hash/maphash, hash/fnv, xxhash, murmur3, siphash.
func hashPackage(path string) bool {
	last := strings.ToLower(path[strings.LastIndex(path, "/")+1:])
	if len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		// a major version suffix: .../xxhash/v2
		rest := path[:strings.LastIndex(path, "/")]
		last = strings.ToLower(rest[strings.LastIndex(rest, "/")+1:])
	}
	if strings.HasPrefix(path, "hash/") {
		return true
	}
	for _, s := range []string{"hash", "xxh", "murmur", "fnv", "crc", "farm", "metro", "city"} {
		if strings.Contains(last, s) {
			return true
		}
	}
	return false
}

// nameIndex reads what an index is from the name of the function or
// parameter that produces it: the last resort, for the sources code
// cannot show (the runtime's P, a CPU number handed in by the caller).
func nameIndex(name string) Index {
	n := strings.ToLower(name)
	for _, s := range []string{"procpin", "cpu", "goid", "procid", "fastrand", "cheaprand", "rand", "shard", "stripe", "worker", "pid", "token", "ticket"} {
		if strings.Contains(n, s) {
			return Stripe
		}
	}
	for _, s := range []string{"hash", "fnv", "crc", "xxh", "sum64", "sum32", "key"} {
		if strings.Contains(n, s) {
			return Hash
		}
	}
	return Unknown
}

// fieldOf returns the field an address points to, or nil.
func (b *builder) fieldOf(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := coreType(deref(fa.X.Type())).(*types.Struct)
	if !ok {
		return nil
	}
	return st.Field(fa.Field).Origin()
}

// eachInstr calls f for every instruction of the package's functions.
func (b *builder) eachInstr(f func(ssa.Instruction)) {
	for _, fn := range b.sourceFuncs() {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				f(in)
			}
		}
	}
}

// storedIndex classifies the values the package stores into a field: a
// stripe when every one is. A field that something else also writes
// (a parameter, a value the model cannot read) tells nothing.
func (b *builder) storedIndex(f *types.Var, depth int) Index {
	if b.fieldStores == nil {
		b.fieldStores = map[*types.Var][]ssa.Value{}
		b.eachInstr(func(in ssa.Instruction) {
			if st, ok := in.(*ssa.Store); ok {
				if v := b.fieldOf(st.Addr); v != nil {
					b.fieldStores[v] = append(b.fieldStores[v], st.Val)
				}
			}
		})
	}
	vals := b.fieldStores[f]
	if len(vals) == 0 {
		return Unknown
	}
	for _, v := range vals {
		if b.classify(v, depth+1) != Stripe {
			return Unknown
		}
	}
	return Stripe
}

// spawnedIndex classifies a parameter of a function started as
// goroutines: one goroutine per loop iteration (go work(i)) gives each
// its own element.
// boundIndex classifies a free variable of a goroutine's closure as
// spawnedIndex does a parameter: bound at every go statement that
// starts it to a loop's variable or a stripe (go func() { counts[w]++ }()
// in for w := range n), it picks an element per goroutine. So does a
// closure made in a loop of a function that starts goroutines in a
// loop, bound there to the loop's variable: workers kept in a slice,
// each run by a goroutine of its own.
func (b *builder) boundIndex(fv *ssa.FreeVar, depth int) Index {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	var values []ssa.Value
	for _, bindings := range b.goBindings[fn] {
		if i >= len(bindings) {
			return Unknown
		}
		v := bindings[i]
		if alloc, ok := v.(*ssa.Alloc); ok {
			v = storedOnce(alloc)
		}
		values = append(values, v)
	}
	if len(values) == 0 {
		for _, mc := range b.closures[fn] {
			if !b.spawnsInLoop[mc.Parent()] {
				return Unknown
			}
			values = append(values, boundValue(mc, i))
		}
	}
	return b.perGoroutine(values, depth)
}

// perGoroutine is Stripe when every value a goroutine is started with
// picks its own element (a loop's variable, or a stripe), else Unknown.
func (b *builder) perGoroutine(values []ssa.Value, depth int) Index {
	if len(values) == 0 {
		return Unknown
	}
	for _, v := range values {
		if v == nil {
			return Unknown
		}
		if k := b.classify(v, depth+1); k != Loop && k != Stripe {
			return Unknown
		}
	}
	return Stripe
}

// storedOnce returns the one value stored into a local variable, or nil.
func storedOnce(alloc *ssa.Alloc) ssa.Value {
	var v ssa.Value
	for _, r := range *alloc.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			if v != nil {
				return nil
			}
			v = st.Val
		}
	}
	return v
}

func (b *builder) spawnedIndex(p *ssa.Parameter, depth int) Index {
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	if i < 0 {
		return Unknown
	}
	var values []ssa.Value
	for _, args := range b.goSites[fn] {
		if i >= len(args) {
			return Unknown
		}
		values = append(values, args[i])
	}
	return b.perGoroutine(values, depth)
}
