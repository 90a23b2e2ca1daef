package awkward

import "sync/atomic"

// Pair is instantiated below, by value and embedded; the compiler lays out
// each instantiation on its own.
type Pair[K comparable, V any] struct {
	key  K
	val  V
	next *Pair[K, V] // an instantiation over type parameters: not a layout
}

// Lonely is never instantiated: it is laid out as its stand-in, T a
// pointer-sized word.
type Lonely[T any] struct {
	v T
	n int
}

var (
	_ Pair[int8, int64]
	_ Pair[string, Inner]      // a local type argument, spelled with its import path
	_ Pair[bool, atomic.Int64] // 8-aligned val on 32-bit GOARCHes too
)

// UsesPair embeds an instantiation, whose field name is the bare type name.
type UsesPair struct {
	flag bool
	Pair[int8, int64]
	c Pair[bool, complex128]
}

// newPair instantiates Pair inside a generic body; that instantiation
// mentions a type parameter and has no layout of its own.
func newPair[T comparable](k T) Pair[T, T] { return Pair[T, T]{key: k} }

var _ = newPair[uint16]
