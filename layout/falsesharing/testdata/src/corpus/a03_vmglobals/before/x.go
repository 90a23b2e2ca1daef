// Package vmglobals reproduces the package-level counters of
// github.com/VictoriaMetrics/VictoriaMetrics lib/storage before commit
// 324992e6fffb5da151dfbe01e2b1a03071bd9973. Verdict: flag on amd64 and
// arm64 (FS2): the linker packs globals together, so dedupsDuringMerge and
// tagFiltersKeyGen, incremented by merge and search workers, sit on the
// line of marshaledBlockHeaderSize and dedupInterval, which every block
// read loads (issue 8682 measured the HITMs).
package vmglobals

import (
	"errors"
	"sync/atomic"
	"time"
)

var dedupsDuringMerge atomic.Uint64

var marshaledBlockHeaderSize = 81

var tagFiltersKeyGen atomic.Uint64

var dedupInterval = 30 * time.Second

var errShort = errors.New("too short block header")

// ReadBlockHeader consumes one marshaled block header from src.
func ReadBlockHeader(src []byte) ([]byte, error) {
	if len(src) < marshaledBlockHeaderSize {
		return src, errShort
	}
	return src[marshaledBlockHeaderSize:], nil
}

// DeduplicateSamples drops samples closer than dedupInterval and counts them.
func DeduplicateSamples(ts []int64) []int64 {
	step := dedupInterval.Milliseconds()
	out := ts[:0]
	for i, t := range ts {
		if i > 0 && t-out[len(out)-1] < step {
			dedupsDuringMerge.Add(1)
			continue
		}
		out = append(out, t)
	}
	return out
}

// NextTagFiltersKey returns a new generation for the tag filters cache.
func NextTagFiltersKey() uint64 {
	return tagFiltersKeyGen.Add(1)
}
