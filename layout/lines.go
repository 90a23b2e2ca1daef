package layout

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Line sizes that make sense for a coherence granule. 32 is the line of
// older arm and mips cores, 256 that of s390x.
const (
	MinLineSize = 16
	MaxLineSize = 4096
)

// ParseLineSizes parses a comma-separated list of line sizes in bytes, such
// as "64,128", into a sorted set without duplicates. Each must be a power of
// two between MinLineSize and MaxLineSize.
func ParseLineSizes(s string) ([]int64, error) {
	var sizes []int64
	for _, word := range strings.Split(s, ",") {
		word = strings.TrimSpace(word)
		n, err := strconv.ParseInt(word, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line size %q is not a number of bytes (use e.g. 64,128)", word)
		}
		if err := CheckLineSize(n); err != nil {
			return nil, err
		}
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	return slices.Compact(sizes), nil
}

// CheckLineSize reports whether n can be a cache line size.
func CheckLineSize(n int64) error {
	if n < MinLineSize || n > MaxLineSize || n&(n-1) != 0 {
		return fmt.Errorf("line size %d is not a power of two between %d and %d (use e.g. 64,128)", n, MinLineSize, MaxLineSize)
	}
	return nil
}

// Span is the range of lines, both ends included, that a byte range
// occupies.
type Span struct{ First, Last int64 }

// Straddles reports whether the range crosses a line boundary.
func (s Span) Straddles() bool { return s.First != s.Last }

func (s Span) String() string {
	if s.Straddles() {
		return fmt.Sprintf("%d-%d", s.First, s.Last)
	}
	return strconv.FormatInt(s.First, 10)
}

// SpanOf returns the lines of size line that the bytes [off, off+size) of an
// object occupy when the object starts phase bytes past a line boundary.
// A zero-size range occupies the line its offset falls in.
func SpanOf(off, size, line, phase int64) Span {
	first := (phase + off) / line
	last := first
	if size > 0 {
		last = (phase + off + size - 1) / line
	}
	return Span{first, last}
}

// Lines returns the lines the field occupies; see SpanOf.
func (f *Field) Lines(line, phase int64) Span { return SpanOf(f.Offset, f.Size, line, phase) }

// LineCount is pahole's "cachelines" figure: the size rounded up to whole
// lines, which is the number of lines the object spans when it starts on a
// line boundary.
func (s *Struct) LineCount(line int64) int64 { return (s.Size + line - 1) / line }

// LinesAt returns how many lines the object spans when it starts phase bytes
// past a line boundary.
func (s *Struct) LinesAt(line, phase int64) int64 {
	if s.Size == 0 {
		return 0
	}
	sp := SpanOf(0, s.Size, line, phase)
	return sp.Last - sp.First + 1
}

// Phases returns the offsets modulo line at which the object can start,
// given its guaranteed alignment: only 0 when it is aligned to at least a
// line, otherwise every multiple of the alignment below the line size. A
// 64-byte-aligned kernel object on a 128-byte line may start at 0 or 64.
// A placed object starts where its address says.
func (s *Struct) Phases(line int64) []int64 {
	if s.Placed {
		return []int64{int64(s.Address % uint64(line))}
	}
	step := min(max(s.Align, 1), line)
	var phases []int64
	for p := int64(0); p < line; p += step {
		phases = append(phases, p)
	}
	return phases
}

// BlockOffset returns, for lines below 128 bytes, where the line holding
// the object's first byte sits in its aligned 128-byte block, the pair of
// lines that Intel's spatial prefetcher fetches together: 0 for the
// block's first line, line for the second. A placed object's address
// decides it; for any other object it is 0, the line taken as the first
// of a pair (the other pairing is the 128-byte case at phase+64).
func (s *Struct) BlockOffset(line int64) int64 {
	if !s.Placed || line >= 128 {
		return 0
	}
	return int64(s.Address%128) / line * line
}

// Boundaries returns the offsets inside the object, after 0 and before its
// end, at which a line of the given size begins when the object starts at
// phase.
func (s *Struct) Boundaries(line, phase int64) []int64 {
	var offs []int64
	for b := (line - phase%line) % line; b < s.Size; b += line {
		if b > 0 {
			offs = append(offs, b)
		}
	}
	return offs
}
