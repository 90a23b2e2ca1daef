// Package kernel holds Go mirrors of the Linux timekeeping structs that
// mglayout knows as built-in models.
//
// Each struct keeps the kernel's own member names and order, so output can
// be checked against pahole and the kernel source. The mirrors are
// compiled with the rest of mglayout (so they are valid Go) and embedded as
// source in the binary, where package structs reads them with go/types.
// Directives say what Go cannot: //mglayout:align 64 is the kernel's
// ____cacheline_aligned (SMP_CACHE_BYTES is 64 on x86_64 and arm64),
// //mglayout:union a C union, //mglayout:model the model's name; a `c:"..."`
// tag gives a member's C type where the Go spelling differs.
//
// The configuration modelled is that of a production x86_64 or arm64
// kernel: no LOCKDEP, PREEMPT_RT or DEBUG_SPINLOCK (so seqcount_raw_spinlock_t
// and raw_spinlock_t are 4 bytes each) unless a model says otherwise.
package kernel
