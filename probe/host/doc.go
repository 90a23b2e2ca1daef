// Package host detects what the machine in front of us says about cache
// lines: the coherency line size of each cache level, the CPUs the process
// may run on, and how those CPUs map to cores and packages.
//
// A line size is never taken on one authority. Each value carries the
// Source it came from, because the sources disagree in practice:
//
//   - "sysfs": /sys/devices/system/cpu/cpu*/cache/index*, per level and
//     type, as the kernel got it from CPUID leaf 4 on x86 and from the
//     device tree or the ACPI PPTT on arm64. This is the only source that
//     can tell a Kunpeng 920's 64-byte L1/L2 lines from its 128-byte L3
//     lines, so it wins wherever it is present.
//   - "cpuid": github.com/klauspost/cpuid/v2, one line size for the whole
//     CPU. On linux/arm64 the library hard-codes 64 rather than reading the
//     CPU, and in virtual machines its core counts follow what the
//     hypervisor's CPUID leaves claim, which need not be the vCPUs the
//     guest has.
//   - "x/sys/cpu": unsafe.Sizeof(cpu.CacheLinePad{}), the constant the Go
//     toolchain pads with for this GOARCH (128 on arm64, 256 on s390x). It
//     describes the build, not the machine.
//
// Detection never fails because a file is missing: containers, other
// kernels and other operating systems lack parts of sysfs. What could not
// be read, and what was used instead, is said in Info.Notes.
//
// # JSON
//
// Info marshals to the schema that "mglayout cpu -json" prints and that
// reports embed. Keys are stable; new keys may be added.
//
//	{
//	  "goos": "linux", "goarch": "arm64",
//	  "caches": [                          // one entry per distinct (level, type, line, size)
//	    {"level": 1, "type": "Data", "line": {"bytes": 64, "source": "sysfs"},
//	     "size_bytes": 65536, "cpus": [0, 1, 2, 3], "instances": 4},
//	    {"level": 3, "type": "Unified", "line": {"bytes": 128, "source": "sysfs"},
//	     "size_bytes": 33554432, "cpus": [0, 1, 2, 3], "instances": 1}
//	  ],
//	  "cpuid": {"brand": "", "vendor": "", "line": {"bytes": 64, "source": "cpuid"},
//	            "logical_cores": 4, "physical_cores": 4, "threads_per_core": 1,
//	            "l1d_bytes": 65536, "l1i_bytes": 65536, "l2_bytes": 524288, "l3_bytes": 0},
//	  "cache_line_pad": {"bytes": 128, "source": "x/sys/cpu"},
//	  "affinity": [0, 1, 2, 3],            // null when unknown
//	  "topology": {"source": "sysfs", "online": [0, 1, 2, 3],
//	               "packages": 1, "dies": 0, "cores": 4, "threads": 4,
//	               "cpus": [{"id": 0, "package": 0, "die": -1, "core": 0}, ...]},
//	  "notes": [],
//	  "line_sizes": [64, 128],             // Info.LineSizes
//	  "analysis_lines": [64, 128]          // DefaultLines
//	}
//
// Sizes and counts are 0 and lists null when unknown. "cpus" and
// "instances" of a cache say which CPUs caches of that kind serve and how
// many separate caches they are (four private L1s, or one shared L3);
// CPUID does not say. "die" is -1 and "dies" 0 where the kernel does not
// report die_id. "line_sizes" and "analysis_lines" are derived from the
// rest and ignored when decoding.
package host
