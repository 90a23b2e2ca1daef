// Package vmglobals reproduces the package-level counters of
// github.com/VictoriaMetrics/VictoriaMetrics lib/storage as commit
// 324992e6fffb5da151dfbe01e2b1a03071bd9973 left them: each hot global is a
// paddedUint64 with 128 bytes on either side. Verdict for the variables:
// clean on both GOARCHes, no neighbour can reach their line. Verdict for
// paddedUint64: flag on amd64 (FS5), clean on arm64: on 64-byte lines each
// 128-byte pad wastes a whole line, which commit
// 92b85c8ded5b6623edae1610029b501e1666476a later removed.
package vmglobals

import (
	"errors"
	"sync/atomic"
	"time"
)

// paddedUint64 is an atomic.Uint64 kept off its neighbours' lines.
type paddedUint64 struct {
	_ [128]byte
	atomic.Uint64
	_ [128]byte
}

var dedupsDuringMerge paddedUint64

var marshaledBlockHeaderSize = 81

var tagFiltersKeyGen paddedUint64

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
