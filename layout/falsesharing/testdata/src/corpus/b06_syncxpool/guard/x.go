// Package guard reproduces the per-P slots of github.com/bytedance/gopkg's
// syncx.Pool as added in ca0c74a4797075b3165c3684bf0fae96891d834b, which
// copies sync.Pool's poolLocal: the 48-byte poolLocalInternal is padded by
// 128 - size%128 to a 128-byte element, a whole number of lines at 64 and
// at 128, and the pad is not a whole line: clean on both.
package guard

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

type block struct{ items [8]interface{} }

type poolChainElt struct {
	vals []*block
	next *poolChainElt
}

type poolChain struct {
	head *poolChainElt
	tail *poolChainElt
}

type poolLocalInternal struct {
	pidx    int
	private *block // used only by its own P
	shared  [2]poolChain
}

type poolLocal struct {
	poolLocalInternal
	// Prevents false sharing on widespread platforms with
	// 128 mod (cache line size) = 0.
	pad [128 - unsafe.Sizeof(poolLocalInternal{})%128]byte
}

// Pool is a set of blocks with one slot per P.
type Pool struct {
	local []poolLocal
}

// NewPool returns a pool with a slot for every P.
func NewPool() *Pool { return &Pool{local: make([]poolLocal, runtime.GOMAXPROCS(0))} }

// Put stores b in the slot of processor pid.
func (p *Pool) Put(pid int, b *block) {
	l := &p.local[pid%len(p.local)]
	if l.private == nil {
		l.private = b
		return
	}
	e := &poolChainElt{vals: []*block{b}}
	atomic.StorePointer((*unsafe.Pointer)(unsafe.Pointer(&l.shared[0].head)), unsafe.Pointer(e))
}

// Get takes a block from the slot of processor pid, or steals one.
func (p *Pool) Get(pid int) *block {
	l := &p.local[pid%len(p.local)]
	if b := l.private; b != nil {
		l.private = nil
		return b
	}
	for i := range p.local {
		o := &p.local[(pid+i+1)%len(p.local)]
		e := (*poolChainElt)(atomic.SwapPointer((*unsafe.Pointer)(unsafe.Pointer(&o.shared[0].tail)), nil))
		if e != nil && len(e.vals) > 0 {
			return e.vals[0]
		}
	}
	return nil
}
