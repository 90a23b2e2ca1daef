package kernel

// timekeeper_v6_1 is struct timekeeper (include/linux/timekeeper_internal.h)
// as of v6.1, unchanged from v5.10 through v6.12, without
// CONFIG_DEBUG_TIMEKEEPING. 280 bytes.
type timekeeper_v6_1 struct {
	tkr_mono           tk_read_base
	tkr_raw            tk_read_base
	xtime_sec          u64
	ktime_sec          uint64 `c:"unsigned long"`
	wall_to_monotonic  timespec64
	offs_real          ktime_t
	offs_boot          ktime_t
	offs_tai           ktime_t
	tai_offset         s32
	clock_was_set_seq  uint32 `c:"unsigned int"`
	cs_was_changed_seq u8
	next_leap_ktime    ktime_t
	raw_sec            u64
	monotonic_to_boot  timespec64
	// The following members are for timekeeping internal use.
	cycle_interval       u64
	xtime_interval       u64
	xtime_remainder      s64
	raw_interval         u64
	ntp_tick             u64
	ntp_error            s64
	ntp_error_shift      u32
	ntp_err_mult         u32
	skip_second_overflow u32
}

// tk_core_v6_1 is the timekeeper core of kernel/time/timekeeping.c from
// v5.10 through v6.12:
//
//	static struct {
//		seqcount_raw_spinlock_t	seq;
//		struct timekeeper	timekeeper;
//	} tk_core ____cacheline_aligned = { ... };
//
// 320 bytes, 64-byte aligned: seq 0 4, timekeeper 8 280, tkr_mono 8 56, as
// quoted by Thomas Gleixner in <874jszlo9v.ffs@tglx> (January 2023). The
// size follows pahole and gcc with the alignment on the struct type; in the
// kernel the attribute sits on the variable, which places the object the
// same way but lets the linker put a neighbour in bytes 288-319.
//
//mglayout:model tk_core@v6.1
//mglayout:align 64
//mglayout:path ktime_get cpus=all rate=hot seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get(), kernel/time/timekeeping.c, v6.1: CLOCK_MONOTONIC, tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono) (clock, cycle_last, mask, mult, xtime_nsec, shift) inside read_seqcount_begin/retry(&tk_core.seq)
//mglayout:path ktime_get_real_ts64 cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_real_ts64(), kernel/time/timekeeping.c, v6.1: CLOCK_REALTIME, xtime_sec and timekeeping_get_ns(&tk->tkr_mono) inside the tk_core.seq loop
//mglayout:path ktime_get_coarse_real_ts64 cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_coarse_real_ts64(), kernel/time/timekeeping.c, v6.1: tk_xtime() = xtime_sec, tkr_mono.xtime_nsec >> tkr_mono.shift inside the tk_core.seq loop
//mglayout:path ktime_get_raw_ts64 cpus=all rate=hot seqread=seq read=timekeeper.raw_sec,timekeeper.tkr_raw.clock,timekeeper.tkr_raw.cycle_last,timekeeper.tkr_raw.mask,timekeeper.tkr_raw.mult,timekeeper.tkr_raw.xtime_nsec,timekeeper.tkr_raw.shift -- ktime_get_raw_ts64(), kernel/time/timekeeping.c, v6.1: CLOCK_MONOTONIC_RAW, raw_sec and timekeeping_get_ns(&tk->tkr_raw) inside the tk_core.seq loop
//mglayout:path ktime_get_update_offsets_now cpus=all rate=250/s seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift,timekeeper.clock_was_set_seq,timekeeper.offs_real,timekeeper.offs_boot,timekeeper.offs_tai,timekeeper.next_leap_ktime -- ktime_get_update_offsets_now(), kernel/time/timekeeping.c, v6.1: tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono), clock_was_set_seq, offs_real/offs_boot/offs_tai (read only when clock_was_set_seq changed), next_leap_ktime inside the tk_core.seq loop; hrtimer_interrupt() -> hrtimer_update_base() runs it on every CPU at least once per tick (CONFIG_HZ=250 assumed, HZ is configurable 100-1000), more often with other hrtimers
//mglayout:path tick cpus=1 rate=250/s read=timekeeper.cycle_interval seqwrite=seq write=timekeeper -- update_wall_time() -> timekeeping_advance(TK_ADV_TICK), kernel/time/timekeeping.c, v6.1: the tick writer, once per tick on the do_timer CPU, CONFIG_HZ=250 assumed (HZ is configurable 100-1000). Under timekeeper_lock it reads real_tk->cycle_interval, accumulates into shadow_timekeeper, then write_seqcount_begin(&tk_core.seq), timekeeping_update(shadow), memcpy(&tk_core.timekeeper, &shadow_timekeeper, sizeof), which rewrites the whole live timekeeper, and write_seqcount_end. shadow_timekeeper and timekeeper_lock are separate static objects in v6.1 and not part of this model
type tk_core_v6_1 struct {
	seq        seqcount_raw_spinlock_t
	timekeeper timekeeper_v6_1 `c:"struct timekeeper"`
}

// timekeeper_v6_1_guohui is timekeeper_v6_1 with the `u64 padding;` that
// Guo Hui's RFC of 6 January 2023
// <20230106062946.19983-1-guohui@uniontech.com> put between tkr_raw and
// xtime_sec, to keep xtime_sec off the 128-byte line of seq on Kunpeng 920.
// Never merged. 288 bytes.
type timekeeper_v6_1_guohui struct {
	tkr_mono             tk_read_base
	tkr_raw              tk_read_base
	padding              u64
	xtime_sec            u64
	ktime_sec            uint64 `c:"unsigned long"`
	wall_to_monotonic    timespec64
	offs_real            ktime_t
	offs_boot            ktime_t
	offs_tai             ktime_t
	tai_offset           s32
	clock_was_set_seq    uint32 `c:"unsigned int"`
	cs_was_changed_seq   u8
	next_leap_ktime      ktime_t
	raw_sec              u64
	monotonic_to_boot    timespec64
	cycle_interval       u64
	xtime_interval       u64
	xtime_remainder      s64
	raw_interval         u64
	ntp_tick             u64
	ntp_error            s64
	ntp_error_shift      u32
	ntp_err_mult         u32
	skip_second_overflow u32
}

// tk_core_v6_1_guohui is tk_core as of v6.1 with Guo Hui's 2023 padding:
// xtime_sec moves from core offset 120 to 128, which at 64 bytes puts it
// on line 2 instead of line 1 (the maintainer's objection), while tk_core
// stays 320 bytes.
//
//mglayout:model tk_core@v6.1+guohui
//mglayout:align 64
//mglayout:path ktime_get cpus=all rate=hot seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get(), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: CLOCK_MONOTONIC, tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono) (clock, cycle_last, mask, mult, xtime_nsec, shift) inside read_seqcount_begin/retry(&tk_core.seq)
//mglayout:path ktime_get_real_ts64 cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_real_ts64(), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: CLOCK_REALTIME, xtime_sec and timekeeping_get_ns(&tk->tkr_mono) inside the tk_core.seq loop
//mglayout:path ktime_get_coarse_real_ts64 cpus=all rate=hot seqread=seq read=timekeeper.xtime_sec,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_coarse_real_ts64(), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: tk_xtime() = xtime_sec, tkr_mono.xtime_nsec >> tkr_mono.shift inside the tk_core.seq loop
//mglayout:path ktime_get_raw_ts64 cpus=all rate=hot seqread=seq read=timekeeper.raw_sec,timekeeper.tkr_raw.clock,timekeeper.tkr_raw.cycle_last,timekeeper.tkr_raw.mask,timekeeper.tkr_raw.mult,timekeeper.tkr_raw.xtime_nsec,timekeeper.tkr_raw.shift -- ktime_get_raw_ts64(), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: CLOCK_MONOTONIC_RAW, raw_sec and timekeeping_get_ns(&tk->tkr_raw) inside the tk_core.seq loop
//mglayout:path ktime_get_update_offsets_now cpus=all rate=250/s seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift,timekeeper.clock_was_set_seq,timekeeper.offs_real,timekeeper.offs_boot,timekeeper.offs_tai,timekeeper.next_leap_ktime -- ktime_get_update_offsets_now(), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono), clock_was_set_seq, offs_real/offs_boot/offs_tai (read only when clock_was_set_seq changed), next_leap_ktime inside the tk_core.seq loop; hrtimer_interrupt() -> hrtimer_update_base() runs it on every CPU at least once per tick (CONFIG_HZ=250 assumed, HZ is configurable 100-1000), more often with other hrtimers
//mglayout:path tick cpus=1 rate=250/s read=timekeeper.cycle_interval seqwrite=seq write=timekeeper -- update_wall_time() -> timekeeping_advance(TK_ADV_TICK), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: the tick writer, once per tick on the do_timer CPU, CONFIG_HZ=250 assumed (HZ is configurable 100-1000). Under timekeeper_lock it reads real_tk->cycle_interval, accumulates into shadow_timekeeper, then write_seqcount_begin(&tk_core.seq), timekeeping_update(shadow), memcpy(&tk_core.timekeeper, &shadow_timekeeper, sizeof), which rewrites the whole live timekeeper (the padding member is touched only by this memcpy), and write_seqcount_end. shadow_timekeeper and timekeeper_lock are separate static objects in v6.1 and not part of this model
type tk_core_v6_1_guohui struct {
	seq        seqcount_raw_spinlock_t
	timekeeper timekeeper_v6_1_guohui `c:"struct timekeeper"`
}

// tk_core_v6_1_rt is tk_core as of v6.1 on a PREEMPT_RT or LOCKDEP kernel,
// where seqcount_raw_spinlock_t carries a lock pointer (__SEQ_LOCK in
// include/linux/seqlock.h) and is 16 bytes: the timekeeper starts at 16 and
// tkr_mono (16-71) crosses into line 1.
//
//mglayout:model tk_core@v6.1+rt
//mglayout:align 64
//mglayout:path ktime_get cpus=all rate=hot seqread=seq.seqcount read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get(), kernel/time/timekeeping.c, v6.1 on PREEMPT_RT/LOCKDEP (the seqcount operations touch only seq.seqcount, not the lock pointer beside it): CLOCK_MONOTONIC, tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono) (clock, cycle_last, mask, mult, xtime_nsec, shift) inside read_seqcount_begin/retry(&tk_core.seq)
//mglayout:path ktime_get_real_ts64 cpus=all rate=hot seqread=seq.seqcount read=timekeeper.xtime_sec,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_real_ts64(), kernel/time/timekeeping.c, v6.1 on PREEMPT_RT/LOCKDEP (the seqcount operations touch only seq.seqcount, not the lock pointer beside it): CLOCK_REALTIME, xtime_sec and timekeeping_get_ns(&tk->tkr_mono) inside the tk_core.seq loop
//mglayout:path ktime_get_coarse_real_ts64 cpus=all rate=hot seqread=seq.seqcount read=timekeeper.xtime_sec,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift -- ktime_get_coarse_real_ts64(), kernel/time/timekeeping.c, v6.1 on PREEMPT_RT/LOCKDEP (the seqcount operations touch only seq.seqcount, not the lock pointer beside it): tk_xtime() = xtime_sec, tkr_mono.xtime_nsec >> tkr_mono.shift inside the tk_core.seq loop
//mglayout:path ktime_get_raw_ts64 cpus=all rate=hot seqread=seq.seqcount read=timekeeper.raw_sec,timekeeper.tkr_raw.clock,timekeeper.tkr_raw.cycle_last,timekeeper.tkr_raw.mask,timekeeper.tkr_raw.mult,timekeeper.tkr_raw.xtime_nsec,timekeeper.tkr_raw.shift -- ktime_get_raw_ts64(), kernel/time/timekeeping.c, v6.1 on PREEMPT_RT/LOCKDEP (the seqcount operations touch only seq.seqcount, not the lock pointer beside it): CLOCK_MONOTONIC_RAW, raw_sec and timekeeping_get_ns(&tk->tkr_raw) inside the tk_core.seq loop
//mglayout:path ktime_get_update_offsets_now cpus=all rate=250/s seqread=seq.seqcount read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.clock,timekeeper.tkr_mono.cycle_last,timekeeper.tkr_mono.mask,timekeeper.tkr_mono.mult,timekeeper.tkr_mono.xtime_nsec,timekeeper.tkr_mono.shift,timekeeper.clock_was_set_seq,timekeeper.offs_real,timekeeper.offs_boot,timekeeper.offs_tai,timekeeper.next_leap_ktime -- ktime_get_update_offsets_now(), kernel/time/timekeeping.c, v6.1 on PREEMPT_RT/LOCKDEP (the seqcount operations touch only seq.seqcount, not the lock pointer beside it): tkr_mono.base and timekeeping_get_ns(&tk->tkr_mono), clock_was_set_seq, offs_real/offs_boot/offs_tai (read only when clock_was_set_seq changed), next_leap_ktime inside the tk_core.seq loop; hrtimer_interrupt() -> hrtimer_update_base() runs it on every CPU at least once per tick (CONFIG_HZ=250 assumed, HZ is configurable 100-1000), more often with other hrtimers
//mglayout:path tick cpus=1 rate=250/s read=timekeeper.cycle_interval seqwrite=seq.seqcount write=timekeeper -- update_wall_time() -> timekeeping_advance(TK_ADV_TICK), kernel/time/timekeeping.c, v6.1 on PREEMPT_RT/LOCKDEP (the seqcount operations touch only seq.seqcount, not the lock pointer beside it): the tick writer, once per tick on the do_timer CPU, CONFIG_HZ=250 assumed (HZ is configurable 100-1000). Under timekeeper_lock it reads real_tk->cycle_interval, accumulates into shadow_timekeeper, then write_seqcount_begin(&tk_core.seq), timekeeping_update(shadow), memcpy(&tk_core.timekeeper, &shadow_timekeeper, sizeof), which rewrites the whole live timekeeper, and write_seqcount_end. shadow_timekeeper and timekeeper_lock are separate static objects in v6.1 and not part of this model
type tk_core_v6_1_rt struct {
	seq        seqcount_raw_spinlock_rt_t `c:"seqcount_raw_spinlock_t"`
	timekeeper timekeeper_v6_1            `c:"struct timekeeper"`
}
