// Package vmhitsmap reproduces the sharded hits maps of
// github.com/VictoriaMetrics/VictoriaMetrics lib/logstorage as commit
// a65d10fcceb13a15d2911baa07407e93807d33be left them: each shard is a
// hitsMapShard padded by 128 - n%128. Verdict: flag on amd64 (FS5), clean
// on arm64: the shards are apart on both GOARCHes, but on 64-byte lines
// the 104-byte pad wastes a whole line per shard (64 - 24 would do), which
// commit 92b85c8ded5b6623edae1610029b501e1666476a later fixed.
package vmhitsmap

import (
	"sync"
	"unsafe"
)

type hitsMap struct {
	u64        map[uint64]*uint64
	negative64 map[uint64]*uint64
	strings    map[string]*uint64
}

func (hm *hitsMap) reset() {
	*hm = hitsMap{}
}

func (hm *hitsMap) add(key string, hits uint64) {
	if hm.strings == nil {
		hm.strings = make(map[string]*uint64)
	}
	p := hm.strings[key]
	if p == nil {
		p = new(uint64)
		hm.strings[key] = p
	}
	*p += hits
}

func (hm *hitsMap) mergeState(src *hitsMap) {
	for k, p := range src.strings {
		hm.add(k, *p)
	}
}

type hitsMapShard struct {
	hitsMap

	// The padding prevents false sharing on widespread platforms with 128 mod (cache line size) = 0 .
	_ [128 - unsafe.Sizeof(hitsMap{})%128]byte
}

// HitsMapAdaptive counts hits per value, sharded by value hash.
type HitsMapAdaptive struct {
	concurrency uint
	shards      []hitsMapShard
}

// NewHitsMapAdaptive returns a map with one shard per worker.
func NewHitsMapAdaptive(concurrency uint) *HitsMapAdaptive {
	return &HitsMapAdaptive{concurrency: concurrency, shards: make([]hitsMapShard, concurrency)}
}

// Add counts hits for key in its shard.
func (hma *HitsMapAdaptive) Add(key string, hash uint64, hits uint64) {
	hma.shards[hash%uint64(len(hma.shards))].add(key, hits)
}

// MergeParallel merges shard i of every map into shard i of the first one,
// one goroutine per shard index, and passes each merged shard to f.
func MergeParallel(hmas []*HitsMapAdaptive, f func(keys int)) {
	if len(hmas) == 0 {
		return
	}
	var wg sync.WaitGroup
	for i := range hmas[0].shards {
		wg.Add(1)
		go func(cpuIdx int) {
			defer wg.Done()
			hm := &hmas[0].shards[cpuIdx].hitsMap
			for _, src := range hmas[1:] {
				s := &src.shards[cpuIdx].hitsMap
				hm.mergeState(s)
				s.reset()
			}
			f(len(hm.strings))
		}(i)
	}
	wg.Wait()
}
