// Package ring holds single-producer single-consumer ring buffers: the
// producer writes tail, the consumer writes head, and each reads the
// other's index. Checked with -falsesharing.arch=amd64.
package ring

import "sync/atomic"

// Adjacent keeps head and tail side by side: every Push takes the line
// from the consumer and every Pop takes it back.
type Adjacent struct {
	head atomic.Uint64 // next slot to read; written by Pop only // want `head shares a line with tail \(.*\), and \(\*Adjacent\)\.Pop stores head while \(\*Adjacent\)\.Push stores tail: false sharing; put them on separate lines \(FS2, proven\)`
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
