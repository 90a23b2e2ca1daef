package kernel

// Fixed-size integer types of include/linux/types.h and ktime.h, as
// aliases so that members keep the kernel's spelling.
type (
	u8      = uint8
	u32     = uint32
	s32     = int32
	u64     = uint64
	s64     = int64
	ktime_t = s64
)

// clocksource is only ever pointed to from these structs.
type clocksource struct{}

// timespec64 is include/linux/time64.h's struct timespec64.
type timespec64 struct {
	tv_sec  s64
	tv_nsec int64 `c:"long"`
}

// seqcount_t is include/linux/seqlock_types.h's struct seqcount without
// LOCKDEP: only the sequence number.
type seqcount_t struct {
	sequence uint32 `c:"unsigned"`
}

// seqcount_raw_spinlock_t is a seqcount_t associated with a raw spinlock;
// without LOCKDEP or PREEMPT_RT the association (__SEQ_LOCK) takes no space.
type seqcount_raw_spinlock_t struct {
	seqcount seqcount_t
}

// seqcount_raw_spinlock_rt_t is seqcount_raw_spinlock_t under PREEMPT_RT or
// LOCKDEP, where __SEQ_LOCK stores a pointer to the lock: 16 bytes.
type seqcount_raw_spinlock_rt_t struct {
	seqcount seqcount_t
	lock     *raw_spinlock_t
}

// seqcount_latch_t wraps a seqcount_t for the latch of the fast timekeepers.
type seqcount_latch_t struct {
	seqcount seqcount_t
}

// arch_spinlock_t is the x86_64 and arm64 queued spinlock: 4 bytes.
type arch_spinlock_t struct {
	val u32
}

// raw_spinlock_t without DEBUG_SPINLOCK or LOCKDEP.
type raw_spinlock_t struct {
	raw_lock arch_spinlock_t
}

// atomic64_t is include/linux/types.h's atomic64_t.
type atomic64_t struct {
	counter s64
}

// tk_read_base is include/linux/timekeeper_internal.h's struct
// tk_read_base, 56 bytes and unchanged from v5.10 to v7.1-rc1. Its header
// comment: "This struct has size 56 byte on 64 bit. Together with a
// seqcount it occupies a single 64byte cache line."
type tk_read_base struct {
	clock      *clocksource
	mask       u64
	cycle_last u64
	mult       u32
	shift      u32
	xtime_nsec u64
	base       ktime_t
	base_real  u64
}
