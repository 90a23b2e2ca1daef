// Package gosrc builds layouts from Go types.
//
// Sizes come from go/types with types.SizesFor("gc", GOARCH), which follows
// the compiler for every GOARCH: the padding after a trailing zero-size
// field, 8-byte alignment of sync/atomic's 64-bit types on 32-bit
// platforms, and so on. Nothing is guessed; the tests compare the result
// with unsafe.Offsetof on the host and with the DWARF of cross-compiled
// binaries.
//
// The same builder serves Go mirrors of C structs (the built-in kernel
// models): directives in a type's doc comment declare what Go cannot say,
// such as a forced alignment (//mglayout:align 64 for ____cacheline_aligned)
// or that a struct is a C union (//mglayout:union), and a `c:"..."` field
// tag gives a member's C type where the Go spelling differs.
package gosrc
