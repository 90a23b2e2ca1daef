// Package ring holds single-producer single-consumer ring buffers: the
// producer writes tail, the consumer writes head, and each reads the
// other's index. Checked with -falsesharing.arch=amd64.
package ring

import "sync/atomic"

// Adjacent keeps head and tail side by side, and each side loads the
// other's index on every call: the line is truly shared, and a pad
// between them would remove none of the misses. No finding.
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

// Padded puts head and tail a whole 64-byte line apart, which keeps them
// on separate lines wherever the object starts: clean on amd64.
type Padded struct {
	head atomic.Uint64
	_    [56]byte
	tail atomic.Uint64
	_    [56]byte
}

func (r *Padded) Push(buf []int, v int) bool {
	t := r.tail.Load()
	if t-r.head.Load() == uint64(len(buf)) {
		return false
	}
	buf[t%uint64(len(buf))] = v
	r.tail.Store(t + 1)
	return true
}

func (r *Padded) Pop(buf []int) (int, bool) {
	h := r.head.Load()
	if h == r.tail.Load() {
		return 0, false
	}
	v := buf[h%uint64(len(buf))]
	r.head.Store(h + 1)
	return v, true
}

// Window's head and tail only ever move together, in Advance: whoever
// writes one writes the other, so sharing their line is true sharing
// and no finding.
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
