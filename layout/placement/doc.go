// Package placement says at which offsets modulo a cache line an object can
// start: its phases, with the rule that makes them so.
//
// Phases matter because a layout is only as good as the placements it
// survives. Padding that puts a hot counter on a line of its own works when
// the object starts on a line boundary and may fail when it starts 16 bytes
// past one; a layout whose separation holds only at phase 0 is fragile, and
// the analysis reports it as a finding of its own. So the analysis does not
// assume phase 0: it checks every reachable phase and reports the worst.
//
// Where the phases come from depends on who places the object:
//
//   - A C object (a kernel model, a struct read from DWARF) starts at a
//     multiple of its declared alignment, so a ____cacheline_aligned (64)
//     object on a 128-byte line may start at 0 or 64. This is the
//     [Declared] context, which also covers a Go type whose alignment the
//     user declares with //mglayout:align.
//   - A Go heap object (new(T), &T{}, make([]T, 1)) is placed by the
//     runtime's allocator: tiny noscan objects are packed into 16-byte
//     blocks, small ones sit in slots of their size class (after an 8-byte
//     malloc header when large and pointerful), large ones on a page. This
//     is the [Heap] context, computed for the Go version this package was
//     built from (see sizeclasses.go) and the GOARCH of the layout.
//   - A Go package-level variable is placed by the linker, aligned by its
//     size up to 32 bytes (8 on arm). This is the [Global] context.
//
// The heap and global rules follow the gc toolchain's source; the tests
// check the size-class table against the installed Go's runtime source and
// the predictions against addresses the running runtime and the linker
// actually hand out.
package placement
