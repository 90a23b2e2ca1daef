// Package falsesharing defines an Analyzer that reports false sharing and
// padding that works only on some line sizes or alignments.
//
// # Analyzer falsesharing
//
// falsesharing: report false sharing and fragile cache-line padding
//
// The analyzer lays out every struct type of the package for each GOARCH
// in -falsesharing.arch (default: the one being built) with the
// compiler's sizes, finds the members that are written concurrently
// (sync/atomic values, mutexes, members whose address goes to sync/atomic,
// members marked //mglayout:hot, or //mglayout:path directives), and runs
// the same sharing analysis as `mglayout check` at the line size of each
// GOARCH (golang.org/x/sys/cpu's), or instead every size in -falsesharing.lines,
// at every phase where the Go allocator or linker may start the object.
//
// Its rules, each with a stable ID:
//
//	FS1 shard-stride        array elements smaller than a line hold members that different CPUs write
//	FS2 hot-neighbour       a hot member shares a line with members that other code reads or writes independently
//	FS3 phase-padding       padding separates hot members only when the object starts on a line boundary
//	FS4 short-padding       padding sized for 64-byte lines on a GOARCH whose line is larger
//	FS5 whole-line-padding  computed padding that comes to a whole line when none is needed
//	FS6 oversized-padding   trailing padding longer than the line it is to keep the next object off
//
// Who writes what at the same time comes from the concurrency model of
// package concurrency, built on the package's SSA form: operations
// (exported entry points, goroutine bodies) with their callees'
// accesses, the locks held, what happens before an object is published,
// and how shard indexes are computed. Each finding states its evidence
// tier: declared (a directive, or deliberate padding), proven (the model
// shows the two operations), likely (a heuristic); -falsesharing.evidence
// sets the least reported (default proven, which includes declared).
// There is one finding per hot member or shard table, naming every
// partner on its lines.
//
// Suppress a finding with //mglayout:ignore REASON on the type or the
// member. Facts carry each exported type's hot members to the packages
// that use it as an array element; they are the work of a second
// analyzer, HotMembers, which falsesharing requires, so that drivers run
// the costly analysis on the packages being checked and only the facts
// on their dependencies.
package falsesharing
