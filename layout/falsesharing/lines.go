package falsesharing

import "github.com/mglayout/mglayout/layout/gosrc"

// lineSize is the coherence granule the Go ecosystem pads for on a GOARCH
// (x/sys/cpu.CacheLinePad's size), which the analyzer checks at.
func lineSize(arch string) int64 {
	n, _ := gosrc.LinePadSize(arch)
	return n
}

// knownArch reports whether the analyzer knows a GOARCH's line size.
func knownArch(arch string) bool {
	_, ok := gosrc.LinePadSize(arch)
	return ok
}
