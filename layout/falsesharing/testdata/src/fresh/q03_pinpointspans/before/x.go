// Package before reproduces github.com/pinpoint-apm/pinpoint-go-agent's
// in-flight span registry before PR#142: the 32 shards, each a Mutex and a map
// header (16 bytes), sit back to back in one array, so four shards share a
// 64-byte line (eight a 128-byte one) and request goroutines locking
// different shards at span start and end still bounce the same line.
package before

import (
	"sync"
	"time"
)

const shardCount = 32 // a power of two

type spanShard struct {
	mu    sync.Mutex
	start map[int64]time.Time
}

type spanRegistry struct {
	shards [shardCount]spanShard
}

var inflight = newSpanRegistry()

func newSpanRegistry() *spanRegistry {
	r := &spanRegistry{}
	for i := range r.shards {
		r.shards[i].start = make(map[int64]time.Time)
	}
	return r
}

func (r *spanRegistry) shardFor(id int64) *spanShard {
	return &r.shards[uint64(id)&(shardCount-1)]
}

// SpanStarted records a span; every traced request calls it.
func SpanStarted(id int64, at time.Time) {
	s := inflight.shardFor(id)
	s.mu.Lock()
	s.start[id] = at
	s.mu.Unlock()
}

// SpanEnded forgets a span when its request finishes.
func SpanEnded(id int64) {
	s := inflight.shardFor(id)
	s.mu.Lock()
	delete(s.start, id)
	s.mu.Unlock()
}

// Buckets counts in-flight spans by age (<1s, <3s, <5s, older) for the stats loop.
func Buckets(now time.Time) [4]int32 {
	var out [4]int32
	for i := range inflight.shards {
		s := &inflight.shards[i]
		s.mu.Lock()
		for _, t := range s.start {
			switch age := now.Sub(t); {
			case age < time.Second:
				out[0]++
			case age < 3*time.Second:
				out[1]++
			case age < 5*time.Second:
				out[2]++
			default:
				out[3]++
			}
		}
		s.mu.Unlock()
	}
	return out
}
