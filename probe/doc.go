// Package probe measures false sharing on the machine in front of it.
//
// Static reasoning says what should happen; the probe runs the access
// paths of a layout as pinned worker goroutines over memory laid out
// exactly like the layout in question, and counts how many times each
// path completes. The memory comes from mmap, with the object placed at
// an exact offset from a line boundary (its phase); each worker runs on a
// locked OS thread pinned to one CPU; every access goes through
// sync/atomic, so the compiler keeps them all; counts are read after a
// run, never during one.
//
// A 128-byte target can be emulated on a 64-byte host (and a 64-byte one
// on a 128-byte host): each target line's accessed bytes are packed into a
// host line of its own, spaced by the host's interference distance, which
// keeps who shares a line with whom and how many lines each path touches.
//
// Package probe/stats turns the samples of interleaved rounds into
// medians, confidence intervals and comparisons.
package probe
