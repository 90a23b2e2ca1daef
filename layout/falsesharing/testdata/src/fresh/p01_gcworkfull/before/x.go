// Package before reproduces github.com/golang/go's GC work-buffer lists before
// bdc5533f391ad60303b16a906668f5112ea0a2a2: the lock-free full and empty stack
// heads are adjacent words of the package-level work struct, so a mark worker
// CASing one head steals the line from every worker CASing the other.
package before

import (
	"sync"
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

// lfhead packs a buffer index (low 32 bits, 0 = empty) and a generation
// counter (high 32 bits) so a popped-and-repushed node cannot fool a CAS.
type lfhead uint64

type workType struct {
	full  lfhead           // buffers holding grey objects
	empty lfhead           // buffers ready to be filled
	pad0  cpu.CacheLinePad // keeps the heads away from the counters below

	spanLock    sync.Mutex
	bytesMarked uint64
	nproc       uint32
	nwait       uint32
}

var work workType

type workbuf struct {
	next uint32 // index+1 of the next buffer on a stack
	nobj int
	obj  [32]uintptr
}

var bufs []workbuf

func (h *lfhead) push(i uint32) {
	for {
		old := atomic.LoadUint64((*uint64)(h))
		atomic.StoreUint32(&bufs[i-1].next, uint32(old))
		nw := (old>>32+1)<<32 | uint64(i)
		if atomic.CompareAndSwapUint64((*uint64)(h), old, nw) {
			return
		}
	}
}

func (h *lfhead) pop() uint32 {
	for {
		old := atomic.LoadUint64((*uint64)(h))
		i := uint32(old)
		if i == 0 {
			return 0
		}
		nw := (old>>32+1)<<32 | uint64(atomic.LoadUint32(&bufs[i-1].next))
		if atomic.CompareAndSwapUint64((*uint64)(h), old, nw) {
			return i
		}
	}
}

// StartMark seeds n buffers and runs one background mark worker per
// processor; each trades empty buffers for full ones until its share of
// work is drained.
func StartMark(procs, n int, objs []uintptr) {
	bufs = make([]workbuf, n)
	for i := 1; i <= n; i++ {
		work.empty.push(uint32(i))
	}
	var wg sync.WaitGroup
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			drain(objs[p*len(objs)/procs : (p+1)*len(objs)/procs])
		}(p)
	}
	wg.Wait()
}

func drain(objs []uintptr) {
	atomic.AddUint32(&work.nproc, 1)
	for len(objs) > 0 {
		i := work.empty.pop()
		if i == 0 {
			i = work.full.pop()
			if i == 0 {
				continue
			}
		}
		b := &bufs[i-1]
		b.nobj = copy(b.obj[:], objs)
		objs = objs[b.nobj:]
		atomic.AddUint64(&work.bytesMarked, uint64(b.nobj*8))
		work.full.push(i)
		if j := work.full.pop(); j != 0 {
			bufs[j-1].nobj = 0
			work.empty.push(j)
		}
	}
	atomic.AddUint32(&work.nwait, 1)
}
