// Package waste holds padding longer than it needs to be (class 12): a
// fixed pad longer than the line a slice's elements need to be apart,
// and a trailing line pad on an object whose size class already starts
// each one on a line. Each finding says the bytes every element loses.
// A pad that rounds its element up to the line is no waste.
package waste

import "sync/atomic"

// shard is 48 bytes of data and a 128-byte pad: 176-byte shards, where
// 128 would keep each on a 128-byte line of its own.
type shard struct {
	hits, misses atomic.Int64
	keys         [4]uint64
	_            [128]byte // want `elements of \[\]shard are 176 bytes, where 128 would keep them 128-byte lines apart \(on amd64 and arm64: .*\): the padding after keys is 48 bytes longer than it needs to be, lost in each one \(FS6, declared\)`
}

type Cache struct{ shards []shard }

func New(n int) *Cache { return &Cache{shards: make([]shard, n)} }

func (c *Cache) Hit(i int)  { c.shards[i%len(c.shards)].hits.Add(1) }
func (c *Cache) Miss(i int) { c.shards[i%len(c.shards)].misses.Add(1) }

// Worker is 128 bytes, its own size class: each starts on a line, and
// the line of padding at its end separates nothing.
type Worker struct {
	state atomic.Int64
	done  atomic.Int64
	name  string
	buf   [96]byte
	_     [128]byte // want `Worker objects are 256 bytes, where 128 would keep each off the next one's 128-byte lines \(on amd64 and arm64: .*size class 128.*\): the padding after buf is 128 bytes longer than it needs to be, lost in each one \(FS6, declared\)`
}

func Start(n int) []*Worker {
	out := make([]*Worker, n)
	for i := range out {
		out[i] = &Worker{}
		go out[i].run()
	}
	return out
}

func (w *Worker) run() {
	for w.state.Load() == 0 {
		w.done.Add(1)
	}
}

// padded is 8 bytes and a 120-byte pad: one 128-byte line, no waste.
type padded struct {
	n atomic.Int64
	_ [120]byte
}

type Counter struct{ cells []padded }

func (c *Counter) Add(i int) { c.cells[i%len(c.cells)].n.Add(1) }
