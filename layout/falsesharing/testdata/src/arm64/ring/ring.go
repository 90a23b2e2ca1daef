// Package ring holds the single-producer single-consumer ring buffers of
// amd64/ring, checked with -falsesharing.arch=amd64,arm64: 64-byte lines
// on amd64, 128-byte lines on arm64.
package ring

import "sync/atomic"

// Adjacent keeps head and tail side by side, and each side loads the
// other's index on every call: truly shared, no finding.
type Adjacent struct {
	head atomic.Uint64 // next slot to read; written by Pop only
	tail atomic.Uint64
}

func (r *Adjacent) Push(buf []int, v int) bool {
	t := r.tail.Load()
	if t-r.head.Load() == uint64(len(buf)) {
		return false
	}
	buf[t%uint64(len(buf))] = v
	r.tail.Store(t + 1)
	return true
}

func (r *Adjacent) Pop(buf []int) (int, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := buf[h%uint64(len(buf))]
	r.head.Store(h + 1)
	return v, true
}

// Padded64 puts head and tail 64 bytes apart: a whole line on amd64 at
// every phase, but on arm64 they share a 128-byte line whenever the
// object starts in the first half of one. A 128-byte object sits in the
// 128-byte size class on the heap (phase 0) and at a multiple of 32 as a
// global (phases 0, 32, 64, 96): they share at 0 and 32.
var padded64 Padded64

type Padded64 struct {
	head atomic.Uint64
	_    [56]byte
	tail atomic.Uint64 // want `the padding between head and tail is too short for 128 B lines on arm64 when the Padded64 starts 0 or 32 bytes into one: they share a line there; pad for 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)` `the padding beside tail is sized for a smaller line: the neighbouring object or element shares tail's line \(128 B lines on arm64 when the Padded64 starts 64 or 96 bytes into one\); pad for 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)`
	_    [56]byte
}

func (r *Padded64) Push(buf []int, v int) bool {
	t := r.tail.Load()
	if t-r.head.Load() == uint64(len(buf)) {
		return false
	}
	buf[t%uint64(len(buf))] = v
	r.tail.Store(t + 1)
	return true
}

func (r *Padded64) Pop(buf []int) (int, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := buf[h%uint64(len(buf))]
	r.head.Store(h + 1)
	return v, true
}

// Padded128 puts head and tail a whole 128-byte line apart: clean on
// both GOARCHes, at every phase.
type Padded128 struct {
	head atomic.Uint64
	_    [120]byte
	tail atomic.Uint64
	_    [120]byte
}

func (r *Padded128) Push(buf []int, v int) bool {
	t := r.tail.Load()
	if t-r.head.Load() == uint64(len(buf)) {
		return false
	}
	buf[t%uint64(len(buf))] = v
	r.tail.Store(t + 1)
	return true
}

func (r *Padded128) Pop(buf []int) (int, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := buf[h%uint64(len(buf))]
	r.head.Store(h + 1)
	return v, true
}

// Window's head and tail only ever move together: true sharing.
type Window struct {
	head atomic.Uint64
	tail atomic.Uint64
}

func (w *Window) Advance(n uint64) {
	w.head.Add(n)
	w.tail.Add(n)
}

func (w *Window) Len() uint64 { return w.tail.Load() - w.head.Load() }

// Cached keeps head and tail side by side too, but each side keeps a
// copy of the other's index and loads the original only when its copy
// runs out: on the steady path Push touches tail alone and Pop head
// alone, and every Push takes the line from the consumer.
type Cached struct {
	head       atomic.Uint64 // want `head shares a line with tail .*\(\*Cached\)\.Pop stores head while \(\*Cached\)\.Push stores tail.*\(FS2, proven\)`
	tail       atomic.Uint64
	headCached uint64
	tailCached uint64
}

func (r *Cached) Push(buf []int, v int) bool {
	t := r.tail.Load()
	if t-r.headCached == uint64(len(buf)) {
		r.headCached = r.head.Load()
		if t-r.headCached == uint64(len(buf)) {
			return false
		}
	}
	buf[t%uint64(len(buf))] = v
	r.tail.Store(t + 1)
	return true
}

func (r *Cached) Pop(buf []int) (int, bool) {
	h := r.head.Load()
	if h == r.tailCached {
		r.tailCached = r.tail.Load()
		if h == r.tailCached {
			return 0, false
		}
	}
	v := buf[h%uint64(len(buf))]
	r.head.Store(h + 1)
	return v, true
}
