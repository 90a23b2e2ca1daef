package concurrency

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A function that serves in a loop (for { ... }, for range ch) does what
// lies outside its loops once per run: the setup before the loop, the
// teardown after it. Those accesses are no steady state: a lock taken
// once to reset a queue does not make the loop a user of the lock's
// line, nor does a state stored as the loop starts make the function a
// steady writer of the state.

// onceBlocks returns the blocks of a serving function (serves) that lie
// outside all of its loops, or nil for a function that does not serve.
func (b *builder) onceBlocks(fn *ssa.Function, serving bool) map[*ssa.BasicBlock]bool {
	if !serving {
		return nil
	}
	inLoop := loopBlocks(fn)
	out := map[*ssa.BasicBlock]bool{}
	for _, blk := range fn.Blocks {
		if !inLoop[blk] {
			out[blk] = true
		}
	}
	return out
}

// serves reports whether a function's body holds a loop that only a
// break or return ends and that waits for work on every turn: a range
// over a channel, or a for { ... } that receives, selects, or reads,
// accepts or waits (Read, ReadMessage, Accept, Wait, Recv...), outside
// the function literals in it. A compare-and-swap retried in a for
// { ... } is no serving loop: what lies outside it runs on every call.
func (b *builder) serves(fn *ssa.Function) bool {
	body := funcBody(fn)
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if s, ok := n.(ast.Stmt); ok {
			found = found || ServingLoop(s, b.info)
		}
		return !found
	})
	return found
}

// funcBody returns a function's body, or nil.
func funcBody(fn *ssa.Function) *ast.BlockStmt {
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		return s.Body
	case *ast.FuncLit:
		return s.Body
	}
	return nil
}

// ServingLoop reports whether a statement is a loop that serves: a range
// over a channel, or a for { ... } that waits for work on every turn.
func ServingLoop(s ast.Stmt, info *types.Info) bool {
	switch s := s.(type) {
	case *ast.ForStmt:
		return s.Cond == nil && waitsForWork(s.Body)
	case *ast.RangeStmt:
		if tv, ok := info.Types[s.X]; ok {
			_, isChan := coreType(tv.Type).(*types.Chan)
			return isChan
		}
	}
	return false
}

// loopBlocks returns the blocks of a function that lie in a loop: in the
// natural loop of an edge from a block to one that dominates it.
func loopBlocks(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for _, tail := range fn.Blocks {
		for _, head := range tail.Succs {
			if !head.Dominates(tail) {
				continue
			}
			// The loop of the back edge tail→head: head, and every block
			// that reaches tail without going through head.
			body := map[*ssa.BasicBlock]bool{head: true}
			work := []*ssa.BasicBlock{tail}
			for len(work) > 0 {
				b := work[len(work)-1]
				work = work[:len(work)-1]
				if body[b] {
					continue
				}
				body[b] = true
				work = append(work, b.Preds...)
			}
			for b := range body {
				out[b] = true
			}
		}
	}
	return out
}

// waitNames start the names of the calls a serving loop waits in.
var waitNames = []string{"Read", "Recv", "Receive", "Accept", "Wait", "Next", "Poll", "Sleep", "Dequeue", "Take"}

// waitsForWork reports whether a loop body blocks for what it serves:
// it receives from a channel, selects, or makes a call that reads,
// accepts or waits.
func waitsForWork(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.CallExpr:
			var name string
			switch f := n.Fun.(type) {
			case *ast.SelectorExpr:
				name = f.Sel.Name
			case *ast.Ident:
				name = f.Name
			}
			for _, w := range waitNames {
				found = found || strings.HasPrefix(name, w) || strings.HasPrefix(name, strings.ToLower(w[:1])+w[1:])
			}
		}
		return !found
	})
	return found
}
