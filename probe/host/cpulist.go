package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseCPUList parses a CPU list in the kernel's format, such as "0-3,8",
// as found in sysfs and taskset(1), into CPU numbers in increasing order
// without duplicates. An empty list is valid.
func ParseCPUList(s string) ([]int, error) {
	var cpus []int
	for part := range strings.SplitSeq(strings.TrimSpace(s), ",") {
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 0 {
			return nil, fmt.Errorf("CPU list %q: %q is not a CPU number", s, lo)
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(hi); err != nil || last < first {
				return nil, fmt.Errorf("CPU list %q: %q is not a range of CPUs", s, part)
			}
		}
		for cpu := first; cpu <= last; cpu++ {
			cpus = append(cpus, cpu)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

// FormatCPUList formats CPU numbers in increasing order the way
// ParseCPUList reads them, with runs as ranges: "0-3,8".
func FormatCPUList(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			fmt.Fprintf(&b, "-%d", cpus[j])
		}
		i = j + 1
	}
	return b.String()
}
