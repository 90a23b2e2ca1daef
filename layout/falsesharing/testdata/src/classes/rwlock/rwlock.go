// Package rwlock holds reader/writer locks that every call takes for
// reading: RLock and RUnlock write the lock's reader count alone, its
// last 8 bytes, and only a member on that word's line shares it.
package rwlock

import "sync"

// Limits is read-locked by every Get; Fits reads limit without the lock.
// At 64 bytes the reader count lies on the line after limit's at every
// phase a Limits starts at, though the lock's first word shares limit's
// line: no finding there. At 128 bytes they share a line where a Limits
// starts 0 to 48 bytes into one, not at 64, where the count begins the
// next line.
type Limits struct {
	limit int64
	_     [40]byte
	mu    sync.RWMutex // want `the padding between limit and mu is too short for 128 B lines on arm64 when the Limits starts 0, 16, 32 or 48 bytes into one: they share a line there; .*\(FS4, declared\)`
	m     map[string]int64
}

func NewLimits() *Limits { return &Limits{m: map[string]int64{}} }

func (l *Limits) Get(k string) int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.m[k]
}

func (l *Limits) Fits(n int64) bool { return n <= l.limit }
