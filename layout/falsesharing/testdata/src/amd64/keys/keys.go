// Package keys holds a connection's keys, each taken by its own kind of
// operation through a constant index: the keys share one line.
package keys

import "sync/atomic"

type key int

const (
	reading key = iota
	writing
	closing
	total
)

type Conn struct {
	keys [total]int32 // want `elements of keys are 4 bytes, so neighbouring shards share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad each element to 64 bytes: \(\*Conn\)\.Send updates keys\[1\] while \(\*Conn\)\.Recv updates keys\[0\] \(FS1, proven\)`
}

func (c *Conn) lock(k key) bool { return atomic.CompareAndSwapInt32(&c.keys[k], 0, 1) }

func (c *Conn) unlock(k key) { atomic.StoreInt32(&c.keys[k], 0) }

// Recv runs r under the reading key.
func (c *Conn) Recv(r func()) {
	if c.lock(reading) {
		r()
		c.unlock(reading)
	}
}

// Send runs w under the writing key.
func (c *Conn) Send(w func()) {
	if c.lock(writing) {
		w()
		c.unlock(writing)
	}
}
