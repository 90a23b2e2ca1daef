package falsesharing

import "github.com/mglayout/mglayout/layout/gosrc"

// lineSize is the coherence granule the Go ecosystem pads for on a GOARCH
// (x/sys/cpu.CacheLinePad's size), which the analyzer checks at.
func lineSize(arch string) int64 {
	n, _ := gosrc.LinePadSize(arch)
	return n
}

// linesFor returns the line sizes checked on a GOARCH: those of
// -falsesharing.lines where it is set (a team that ships only 64-byte
// hosts checks 64 alone, whatever the GOARCH pads for), else the
// GOARCH's own.
func (c config) linesFor(arch string) []int64 {
	if len(c.lines) > 0 {
		return c.lines
	}
	return []int64{lineSize(arch)}
}

// knownArch reports whether the analyzer knows a GOARCH's line size.
func knownArch(arch string) bool {
	_, ok := gosrc.LinePadSize(arch)
	return ok
}
