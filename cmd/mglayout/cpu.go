package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

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
				return host.WriteText(ctx.stdout, info)
			}
		},
	})
}
