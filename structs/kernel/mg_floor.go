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
//mglayout:padded 64
//mglayout:path ktime_get_coarse_real_ts64_mg cpus=all rate=hot read=counter -- ktime_get_coarse_real_ts64_mg(), kernel/time/timekeeping.c, v6.13: atomic64_read(&mg_floor), a plain load before the tk_core.seq loop (the path of the same name on tk_data); every file timestamp
//mglayout:path ktime_get_real_ts64_mg cpus=all rate=hot read=counter cas=counter -- ktime_get_real_ts64_mg(), kernel/time/timekeeping.c, v6.13: old = atomic64_read(&mg_floor) before the tk_core.seq loop, then one atomic64_try_cmpxchg(&mg_floor, &old, mono) with no retry (on failure it uses old + offs_real; on success timekeeping_inc_mg_floor_swaps() bumps a per-CPU counter)
var mg_floor atomic64_t
