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
var tk_fast_mono tk_fast
