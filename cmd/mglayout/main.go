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
	"io"
	"os"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/vet"
)

var program = cli.Program{Summary: "mglayout is a cache-line layout and false-sharing analyzer."}

// register adds a command; each lives in its own file and registers
// itself from init.
func register(c *cli.Command) { program.Register(c) }

func main() {
	// go vet -vettool=mglayout speaks unitchecker's protocol to the tool,
	// which then is the analyzer's driver and reads os.Args itself.
	if vet.IsTool(os.Args[1:]) {
		vet.TuneGC()
		unitchecker.Main(vet.UnitAnalyzer(os.Args[1:]))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return program.Run(args, stdout, stderr)
}
