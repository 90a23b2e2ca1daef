package kernel

// The tick's other objects before v6.13, which kernel/time/timekeeping.c
// declares beside tk_core (kernel_truth.md §2):
//
//	DEFINE_RAW_SPINLOCK(timekeeper_lock);
//	static struct { ... } tk_core ____cacheline_aligned = { ... };
//	static struct timekeeper shadow_timekeeper;
//
// The tick accumulates into the shadow under the lock, then copies it into
// tk_core.timekeeper inside the seqcount write section; readers touch
// neither. The scenario tk@v6.1 holds the three.

// shadow_timekeeper is the tick's copy of struct timekeeper as of v6.1,
// which it updates before it publishes it: a separate object with the
// type's own alignment (8).
//
//mglayout:model shadow_timekeeper@v6.1
//mglayout:path tick cpus=1 rate=250/s read=tkr_mono.clock,tkr_mono.mask,tkr_mono.cycle_last write=tkr_mono.cycle_last,tkr_raw.cycle_last,tkr_mono.xtime_nsec,tkr_raw.xtime_nsec,raw_sec,ntp_error,xtime_sec,skip_second_overflow,ntp_tick,ntp_err_mult,tkr_mono.mult,xtime_interval,next_leap_ktime,tkr_mono.base,ktime_sec,tkr_raw.base,tkr_mono.base_real read=tkr_mono,tkr_raw,xtime_sec,ktime_sec,wall_to_monotonic,offs_real,offs_boot,offs_tai,tai_offset,clock_was_set_seq,cs_was_changed_seq,next_leap_ktime,raw_sec,monotonic_to_boot,cycle_interval,xtime_interval,xtime_remainder,raw_interval,ntp_tick,ntp_error,ntp_error_shift,ntp_err_mult,skip_second_overflow -- timekeeping_advance(TK_ADV_TICK), kernel/time/timekeeping.c, v6.1: under timekeeper_lock it reads the shadow's tkr_mono.{clock,cycle_last,mask}; logarithmic_accumulation(), timekeeping_adjust() and accumulate_nsecs_to_secs() write cycle_last, xtime_nsec, raw_sec, ntp_error, xtime_sec, skip_second_overflow, ntp_tick, ntp_err_mult, tkr_mono.mult and xtime_interval; timekeeping_update() writes next_leap_ktime, tkr_mono.base, ktime_sec, tkr_raw.base and tkr_mono.base_real; the memcpy into tk_core reads the whole shadow. Leap-second and clock-was-set writes are left out, as in tk_data@v6.13
var shadow_timekeeper timekeeper_v6_1

// shadow_timekeeper_guohui is shadow_timekeeper with Guo Hui's padding,
// which changes struct timekeeper and so the shadow too.
//
//mglayout:model shadow_timekeeper@v6.1+guohui
//mglayout:path tick cpus=1 rate=250/s read=tkr_mono.clock,tkr_mono.mask,tkr_mono.cycle_last write=tkr_mono.cycle_last,tkr_raw.cycle_last,tkr_mono.xtime_nsec,tkr_raw.xtime_nsec,raw_sec,ntp_error,xtime_sec,skip_second_overflow,ntp_tick,ntp_err_mult,tkr_mono.mult,xtime_interval,next_leap_ktime,tkr_mono.base,ktime_sec,tkr_raw.base,tkr_mono.base_real read=tkr_mono,tkr_raw,padding,xtime_sec,ktime_sec,wall_to_monotonic,offs_real,offs_boot,offs_tai,tai_offset,clock_was_set_seq,cs_was_changed_seq,next_leap_ktime,raw_sec,monotonic_to_boot,cycle_interval,xtime_interval,xtime_remainder,raw_interval,ntp_tick,ntp_error,ntp_error_shift,ntp_err_mult,skip_second_overflow -- update_wall_time() -> timekeeping_advance(TK_ADV_TICK), kernel/time/timekeeping.c, v6.1 with Guo Hui's padding: as shadow_timekeeper@v6.1, and the memcpy into tk_core reads the u64 padding before xtime_sec too
var shadow_timekeeper_guohui timekeeper_v6_1_guohui

// timekeeper_lock is the raw spinlock the tick takes before v6.13
// (DEFINE_RAW_SPINLOCK), 4 bytes with no alignment of its own beyond
// the word's.
//
//mglayout:model timekeeper_lock@v6.1
//mglayout:path tick cpus=1 rate=250/s cas=raw_lock.val write=raw_lock.val -- timekeeping_advance(), kernel/time/timekeeping.c, v6.1: raw_spin_lock_irqsave(&timekeeper_lock) and raw_spin_unlock_irqrestore() around the whole update, once per tick
var timekeeper_lock raw_spinlock_t
