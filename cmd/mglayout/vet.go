package main

import (
	"flag"

	"github.com/mglayout/mglayout/internal/cli"
	"github.com/mglayout/mglayout/internal/operand"
	"github.com/mglayout/mglayout/internal/vet"
	"github.com/mglayout/mglayout/layout/falsesharing"
)

func init() {
	register(&cli.Command{
		Name:  "vet",
		Args:  "[packages]",
		Short: "the go vet analyzer (rules FS1-FS6) standalone, as text, JSON or SARIF",
		Long: `Vet runs the analyzer that go vet -vettool=$(which mglayout) runs, over the
packages (default "."), and prints its findings: array elements smaller than
a line that different CPUs write (FS1), a hot member beside members used
independently (FS2), padding that separates members only at some phases
(FS3), padding sized for 64-byte lines where a line is larger (FS4),
padding that comes to a whole line (FS5), and trailing padding longer than
a line needs (FS6). The rules are documented at
` + falsesharing.Analyzer.URL + `.

-format text prints file:line:col: message, as go vet does; json an array
of findings with their suggested fixes; sarif a SARIF 2.1.0 log for GitHub
code scanning, with file URIs relative to the repository root.

-fix applies the first suggested fix of each finding and gofmts the files
it changes (nothing is written if any fix would not parse); -fix -diff
prints the changes as a unified diff instead.

Exit status 1 when there are findings (with -fix: findings it did not
fix), 2 when a package does not load or type-check.`,
		Flags: vetFlags,
	})
}

func vetFlags(fs *flag.FlagSet) func(*cli.Context, []string) error {
	var out cli.Format
	out.Register(fs, "text", "json", "sarif")
	tests := fs.Bool("test", false, "also check the packages' test files")
	tags := fs.String("tags", "", "comma-separated build tags for loading the packages")
	fix := fs.Bool("fix", false, "apply the first suggested fix of each finding to the files")
	diff := fs.Bool("diff", false, "with -fix, print the fixes as a unified diff instead of writing them")
	analyzerFlags(fs)
	return func(ctx *cli.Context, args []string) error {
		format, err := out.Name()
		if err != nil {
			return err
		}
		switch {
		case *diff && !*fix:
			return cli.Usagef("-diff shows what -fix would change: use -fix -diff")
		case *fix && format != "text":
			return cli.Usagef("-fix prints the findings it cannot fix as text: drop -format %s", format)
		}
		if len(args) == 0 {
			args = []string{"."}
		}
		findings, err := vet.Run(args, *tests, operand.SplitList(*tags))
		if err != nil {
			return cli.Usagef("%v", err)
		}
		left := len(findings)
		switch {
		case *fix:
			left, err = vet.Fix(ctx.Stdout, ctx.Note, findings, *diff)
		case format == "json":
			err = vet.WriteJSON(ctx.Stdout, findings)
		case format == "sarif":
			err = vet.WriteSARIF(ctx.Stdout, findings)
		default:
			err = vet.WriteText(ctx.Stdout, findings)
		}
		if err != nil {
			return err
		}
		if left > 0 {
			return cli.ErrFinding
		}
		return nil
	}
}

// analyzerFlags declares the analyzer's own flags on fs, named as go vet
// names them (-falsesharing.arch). Their values live in the analyzer, so
// each command line starts from the defaults (run is called more than
// once in a process by the tests).
func analyzerFlags(fs *flag.FlagSet) {
	falsesharing.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		f.Value.Set(f.DefValue)
		fs.Var(f.Value, falsesharing.Analyzer.Name+"."+f.Name, f.Usage)
	})
}
