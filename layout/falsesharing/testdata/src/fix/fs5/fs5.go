// Package fs5 holds computed padding that comes to a whole line, for the
// FS5 fix: take the pad modulo the line. Checked with
// -falsesharing.arch=amd64.
package fs5

import "unsafe"

// entry is exactly one 64-byte line.
type entry struct {
	key, val [4]uint64
}

type paddedEntry struct {
	entry
	// pad rounds entry up to a line.
	pad [64 - unsafe.Sizeof(entry{})%64]byte // a whole line here // want `comes to a whole 64-byte line.*\(FS5, declared\)`
}
