// Package declared holds a struct whose access paths are declared with
// //mglayout:path and whose declared writers falsely share a line.
// Checked with -falsesharing.arch=amd64 and with amd64,arm64.
//
// The finding must name the members that meet (tail and head), at the
// later one, once; not the paths (producer, consumer) at the type, once
// per direction.
package declared

// Queue's indices are plain integers written under the producer's and
// the consumer's own locks, elsewhere; the directives declare who writes
// what, and the two paths write neighbours.
//
//mglayout:path producer cpus=1 write=tail
//mglayout:path consumer cpus=1 write=head
type Queue struct {
	head uint64 // want `head shares a line with tail \(.*\), and the //mglayout:path directives declare.*\(FS2, declared\)`
	tail uint64
}
