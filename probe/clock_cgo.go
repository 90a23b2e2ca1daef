//go:build linux && cgo

package probe

/*
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static volatile int64_t mg_clock_sink;

static int64_t mg_monotonic_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

// mg_clock_loop reads the clock n times, through libc's clock_gettime
// (the vDSO) or, with raw set, the system call, and returns the
// nanoseconds the loop took, or -errno when a read fails.
static int64_t mg_clock_loop(int clock, int64_t n, int raw) {
	struct timespec ts;
	int64_t sink = 0;
	int64_t t0 = mg_monotonic_ns();
	for (int64_t i = 0; i < n; i++) {
		int rc = raw ? syscall(SYS_clock_gettime, clock, &ts) : clock_gettime(clock, &ts);
		if (rc != 0) {
			return -(int64_t)errno;
		}
		sink += ts.tv_nsec;
	}
	int64_t t1 = mg_monotonic_ns();
	mg_clock_sink += sink;
	return t1 - t0;
}
*/
import "C"

import (
	"fmt"
	"syscall"
	"time"
)

// withCgo says whether the C rows can be measured.
const withCgo = true

// cClockRows are the C loops.
func cClockRows() []*ClockRow {
	rows := cClockTemplate()
	for _, r := range rows {
		clock := C.int(C.CLOCK_REALTIME)
		if r.Coarse {
			clock = C.CLOCK_REALTIME_COARSE
		}
		raw := C.int(0)
		if r.Via == viaSyscall {
			raw = 1
		}
		r.read = func(n int) (time.Duration, error) {
			ns := int64(C.mg_clock_loop(clock, C.int64_t(n), raw))
			if ns < 0 {
				return 0, fmt.Errorf("clock_gettime(%s): %v", r.Clock, syscall.Errno(-ns))
			}
			return time.Duration(ns), nil
		}
	}
	return rows
}
