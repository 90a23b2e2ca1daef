package kernel

// timekeeper_v6_13 is struct timekeeper as of v6.13 and v6.14, after
// commit 6860d28ccb23 "timekeeping: Reorder struct timekeeper" (Thomas
// Gleixner, tip timers/core 25 Oct 2024) and d44d26987bb3, which removed
// the CONFIG_DEBUG_TIMEKEEPING members. Its header comment: "Cacheline 0,1
// contain the data which is used for accessing CLOCK_MONOTONIC/REALTIME/
// BOOTTIME/TAI, while cacheline 2 contains the data for accessing
// CLOCK_MONOTONIC_RAW. Cacheline 3,4 are internal variables which are only
// accessed during timekeeper updates once per tick." 280 bytes.
type timekeeper_v6_13 struct {
	// Cacheline 0 (together with prepended seqcount of timekeeper core):
	tkr_mono tk_read_base
	// Cacheline 1:
	xtime_sec         u64
	ktime_sec         uint64 `c:"unsigned long"`
	wall_to_monotonic timespec64
	offs_real         ktime_t
	offs_boot         ktime_t
	offs_tai          ktime_t
	tai_offset        s32
	// Cacheline 2:
	tkr_raw tk_read_base
	raw_sec u64
	// Cachline 3 and 4 (timekeeping internal variables):
	clock_was_set_seq    uint32 `c:"unsigned int"`
	cs_was_changed_seq   u8
	monotonic_to_boot    timespec64
	cycle_interval       u64
	xtime_interval       u64
	xtime_remainder      s64
	raw_interval         u64
	next_leap_ktime      ktime_t
	ntp_tick             u64
	ntp_error            s64
	ntp_error_shift      u32
	ntp_err_mult         u32
	skip_second_overflow u32
}

// tk_data_v6_13 is struct tk_data of kernel/time/timekeeping.c in v6.13
// and v6.14, which took the shadow timekeeper and the lock into the
// cache-aligned object (`static struct tk_data tk_core;`): seq@0,
// timekeeper@8, shadow_timekeeper@288, lock@568, 576 bytes. At 64 bytes
// line 4 holds the end of the live timekeeper and the start of the shadow.
//
//mglayout:model tk_data@v6.13
//mglayout:align 64
type tk_data_v6_13 struct {
	seq               seqcount_raw_spinlock_t
	timekeeper        timekeeper_v6_13 `c:"struct timekeeper"`
	shadow_timekeeper timekeeper_v6_13 `c:"struct timekeeper"`
	lock              raw_spinlock_t
}
