package host

import (
	"runtime"
	"slices"

	"github.com/klauspost/cpuid/v2"
)

// readCPUID reports what the library detected at init. Its line size is
// hard-coded to 64 on linux/arm64 and its core counts are miscounted in
// many VMs, so sysfs wins where present; the values are kept, with their
// source, so that the disagreement shows.
func readCPUID() CPUID {
	c := &cpuid.CPU
	// The library reports -1 for an undetected cache; the schema says 0.
	known := func(n int) int64 { return int64(max(n, 0)) }
	return CPUID{
		Brand:          c.BrandName,
		Vendor:         c.VendorString,
		Line:           LineSize{int64(c.CacheLine), SourceCPUID},
		LogicalCores:   c.LogicalCores,
		PhysicalCores:  c.PhysicalCores,
		ThreadsPerCore: c.ThreadsPerCore,
		L1D:            known(c.Cache.L1D),
		L1I:            known(c.Cache.L1I),
		L2:             known(c.Cache.L2),
		L3:             known(c.Cache.L3),
	}
}

// caches returns the cache levels CPUID knows the size of, for hosts
// without sysfs. CPUID gives one line size for all of them, which is right
// on x86 and a guess elsewhere.
func (c CPUID) caches() []Cache {
	var caches []Cache
	for _, l := range []struct {
		level int
		typ   string
		size  int64
	}{
		{1, "Data", c.L1D},
		{1, "Instruction", c.L1I},
		{2, "Unified", c.L2},
		{3, "Unified", c.L3},
	} {
		if l.size > 0 {
			caches = append(caches, Cache{Level: l.level, Type: l.typ, Line: c.Line, Size: l.size})
		}
	}
	return caches
}

// topology returns CPUID's core counts for hosts without sysfs topology,
// keeping what sysfs said about online CPUs.
func (c CPUID) topology(online []int) Topology {
	if c.LogicalCores == 0 {
		return Topology{Online: online}
	}
	return Topology{
		Source:  SourceCPUID,
		Online:  online,
		Cores:   c.PhysicalCores,
		Threads: c.LogicalCores,
	}
}

// checkCPUID notes where CPUID disagrees with sysfs or is known not to
// have looked. sysfs is used in both cases; the note says why the numbers
// differ.
func (info *Info) checkCPUID() {
	c := info.CPUID
	if c.Line.Bytes == 64 && runtime.GOARCH == "arm64" && runtime.GOOS != "darwin" {
		info.note("cpuid: the line size 64 is what github.com/klauspost/cpuid assumes on %s/arm64, not read from the CPU", runtime.GOOS)
	}
	var sysfsLines []int64
	for _, cache := range info.Caches {
		if cache.Line.Source == SourceSysfs && cache.Line.Bytes > 0 {
			sysfsLines = append(sysfsLines, cache.Line.Bytes)
		}
	}
	if len(sysfsLines) > 0 && c.Line.Bytes > 0 && !slices.Contains(sysfsLines, c.Line.Bytes) {
		info.note("cpuid: line size %d is not one that sysfs reports", c.Line.Bytes)
	}
	t := info.Topology
	if t.Source == SourceSysfs && c.LogicalCores > 0 && c.LogicalCores != t.Threads {
		// In a virtual machine CPUID may describe the host's package.
		info.note("cpuid: counts %d logical cores where sysfs has %d CPUs", c.LogicalCores, t.Threads)
	}
}
