package kernel

// mg_floor is the multigrain timestamp floor added in v6.13 by commit
// 70c8fd00a9bd "timekeeping: Add interfaces for handling timestamps with a
// floor value" (Jeff Layton, tip 6 Oct 2024):
//
//	static __cacheline_aligned_in_smp atomic64_t mg_floor;
//
// in kernel/time/timekeeping.c. It "is managed independently of the
// timekeeper via a cmpxchg() operation, and sits on its own cacheline": 8
// bytes aligned to SMP_CACHE_BYTES (64 on x86_64 and arm64) in section
// .data..cacheline_aligned, so at 64 bytes its line is its own, while a
// 128-byte line may also hold the 64-byte-aligned object beside it.
//
//mglayout:model mg_floor@v6.13
//mglayout:align 64
var mg_floor atomic64_t
