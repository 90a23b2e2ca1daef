//go:build !linux

package probe

import (
	"runtime"
	"time"
)

// clockRows: the coarse clock, the vDSO and the system call compared here
// are Linux's; elsewhere only Go's own read is measured.
func clockRows() []*ClockRow {
	now := goTimeNowRow()
	now.Via = "runtime"
	now.How = "Go's runtime reads the wall clock and the monotonic clock"
	unixRows := []*ClockRow{
		{Name: "unix.ClockGettime(CLOCK_REALTIME)", Call: "unix.ClockGettime", Clock: "CLOCK_REALTIME", Via: viaSyscall},
		{Name: "unix.ClockGettime(CLOCK_REALTIME_COARSE)", Call: "unix.ClockGettime", Clock: "CLOCK_REALTIME_COARSE", Coarse: true, Via: viaSyscall},
	}
	why := "CLOCK_REALTIME_COARSE, the vDSO and the system call compared here are Linux's; this is " + runtime.GOOS
	return append([]*ClockRow{now}, missingClockRows(append(cClockTemplate(), unixRows...), why)...)
}

// withCgo says whether the C rows can be measured: not here.
const withCgo = false

func clockInfo() (string, time.Duration) { return "", 0 }
