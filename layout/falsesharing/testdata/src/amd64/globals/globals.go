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

var lookups uint32

// readErrLogged is raised once, on the first error: no steady writer
// meets lookups on its line.
var readErrLogged uint32

// Lookup counts a lookup on every call.
func Lookup(read func() error) error {
	atomic.AddUint32(&lookups, 1)
	if err := read(); err != nil {
		if atomic.CompareAndSwapUint32(&readErrLogged, 0, 1) {
			println("read:", err.Error())
		}
		return err
	}
	return nil
}

// Refresh rereads; it logs the first error too.
func Refresh(read func() error) {
	if err := read(); err != nil && atomic.CompareAndSwapUint32(&readErrLogged, 0, 1) {
		println("refresh:", err.Error())
	}
}
