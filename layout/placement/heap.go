package placement

import (
	"fmt"

	"github.com/mglayout/mglayout/layout"
)

//go:generate go run mksizeclasses.go

// The allocator's rules below follow mallocgc and its helpers in the Go 1.26
// runtime (runtime/malloc.go, runtime/malloc_generated.go for the
// size-specialized paths, which place objects the same way). The numbers
// of the size classes are in sizeclasses.go, which mksizeclasses.go
// generates from the installed Go's runtime source.
const (
	// mallocHeaderSize is gc.MallocHeaderSize: the type pointer that a
	// pointerful object too large for heap bits in its span carries in
	// front of it, 8 bytes even on 32-bit GOARCHes.
	mallocHeaderSize = 8
	// largeSize: mallocgc sends every object larger than
	// maxSmallSize-gc.MallocHeaderSize to mallocgcLarge, pointers or not.
	largeSize = maxSmallSize - mallocHeaderSize
)

// sizeClass is one of the runtime's small size classes.
type sizeClass struct {
	size   int64 // bytes per object (gc.SizeClassToSize)
	npages int64 // pages per span (gc.SizeClassToNPages)
}

// classFor returns the smallest size class that holds size bytes, which is
// what the runtime's SizeToSizeClass8 and SizeToSizeClass128 tables look up
// (the tests check that they agree for every small size).
func classFor(size int64) sizeClass {
	for _, c := range sizeClasses {
		if c.size >= size {
			return c
		}
	}
	panic(fmt.Sprintf("no size class for %d bytes", size))
}

// minSizeForMallocHeader is gc.MinSizeForMallocHeader, PtrSize*PtrBits: a
// pointerful object up to this size keeps its pointer bitmap at the end of
// its span (heapBitsInSpan in runtime/mbitmap.go); a larger one gets a
// malloc header. 512 on 64-bit GOARCHes, 128 on 32-bit ones.
func (a arch) minSizeForMallocHeader() int64 { return a.ptrSize * a.ptrSize * 8 }

// heap places an object of the given size, which holds pointers or not, as
// mallocgc does.
func heap(size int64, pointers bool, a arch, line int64) Placement {
	p := Placement{Context: Heap}
	kind := "noscan"
	if pointers {
		kind = "pointerful"
	}
	switch {
	case size == 0:
		// mallocgc: "if size == 0 { return unsafe.Pointer(&zerobase) }".
		p.Reason = "zero-size: new(T) returns &runtime.zerobase and occupies no line"
	case !pointers && size < tinySize:
		// mallocgcTiny packs noscan objects below maxTinySize into
		// 16-byte blocks, which are objects of the 16-byte class and so
		// 16-aligned, at the block's current offset rounded up to the
		// alignment below. Earlier tiny objects of other sizes can leave
		// the offset anywhere, so every aligned offset that still fits
		// is reachable.
		align := tinyAlign(size, a)
		var offs []int64
		for off := int64(0); off+size <= tinySize; off += align {
			offs = append(offs, off)
		}
		p.Phases = spread(offs, tinySize, line)
		p.Reason = fmt.Sprintf("noscan, %d B < %d: the tiny allocator packs it into %d-byte blocks at %d-aligned offsets", size, tinySize, tinySize, align)
	case size > largeSize:
		// mallocgcLarge returns span.base() of a span of its own, which
		// starts on a page.
		p.Phases = spread([]int64{0}, pageSize, line)
		p.Reason = fmt.Sprintf("%s, %d B > %d: a large object starts on its own %d-byte page", kind, size, largeSize, pageSize)
	default:
		// Small: the size is rounded up to its class and the object
		// fills slot k of a span of npages pages, at span.base()+k*class.
		// mallocgcSmallScanHeader first adds the header to the size, and
		// returns the slot plus the header.
		var header int64
		if pointers && size > a.minSizeForMallocHeader() {
			header = mallocHeaderSize
		}
		c := classFor(size + header)
		span := c.npages * pageSize
		offs := make([]int64, span/c.size)
		for k := range offs {
			offs[k] = int64(k)*c.size + header
		}
		p.Phases = spread(offs, pageSize, line)
		if header > 0 {
			p.Reason = fmt.Sprintf("%s, %d B > %d: an %d-byte malloc header, then size class %d (%d per %d-byte span); it starts at k*%d+%d", kind, size, a.minSizeForMallocHeader(), header, c.size, len(offs), span, c.size, header)
		} else {
			p.Reason = fmt.Sprintf("%s, %d B: size class %d (%d per %d-byte span); it starts at k*%d", kind, size, c.size, len(offs), span, c.size)
		}
	}
	return p
}

// tinyAlign is the alignment mallocgcTiny gives an object of the given size:
//
//	if size&7 == 0 {
//		off = alignUp(off, 8)
//	} else if goarch.PtrSize == 4 && size == 12 {
//		off = alignUp(off, 8) // issue 37262: 64-bit atomics on 32-bit
//	} else if size&3 == 0 {
//		off = alignUp(off, 4)
//	} else if size&1 == 0 {
//		off = alignUp(off, 2)
//	}
func tinyAlign(size int64, a arch) int64 {
	switch {
	case size&7 == 0:
		return 8
	case a.ptrSize == 4 && size == 12:
		return 8
	case size&3 == 0:
		return 4
	case size&1 == 0:
		return 2
	}
	return 1
}

// Stride returns how far apart the allocator puts consecutive objects of
// a Go layout that are allocated one after another in the same span: the
// size of their class, malloc header included. Tiny and large objects,
// which are packed or have spans of their own, give 0.
func Stride(s *layout.Struct) (int64, error) {
	a, ok := arches[s.Arch]
	if !ok || s.Source != layout.SourceGo {
		return 0, fmt.Errorf("%s: the allocator's stride is for Go layouts of a gc GOARCH", s.Name)
	}
	size := s.Size
	if s.Pointers && size > a.minSizeForMallocHeader() {
		size += mallocHeaderSize
	}
	if size < tinySize && !s.Pointers || size > largeSize {
		return 0, nil
	}
	return classFor(size).size, nil
}
