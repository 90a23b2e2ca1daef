// Package generic holds generic types that the package creates only in
// generic code, through their generic constructors, as libraries do:
// they are laid out as stand-ins for their instances.
package generic

import "sync/atomic"

// Queue is a bounded multi-producer multi-consumer queue: producers take
// tickets from tail, consumers from head, on every call.
type Queue[T any] struct {
	head  atomic.Uint64 // want `head shares a line with tail, mask and slots .*\(\*Queue\[T\]\)\.Pop updates head .*FS2`
	tail  atomic.Uint64 // want `tail shares a line with mask and slots .*\(\*Queue\[T\]\)\.Push updates tail .*FS2`
	mask  uint64
	slots []T
}

func NewQueue[T any](size int) *Queue[T] {
	return &Queue[T]{mask: uint64(size - 1), slots: make([]T, size)}
}

func (q *Queue[T]) Push(v T) { q.slots[q.tail.Add(1)&q.mask] = v }

func (q *Queue[T]) Pop() T { return q.slots[q.head.Add(1)&q.mask] }

// Counter holds a value inline before its hot word: its stand-in says
// what it assumes of V.
type Counter[V any] struct {
	last  V
	hits  atomic.Int64 // want `hits shares a line with limit .*each type parameter a pointer-sized word.*FS2`
	limit int64
}

func NewCounter[V any](limit int64) *Counter[V] { return &Counter[V]{limit: limit} }

func (c *Counter[V]) Hit() { c.hits.Add(1) }

func (c *Counter[V]) Allow(n int64) bool { return n < c.limit }

// Padded keeps its indexes a line apart whatever T: quiet.
type Padded[T any] struct {
	head  atomic.Uint64
	_     [120]byte
	tail  atomic.Uint64
	_     [120]byte
	slots []T
}

func NewPadded[T any](size int) *Padded[T] { return &Padded[T]{slots: make([]T, size)} }

func (q *Padded[T]) Push(v T) { q.slots[q.tail.Add(1)%uint64(len(q.slots))] = v }

func (q *Padded[T]) Pop() T { return q.slots[q.head.Add(1)%uint64(len(q.slots))] }
