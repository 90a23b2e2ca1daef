// Package embedded holds struct types that the package keeps only by
// value inside others, at a fixed offset: where their members fall on
// lines is the holder's layout, not that of an allocation of their own.
package embedded

import (
	"sync"
	"sync/atomic"
)

// counts is held by every Shard; the package never allocates one alone.
type counts struct {
	loads  atomic.Int64
	stores atomic.Int64
}

// Shard's counts sit on the line of its lock; every Load and Store bumps
// its own counter there.
type Shard struct {
	mu    sync.RWMutex
	items map[string]int
	st    counts // want `st.loads shares a line with st.stores .*\(\*Shard\)\.Load updates st.loads while \(\*Shard\)\.Store updates st.stores.*FS2, proven`
}

func (s *Shard) Load(k string) (int, bool) {
	s.mu.RLock()
	v, ok := s.items[k]
	s.mu.RUnlock()
	s.st.loads.Add(1)
	return v, ok
}

func (s *Shard) Store(k string, v int) {
	s.mu.Lock()
	s.items[k] = v
	s.mu.Unlock()
	s.st.stores.Add(1)
}

// lane pads its counter to 64 bytes, too short for a 128-byte line were
// lanes laid side by side; but the package keeps lanes only inside
// Lanes, a line apart even at 128 bytes: quiet.
type lane struct {
	n atomic.Int64
	_ [56]byte
}

type Lanes struct {
	in  lane
	_   [64]byte
	out lane
	_   [64]byte
}

func (l *Lanes) Receive() { l.in.n.Add(1) }

func (l *Lanes) Send() { l.out.n.Add(1) }
