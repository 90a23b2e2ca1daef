// Package padding holds the padding of amd64/padding, checked with
// -falsesharing.arch=amd64,arm64: FS3 shows at more phases on arm64's
// 128-byte lines, and FS5 does not depend on the GOARCH.
package padding

import (
	"sync/atomic"
	"unsafe"
)

// Stats pads reads and writes apart as if a Stats always started on a
// line: writes lands at offset 64, on the next line, but reads is at 32,
// so writes is only 32 bytes after it. The 72-byte object is in the
// 80-byte size class and starts at every multiple of 16 in a 128-byte
// line; only at 64 and 80 are the counters on separate lines.
type Stats struct {
	name   string
	id     uint64
	flags  uint64
	reads  atomic.Int64
	_      [24]byte     // to the end of the line
	writes atomic.Int64 // want `the padding between reads and writes separates them only at some of the offsets where a Stats can start \(0, 16, 32, 48, 64, 80, 96 or 112 bytes into a 128 B line, by the Go allocator and linker\): they share 64 B lines on amd64 when the Stats starts 32 or 48 bytes into one; 128 B lines on arm64 when the Stats starts 0, 16, 32, 48, 96 or 112 bytes into one; pad so that they are a whole line apart \(FS3, declared\)`
}

func NewStats(name string, id uint64) *Stats { return &Stats{name: name, id: id} }

func (s *Stats) Read()  { s.reads.Add(1) }
func (s *Stats) Write() { s.writes.Add(1) }

// entry is exactly one 64-byte line.
type entry struct {
	key, val [4]uint64
}

// paddedEntry pads entry to a multiple of 64 bytes with the usual
// formula, which adds a whole line because entry already is one.
type paddedEntry struct {
	entry
	pad [64 - unsafe.Sizeof(entry{})%64]byte // want `padding \[64 - unsafe.Sizeof\(entry\{\}\)%64\]byte comes to a whole 64-byte line, because what it pads is already a multiple of 64: it separates nothing \(FS5, declared\)`
}

// block is 128 bytes: a sync.Pool-style [128 - size%128] pad is a whole
// line too.
type block struct {
	words [16]uint64
}

type paddedBlock struct {
	block
	_pad [128 - unsafe.Sizeof(block{})%128]byte // want `padding \[128 - unsafe.Sizeof\(block\{\}\)%128\]byte comes to a whole 128-byte line.*\(FS5, declared\)`
}

// exactEntry uses (L - size%L) % L, which adds nothing to entry: clean.
type exactEntry struct {
	entry
	pad [(64 - unsafe.Sizeof(entry{})%64) % 64]byte
}

// header is 40 bytes, so [64 - 40%64] pads it by 24 to one line: clean.
type header struct {
	a, b, c, d, e uint64
}

type paddedHeader struct {
	header
	pad [64 - unsafe.Sizeof(header{})%64]byte
}
