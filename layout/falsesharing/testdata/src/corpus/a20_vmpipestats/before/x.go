// Package vmpipestats reproduces the group-map shards of the stats pipe in
// github.com/VictoriaMetrics/VictoriaMetrics lib/logstorage before commit
// adae788b18ed4acd2bdb532f4f86bc64349d6ad1. Verdict: flag on amd64 and
// arm64 (FS1): each 32-byte pipeStatsGroupMap is merged by its own
// goroutine at flush, which creates, reads and resets its map headers, so
// neighbouring shards merged on different CPUs share lines.
package vmpipestats

import "sync"

type pipeStatsGroup struct{ count uint64 }

type processorShard struct{ groupMapShards []pipeStatsGroupMap }

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
			psm := &psms[cpuIdx]
			for _, s := range shards[1:] {
				src := &s.groupMapShards[cpuIdx]
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
	s := &processorShard{groupMapShards: make([]pipeStatsGroupMap, n)}
	for i := range s.groupMapShards {
		s.groupMapShards[i].shard = s
	}
	return s
}
