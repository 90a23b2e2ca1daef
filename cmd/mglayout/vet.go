package main

import (
	"cmp"
	"flag"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing"
	"github.com/mglayout/mglayout/layout/gosrc"
)

func init() {
	register(&command{
		name:  "vet",
		args:  "[packages]",
		short: "the go vet analyzer (rules FS1-FS5) standalone, as text, JSON or SARIF",
		long: `Vet runs the analyzer that go vet -vettool=$(which mglayout) runs, over the
packages (default "."), and prints its findings: array elements smaller than
a line that different CPUs write (FS1), a hot member beside members used
independently (FS2), padding that separates members only at some phases
(FS3), padding sized for 64-byte lines where a line is larger (FS4), and
padding that comes to a whole line (FS5). The rules are documented at
` + falsesharing.Analyzer.URL + `.

-format text prints file:line:col: message, as go vet does; json an array
of findings with their suggested fixes; sarif a SARIF 2.1.0 log for GitHub
code scanning, with file URIs relative to the repository root.

-fix applies the first suggested fix of each finding and gofmts the files
it changes (nothing is written if any fix would not parse); -fix -diff
prints the changes as a unified diff instead.

Exit status 1 when there are findings (with -fix: findings it did not
fix), 2 when a package does not load or type-check.`,
		flags: vetFlags,
	})
}

func vetFlags(fs *flag.FlagSet) func(*context, []string) error {
	var out formatFlags
	out.register(fs, "text", "json", "sarif")
	tests := fs.Bool("test", false, "also check the packages' test files")
	tags := fs.String("tags", "", "comma-separated build tags for loading the packages")
	fix := fs.Bool("fix", false, "apply the first suggested fix of each finding to the files")
	diff := fs.Bool("diff", false, "with -fix, print the fixes as a unified diff instead of writing them")
	// The analyzer's own flags, named as go vet names them. Their values
	// live in the analyzer, so each command line starts from the defaults
	// (run is called more than once in a process by the tests).
	falsesharing.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		f.Value.Set(f.DefValue)
		fs.Var(f.Value, falsesharing.Analyzer.Name+"."+f.Name, f.Usage)
	})
	return func(ctx *context, args []string) error {
		format, err := out.name()
		if err != nil {
			return err
		}
		switch {
		case *diff && !*fix:
			return usagef("-diff shows what -fix would change: use -fix -diff")
		case *fix && format != "text":
			return usagef("-fix prints the findings it cannot fix as text: drop -format %s", format)
		}
		if len(args) == 0 {
			args = []string{"."}
		}
		findings, err := vet(args, *tests, splitList(*tags))
		if err != nil {
			return err
		}
		if *fix {
			return fixFindings(ctx, findings, *diff)
		}
		switch format {
		case "json":
			err = writeJSON(ctx.stdout, findings)
		case "sarif":
			err = writeSARIF(ctx.stdout, findings)
		default:
			err = writeText(ctx.stdout, findings)
		}
		if err != nil {
			return err
		}
		if len(findings) > 0 {
			return errFinding
		}
		return nil
	}
}

// A finding is one diagnostic of the analyzer on a package named on the
// command line.
type finding struct {
	pkg      *packages.Package
	diag     analysis.Diagnostic
	rule     *falsesharing.Rule // nil for a diagnostic of no rule
	pos, end token.Position     // end is pos when the diagnostic has no end
	line     int64              // the line size of the GOARCH it was found for, when several are checked
}

// ruleID is the finding's rule, or the category of a diagnostic of none.
func (f *finding) ruleID() string {
	if f.rule != nil {
		return f.rule.ID
	}
	return f.diag.Category
}

// vet loads the packages and runs the analyzer over them, and over their
// dependencies for the facts. Each GOARCH of -falsesharing.arch is
// checked on its own build, with its files and constants (a pad of
// unsafe.Sizeof(cpu.CacheLinePad{}) is 64 bytes on amd64, 128 on arm64);
// where several report the same rule at one place, the finding of the
// largest line stays, since its fix suits the others. The findings come
// sorted by position, each once: a file of both p and p's test variant
// is analysed twice.
func vet(patterns []string, tests bool, tags []string) ([]*finding, error) {
	archFlag := falsesharing.Analyzer.Flags.Lookup("arch")
	archs := splitList(archFlag.Value.String())
	if len(archs) <= 1 {
		return vetBuild(patterns, tests, tags, firstOr(archs, ""))
	}
	defer archFlag.Value.Set(archFlag.Value.String())
	type place struct {
		pos  token.Position
		rule string
	}
	best := map[place]*finding{}
	var order []place
	for _, arch := range archs {
		archFlag.Value.Set(arch)
		fs, err := vetBuild(patterns, tests, tags, arch)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			f.line, _ = gosrc.LinePadSize(arch)
			k := place{f.pos, f.ruleID()}
			if old := best[k]; old == nil {
				order = append(order, k)
				best[k] = f
			} else if f.line > old.line {
				best[k] = f
			}
		}
	}
	var findings []*finding
	for _, k := range order {
		findings = append(findings, best[k])
	}
	sortFindings(findings)
	return findings, nil
}

func firstOr(xs []string, def string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return def
}

// vetBuild checks the packages built for one GOARCH ("" for the host's).
func vetBuild(patterns []string, tests bool, tags []string, arch string) ([]*finding, error) {
	pkgs, err := loadPackages(patterns, tests, tags, arch)
	if err != nil {
		return nil, err
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{falsesharing.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	// The first failed action in postorder failed by itself, not for a
	// failed dependency: that is the error worth a line. An error about
	// a flag (-falsesharing.lines 96: ...) is the same on every package.
	for act := range graph.All() {
		if act.Err == nil {
			continue
		}
		if strings.HasPrefix(act.Err.Error(), "-") {
			return nil, usagef("%v", act.Err)
		}
		return nil, usagef("%s: package %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
	}
	rules := map[string]*falsesharing.Rule{}
	for _, r := range falsesharing.Rules {
		rules[r.ID] = r
	}
	type key struct {
		pos     token.Position
		message string
	}
	seen := map[key]bool{}
	var findings []*finding
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			f := &finding{pkg: act.Package, diag: d, rule: rules[d.Category], pos: act.Package.Fset.Position(d.Pos)}
			f.end = f.pos
			if d.End.IsValid() {
				f.end = act.Package.Fset.Position(d.End)
			}
			if k := (key{f.pos, d.Message}); !seen[k] {
				seen[k] = true
				findings = append(findings, f)
			}
		}
	}
	sortFindings(findings)
	return findings, nil
}

func sortFindings(findings []*finding) {
	slices.SortFunc(findings, func(a, b *finding) int {
		return cmp.Or(
			cmp.Compare(a.pos.Filename, b.pos.Filename),
			cmp.Compare(a.pos.Line, b.pos.Line),
			cmp.Compare(a.pos.Column, b.pos.Column),
			cmp.Compare(a.diag.Message, b.diag.Message))
	})
}

// loadPackages loads the packages and, since the analyzer exchanges facts
// between packages, the syntax and types of all their dependencies.
// A GOARCH other than "" is built as the go command builds it: wasm
// with GOOS js.
func loadPackages(patterns []string, tests bool, tags []string, arch string) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: tests}
	if arch != "" {
		cfg.Env = gosrc.BuildEnv(arch)
	}
	if len(tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		if np := gosrc.NoPackages("", patterns); len(pkgs) == 0 && !strings.HasPrefix(np.Error(), "no Go packages") {
			return nil, usagef("%v", np)
		}
		return nil, usagef("loading %s: %s", strings.Join(patterns, " "), firstLine(err.Error()))
	}
	if len(pkgs) == 0 {
		return nil, usagef("%v", gosrc.NoPackages("", patterns))
	}
	var bad *packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if bad == nil && len(p.Errors) > 0 {
			bad = p
		}
	})
	if bad != nil {
		return nil, packageError(bad)
	}
	return pkgs, nil
}

// packageError turns the first error of a package into one line that
// says what to do.
func packageError(pkg *packages.Package) error {
	// The go command reports a compile error as a list error too; the
	// type checker's own report has the position.
	e := pkg.Errors[0]
	if i := slices.IndexFunc(pkg.Errors, func(e packages.Error) bool { return e.Kind == packages.TypeError }); i >= 0 {
		e = pkg.Errors[i]
	}
	msg := firstLine(e.Msg)
	if e.Pos != "" && e.Pos != "-" {
		msg = shortPath(e.Pos) + ": " + msg
	}
	hint := "fix it so that `go build` succeeds"
	if e.Kind == packages.ListError {
		hint = "check the import path or pattern"
	}
	return usagef("package %s: %s (%s)", cmp.Or(pkg.PkgPath, pkg.ID), msg, hint)
}

// firstLine returns the first line of a message of the go command,
// without the "; to add it:" that announces a command on the next.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSuffix(s, "; to add it:")
}

// shortPath returns a file name, or a file:line:col position, relative to
// the working directory when it lies below it, as go vet prints it.
func shortPath(name string) string {
	wd, err := os.Getwd()
	if err != nil || !filepath.IsAbs(name) {
		return name
	}
	if rel, err := filepath.Rel(wd, name); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return name
}
