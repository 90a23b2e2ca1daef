package vet

import (
	"cmp"
	"fmt"
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

// A Finding is one diagnostic of the analyzer on a package named on the
// command line.
type Finding struct {
	pkg      *packages.Package
	diag     analysis.Diagnostic
	rule     *falsesharing.Rule // nil for a diagnostic of no rule
	pos, end token.Position     // end is pos when the diagnostic has no end
	// data is the finding as the analyzer's Result holds it; nil for a
	// diagnostic that is no finding (a malformed directive).
	data *falsesharing.Finding
}

// tier is the finding's evidence tier, "" for a diagnostic of none.
func (f *Finding) tier() string {
	if f.data == nil {
		return ""
	}
	return f.data.Tier.String()
}

// ruleID is the Finding's rule, or the category of a diagnostic of none.
func (f *Finding) ruleID() string {
	if f.rule != nil {
		return f.rule.ID
	}
	return f.diag.Category
}

// Run loads the packages and runs the analyzer over them, and over their
// dependencies for the facts. The GOARCHes of -falsesharing.arch are
// checked in one analysis of one build, the first GOARCH's: the
// concurrency model does not depend on the GOARCH, and the analyzer lays
// out each type for each GOARCH, its array lengths evaluated again there
// (a pad of unsafe.Sizeof(cpu.CacheLinePad{}) is 64 bytes on amd64, 128
// on arm64). Where the packages of the main modules build from other
// files on another GOARCH, that GOARCH gets a build and an analysis of
// its own, and a finding that several report at one place is merged into
// one that holds at each. The findings come sorted by position, each
// once: a file of both p and p's test variant is analysed twice.
func Run(patterns []string, tests bool, tags []string) ([]*Finding, error) {
	archFlag := falsesharing.Analyzer.Flags.Lookup("arch")
	var archs []string
	for _, a := range strings.Split(archFlag.Value.String(), ",") {
		if a = strings.TrimSpace(a); a != "" {
			archs = append(archs, a)
		}
	}
	if len(archs) <= 1 {
		return vetBuild(patterns, tests, tags, firstOr(archs, ""))
	}
	builds, err := buildsFor(patterns, tests, tags, archs)
	if err != nil {
		return nil, err
	}
	if len(builds) == 1 {
		return vetBuild(patterns, tests, tags, archs[0])
	}
	defer archFlag.Value.Set(archFlag.Value.String())
	type place struct {
		pos  token.Position
		rule string
	}
	best := map[place]*Finding{}
	var order []place
	for _, b := range builds {
		archFlag.Value.Set(strings.Join(b, ","))
		fs, err := vetBuild(patterns, tests, tags, b[0])
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			k := place{f.pos, f.ruleID()}
			old := best[k]
			switch {
			case old == nil:
				order = append(order, k)
				best[k] = f
			case old.data != nil && f.data != nil:
				best[k] = merge(old, f)
			}
		}
	}
	var findings []*Finding
	for _, k := range order {
		findings = append(findings, best[k])
	}
	sortFindings(findings)
	return findings, nil
}

// merge joins the findings of one rule at one place made on two builds:
// the one of the larger line stays, since its fix suits the other, and
// says where else it holds.
func merge(a, b *Finding) *Finding {
	if maxLine(b.data) > maxLine(a.data) {
		a, b = b, a
	}
	var also []string
	for _, h := range b.data.Holds {
		if !slices.ContainsFunc(a.data.Holds, func(x falsesharing.Holding) bool { return x.GOARCH == h.GOARCH && x.Line == h.Line }) {
			also = append(also, fmt.Sprintf("%d B lines on %s", h.Line, h.GOARCH))
		}
	}
	if len(also) == 0 {
		return a
	}
	out := *a
	data := *a.data
	data.Holds = slices.Clone(a.data.Holds)
	data.Merge(b.data)
	out.data = &data
	msg := out.diag.Message
	if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i] + "; also at " + strings.Join(also, " and ") + msg[i:]
	}
	out.diag.Message = msg
	return &out
}

func maxLine(f *falsesharing.Finding) int64 {
	var n int64
	for _, h := range f.Holds {
		n = max(n, h.Line)
	}
	return n
}

// buildsFor groups the GOARCHes by the files the packages of the main
// modules build from: GOARCHes of one group are checked on one build.
// Only package metadata is loaded for this, a go list of each GOARCH.
func buildsFor(patterns []string, tests bool, tags []string, archs []string) ([][]string, error) {
	var groups [][]string
	var keys []string
	for _, arch := range archs {
		k, err := filesKey(patterns, tests, tags, arch)
		if err != nil {
			return nil, err
		}
		if i := slices.Index(keys, k); i >= 0 {
			groups[i] = append(groups[i], arch)
			continue
		}
		keys = append(keys, k)
		groups = append(groups, []string{arch})
	}
	return groups, nil
}

// filesKey names the files that the packages of the main modules among
// the packages and their dependencies build from on a GOARCH.
func filesKey(patterns []string, tests bool, tags []string, arch string) (string, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule, Tests: tests, Env: gosrc.BuildEnv(arch)}
	if len(tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return "", fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), firstLine(err.Error()))
	}
	var lines []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Main {
			lines = append(lines, p.ID+"\t"+strings.Join(p.GoFiles, " "))
		}
	})
	slices.Sort(lines)
	return strings.Join(slices.Compact(lines), "\n"), nil
}

func firstOr(xs []string, def string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return def
}

// vetBuild checks the packages built for one GOARCH ("" for the host's).
func vetBuild(patterns []string, tests bool, tags []string, arch string) ([]*Finding, error) {
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
			return nil, act.Err
		}
		return nil, fmt.Errorf("%s: package %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
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
	var findings []*Finding
	for _, act := range graph.Roots {
		type diag struct {
			pos     token.Pos
			message string
		}
		data := map[diag]*falsesharing.Finding{}
		if r, ok := act.Result.(*falsesharing.Result); ok {
			for _, fd := range r.Findings {
				data[diag{fd.Pos, fd.Message}] = fd
			}
		}
		for _, d := range act.Diagnostics {
			f := &Finding{pkg: act.Package, diag: d, rule: rules[d.Category], pos: act.Package.Fset.Position(d.Pos), data: data[diag{d.Pos, d.Message}]}
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

func sortFindings(findings []*Finding) {
	slices.SortFunc(findings, func(a, b *Finding) int {
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
			return nil, np
		}
		return nil, fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), firstLine(err.Error()))
	}
	if len(pkgs) == 0 {
		return nil, gosrc.NoPackages("", patterns)
	}
	var bad *packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if bad == nil && len(p.Errors) > 0 {
			bad = p
		}
	})
	if bad != nil {
		return nil, gosrc.PackageError(bad, arch)
	}
	return pkgs, nil
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
