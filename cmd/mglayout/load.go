package main

import (
	"flag"
	"strings"

	"github.com/mglayout/mglayout/internal/operand"
)

// loadFlags are the flags of the commands that read models, Go packages,
// layout -json files or ELF files' DWARF: the operand.Config they fill.
type loadFlags struct {
	cfg operand.Config
}

func (f *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.cfg.Arch, "arch", "", "comma-separated GOARCHes to size Go types for, several at once (default the host's; kernel models: amd64)")
	fs.StringVar(&f.cfg.Types, "type", "", "comma-separated struct types to use (T or import/path.T); default all")
	fs.StringVar(&f.cfg.Tags, "tags", "", "comma-separated build tags for loading Go packages")
	fs.Var(listFlag{&f.cfg.ELF}, "elf", "read C or Go structs from the DWARF of ELF `FILE` (an object, binary or vmlinux built with -g); repeatable: diff takes two, OLD and NEW")
	fs.Var(listFlag{&f.cfg.PathSpecs}, "path", "an access path `SPEC` for the -elf struct, as in //mglayout:path ('NAME [cpus=N] [rate=N/s] OP=member,...'), or @FILE for a paths file; repeatable")
	fs.StringVar(&f.cfg.PathsFile, "paths", "", "a paths `FILE` for -elf structs: [TypeName] sections of access paths and align/padded lines (see the README)")
}

// config returns the operands' configuration, noting through ctx.
func (f *loadFlags) config(ctx *context) *operand.Config {
	c := f.cfg
	c.Note = ctx.note
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
