// Package structs provides the built-in models of the Linux timekeeping
// structs: tk_core and tk_data across kernel versions, the 2023 padding
// patch, the PREEMPT_RT seqcount, the fast timekeeper and the multigrain
// floor.
//
// The models are the Go mirrors in package structs/kernel, embedded here as
// source so that an installed mglayout needs no source tree. They are read
// with go/types and the compiler's sizes for the requested GOARCH, through
// the same builder as any Go package, and checked in the tests against gcc,
// pahole and the kernel facts of each version.
package structs
