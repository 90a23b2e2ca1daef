package vet

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
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
// on arm64). Where the packages of the main modules, or of the modules
// of the packages named, build from other declarations of types or
// constants on another GOARCH (declaresApart), that GOARCH gets a build
// and an analysis of its own, and a finding that several report at one
// place is merged into one that holds at each. The findings come sorted
// by position, each once: a file of both p and p's test variant is
// analysed twice.
func Run(patterns []string, tests bool, tags []string) ([]*Finding, error) {
	archFlag := falsesharing.Analyzer.Flags.Lookup("arch")
	var archs []string
	for _, a := range strings.Split(archFlag.Value.String(), ",") {
		if a = strings.TrimSpace(a); a != "" {
			archs = append(archs, a)
		}
	}
	if len(archs) <= 1 {
		pkgs, _, err := loadPackages(patterns, tests, tags, firstOr(archs, ""))
		if err != nil {
			return nil, err
		}
		return analyze(pkgs)
	}
	// The other GOARCHes' files are listed while the first's packages
	// load.
	type listing struct {
		files map[string][]string
		err   error
	}
	listings := make([]chan listing, len(archs))
	for i, arch := range archs[1:] {
		ch := make(chan listing, 1)
		listings[i+1] = ch
		go func() {
			files, err := checkedFiles(patterns, tests, tags, arch)
			ch <- listing{files, err}
		}()
	}
	pkgs, files, err := loadPackages(patterns, tests, tags, archs[0])
	if err != nil {
		return nil, err
	}
	builds, buildFiles := [][]string{{archs[0]}}, []map[string][]string{files}
	for i, arch := range archs[1:] {
		l := <-listings[i+1]
		if l.err != nil {
			return nil, l.err
		}
		if j := slices.IndexFunc(buildFiles, func(f map[string][]string) bool { return !declaresApart(f, l.files) }); j >= 0 {
			builds[j] = append(builds[j], arch)
			continue
		}
		builds, buildFiles = append(builds, []string{arch}), append(buildFiles, l.files)
	}
	defer archFlag.Value.Set(archFlag.Value.String())
	archFlag.Value.Set(strings.Join(builds[0], ","))
	if len(builds) == 1 {
		return analyze(pkgs)
	}
	// One problem found on several builds: a rule at a place, about the
	// same members.
	type place struct {
		pos     token.Position
		rule    string
		members string
	}
	placeOf := func(f *Finding) place {
		k := place{pos: f.pos, rule: f.ruleID()}
		if f.data != nil {
			k.members = strings.Join(append([]string{f.data.Member}, f.data.Partners...), " ")
		} else {
			k.members = f.diag.Message
		}
		return k
	}
	best := map[place]*Finding{}
	var order []place
	for i, b := range builds {
		archFlag.Value.Set(strings.Join(b, ","))
		if i > 0 {
			if pkgs, _, err = loadPackages(patterns, tests, tags, b[0]); err != nil {
				return nil, err
			}
		}
		fs, err := analyze(pkgs)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			k := placeOf(f)
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
			also = append(also, h.String())
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

// checkedFiles lists, as loadPackages does, the files that the packages
// of the main modules and of the modules of the packages named build
// from on a GOARCH: package metadata only, a go list.
func checkedFiles(patterns []string, tests bool, tags []string, arch string) (map[string][]string, error) {
	roots, err := loadMetadata(patterns, tests, tags, arch)
	if err != nil {
		return nil, err
	}
	return filesOf(roots), nil
}

// loadMetadata loads what loadPackages and checkedFiles need to know of
// every package before any is type-checked.
func loadMetadata(patterns []string, tests bool, tags []string, arch string) ([]*packages.Package, error) {
	cfg := loadConfig(tests, tags, arch)
	cfg.Mode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule
	roots, err := packages.Load(cfg, patterns...)
	if err != nil {
		if np := gosrc.NoPackages("", patterns); len(roots) == 0 && !strings.HasPrefix(np.Error(), "no Go packages") {
			return nil, np
		}
		return nil, fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), firstLine(err.Error()))
	}
	if len(roots) == 0 {
		return nil, gosrc.NoPackages("", patterns)
	}
	return roots, nil
}

// filesOf returns the files, by package ID, of the packages of the main
// modules and of the modules of the roots, among the roots and their
// dependencies: those whose declarations may size the roots' layouts
// (a const lineSize of line_arm64.go).
func filesOf(roots []*packages.Package) map[string][]string {
	checked := map[string]bool{}
	for _, p := range roots {
		if p.Module != nil {
			checked[p.Module.Path] = true
		}
	}
	out := map[string][]string{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module != nil && (p.Module.Main || checked[p.Module.Path]) {
			out[p.ID] = p.GoFiles
		}
	})
	return out
}

// declaresApart reports whether two GOARCHes' files of the packages
// differ by a file that declares a type or a constant, or by a package.
// Files of their own that declare only functions (an assembly stub and
// its portable twin) do not: the concurrency model is built once
// whatever the GOARCH, and no layout changes. Only such files are
// parsed, their declarations alone.
func declaresApart(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return true
	}
	for id, fa := range a {
		fb, ok := b[id]
		if !ok {
			return true
		}
		for _, f := range fa {
			if !slices.Contains(fb, f) && declaresData(f) {
				return true
			}
		}
		for _, f := range fb {
			if !slices.Contains(fa, f) && declaresData(f) {
				return true
			}
		}
	}
	return false
}

// declaresData reports whether a Go file declares a type or a constant;
// one that cannot be parsed is taken to.
func declaresData(name string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
	if err != nil {
		return true
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.TYPE || gd.Tok == token.CONST) {
			return true
		}
	}
	return false
}

func firstOr(xs []string, def string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return def
}

// analyze runs the analyzer over the packages, for the GOARCHes of its
// flag.
func analyze(pkgs []*packages.Package) ([]*Finding, error) {
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
// between packages, the syntax and types of their dependencies outside
// the standard library; the standard library's packages, whose types
// the analyzer knows by their types alone (HotMembers exports no facts
// of theirs), are read from export data, as go vet and fieldalignment
// read every dependency. It returns the packages named, and the files
// of filesOf.
func loadPackages(patterns []string, tests bool, tags []string, arch string) ([]*packages.Package, map[string][]string, error) {
	roots, err := loadMetadata(patterns, tests, tags, arch)
	if err != nil {
		return nil, nil, err
	}
	// Loaded from source: the packages named and every dependency in a
	// module, each named as a pattern of its own, without the
	// dependencies' own loading, which would read the standard library
	// from source too.
	isRoot := map[string]bool{}
	for _, p := range roots {
		isRoot[p.ID] = true
	}
	fromSource := slices.Clone(patterns)
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module != nil && !isRoot[p.ID] && !strings.Contains(p.ID, " ") {
			fromSource = append(fromSource, p.PkgPath)
		}
	})
	cfg := loadConfig(tests, tags, arch)
	cfg.Mode = packages.LoadSyntax | packages.NeedModule | packages.NeedImports
	pkgs, err := packages.Load(cfg, fromSource...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), firstLine(err.Error()))
	}
	// The dependencies of a package loaded so are stubs: point its
	// imports at the packages loaded from source, and leave out those
	// read from export data, which the analyzer does not run on.
	byID := map[string]*packages.Package{}
	for _, p := range pkgs {
		byID[p.ID] = p
	}
	var out []*packages.Package
	for _, p := range pkgs {
		imports := map[string]*packages.Package{}
		for path, imp := range p.Imports {
			if dep := byID[imp.ID]; dep != nil {
				imports[path] = dep
			}
		}
		p.Imports = imports
		if isRoot[p.ID] {
			out = append(out, p)
		}
	}
	var bad *packages.Package
	packages.Visit(out, nil, func(p *packages.Package) {
		if bad == nil && len(p.Errors) > 0 {
			bad = p
		}
	})
	if bad != nil {
		return nil, nil, gosrc.PackageError(bad, arch)
	}
	return out, filesOf(roots), nil
}

// loadConfig is the configuration packages are loaded with, for a
// GOARCH ("" for the host's) as the go command builds it: wasm with
// GOOS js.
func loadConfig(tests bool, tags []string, arch string) *packages.Config {
	cfg := &packages.Config{Tests: tests}
	if arch != "" {
		cfg.Env = gosrc.BuildEnv(arch)
	}
	if len(tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(tags, ",")}
	}
	return cfg
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

// Data is the finding as the analyzer's Result holds it; nil for a
// diagnostic that is no finding.
func (f *Finding) Data() *falsesharing.Finding { return f.data }

// Package is the import path of the package the finding is in.
func (f *Finding) Package() string { return f.pkg.PkgPath }

// Position is where the finding is reported.
func (f *Finding) Position() token.Position { return f.pos }
