// Package vmcacheline reproduces the raw-rows shards of
// github.com/VictoriaMetrics/VictoriaMetrics lib/storage before commit
// 92b85c8ded5b6623edae1610029b501e1666476a. Verdict: flag on amd64 (FS5),
// clean on arm64: the pad 128 - n%128 rounds the 40-byte shard up to 128
// bytes, which on 64-byte lines is a whole wasted line per shard; the
// shards are still kept apart on both GOARCHes.
package vmcacheline

import (
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

type rawRow struct {
	metricID  uint64
	timestamp int64
	value     float64
}

type rawRowsShardNopad struct {
	flushDeadlineMs atomic.Int64
	lock            sync.Mutex
	rows            []rawRow
}

type rawRowsShard struct {
	rawRowsShardNopad

	// The padding prevents false sharing on widespread platforms with
	// 128 mod (cache line size) = 0 .
	_ [128 - unsafe.Sizeof(rawRowsShardNopad{})%128]byte
}

func (s *rawRowsShard) addRows(rows []rawRow) {
	s.lock.Lock()
	if len(s.rows) == 0 {
		s.flushDeadlineMs.Store(time.Now().Add(time.Second).UnixMilli())
	}
	s.rows = append(s.rows, rows...)
	s.lock.Unlock()
}

func (s *rawRowsShard) takeIfDue(now int64) []rawRow {
	if now < s.flushDeadlineMs.Load() {
		return nil
	}
	s.lock.Lock()
	rows := s.rows
	s.rows = nil
	s.lock.Unlock()
	return rows
}

// Partition spreads incoming rows over per-CPU shards.
type Partition struct {
	shardIdx atomic.Uint32
	shards   []rawRowsShard
	flushed  chan []rawRow
}

// NewPartition returns a partition with n shards and starts its flusher.
func NewPartition(n int) *Partition {
	p := &Partition{shards: make([]rawRowsShard, n), flushed: make(chan []rawRow, n)}
	go p.flusher()
	return p
}

// AddRows adds rows to the next shard.
func (p *Partition) AddRows(rows []rawRow) {
	i := p.shardIdx.Add(1) % uint32(len(p.shards))
	p.shards[i].addRows(rows)
}

func (p *Partition) flusher() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C {
		now := time.Now().UnixMilli()
		for i := range p.shards {
			if rows := p.shards[i].takeIfDue(now); rows != nil {
				p.flushed <- rows
			}
		}
	}
}
