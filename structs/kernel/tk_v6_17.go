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
//mglayout:path ktime_get cpus=all rate=hot seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get(), kernel/time/timekeeping.c, v6.17: CLOCK_MONOTONIC, tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono) (clock, cycle_last, mask, mult, xtime_nsec, shift) inside read_seqcount_begin/retry(&tk_core.seq)
//mglayout:path ktime_get_real_ts64 cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_real_ts64(), kernel/time/timekeeping.c, v6.17: CLOCK_REALTIME, xtime_sec and timekeeping_get_ns(&tk->tkr_mono) inside the tk_core.seq loop
//mglayout:path ktime_get_coarse_real_ts64 cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.coarse_nsec -- ktime_get_coarse_real_ts64(), kernel/time/timekeeping.c, v6.17: tk_xtime_coarse() = xtime_sec, coarse_nsec inside the tk_core.seq loop (b71f9804f66c, since v6.15), so only seq is read in line 0
//mglayout:path ktime_get_raw_ts64 cpus=all rate=hot seqread=seq read=timekeeper.raw_sec,timekeeper.tkr_raw.clock,timekeeper.tkr_raw.cycle_last,timekeeper.tkr_raw.mask,timekeeper.tkr_raw.mult,timekeeper.tkr_raw.xtime_nsec,timekeeper.tkr_raw.shift -- ktime_get_raw_ts64(), kernel/time/timekeeping.c, v6.17: CLOCK_MONOTONIC_RAW, raw_sec and timekeeping_get_ns(&tk->tkr_raw) inside the tk_core.seq loop
//mglayout:path ktime_get_update_offsets_now cpus=all rate=250/s seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift,timekeeper.clock_was_set_seq,timekeeper.offs_real,timekeeper.offs_boot,timekeeper.offs_tai,timekeeper.next_leap_ktime -- ktime_get_update_offsets_now(), kernel/time/timekeeping.c, v6.17: tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono), clock_was_set_seq, offs_real/offs_boot/offs_tai (read only when clock_was_set_seq changed), next_leap_ktime inside the tk_core.seq loop; hrtimer_interrupt() -> hrtimer_update_base() runs it on every CPU at least once per tick (CONFIG_HZ=250 assumed, HZ is configurable 100-1000), more often with other hrtimers
//mglayout:path ktime_get_coarse_real_ts64_mg cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.coarse_nsec,timekeeper.offs_real -- ktime_get_coarse_real_ts64_mg(), kernel/time/timekeeping.c, v6.17: tk_xtime_coarse() = xtime_sec, coarse_nsec and tk_core.timekeeper.offs_real inside the tk_core.seq loop, after atomic64_read(&mg_floor) (the path of the same name on mg_floor@v6.13); current_time() and inode_set_ctime_current() call it for every file timestamp
//mglayout:path ktime_get_real_ts64_mg cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift,timekeeper.offs_real -- ktime_get_real_ts64_mg(), kernel/time/timekeeping.c, v6.17: xtime_sec, tkr_mono.base, timekeeping_get_ns(&tk->tkr_mono) and tk_core.timekeeper.offs_real inside the tk_core.seq loop, then atomic64_try_cmpxchg(&mg_floor) (the path of the same name on mg_floor@v6.13); inode_set_ctime_current() calls it when the coarse ctime would not change
//mglayout:path tick cpus=1 rate=250/s cas=lock read=timekeeper.cycle_interval write=shadow_timekeeper.tkr_mono.cycle_last,shadow_timekeeper.tkr_raw.cycle_last,shadow_timekeeper.tkr_mono.xtime_nsec,shadow_timekeeper.tkr_raw.xtime_nsec,shadow_timekeeper.raw_sec,shadow_timekeeper.ntp_error,shadow_timekeeper.xtime_sec,shadow_timekeeper.skip_second_overflow,shadow_timekeeper.ntp_tick,shadow_timekeeper.ntp_err_mult,shadow_timekeeper.tkr_mono.mult,shadow_timekeeper.xtime_interval,shadow_timekeeper.coarse_nsec seqwrite=seq write=shadow_timekeeper.next_leap_ktime,shadow_timekeeper.tkr_mono.base,shadow_timekeeper.ktime_sec,shadow_timekeeper.tkr_raw.base,shadow_timekeeper.tkr_mono.base_real read=shadow_timekeeper write=timekeeper -- update_wall_time() -> timekeeping_advance(TK_ADV_TICK) -> __timekeeping_advance(&tk_core) -> timekeeping_update_from_shadow(), kernel/time/timekeeping.c, v6.17: the tick writer, once per tick on the do_timer CPU, CONFIG_HZ=250 assumed (HZ is configurable 100-1000). Under raw_spin_lock_irqsave(&tk_core.lock) it reads real_tk->cycle_interval; logarithmic_accumulation(), timekeeping_adjust() and accumulate_nsecs_to_secs() update the shadow_timekeeper outside the seqcount write section (then tk_update_coarse_nsecs() writes coarse_nsec); timekeeping_update_from_shadow() does write_seqcount_begin(&tk_core.seq), tk_update_leap_state() (next_leap_ktime), tk_update_ktime_data() (tkr_mono.base, ktime_sec, tkr_raw.base) and tkr_mono.base_real on the shadow, then memcpy(&tk_core.timekeeper, shadow, sizeof) ("The memcpy must come last"), rewriting the whole live timekeeper, and write_seqcount_end; leap-second and clock-was-set writes are left out
type tk_data_v6_17 struct {
	seq               seqcount_raw_spinlock_t
	timekeeper        timekeeper_v6_17 `c:"struct timekeeper"`
	shadow_timekeeper timekeeper_v6_17 `c:"struct timekeeper"`
	lock              raw_spinlock_t
}
