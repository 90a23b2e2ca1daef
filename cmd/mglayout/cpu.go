package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/probe/host"
)

func init() {
	register(&cli.Command{
		Name:  "cpu",
		Short: "detected line sizes per cache level, with their sources; CPUs and topology",
		Long: `
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
		Flags: func(fs *flag.FlagSet) func(*cli.Context, []string) error {
			var out cli.Format
			out.Register(fs, "text", "json")
			sysfs := fs.String("sysfs", "/sys", "read sysfs under `dir` (for testing with a copy of another machine's tree)")
			return func(ctx *cli.Context, args []string) error {
				if len(args) > 0 {
					return cli.Usagef("cpu takes no arguments, got %q", args[0])
				}
				format, err := out.Name()
				if err != nil {
					return err
				}
				set := make(map[string]bool)
				fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
				// The default /sys may be missing (containers, other
				// systems), which detection notes; a named one must exist.
				if set["sysfs"] {
					if st, err := os.Stat(*sysfs); err != nil || !st.IsDir() {
						return cli.Usagef("-sysfs %s is not a directory (give the root of a sysfs tree, such as /sys)", *sysfs)
					}
				}
				info, err := host.DetectFrom(*sysfs)
				if err != nil {
					return fmt.Errorf("reading sysfs under %s: %v", *sysfs, err)
				}
				if format == "json" {
					return cli.WriteJSON(ctx.Stdout, info)
				}
				return host.WriteText(ctx.Stdout, info)
			}
		},
	})
}
