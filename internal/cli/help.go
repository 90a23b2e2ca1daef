package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

func (p *Program) printCommands(w io.Writer) {
	fmt.Fprintf(w, "%s\n\nUsage:\n\n\tmglayout <command> [flags] [arguments]\n\nCommands:\n\n", p.Summary)
	for _, c := range p.commands {
		fmt.Fprintf(w, "\t%-8s %s\n", c.Name, c.Short)
	}
	fmt.Fprintf(w, "\nRun 'mglayout help <command>' for a command's flags.\n")
}

func (p *Program) help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		p.printCommands(stdout)
		return 0
	}
	if args[0] == "help" {
		fmt.Fprintf(stdout, "usage: mglayout help [command]\n\nWith no command, help lists the commands; with one, it prints the command's\nusage, what it does and its flags.\n")
		return 0
	}
	c := p.lookup(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "mglayout help: unknown command %q (run 'mglayout help' for the list)\n", args[0])
		return 2
	}
	p.printHelp(c, stdout)
	return 0
}

func (p *Program) printHelp(c *Command, w io.Writer) {
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	c.Flags(fs)
	long := c.Long
	if c.LongFunc != nil {
		long = c.LongFunc()
	}
	fmt.Fprintf(w, "usage: mglayout %s [flags] %s\n\n%s\n", c.Name, c.Args, strings.TrimSpace(long))
	var buf strings.Builder
	fs.SetOutput(&buf)
	fs.PrintDefaults()
	if buf.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", buf.String())
	}
}
