package ring

import "sync/atomic"

// Ring is a single-producer, single-consumer queue.
//
//mglayout:path producer cpus=1 wrte=tail
type Ring struct {
	head atomic.Uint64
	tail atomic.Uint64
}
