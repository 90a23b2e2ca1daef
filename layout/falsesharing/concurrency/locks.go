package concurrency

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// lockEvent is a function taking or releasing one of its locks.
type lockEvent struct {
	idx     int // the instruction
	lock    int // index in heldLocks.locks
	acquire bool
}

// heldLocks says which of the mutex members a function locks itself are
// held where: a lock is held at an instruction when on every path to it
// the last thing done with it is its Lock, not its Unlock. A deferred
// Unlock releases nothing before the function returns. (A loop that
// locks once to reset its state and then serves unlocked holds nothing
// in the loop.)
type heldLocks struct {
	locks  []Lock
	events map[*ssa.BasicBlock][]lockEvent
	// in holds, for each block, the locks held as it is entered.
	in map[*ssa.BasicBlock][]bool
}

// locksTaken returns the mutex members a function locks itself, and
// where each is held.
func (b *builder) locksTaken(fn *ssa.Function) *heldLocks {
	h := &heldLocks{events: map[*ssa.BasicBlock][]lockEvent{}}
	for _, blk := range fn.Blocks {
		for i, in := range blk.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue // a deferred Unlock runs as the function returns
			}
			callee := call.Common().StaticCallee()
			if callee == nil || len(call.Common().Args) == 0 {
				continue
			}
			pkg, recv, name := funcID(callee)
			if pkg != "sync" || recv != "Mutex" && recv != "RWMutex" {
				continue
			}
			var acquire, read bool
			switch name {
			case "Lock", "TryLock":
				acquire = true
			case "RLock", "TryRLock":
				acquire, read = true, true
			case "Unlock":
			case "RUnlock":
				read = true
			default:
				continue
			}
			c := b.resolve(fn, call.Common().Args[0])
			for _, cd := range c.cands {
				l := Lock{Obj: cd.obj, Member: path(c.tokens[cd.start:]), Read: read}
				li := slices.Index(h.locks, l)
				if li < 0 {
					if !acquire {
						continue // released here, taken by a caller
					}
					li = len(h.locks)
					h.locks = append(h.locks, l)
				}
				h.events[blk] = append(h.events[blk], lockEvent{i, li, acquire})
			}
		}
	}
	if len(h.locks) > 0 {
		h.flow(fn)
	}
	return h
}

// flow finds the locks held as each block is entered: those held at the
// end of every predecessor.
func (h *heldLocks) flow(fn *ssa.Function) {
	h.in = map[*ssa.BasicBlock][]bool{}
	all := func(v bool) []bool {
		s := make([]bool, len(h.locks))
		for i := range s {
			s[i] = v
		}
		return s
	}
	for _, blk := range fn.Blocks {
		h.in[blk] = all(blk.Index != 0 && len(blk.Preds) > 0)
	}
	for changed := true; changed; {
		changed = false
		for _, blk := range fn.Blocks {
			if blk.Index == 0 || len(blk.Preds) == 0 {
				continue
			}
			in := all(true)
			for _, p := range blk.Preds {
				out := h.after(p, len(p.Instrs))
				for i := range in {
					in[i] = in[i] && out[i]
				}
			}
			if !slices.Equal(in, h.in[blk]) {
				h.in[blk] = in
				changed = true
			}
		}
	}
}

// after returns the locks held before instruction i of blk.
func (h *heldLocks) after(blk *ssa.BasicBlock, i int) []bool {
	held := slices.Clone(h.in[blk])
	for _, e := range h.events[blk] {
		if e.idx < i {
			held[e.lock] = e.acquire
		}
	}
	return held
}

// at returns the locks held at instruction i of blk.
func (h *heldLocks) at(blk *ssa.BasicBlock, i int) []Lock {
	if len(h.locks) == 0 {
		return nil
	}
	var out []Lock
	for li, held := range h.after(blk, i) {
		if held {
			out = append(out, h.locks[li])
		}
	}
	return out
}
