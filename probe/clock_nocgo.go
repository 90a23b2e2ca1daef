//go:build linux && !cgo

package probe

// withCgo says whether the C rows can be measured.
const withCgo = false

// cClockRows: without cgo there is no C loop. Go reaches the vDSO only
// inside its runtime, for time.Now (CLOCK_REALTIME and CLOCK_MONOTONIC);
// its coarse clock is reachable from Go only through libc, and the rows
// of the raw system call from C go with it.
func cClockRows() []*ClockRow {
	rows := cClockTemplate()
	for _, r := range rows {
		if r.Via == viaVDSO {
			r.Missing = "built without cgo (CGO_ENABLED=0 or no C compiler): Go calls the vDSO only inside its runtime, for time.Now's fine clocks; the vDSO's coarse clock is reachable from Go only through libc"
		} else {
			r.Missing = "built without cgo: no C loop (the unix.ClockGettime rows make the same system call from Go)"
		}
	}
	return rows
}
