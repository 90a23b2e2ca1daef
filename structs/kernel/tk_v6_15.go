package kernel

// timekeeper_v6_15 is struct timekeeper in v6.15 and v6.16: commit
// b71f9804f66c "timekeeping: Prevent coarse clocks going backwards" (Thomas
// Gleixner, <87h632wals.ffs@tglx>, 5 Apr 2025) put coarse_nsec where
// tai_offset was, in line 1, and moved tai_offset to the end. 280 bytes.
type timekeeper_v6_15 struct {
	tkr_mono             tk_read_base
	xtime_sec            u64
	ktime_sec            uint64 `c:"unsigned long"`
	wall_to_monotonic    timespec64
	offs_real            ktime_t
	offs_boot            ktime_t
	offs_tai             ktime_t
	coarse_nsec          u32
	tkr_raw              tk_read_base
	raw_sec              u64
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
	tai_offset           s32
}

// tk_data_v6_15 is struct tk_data in v6.15 and v6.16, 576 bytes.
//
//mglayout:model tk_data@v6.15
//mglayout:align 64
type tk_data_v6_15 struct {
	seq               seqcount_raw_spinlock_t
	timekeeper        timekeeper_v6_15 `c:"struct timekeeper"`
	shadow_timekeeper timekeeper_v6_15 `c:"struct timekeeper"`
	lock              raw_spinlock_t
}
