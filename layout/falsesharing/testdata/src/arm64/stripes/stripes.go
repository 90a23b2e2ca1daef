// Package stripes holds the lock-striped maps of amd64/stripes, checked
// with -falsesharing.arch=amd64,arm64: 64-byte lines on amd64, 128-byte
// lines on arm64.
package stripes

import "sync"

// Map's 16-byte stripes share lines on both GOARCHes.
type Map struct {
	stripes [16]struct { // want `elements of stripes are 16 bytes, so neighbouring shards share lines \(64 B lines on amd64; 128 B lines on arm64\).*pad each element to 128 bytes: .*\(FS1, proven\)`
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

// Padded64's 64-byte stripes put two mutexes on each 128-byte line of
// arm64: the padding is short there (FS4).
type Padded64 struct {
	stripes [16]struct { // want `the padding in the elements of stripes makes them 64 bytes, too short for 128 B lines on arm64: neighbouring shards share lines there; pad each element to 128 bytes or use golang.org/x/sys/cpu.CacheLinePad \(FS4, declared\)`
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

// Padded128's 128-byte stripes are clean on both.
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
