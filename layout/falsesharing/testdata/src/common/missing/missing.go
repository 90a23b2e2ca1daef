// Package missing declares a path that names a member the struct does
// not have. The analyzer reports it once, at the type, however many
// GOARCHes it checks: checked with -falsesharing.arch=amd64 and with
// amd64,arm64, where it must not say the same thing twice.
package missing

// Queue's consumer path misspells head.
//
//mglayout:path producer cpus=1 write=tail
//mglayout:path consumer cpus=1 write=haed
type Queue struct { // want `no member "haed" in Queue`
	head uint64
	tail uint64
}
