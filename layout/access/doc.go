// Package access describes who touches which bytes of a layout: access
// paths.
//
// A path is a named sequence of operations on members, run concurrently on
// some CPUs at some rate: a seqlock reader (seqread on the counter, then
// reads), the tick writer (seqwrite on the counter, then writes), plain
// reads and writes, atomic adds and compare-and-swaps. Kernel models carry
// their paths; Go code declares them with //mglayout:path directives or
// gets them inferred. The sharing analysis turns paths into the lines each
// one touches and the writer/reader pairs that meet on a line.
//
// The textual form, used by directives, by layout JSON and by the paths
// files that give C structs read from DWARF their paths (ParseSidecar), is
//
//	NAME [cpus=all|N] [rate=hot|N/s] OP=member[,member...] ...
//
// with OP one of read, write, add, cas, seqread, seqwrite. A member is a
// dotted path (timekeeper.tkr_mono.shift), an aggregate standing for all
// its bytes (timekeeper), or an array element (base[1]).
package access
