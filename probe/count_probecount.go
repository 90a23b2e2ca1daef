//go:build probecount

package probe

import "sync/atomic"

// opCounts counts every memory operation the workers perform, so that a
// test can check that a path does exactly the accesses it names.
var opCounts [numOps]atomic.Uint64

func countOp(k opKind) { opCounts[k].Add(1) }
