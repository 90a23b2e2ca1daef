package cli

import (
	"flag"
	"strconv"
	"strings"

	"github.com/mglayout/mglayout/internal/operand"
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/probe"
	"github.com/mglayout/mglayout/probe/costmodel"
	"github.com/mglayout/mglayout/probe/host"
)

// Layouts are the flags of the commands that print layouts: the line
// sizes and the format.
type Layouts struct {
	lines  string
	Format Format
}

// Register declares -lines, -format and -json on fs, for the formats the
// command writes: text, json and md where none are given.
func (f *Layouts) Register(fs *flag.FlagSet, formats ...string) {
	fs.StringVar(&f.lines, "lines", "", "comma-separated line sizes in bytes (default 64, 128 and the host's)")
	if len(formats) == 0 {
		formats = []string{"text", "json", "md"}
	}
	f.Format.Register(fs, formats...)
}

// LineSizes returns the line sizes asked for.
func (f *Layouts) LineSizes() ([]int64, error) { return LineSizes(f.lines) }

// LineSizes parses a -lines value: the sizes it lists, or 64, 128 and
// those the host reports when it is empty.
func LineSizes(s string) ([]int64, error) {
	if s == "" {
		info, err := host.Detect()
		if err != nil {
			return []int64{64, 128}, nil
		}
		return host.DefaultLines(info), nil
	}
	lines, err := layout.ParseLineSizes(s)
	if err != nil {
		return nil, Usagef("-lines %s: %v", s, err)
	}
	return lines, nil
}

// Operands are the flags of the commands that read models, Go packages,
// layout -json files or ELF files' DWARF: the operand.Config they fill.
type Operands struct {
	cfg operand.Config
}

// Register declares -arch, -type, -tags, -var, -elf, -path and -paths on fs.
func (f *Operands) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.cfg.Arch, "arch", "", "comma-separated GOARCHes to size Go types for, several at once (default the host's; kernel models: amd64)")
	fs.StringVar(&f.cfg.Types, "type", "", "comma-separated struct types to use (T or import/path.T); default all")
	fs.StringVar(&f.cfg.Tags, "tags", "", "comma-separated build tags for loading Go packages")
	fs.StringVar(&f.cfg.Vars, "var", "", "comma-separated variables of the -elf file whose structs to use, named after the variable and aligned as it is (e.g. the anonymous struct of tk_core)")
	fs.Var(listFlag{&f.cfg.ELF}, "elf", "read C or Go structs from the DWARF of ELF `FILE` (an object, binary or vmlinux built with -g); repeatable: diff takes two, OLD and NEW")
	fs.Var(listFlag{&f.cfg.PathSpecs}, "path", "an access path `SPEC` for the -elf struct, as in //mglayout:path ('NAME [cpus=N] [rate=N/s] OP=member,...'), or @FILE for a paths file; repeatable")
	fs.StringVar(&f.cfg.PathsFile, "paths", "", "a paths `FILE` for -elf structs: [TypeName] sections of access paths and align/padded lines (see the README)")
}

// Variants loads the variants the arguments name, one each, commas
// joining objects into one variant (tk_data@v6.13,mg_floor@v6.13), for
// the probe.
func (f *Operands) Variants(ctx *Context, args []string) ([]probe.Variant, error) {
	cfg := f.Config(ctx)
	var variants []probe.Variant
	for _, arg := range args {
		v := probe.Variant{Name: arg}
		for _, part := range strings.Split(arg, ",") {
			obj, err := cfg.One(part)
			if err != nil {
				return nil, err
			}
			v.Objects = append(v.Objects, obj)
		}
		variants = append(variants, v)
	}
	return variants, nil
}

// Config returns the operands' configuration, noting through ctx.
func (f *Operands) Config(ctx *Context) *operand.Config {
	c := f.cfg
	c.Note = ctx.Note
	return &c
}

// listFlag is a repeatable string flag.
type listFlag struct{ list *[]string }

func (l listFlag) String() string {
	if l.list == nil {
		return ""
	}
	return strings.Join(*l.list, " ")
}

func (l listFlag) Set(s string) error {
	*l.list = append(*l.list, s)
	return nil
}

// CPUs parses a -cpus list of CPUs and ranges (0,1 or 2-5), sorted.
func CPUs(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	cpus, err := host.ParseCPUList(s)
	if err != nil {
		return nil, Usagef("-cpus %s: %v (use e.g. 0,1 or 2-5)", s, err)
	}
	return cpus, nil
}

// CPUOrder parses a -cpus list keeping its order and repeats (sweep's
// writer comes first), where CPUs sorts ranges.
func CPUOrder(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var cpus []int
	for _, w := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 0 {
			return nil, Usagef("-cpus %s: %q is not a CPU number (use e.g. 1,0: the writer's CPU, then the reader's)", s, w)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

// Calibration is the -calibration flag: a cost model of this host saved
// by sweep -save-calibration (or confirm's), from which a command
// predicts what a layout costs here.
type Calibration struct{ File string }

// Register adds the flag.
func (f *Calibration) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.File, "calibration", "", "predict what each false pair costs on this host from a calibration saved by sweep -save-calibration")
}

// Load reads the calibration; nil without the flag.
func (f *Calibration) Load() (*costmodel.Calibration, error) {
	if f.File == "" {
		return nil, nil
	}
	c, err := costmodel.Load(f.File)
	if err != nil {
		return nil, Usagef("-calibration %v", err)
	}
	return c, nil
}
