// Package awkward holds struct types whose layouts are easy to get wrong.
// The gosrc tests compare the layouts that gosrc.Load computes for them
// with what the Go compiler does, on the host (unsafe.Offsetof) and for
// other GOARCHes (the DWARF of cross-compiled binaries).
package awkward

import (
	"structs"
	"sync"
	"sync/atomic"
	"unsafe"
)

// TrailingEmpty ends in a zero-size field: the compiler pads it so that &z
// does not point past the object (size 16 on 64-bit, not 8).
type TrailingEmpty struct {
	a int64
	z struct{}
}

// TrailingZeroArray ends in a zero-length array, which also aligns the
// field: z sits at 8 and the size is 16.
type TrailingZeroArray struct {
	a int32
	b int8
	z [0]int64
}

// ZeroMiddle has zero-size fields between others; they take no bytes but
// still align what follows.
type ZeroMiddle struct {
	a int8
	z [0]int64
	b int8
	w [0]func()
	e struct{}
	c int16
}

// OnlyEmpty has no bytes at all, yet the alignment of its [0]int64.
type OnlyEmpty struct {
	z struct{}
	w [0]int64
}

// Inner and Leaf are embedded below.
type Inner struct {
	a int8
	b int64
	c int16
}

type Leaf struct {
	x int32
	y bool
}

// Embedded embeds one struct by value (expanded) and one by pointer (a
// word); both fields are named after their type.
type Embedded struct {
	flag bool
	Inner
	*Leaf
	n int32
}

// Atomics puts 64-bit atomics after a bool: on 386, arm and mips the
// compiler aligns atomic.Int64 and atomic.Uint64 to 8 although int64 is
// only 4-aligned there.
type Atomics struct {
	ready  bool
	n      atomic.Int64
	closed bool
	u      atomic.Uint64
	small  atomic.Int32
	flag   atomic.Bool
	p      atomic.Pointer[Inner]
	v      atomic.Value
	plain  int64
	last   bool
	second atomic.Int64
}

// Counter carries the 8-byte alignment of its atomic.Int64 into every
// struct and array that holds it, on 32-bit GOARCHes too.
type Counter struct {
	hits atomic.Int64
}

// NestedAtomics holds 64-bit atomics inside structs and arrays, each after
// a field that leaves it 4-aligned on 32-bit GOARCHes.
type NestedAtomics struct {
	ok   bool
	c    Counter
	u    int32
	cs   [2]Counter
	v    int32
	arr  [2]atomic.Uint64
	w    int32
	anon struct {
		b bool
		n atomic.Int64
	}
	last int32
}

// InnerAlias is an alias: an embedded alias is named after the alias.
type InnerAlias = Inner

// EmbeddedAlias embeds through an alias.
type EmbeddedAlias struct {
	flag bool
	InnerAlias
}

// Celsius and Flags are named non-struct types.
type Celsius float32
type Flags uint8

// Numbers mixes every numeric kind; complex128 is 8-aligned on 64-bit but
// 4-aligned on 386 and arm.
type Numbers struct {
	b    bool
	c128 complex128
	i8   int8
	c64  complex64
	f32  float32
	f64  float64
	u    uintptr
	r    rune
	by   byte
	i    int
	u16  uint16
	t    Celsius
	fl   Flags
	u64  uint64
	last bool
}

// Refs holds every reference kind: each is one or more words.
type Refs struct {
	s    string
	b    bool
	sl   []int64
	m    map[string]int
	ch   chan struct{}
	send chan<- int
	f    func(int) error
	i    interface{ String() string }
	e    any
	err  error
	p    *Inner
	up   unsafe.Pointer
	end  int8
}

// Arrays keeps arrays whole, including arrays of structs and of
// zero-size elements.
type Arrays struct {
	flag   bool
	leaves [3]Leaf
	inners [2]Inner
	bytes  [5]byte
	grid   [2][3]int16
	empty  [4]struct{}
	words  [3]uintptr
}

// Nested has anonymous struct fields several levels deep.
type Nested struct {
	a  bool
	in struct {
		x    int16
		deep struct {
			y int8
			z int64
			e struct{}
		}
		w bool
	}
	b   int8
	arr [2]struct{ p, q int8 }
	ptr *struct{ big [100]int64 }
}

// Padded uses blank fields to keep a hot counter on a line of its own.
type Padded struct {
	hot  atomic.Int64
	_    [56]byte
	cold int64
	_    [7]byte
	tail bool
	_    struct{}
}

// Host is marked with structs.HostLayout, a zero-size blank field.
type Host struct {
	_ structs.HostLayout
	a int8
	b int64
	c int32
}

// Packing is all small fields: bool, int8 and int16 pack with no holes
// except where an int16 or int32 needs alignment.
type Packing struct {
	a bool
	b int8
	c int16
	d bool
	e int16
	f int8
	g bool
	h int32
	i bool
}

// Locked holds the sync types, kept whole.
type Locked struct {
	sync.Mutex
	flag bool
	rw   sync.RWMutex
	n    int
	once sync.Once
	wg   sync.WaitGroup
	last int8
}

// WordSized differs between 64-bit and 32-bit GOARCHes: every word and
// every hole after a bool halves.
type WordSized struct {
	a bool
	p *int
	b bool
	n int
	c bool
	u uint
	s string
	d bool
	i any
}
