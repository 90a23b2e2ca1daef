package concurrency

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// lockSite is a lock a function takes, and where.
type lockSite struct {
	lock Lock
	blk  *ssa.BasicBlock
	idx  int
}

// heldAt reports whether the lock is held at instruction i of blk: the
// lock call comes before it on every path. (Accesses after an Unlock
// count as held; code that unlocks early and goes on is rare.)
func (l lockSite) heldAt(blk *ssa.BasicBlock, i int) bool {
	if l.blk == blk {
		return l.idx < i
	}
	return l.blk.Dominates(blk)
}

// locksTaken returns the mutex members a function locks itself.
func (b *builder) locksTaken(fn *ssa.Function) []lockSite {
	var out []lockSite
	for _, blk := range fn.Blocks {
		for i, in := range blk.Instrs {
			call, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil || len(call.Common().Args) == 0 {
				continue
			}
			pkg, recv, name := funcID(callee)
			if pkg != "sync" || recv != "Mutex" && recv != "RWMutex" || name != "Lock" && name != "RLock" && name != "TryLock" && name != "TryRLock" {
				continue
			}
			c := b.resolve(fn, call.Common().Args[0])
			for _, cd := range c.cands {
				l := Lock{Obj: cd.obj, Member: path(c.tokens[cd.start:]), Read: strings.Contains(name, "RLock")}
				out = append(out, lockSite{l, blk, i})
			}
		}
	}
	return out
}
