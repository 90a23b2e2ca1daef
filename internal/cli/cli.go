// Package cli is the machinery of mglayout's command line: commands and
// their help, the flags several commands share, the exit statuses and the
// checks of output files made before any work is spent. The commands
// themselves, thin, are in cmd/mglayout.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/probe"
)

// A Command is one subcommand.
type Command struct {
	Name  string
	Args  string // the arguments after the flags, for the usage line
	Short string // one line for "help"
	Long  string // the rest of "help <name>"
	// LongFunc, when set, writes Long at the time help is printed: for
	// text that costs something to work out, which every start of the
	// binary would otherwise pay, go vet's once for each package.
	LongFunc func() string
	// Flags declares the command's flags on fs and returns the function
	// that runs it once they are parsed.
	Flags func(fs *flag.FlagSet) func(ctx *Context, args []string) error
}

// A Context is what a running command may touch: its output streams.
type Context struct {
	Stdout, Stderr io.Writer
}

// Note tells the user something that is not an error, on stderr.
func (c *Context) Note(msg string) {
	fmt.Fprintf(c.Stderr, "mglayout: note: %s\n", msg)
}

// RoundProgress returns a progress function for a measurement: it prints
// a line when a new round starts, one a round, between runs and never
// during one.
func (c *Context) RoundProgress() func(probe.Progress) {
	last := 0
	return func(p probe.Progress) {
		if p.Round != last {
			fmt.Fprintf(c.Stderr, "mglayout: %s\n", p)
		}
		last = p.Round
	}
}

// A Program is mglayout's set of commands.
type Program struct {
	Summary  string // one sentence: what the program is
	commands []*Command
}

// Register adds a command, keeping the commands sorted by name.
func (p *Program) Register(c *Command) {
	p.commands = append(p.commands, c)
	slices.SortFunc(p.commands, func(a, b *Command) int { return strings.Compare(a.Name, b.Name) })
}

func (p *Program) lookup(name string) *Command {
	for _, c := range p.commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// UsageError is a mistake in the command line or its input: exit status 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// ErrFinding reports that the command found what a CI gate fails on
// (a regression, a finding): exit status 1. The command has printed it.
var ErrFinding = errors.New("finding")

// ErrInterrupted reports that a measurement was interrupted (Ctrl-C):
// exit status 130, as a shell gives. The command has printed the rounds
// it completed, marked incomplete.
var ErrInterrupted = errors.New("interrupted")

// Run runs the command line args and returns the exit status: 0 fine,
// 1 a finding, 2 a usage or input error, 130 interrupted.
func (p *Program) Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		p.printCommands(stderr)
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return p.help(args, stdout, stderr)
	}
	c := p.lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "mglayout: unknown command %q (run 'mglayout help' for the list)\n", name)
		return 2
	}
	fs := flag.NewFlagSet("mglayout "+c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	runCmd := c.Flags(fs)
	positional, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		p.printHelp(c, stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "mglayout %s: %v (run 'mglayout help %s')\n", c.Name, err, c.Name)
		return 2
	}
	err = runCmd(&Context{Stdout: stdout, Stderr: stderr}, positional)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrFinding):
		return 1
	case errors.Is(err, ErrInterrupted):
		return 130
	}
	fmt.Fprintf(stderr, "mglayout %s: %s\n", c.Name, strings.Join(strings.Fields(err.Error()), " "))
	return 2
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments (mglayout layout ./pkg -type T), and returns the
// positional ones. "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
