// Command mglayout is a cache-line layout and false-sharing analyzer.
//
// Usage:
//
//	mglayout <command> [flags] [arguments]
//
// Run "mglayout help" for the list of commands and "mglayout help <command>"
// for one command's flags. Exit status: 0 fine, 1 a finding that a CI gate
// should fail on, 2 a usage or input error, 130 a measurement interrupted
// (Ctrl-C) after printing the rounds it completed.
//
// The binary is also a go vet tool: go vet -vettool=$(which mglayout) ./...
// runs the falsesharing analyzer over each package.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/mglayout/mglayout/internal/vet"
)

// command is one subcommand. Each lives in its own file and registers
// itself from init.
type command struct {
	name  string
	args  string // the arguments after the flags, for the usage line
	short string // one line for "mglayout help"
	long  string // the rest of "mglayout help <name>"
	// longFunc, when set, writes long at the time help is printed: for
	// text that costs something to work out, which every start of the
	// binary would otherwise pay, go vet's once for each package.
	longFunc func() string
	// flags declares the command's flags on fs and returns the function
	// that runs it once they are parsed.
	flags func(fs *flag.FlagSet) func(ctx *context, args []string) error
}

// context is what a running command may touch: its output streams.
type context struct {
	stdout, stderr io.Writer
}

// note tells the user something that is not an error, on stderr.
func (c *context) note(msg string) {
	fmt.Fprintf(c.stderr, "mglayout: note: %s\n", msg)
}

var commands []*command

func register(c *command) {
	commands = append(commands, c)
	slices.SortFunc(commands, func(a, b *command) int { return strings.Compare(a.name, b.name) })
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// usageError is a mistake in the command line or its input: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errFinding reports that the command found what a CI gate fails on
// (a regression, a finding): exit status 1. The command has printed it.
var errFinding = errors.New("finding")

// errInterrupted reports that a measurement was interrupted (Ctrl-C):
// exit status 130, as a shell gives. The command has printed the rounds
// it completed, marked incomplete.
var errInterrupted = errors.New("interrupted")

func main() {
	// go vet -vettool=mglayout speaks unitchecker's protocol to the tool,
	// which then is the analyzer's driver and reads os.Args itself.
	if vet.IsTool(os.Args[1:]) {
		unitchecker.Main(vet.UnitAnalyzer(os.Args[1:]))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printCommands(stderr)
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(args, stdout, stderr)
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "mglayout: unknown command %q (run 'mglayout help' for the list)\n", name)
		return 2
	}
	fs := flag.NewFlagSet("mglayout "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	runCmd := c.flags(fs)
	positional, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printHelp(c, stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "mglayout %s: %v (run 'mglayout help %s')\n", c.name, err, c.name)
		return 2
	}
	err = runCmd(&context{stdout: stdout, stderr: stderr}, positional)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFinding):
		return 1
	case errors.Is(err, errInterrupted):
		return 130
	}
	fmt.Fprintf(stderr, "mglayout %s: %v\n", c.name, oneLine(err.Error()))
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

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func printCommands(w io.Writer) {
	fmt.Fprintf(w, "mglayout is a cache-line layout and false-sharing analyzer.\n\nUsage:\n\n\tmglayout <command> [flags] [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.name, c.short)
	}
	fmt.Fprintf(w, "\nRun 'mglayout help <command>' for a command's flags.\n")
}

func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printCommands(stdout)
		return 0
	}
	if args[0] == "help" {
		fmt.Fprintf(stdout, "usage: mglayout help [command]\n\nWith no command, help lists the commands; with one, it prints the command's\nusage, what it does and its flags.\n")
		return 0
	}
	c := lookup(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "mglayout help: unknown command %q (run 'mglayout help' for the list)\n", args[0])
		return 2
	}
	printHelp(c, stdout)
	return 0
}

func printHelp(c *command, w io.Writer) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.flags(fs)
	long := c.long
	if c.longFunc != nil {
		long = c.longFunc()
	}
	fmt.Fprintf(w, "usage: mglayout %s [flags] %s\n\n%s\n", c.name, c.args, strings.TrimSpace(long))
	var buf strings.Builder
	fs.SetOutput(&buf)
	fs.PrintDefaults()
	if buf.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", buf.String())
	}
}
