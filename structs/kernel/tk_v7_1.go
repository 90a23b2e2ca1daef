package kernel

// timekeeper_v7_1 is struct timekeeper in v7.1-rc1, after commit
// cd38bdb8e696 "timekeeping: Provide infrastructure for coupled
// clockevents" (tip sched/hrtick, 27 Feb 2026) added cs_id and the
// cs_ns_to_cyc_* members after raw_sec. 304 bytes; next_leap_ktime moves
// into line 4.
type timekeeper_v7_1 struct {
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
	cs_id                uint32 `c:"enum clocksource_ids"`
	cs_ns_to_cyc_mult    u32
	cs_ns_to_cyc_shift   u32
	cs_ns_to_cyc_maxns   u64
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

// tk_data_v7_1 is struct tk_data in v7.1-rc1: seq@0, timekeeper@8,
// shadow_timekeeper@312, lock@616, 640 bytes.
//
//mglayout:model tk_data@v7.1
//mglayout:align 64
type tk_data_v7_1 struct {
	seq               seqcount_raw_spinlock_t
	timekeeper        timekeeper_v7_1 `c:"struct timekeeper"`
	shadow_timekeeper timekeeper_v7_1 `c:"struct timekeeper"`
	lock              raw_spinlock_t
}
