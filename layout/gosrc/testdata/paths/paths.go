// Package paths declares access paths with directives, for the tests of
// Load and InferPaths.
package paths

// Ring is a single-producer, single-consumer ring buffer: each side writes
// its own index and reads the other's.
//
//mglayout:path producer cpus=1 rate=hot write=tail read=head,buf -- the producer publishes tail
//mglayout:path consumer cpus=1 rate=hot write=head read=tail,buf
type Ring struct {
	head uint64
	tail uint64
	buf  [6]uint64
}

// Clock is a seqlock-protected clock, laid out like a C object.
//
//mglayout:align 64
//mglayout:path tick cpus=1 rate=250/s seqwrite=seq write=sec,nsec
//mglayout:path reader seqread=seq read=sec,nsec
type Clock struct {
	seq  uint32
	sec  int64
	nsec int64
}

// Legacy is kept for old callers.
//
//mglayout:ignore replaced by Ring
type Legacy struct {
	n int64
}
