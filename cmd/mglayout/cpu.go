package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mglayout/mglayout/probe/host"
)

func init() {
	register(&command{
		name:  "cpu",
		short: "detected line sizes per cache level, with their sources; CPUs and topology",
		long: `
Cpu prints what this machine says about cache lines: the coherency line
size, size and sharing CPUs of each cache level with the source of each
value (sysfs, CPUID, the x/sys/cpu constant of this build), the CPUs in
the affinity mask, the topology, and the line sizes that the other
commands analyse by default (64, 128 and the host's).

sysfs is the authority where present: CPUID reports one line size for the
whole CPU (and 64 on linux/arm64 without asking it), and its core counts
are often wrong in virtual machines. What could not be read is listed as
a note.

-sysfs reads another machine's copy of /sys instead, for testing; CPUID,
x/sys/cpu and the affinity mask still describe this machine.

The -json schema is documented in package
github.com/mglayout/mglayout/probe/host.`,
		flags: func(fs *flag.FlagSet) func(*context, []string) error {
			var out formatFlags
			out.register(fs, "text", "json")
			sysfs := fs.String("sysfs", "/sys", "read sysfs under `dir` (for testing with a copy of another machine's tree)")
			return func(ctx *context, args []string) error {
				if len(args) > 0 {
					return usagef("cpu takes no arguments, got %q", args[0])
				}
				format, err := out.name()
				if err != nil {
					return err
				}
				set := make(map[string]bool)
				fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
				// The default /sys may be missing (containers, other
				// systems), which detection notes; a named one must exist.
				if set["sysfs"] {
					if st, err := os.Stat(*sysfs); err != nil || !st.IsDir() {
						return usagef("-sysfs %s is not a directory (give the root of a sysfs tree, such as /sys)", *sysfs)
					}
				}
				info, err := host.DetectFrom(*sysfs)
				if err != nil {
					return fmt.Errorf("reading sysfs under %s: %v", *sysfs, err)
				}
				if format == "json" {
					out, err := json.MarshalIndent(info, "", "  ")
					if err != nil {
						return err
					}
					_, err = fmt.Fprintf(ctx.stdout, "%s\n", out)
					return err
				}
				return writeCPUText(ctx.stdout, info)
			}
		},
	})
}

// writeCPUText writes info for a human: the caches as a table, then one
// line per other source, then the line sizes the analysis will use.
func writeCPUText(w io.Writer, info *host.Info) error {
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
		affinity = fmt.Sprintf("%s (%s)", host.FormatCPUList(info.Affinity), cpuCount(len(info.Affinity), "CPU"))
	}
	fmt.Fprintf(tw, "affinity mask:\t%s\n", affinity)
	fmt.Fprintf(tw, "online:\t%s\n", cpuList(info.Topology.Online))
	fmt.Fprintf(tw, "topology:\t%s\n", cpuTopology(info.Topology))
	if err := tw.Flush(); err != nil {
		return err
	}

	var lines []string
	for _, n := range host.DefaultLines(info) {
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
func cpuTopology(t host.Topology) string {
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
func cpuInstances(c host.Cache) string {
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
	return host.FormatCPUList(cpus)
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
