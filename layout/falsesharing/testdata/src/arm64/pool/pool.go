// Package pool holds the sync.Pool-style per-P locals of amd64/pool,
// checked with -falsesharing.arch=amd64,arm64: the padding is sized for
// 128-byte lines, so it is clean on arm64 as on amd64.
package pool

import (
	"sync"
	"unsafe"
)

// poolLocalInternal is the per-P state of Go 1.12's sync.Pool.
type poolLocalInternal struct {
	private any   // used by the owning P only
	shared  []any // used by any P, under mu
	mu      sync.Mutex
}

// poolLocal pads the per-P state to a multiple of 128 bytes, as
// sync.Pool does "to prevent false sharing on widespread platforms with
// 128 mod (cache line size) = 0": clean.
type poolLocal struct {
	poolLocalInternal
	pad [128 - unsafe.Sizeof(poolLocalInternal{})%128]byte
}

// Pool is the per-P table: 128-byte elements, one or two whole lines
// each whatever the phase: clean.
type Pool struct {
	local [8]poolLocal
}

func (p *Pool) Put(pid int, x any) {
	l := &p.local[pid]
	if l.private == nil {
		l.private = x
		return
	}
	l.mu.Lock()
	l.shared = append(l.shared, x)
	l.mu.Unlock()
}

func (p *Pool) Get(pid int) any {
	l := &p.local[pid]
	x := l.private
	l.private = nil
	if x == nil {
		l.mu.Lock()
		if n := len(l.shared); n > 0 {
			x, l.shared = l.shared[n-1], l.shared[:n-1]
		}
		l.mu.Unlock()
	}
	return x
}

// steal takes from another P's shared list, under its lock.
func (p *Pool) steal(pid int) any {
	for i := range p.local {
		l := &p.local[(pid+i+1)%len(p.local)]
		l.mu.Lock()
		if n := len(l.shared); n > 0 {
			x := l.shared[n-1]
			l.shared = l.shared[:n-1]
			l.mu.Unlock()
			return x
		}
		l.mu.Unlock()
	}
	return nil
}

// poolLocal64 pads the same state to a multiple of 64 bytes only.
type poolLocal64 struct {
	poolLocalInternal
	pad [64 - unsafe.Sizeof(poolLocalInternal{})%64]byte
}

// Pool64's 64-byte locals are a whole line each on amd64; on arm64 two
// Ps' mutexes share each 128-byte line.
type Pool64 struct {
	local [8]poolLocal64 // want `the padding in the elements of local makes them 64 bytes, too short for 128 B lines on arm64: neighbouring shards share lines there; pad each element to 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)`
}

func (p *Pool64) Put(pid int, x any) {
	l := &p.local[pid]
	l.mu.Lock()
	l.shared = append(l.shared, x)
	l.mu.Unlock()
}
