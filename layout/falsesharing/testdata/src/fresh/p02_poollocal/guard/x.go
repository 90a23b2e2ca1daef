// Package guard reproduces github.com/golang/go's sync.Pool per-P slots as of
// 05cbbf985fed823a174bf95cc78a7d44f948fdab: the slot body (an item private to
// one P plus the head of a shared chain other Ps steal from) is padded up to
// the next multiple of 128 bytes, so each slot is exactly 128 bytes and the
// 128-aligned array gives every P its own lines on 64- and 128-byte machines.
package guard

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type node struct {
	next *node
	val  any
}

type slotBody struct {
	private any            // touched only by the owning P
	shared  unsafe.Pointer // *node, pushed by the owner, popped by anyone
}

type perP struct {
	slotBody
	pad [128 - unsafe.Sizeof(slotBody{})%128]byte
}

// Pool hands out cached items; pid stands in for the processor the caller is
// pinned to (runtime_procPin upstream).
type Pool struct {
	local     unsafe.Pointer // *[n]perP
	localSize uintptr
	mu        sync.Mutex
	New       func() any
}

func (p *Pool) slot(pid int) *perP {
	if uintptr(pid) < atomic.LoadUintptr(&p.localSize) {
		return &(*[1 << 20]perP)(atomic.LoadPointer(&p.local))[pid]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if uintptr(pid) >= p.localSize {
		size := uintptr(pid + 1)
		locals := make([]perP, size)
		atomic.StorePointer(&p.local, unsafe.Pointer(&locals[0]))
		atomic.StoreUintptr(&p.localSize, size)
	}
	return &(*[1 << 20]perP)(p.local)[pid]
}

// Put stores x in the caller's slot, spilling to the shared stack.
func (p *Pool) Put(pid int, x any) {
	l := p.slot(pid)
	if l.private == nil {
		l.private = x
		return
	}
	n := &node{val: x}
	for {
		old := atomic.LoadPointer(&l.shared)
		n.next = (*node)(old)
		if atomic.CompareAndSwapPointer(&l.shared, old, unsafe.Pointer(n)) {
			return
		}
	}
}

// Get takes from the caller's slot first, then steals from the others.
func (p *Pool) Get(pid int) any {
	l := p.slot(pid)
	if x := l.private; x != nil {
		l.private = nil
		return x
	}
	size := int(atomic.LoadUintptr(&p.localSize))
	for i := 0; i < size; i++ {
		o := p.slot((pid + i) % size)
		for {
			old := atomic.LoadPointer(&o.shared)
			if old == nil {
				break
			}
			if atomic.CompareAndSwapPointer(&o.shared, old, unsafe.Pointer((*node)(old).next)) {
				return (*node)(old).val
			}
		}
	}
	if p.New != nil {
		return p.New()
	}
	return nil
}
