// Package stripes holds lock-striped maps: a key hashes to one of 16
// stripes, each with its own mutex, so that goroutines on different
// stripes do not contend. Checked with -falsesharing.arch=amd64.
package stripes

import "sync"

// Map's stripes are 16 bytes (an 8-byte mutex and a map pointer): four
// stripes per line, so locking one stripe invalidates the line holding
// three others' mutexes, and the striping buys little.
type Map struct {
	stripes [16]struct { // want `elements of stripes are 16 bytes, so neighbouring shards share lines \(64 B lines on amd64\).*pad each element to 64 bytes: .*\(FS1, proven\)`
		mu sync.Mutex
		m  map[string]int
	}
}

func (s *Map) Put(k string, v int) {
	st := &s.stripes[hash(k)%16]
	st.mu.Lock()
	st.m[k] = v
	st.mu.Unlock()
}

func (s *Map) Get(k string) (int, bool) {
	st := &s.stripes[hash(k)%16]
	st.mu.Lock()
	defer st.mu.Unlock()
	v, ok := st.m[k]
	return v, ok
}

// Padded64's stripes are a 64-byte line each: clean on amd64.
type Padded64 struct {
	stripes [16]struct {
		mu sync.Mutex
		m  map[string]int
		_  [48]byte
	}
}

func (s *Padded64) Put(k string, v int) {
	st := &s.stripes[hash(k)%16]
	st.mu.Lock()
	st.m[k] = v
	st.mu.Unlock()
}

// Padded128's stripes are 128 bytes each: clean on every GOARCH checked.
type Padded128 struct {
	stripes [16]stripe
}

type stripe struct {
	mu sync.RWMutex
	m  map[string]int
	_  [128 - 32]byte
}

func (s *Padded128) Get(k string) int {
	st := &s.stripes[hash(k)%16]
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.m[k]
}

func hash(s string) (h uint32) {
	for i := 0; i < len(s); i++ {
		h = h*31 + uint32(s[i])
	}
	return h
}

// RWStripes is a named slice type of locks, one per CPU: the elements of
// its backing array are 24 bytes, so neighbouring CPUs' locks share
// lines.
type RWStripes []sync.RWMutex // want `elements of RWStripes are 24 bytes, so neighbouring shards share lines \(64 B lines on amd64\) and the CPUs writing them false-share; pad each element to 64 bytes: \(RWStripes\)\.RLock updates the lock of an element of RWStripes chosen per CPU or goroutine, at random or by a ticket \(FS1, proven\)`

func (s RWStripes) RLock(cpu int) *sync.RWMutex {
	l := &s[cpu%len(s)]
	l.RLock()
	return l
}
