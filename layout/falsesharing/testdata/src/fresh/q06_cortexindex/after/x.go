// Package after reproduces github.com/cortexproject/cortex's ingester
// inverted index after 4b858358fe920b4975ce857cfb21fe75bd6e61f8: each shard
// gets a pad of a 64-byte line minus the sizes of a Mutex and the map header;
// the field is a RWMutex, so the shard comes out 80 bytes, which still keeps
// neighbouring locks on different 64-byte lines but not on 128-byte ones.
package after

import (
	"sort"
	"sync"
	"unsafe"
)

const shardCount = 32

// Pair is one label name and value of a series.
type Pair struct{ Name, Value string }

// postings maps label name, then value, to the sorted series fingerprints.
type postings map[string]map[string][]uint64

// lineSize is the Intel/AMD line the upstream padding is written for.
const lineSize = 64

type indexShard struct {
	mu  sync.RWMutex
	idx postings
	_   [lineSize - unsafe.Sizeof(sync.Mutex{}) - unsafe.Sizeof(postings{})]byte
}

// Index is an inverted index sharded by series fingerprint.
type Index struct {
	shards []indexShard
}

// NewIndex allocates all shards in one slice.
func NewIndex() *Index {
	shards := make([]indexShard, shardCount)
	for i := range shards {
		shards[i].idx = postings{}
	}
	return &Index{shards: shards}
}

// Add files fp under every label; ingest goroutines call it for new series.
func (x *Index) Add(labels []Pair, fp uint64) {
	s := &x.shards[mix(fp)%shardCount]
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range labels {
		values, ok := s.idx[p.Name]
		if !ok {
			values = map[string][]uint64{}
			s.idx[p.Name] = values
		}
		fps := values[p.Value]
		at := sort.Search(len(fps), func(i int) bool { return fps[i] >= fp })
		fps = append(fps, 0)
		copy(fps[at+1:], fps[at:])
		fps[at] = fp
		values[p.Value] = fps
	}
}

// Lookup returns the fingerprints carrying name=value; queries call it.
func (x *Index) Lookup(name, value string) []uint64 {
	var out []uint64
	for i := range x.shards {
		s := &x.shards[i]
		s.mu.RLock()
		out = append(out, s.idx[name][value]...)
		s.mu.RUnlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func mix(fp uint64) uint64 {
	fp ^= fp >> 33
	fp *= 0xff51afd7ed558ccd
	return fp ^ fp>>33
}
