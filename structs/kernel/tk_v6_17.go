package kernel

// offs_tai_aux is the anonymous `union { ktime_t offs_tai; ktime_t
// offs_aux; }` of the aux-clock series.
//
//mglayout:union
type offs_tai_aux struct {
	offs_tai ktime_t
	offs_aux ktime_t
}

// monotonic_to_boot_aux is the anonymous `union { struct timespec64
// monotonic_to_boot; struct timespec64 monotonic_to_aux; }` of the
// aux-clock series.
//
//mglayout:union
type monotonic_to_boot_aux struct {
	monotonic_to_boot timespec64
	monotonic_to_aux  timespec64
}

// timekeeper_v6_17 is struct timekeeper in v6.17 through v7.0, after the
// aux-clock series (Link: 20250519083026.350061049@linutronix.de) added
// id, clock_valid and the two unions. 280 bytes.
type timekeeper_v6_17 struct {
	tkr_mono             tk_read_base
	xtime_sec            u64
	ktime_sec            uint64 `c:"unsigned long"`
	wall_to_monotonic    timespec64
	offs_real            ktime_t
	offs_boot            ktime_t
	_                    offs_tai_aux
	coarse_nsec          u32
	id                   uint32 `c:"enum timekeeper_ids"`
	tkr_raw              tk_read_base
	raw_sec              u64
	clock_was_set_seq    uint32 `c:"unsigned int"`
	cs_was_changed_seq   u8
	clock_valid          u8
	_                    monotonic_to_boot_aux
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

// tk_data_v6_17 is struct tk_data in v6.17 through v7.0, 576 bytes. The
// kernel now declares `static struct tk_data
// timekeeper_data[TIMEKEEPERS_MAX]` with tk_core as element 0; 576 is a
// multiple of 64, so every element (9 with CONFIG_POSIX_AUX_CLOCKS) starts
// on a 64-byte line.
//
//mglayout:model tk_data@v6.17
//mglayout:align 64
type tk_data_v6_17 struct {
	seq               seqcount_raw_spinlock_t
	timekeeper        timekeeper_v6_17 `c:"struct timekeeper"`
	shadow_timekeeper timekeeper_v6_17 `c:"struct timekeeper"`
	lock              raw_spinlock_t
}
