// Package waste reproduces github.com/golang/go's sync.Pool per-P slots as of
// fcaf3b532c4c2d60cb23bcbc1f8eedba0f5e6b18: each 48-byte slot (an item private
// to one P plus a mutex-guarded shared list others steal from) is followed by
// a fixed [128]byte pad, making 176-byte slots where 128 already keeps every
// P's words on lines of their own.
package waste

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type perP struct {
	private any   // touched only by the owning P
	shared  []any // guarded by the embedded Mutex
	sync.Mutex
	pad [128]byte
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
	n := atomic.LoadUintptr(&p.localSize)
	l := atomic.LoadPointer(&p.local)
	if uintptr(pid) < n {
		return &(*[1 << 20]perP)(l)[pid]
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

// Put stores x in the caller's slot, spilling to the shared list.
func (p *Pool) Put(pid int, x any) {
	l := p.slot(pid)
	if l.private == nil {
		l.private = x
		return
	}
	l.Lock()
	l.shared = append(l.shared, x)
	l.Unlock()
}

// Get takes from the caller's slot first, then steals from the others.
func (p *Pool) Get(pid int) any {
	l := p.slot(pid)
	if x := l.private; x != nil {
		l.private = nil
		return x
	}
	n := int(atomic.LoadUintptr(&p.localSize))
	for i := 0; i < n; i++ {
		o := p.slot((pid + i) % n)
		o.Lock()
		if last := len(o.shared) - 1; last >= 0 {
			x := o.shared[last]
			o.shared = o.shared[:last]
			o.Unlock()
			return x
		}
		o.Unlock()
	}
	if p.New != nil {
		return p.New()
	}
	return nil
}
