// Package vmpipestats reproduces the group-map shards of the stats pipe in
// github.com/VictoriaMetrics/VictoriaMetrics lib/logstorage as commit
// adae788b18ed4acd2bdb532f4f86bc64349d6ad1 left them: each shard padded by
// 128 - n%128. Verdict: flag on amd64 (FS5), clean on arm64: the shards
// are apart on both GOARCHes, but the 96-byte pad after 32 bytes wastes a
// whole 64-byte line per shard on amd64 (92b85c8 later fixed this).
package vmpipestats

import (
	"sync"
	"unsafe"
)

type pipeStatsGroup struct{ count uint64 }

type processorShard struct{ groupMapShards []pipeStatsGroupMapShard }

type pipeStatsGroupMapShard struct {
	pipeStatsGroupMap

	// The padding prevents false sharing on widespread platforms with 128 mod (cache line size) = 0 .
	_ [128 - unsafe.Sizeof(pipeStatsGroupMap{})%128]byte
}

type pipeStatsGroupMap struct {
	shard *processorShard

	u64        map[uint64]*pipeStatsGroup
	negative64 map[uint64]*pipeStatsGroup
	strings    map[string]*pipeStatsGroup
}

func (psm *pipeStatsGroupMap) reset() { *psm = pipeStatsGroupMap{} }

func (psm *pipeStatsGroupMap) mergeState(src *pipeStatsGroupMap) {
	if psm.strings == nil {
		psm.strings = make(map[string]*pipeStatsGroup)
	}
	for k, g := range src.strings {
		if dst := psm.strings[k]; dst != nil {
			dst.count += g.count
		} else {
			psm.strings[k] = g
		}
	}
}

// Flush merges shard i of every processor shard in its own goroutine.
func Flush(shards []*processorShard, f func(n int)) {
	if len(shards) == 0 {
		return
	}
	psms := shards[0].groupMapShards
	var wg sync.WaitGroup
	for i := range psms {
		wg.Add(1)
		go func(cpuIdx int) {
			defer wg.Done()
			psm := &psms[cpuIdx].pipeStatsGroupMap
			for _, s := range shards[1:] {
				src := &s.groupMapShards[cpuIdx].pipeStatsGroupMap
				psm.mergeState(src)
				src.reset()
			}
			f(len(psm.strings))
		}(i)
	}
	wg.Wait()
}

// NewShard returns a processor shard with n group maps.
func NewShard(n int) *processorShard {
	s := &processorShard{groupMapShards: make([]pipeStatsGroupMapShard, n)}
	for i := range s.groupMapShards {
		s.groupMapShards[i].shard = s
	}
	return s
}
