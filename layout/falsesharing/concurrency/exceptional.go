package concurrency

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// exceptionalBlocks returns the blocks of a function that run only on an
// exceptional path, whose accesses are no steady state: a bigcache Get
// that counts a hash collision on its way to returning ErrEntryNotFound,
// a Submit that counts itself waiting beside the sync.Cond.Wait that
// blocks it. They are
//
//   - the blocks only an error leads to: the branch of if err != nil (or
//     the else of if err == nil) and what it dominates;
//   - the blocks of a branch every path of which returns a non-nil error
//     (a sentinel error variable, errors.New, fmt.Errorf, a value of a
//     concrete error type) or panics;
//   - the blocks of the branch taken once the object is closed: the flag
//     is a field named closed, stopped or shut down, loaded or read
//     through its atomic type's Load;
//   - the blocks that wait on a sync.Cond, or, on a branch of a
//     function that does not serve in a loop (serving), for a channel (a
//     Get that sleeps when the queue is empty): a goroutine about to
//     sleep pays for no cache miss that its wait does not dwarf. A
//     receive on every path (a free list's Get) is the function's steady
//     work.
//
// A load whose value is stored straight into another member of the same
// object refreshes a cached copy (refreshesCopy) and is exceptional too,
// wherever it is.
func exceptionalBlocks(fn *ssa.Function, serving bool) map[*ssa.BasicBlock]bool {
	failing := failingBlocks(fn)
	var heads []*ssa.BasicBlock
	var returns []*ssa.BasicBlock
	for _, blk := range fn.Blocks {
		if _, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok {
			returns = append(returns, blk)
		}
	}
	onEveryPath := func(blk *ssa.BasicBlock) bool {
		return !slices.ContainsFunc(returns, func(r *ssa.BasicBlock) bool { return !blk.Dominates(r) })
	}
	for _, blk := range fn.Blocks {
		if waits(blk, !serving && !onEveryPath(blk)) || exceptionalEntry(blk, failing) {
			heads = append(heads, blk)
		}
	}
	if len(heads) == 0 {
		return nil
	}
	out := map[*ssa.BasicBlock]bool{}
	for _, blk := range fn.Blocks {
		for _, h := range heads {
			if h.Dominates(blk) {
				out[blk] = true
			}
		}
	}
	return out
}

// exceptionalEntry reports whether every edge into blk is an
// exceptional branch of an if: the one an error or a closed object
// takes, or one into a failing branch from a branch that is not.
func exceptionalEntry(blk *ssa.BasicBlock, failing map[*ssa.BasicBlock]bool) bool {
	if len(blk.Preds) == 0 {
		return false
	}
	for _, p := range blk.Preds {
		ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || p.Succs[0] == p.Succs[1] {
			return false
		}
		i := slices.Index(p.Succs, blk)
		if !(failing[blk] && !failing[p.Succs[1-i]] || takenWhen(ifi.Cond, i == 0, isErrNotNil) || takenWhen(ifi.Cond, i == 0, isClosedFlag)) {
			return false
		}
	}
	return true
}

// takenWhen reports whether the branch of cond taken when it is
// truth (the true branch when truth is set) is the one on which test
// holds of cond, or of the operand of its negation.
func takenWhen(cond ssa.Value, truth bool, test func(ssa.Value) (holds, ok bool)) bool {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		return takenWhen(u.X, !truth, test)
	}
	holds, ok := test(cond)
	return ok && holds == truth
}

// isErrNotNil tests a comparison of an error with nil: ok when it is
// one, holds when the comparison is true for a non-nil error.
func isErrNotNil(v ssa.Value) (holds, ok bool) {
	c, isBinOp := v.(*ssa.BinOp)
	if !isBinOp || c.Op != token.NEQ && c.Op != token.EQL {
		return false, false
	}
	isNil := func(v ssa.Value) bool { k, ok := v.(*ssa.Const); return ok && k.IsNil() }
	if isError(c.X.Type()) && isNil(c.Y) || isError(c.Y.Type()) && isNil(c.X) {
		return c.Op == token.NEQ, true
	}
	return false, false
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// closedNames are the names of the fields that say an object is closed.
var closedNames = []string{"closed", "isClosed", "stopped", "isStopped", "shutdown", "isShutdown", "shuttingDown"}

// isClosedFlag tests a condition that reads such a field: holds when the
// object is closed.
func isClosedFlag(v ssa.Value) (holds, ok bool) {
	holds = true
	if c, ok := v.(*ssa.BinOp); ok && (c.Op == token.EQL || c.Op == token.NEQ) {
		// atomic.LoadUint32(&s.closed) == 1, s.stopped != 0
		k, isConst := c.Y.(*ssa.Const)
		if !isConst || k.Value == nil {
			return false, false
		}
		v, holds = c.X, (c.Op == token.EQL) != (k.Value.String() == "0")
	}
	var addr ssa.Value
	switch v := v.(type) {
	case *ssa.UnOp: // a plain bool field
		if v.Op == token.MUL {
			addr = v.X
		}
	case *ssa.Call: // atomic.Bool's Load, atomic.LoadUint32
		if f := v.Call.StaticCallee(); f != nil && strings.HasPrefix(f.Name(), "Load") && len(v.Call.Args) == 1 {
			addr = v.Call.Args[0]
		}
	}
	fa, isField := addr.(*ssa.FieldAddr)
	if !isField {
		return false, false
	}
	st, isStruct := derefType(fa.X.Type()).Underlying().(*types.Struct)
	if !isStruct {
		return false, false
	}
	return holds, slices.Contains(closedNames, st.Field(fa.Field).Name())
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// failingBlocks returns the blocks every path from which returns a
// non-nil error or panics.
func failingBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	errAt := -1
	res := fn.Signature.Results()
	for i := range res.Len() {
		if isError(res.At(i).Type()) {
			errAt = i
		}
	}
	failing := map[*ssa.BasicBlock]bool{}
	for changed := true; changed; {
		changed = false
		for _, blk := range fn.Blocks {
			if failing[blk] || len(blk.Instrs) == 0 {
				continue
			}
			f := false
			switch last := blk.Instrs[len(blk.Instrs)-1].(type) {
			case *ssa.Panic:
				f = true
			case *ssa.Return:
				f = errAt >= 0 && errAt < len(last.Results) && nonNilError(last.Results[errAt])
			default:
				f = len(blk.Succs) > 0 && !slices.ContainsFunc(blk.Succs, func(s *ssa.BasicBlock) bool { return !failing[s] })
			}
			if f {
				failing[blk] = true
				changed = true
			}
		}
	}
	return failing
}

// nonNilError reports whether an error value is surely not nil: a
// package-level sentinel, a concrete value made an interface, or the
// result of errors.New or fmt.Errorf.
func nonNilError(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return true
	case *ssa.UnOp:
		_, global := v.X.(*ssa.Global)
		return v.Op == token.MUL && global
	case *ssa.Call:
		if f := v.Call.StaticCallee(); f != nil && f.Pkg != nil {
			id := f.Pkg.Pkg.Path() + "." + f.Name()
			return id == "errors.New" || id == "fmt.Errorf"
		}
	}
	return false
}

// waits reports whether a block waits on a sync.Cond, or, with
// channels set, receives from a channel or selects without a default.
func waits(blk *ssa.BasicBlock, channels bool) bool {
	for _, in := range blk.Instrs {
		switch in := in.(type) {
		case *ssa.UnOp:
			if channels && in.Op == token.ARROW {
				return true
			}
		case *ssa.Select:
			if channels && in.Blocking {
				return true
			}
		}
		if call, ok := in.(ssa.CallInstruction); ok {
			if f := call.Common().StaticCallee(); f != nil && f.Name() == "Wait" && f.Pkg != nil && f.Pkg.Pkg.Path() == "sync" &&
				strings.HasSuffix(f.Signature.Recv().Type().String(), "sync.Cond") {
				return true
			}
		}
	}
	return false
}
