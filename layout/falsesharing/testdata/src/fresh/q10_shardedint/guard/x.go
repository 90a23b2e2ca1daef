// Package guard reproduces github.com/tailscale/tailscale's syncs shards at
// e8f1721147eb8d709232363e67cf96878adf8c9c: a sharded int keeps one
// atomic.Int64 per CPU followed by a cpu.CacheLinePad (72 bytes on amd64,
// 136 on arm64), and a sharded map keeps a Mutex and a map header followed by
// a cpu.CacheLinePad; in both slices two hot words are always more than a
// line apart, so neighbouring shards never share a line on either GOARCH.
package guard

import (
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/cpu"
)

type intShard struct {
	atomic.Int64
	_ cpu.CacheLinePad // keeps the next shard's counter off this line
}

type shardPicker struct {
	atomic.Int64
	sync.Pool
}

// ShardValue holds one T per CPU; the pool hands a goroutine a shard, with
// best-effort P affinity.
type ShardValue[T any] struct {
	shards []T
	pick   shardPicker
}

// NewShardValue allocates one shard per CPU.
func NewShardValue[T any]() *ShardValue[T] {
	sv := &ShardValue[T]{shards: make([]T, runtime.NumCPU())}
	sv.pick.New = func() any {
		i := sv.pick.Add(1) - 1
		return &sv.shards[i%int64(len(sv.shards))]
	}
	return sv
}

// One runs f on a single shard.
func (sv *ShardValue[T]) One(f func(*T)) {
	p := sv.pick.Get().(*T)
	f(p)
	sv.pick.Put(p)
}

// ShardedInt is a counter for very frequent adds from many goroutines.
type ShardedInt struct{ sv *ShardValue[intShard] }

// NewShardedInt returns a zero counter.
func NewShardedInt() *ShardedInt { return &ShardedInt{sv: NewShardValue[intShard]()} }

// Add adds d to the shard this goroutine is handed.
func (m *ShardedInt) Add(d int64) { m.sv.One(func(s *intShard) { s.Add(d) }) }

// Value sums the shards.
func (m *ShardedInt) Value() (v int64) {
	for i := range m.sv.shards {
		v += m.sv.shards[i].Load()
	}
	return v
}

type mapShard[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
	_  cpu.CacheLinePad // keeps the next shard's mutex off this line
}

// ShardedMap is a map split by a caller-supplied shard function.
type ShardedMap[K comparable, V any] struct {
	shardOf func(K) int
	shards  []mapShard[K, V]
}

// NewShardedMap makes n shards; shardOf must return a value in [0, n).
func NewShardedMap[K comparable, V any](n int, shardOf func(K) int) *ShardedMap[K, V] {
	m := &ShardedMap[K, V]{shardOf: shardOf, shards: make([]mapShard[K, V], n)}
	for i := range m.shards {
		m.shards[i].m = make(map[K]V)
	}
	return m
}

// Get reads key under its shard's lock; any goroutine calls it.
func (m *ShardedMap[K, V]) Get(key K) (V, bool) {
	s := &m.shards[m.shardOf(key)]
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok
}

// Set writes key under its shard's lock.
func (m *ShardedMap[K, V]) Set(key K, v V) {
	s := &m.shards[m.shardOf(key)]
	s.mu.Lock()
	s.m[key] = v
	s.mu.Unlock()
}
