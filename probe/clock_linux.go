package probe

import (
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// clockRows are the rows in the order they are shown: Go's own read, the
// C loops (or why they are missing), then x/sys/unix's system call.
func clockRows() []*ClockRow {
	rows := []*ClockRow{goTimeNowRow()}
	rows = append(rows, cClockRows()...)
	for _, c := range []struct {
		name   string
		id     int32
		coarse bool
	}{{"CLOCK_REALTIME", unix.CLOCK_REALTIME, false}, {"CLOCK_REALTIME_COARSE", unix.CLOCK_REALTIME_COARSE, true}} {
		id := c.id
		rows = append(rows, &ClockRow{
			Name: "unix.ClockGettime(" + c.name + ")", Call: "unix.ClockGettime", Clock: c.name, Coarse: c.coarse, Via: viaSyscall,
			// x/sys/unix v0.50.0 zsyscall_linux.go: ClockGettime is
			// Syscall(SYS_CLOCK_GETTIME, ...), never the vDSO.
			How: "golang.org/x/sys/unix makes the clock_gettime system call through syscall.Syscall, which adds the Go runtime's entersyscall/exitsyscall to the kernel's entry and exit; it never uses the vDSO",
			read: func(n int) (time.Duration, error) {
				var ts unix.Timespec
				var sink int64
				t0 := time.Now()
				for range n {
					if err := unix.ClockGettime(id, &ts); err != nil {
						return 0, err
					}
					sink += ts.Nsec
				}
				d := time.Since(t0)
				clockSink += sink
				return d, nil
			},
		})
	}
	return rows
}

// clockInfo returns the current clocksource and the coarse clock's
// resolution, each zero when unknown.
func clockInfo() (string, time.Duration) {
	var source string
	if b, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource"); err == nil {
		source = strings.TrimSpace(string(b))
	}
	var res time.Duration
	var ts unix.Timespec
	if err := unix.ClockGetres(unix.CLOCK_REALTIME_COARSE, &ts); err == nil {
		res = time.Duration(ts.Nano())
	}
	return source, res
}
