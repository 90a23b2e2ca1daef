package host

import "slices"

// LineSizes returns the distinct coherency line sizes the host reports for
// its caches, in increasing order: from sysfs where it has them, otherwise
// CPUID's single value. It returns nil when neither knows.
func (info *Info) LineSizes() []int64 {
	var sizes []int64
	for _, c := range info.Caches {
		if c.Line.Bytes > 0 {
			sizes = append(sizes, c.Line.Bytes)
		}
	}
	if len(sizes) == 0 && info.CPUID.Line.Bytes > 0 {
		sizes = append(sizes, info.CPUID.Line.Bytes)
	}
	slices.Sort(sizes)
	return slices.Compact(sizes)
}

// DefaultLines returns the line sizes an analysis looks at when not told
// otherwise: 64 and 128, which every layout must survive whatever the host,
// and the host's own, in increasing order. info may be nil when detection
// failed.
func DefaultLines(info *Info) []int64 {
	lines := []int64{64, 128}
	if info != nil {
		lines = append(lines, info.LineSizes()...)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// NativeLine returns the host's own line size, the first of LineSizes;
// 64 when no source reports one.
func (info *Info) NativeLine() int64 {
	if ls := info.LineSizes(); len(ls) > 0 {
		return ls[0]
	}
	return 64
}

// NativeLine detects this host and returns its line size, 64 when
// detection fails.
func NativeLine() int64 {
	info, err := Detect()
	if err != nil {
		return 64
	}
	return info.NativeLine()
}
