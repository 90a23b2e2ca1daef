// Package after reproduces github.com/cloudwego/netpoll's connection
// locker as 98122fc1c0c1b3a2c620ac5cdb4d8cc3c604a50f left it: every key
// is padded to unsafe.Sizeof(cpu.CacheLinePad{}), so the keys are a whole
// line apart on both GOARCHes: clean on both.
package after

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/cpu"
)

type who int32

type key int32

const (
	closing key = iota
	processing
	flushing
	total
)

const cacheLineSize = unsafe.Sizeof(cpu.CacheLinePad{})

type padKey struct {
	key int32
	_   [cacheLineSize - unsafe.Sizeof(int32(0))]byte
}

type locker struct {
	// 0 unlocked, 1 locked, 2 stopped.
	keychain [total]padKey
}

// Conn is a connection guarded by the locker.
type Conn struct {
	locker
	fd int
}

func (l *locker) closeBy(w who) bool {
	return atomic.CompareAndSwapInt32(&l.keychain[closing].key, 0, int32(w))
}

func (l *locker) lock(k key) bool { return atomic.CompareAndSwapInt32(&l.keychain[k].key, 0, 1) }

func (l *locker) unlock(k key) { atomic.StoreInt32(&l.keychain[k].key, 0) }

func (l *locker) stop(k key) {
	for !atomic.CompareAndSwapInt32(&l.keychain[k].key, 0, 2) && atomic.LoadInt32(&l.keychain[k].key) != 2 {
		runtime.Gosched()
	}
}

// OnRequest runs the handler under the processing key.
func (c *Conn) OnRequest(handle func()) {
	if c.lock(processing) {
		handle()
		c.unlock(processing)
	}
}

// Flush writes the output buffer under the flushing key.
func (c *Conn) Flush(write func()) {
	if c.lock(flushing) {
		write()
		c.unlock(flushing)
	}
}

// Close stops the connection once processing and flushing are done.
func (c *Conn) Close() {
	if c.closeBy(1) {
		c.stop(flushing)
		c.stop(processing)
	}
}
