// Package globals holds package-level counters that the linker lays
// side by side: variables of one size and section, in the order
// declared.
package globals

import (
	"sync/atomic"
	"time"
)

var requests atomic.Uint64 // want `requests shares a line with failures \(64 B lines on amd64\), and Serve updates requests while Fail updates failures: false sharing; put them on separate lines \(FS2, proven\)`

// timeout is initialised with a constant: it lives in another section.
var timeout = 30 * time.Second

var failures atomic.Uint64 // want `failures shares a line with requests \(64 B lines on amd64\), and Fail updates failures while Serve updates requests: false sharing; put them on separate lines \(FS2, proven\)`

// started is set once, at initialisation: read-only afterwards, and in
// no run the analyzer can tell (the compiler decides its section).
var started = time.Now()

// Serve counts a request on every call.
func Serve(d time.Duration) bool {
	requests.Add(1)
	return d < timeout
}

// Fail counts a failure; failing requests are served too, elsewhere.
func Fail() { failures.Add(1) }

// Uptime reads the start time.
func Uptime() time.Duration { return time.Since(started) }
