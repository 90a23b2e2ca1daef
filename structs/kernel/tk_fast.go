package kernel

// tk_fast is the NMI-safe fast timekeeper of kernel/time/timekeeping.c
// (v5.10 through v7.1): a latch sequence count and two copies of the read
// base, updated with write_seqcount_latch_begin, memcpy(base[0]),
// write_seqcount_latch, memcpy(base[1]). 120 bytes: base[0]@8, base[1]@64.
type tk_fast struct {
	seq  seqcount_latch_t
	base [2]tk_read_base
}

// tk_fast_mono is `static struct tk_fast tk_fast_mono
// ____cacheline_aligned` (tk_fast_raw is its twin). The alignment is on the
// variable, so the object is 120 bytes starting on a 64-byte line: two
// lines at 64 bytes, and the last 8 bytes of line 1 may hold a neighbour.
//
//mglayout:model tk_fast@v6.1
//mglayout:align 64
//mglayout:path ktime_get_mono_fast_ns cpus=all rate=hot seqread=seq read=base[0] -- ktime_get_mono_fast_ns() -> __ktime_get_fast_ns(&tk_fast_mono), kernel/time/timekeeping.c, v6.1 (unchanged through v7.1): raw_read_seqcount_latch(&tkf->seq), then base, clock, cycle_last, mask, mult, shift, xtime_nsec of base[seq & 1]. Modelled as the common case base[0], which readers use whenever no update is in flight (seq even); base[1] is read only in the short window between the two latch increments of the tick, while base[0] is being rewritten. ktime_get_raw_fast_ns() on tk_fast_raw is the same
//mglayout:path tick cpus=1 rate=250/s seqwrite=seq write=base[0],base[1] -- update_fast_timekeeper(&tk->tkr_mono, &tk_fast_mono), kernel/time/timekeeping.c, v6.1 (unchanged through v7.1): called by timekeeping_update() (timekeeping_update_from_shadow() from v6.13) inside the tick writer: raw_write_seqcount_latch, memcpy(base[0]), raw_write_seqcount_latch, memcpy(base[1]); once per tick on the do_timer CPU, CONFIG_HZ=250 assumed (HZ is configurable 100-1000)
var tk_fast_mono tk_fast
