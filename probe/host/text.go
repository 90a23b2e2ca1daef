package host

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteText writes info for a human, as mglayout cpu prints it: the caches as a table, then one
// line per other source, then the line sizes the analysis will use.
func WriteText(w io.Writer, info *Info) error {
	brand := info.CPUID.Brand
	if brand == "" {
		brand = "unknown CPU"
	}
	fmt.Fprintf(w, "%s (%s/%s)\n\n", brand, info.GOOS, info.GOARCH)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LEVEL\tTYPE\tLINE\tSIZE\tSOURCE\tCPUS\tCACHES")
	for _, c := range info.Caches {
		fmt.Fprintf(tw, "L%d\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Level, c.Type,
			cpuBytes(c.Line.Bytes), cpuSize(c.Size), c.Line.Source, cpuList(c.CPUs), cpuInstances(c))
	}
	if len(info.Caches) == 0 {
		fmt.Fprintln(tw, "?\t?\t?\t?\t-\t?\t?")
	}
	fmt.Fprintln(tw)

	id := info.CPUID
	fmt.Fprintf(tw, "CPUID line size:\t%s (%s; %d logical, %d physical cores)\n",
		cpuBytes(id.Line.Bytes), id.Line.Source, id.LogicalCores, id.PhysicalCores)
	fmt.Fprintf(tw, "x/sys/cpu.CacheLinePad:\t%s (%s, %s)\n",
		cpuBytes(info.CacheLinePad.Bytes), info.CacheLinePad.Source, info.GOARCH)
	affinity := "?"
	if info.Affinity != nil {
		affinity = fmt.Sprintf("%s (%s)", FormatCPUList(info.Affinity), cpuCount(len(info.Affinity), "CPU"))
	}
	fmt.Fprintf(tw, "affinity mask:\t%s\n", affinity)
	fmt.Fprintf(tw, "online:\t%s\n", cpuList(info.Topology.Online))
	fmt.Fprintf(tw, "topology:\t%s\n", cpuTopology(info.Topology))
	if err := tw.Flush(); err != nil {
		return err
	}

	var lines []string
	for _, n := range DefaultLines(info) {
		lines = append(lines, strconv.FormatInt(n, 10))
	}
	fmt.Fprintf(w, "\nline sizes for analysis: %s\n", strings.Join(lines, ", "))
	for _, n := range info.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// cpuTopology says "1 package, 2 cores, 4 threads (sysfs)", leaving out
// counts that are unknown.
func cpuTopology(t Topology) string {
	if t.Source == "" {
		return "?"
	}
	var parts []string
	for _, n := range []struct {
		count int
		what  string
	}{{t.Packages, "package"}, {t.Dies, "die"}, {t.Cores, "core"}, {t.Threads, "thread"}} {
		if n.count > 0 {
			parts = append(parts, cpuCount(n.count, n.what))
		}
	}
	return fmt.Sprintf("%s (%s)", strings.Join(parts, ", "), t.Source)
}

// cpuInstances says how many caches serve the CPUs, and by how many CPUs
// each is shared when that is the same for all: "2 × 4 CPUs".
func cpuInstances(c Cache) string {
	switch {
	case c.Instances == 0:
		return "?"
	case len(c.CPUs)%c.Instances != 0:
		return strconv.Itoa(c.Instances)
	}
	return fmt.Sprintf("%d × %s", c.Instances, cpuCount(len(c.CPUs)/c.Instances, "CPU"))
}

func cpuCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func cpuList(cpus []int) string {
	if len(cpus) == 0 {
		return "?"
	}
	return FormatCPUList(cpus)
}

func cpuBytes(n int64) string {
	if n == 0 {
		return "?"
	}
	return strconv.FormatInt(n, 10)
}

// cpuSize writes a cache size the way sysfs and lscpu do, in the largest
// unit that divides it: 48K, 2M, 1280K.
func cpuSize(n int64) string {
	if n == 0 {
		return "?"
	}
	for _, u := range []struct {
		shift  uint
		suffix string
	}{{30, "G"}, {20, "M"}, {10, "K"}} {
		if n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
