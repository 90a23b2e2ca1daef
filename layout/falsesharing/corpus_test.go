package falsesharing_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// verdict is one row of testdata/corpus/*.tsv: what a maintainer would
// want reported for one type of one corpus package, per GOARCH.
type verdict struct {
	pkg, typ string
	want     map[string]bool // GOARCH: flag
	rule     string
	upstream string
}

func readCorpus(t *testing.T) []verdict {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "fixes-*.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus verdicts in testdata/corpus: %v", err)
	}
	var out []verdict
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			cols := strings.Split(sc.Text(), "\t")
			if n == 1 || sc.Text() == "" {
				continue
			}
			if len(cols) < 7 || !slices.Contains([]string{"flag", "clean"}, cols[2]) || !slices.Contains([]string{"flag", "clean"}, cols[3]) {
				t.Fatalf("%s:%d: want package, type, amd64 and arm64 verdicts (flag or clean), rule, upstream, commit, summary", name, n)
			}
			out = append(out, verdict{pkg: cols[0], typ: cols[1], rule: cols[4], upstream: cols[5],
				want: map[string]bool{"amd64": cols[2] == "flag", "arm64": cols[3] == "flag"}})
		}
		f.Close()
	}
	return out
}

// found is a finding of the analyzer on a corpus package.
type found struct {
	pos  token.Position
	rule string
	msg  string
}

// envGOPATH is the environment that loads testdata/src GOPATH-style, as
// analysistest does, for linux without cgo.
func envGOPATH(t *testing.T) []string {
	t.Helper()
	dir, err := filepath.Abs(analysistest.TestData())
	if err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS=", "GOOS=linux", "CGO_ENABLED=0")
}

// analyseCorpus runs the analyzer on each corpus package built for a
// GOARCH (its own files and constants), at that GOARCH's line size, and
// returns the findings inside each type's declaration.
func analyseCorpus(t *testing.T, arch string, pkgs []string, judged map[string]bool) map[string][]found {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: analysistest.TestData(),
		Env: append(envGOPATH(t), "GOARCH="+arch)}
	loaded, err := packages.Load(cfg, pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	setFlags(t, arch, "")
	g, err := checker.Analyze([]*analysis.Analyzer{falsesharing.Analyzer}, loaded, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]found{}
	for _, act := range g.Roots {
		if len(act.Package.Errors) > 0 {
			t.Fatalf("%s does not build for %s: %v", act.Package.PkgPath, arch, act.Package.Errors[0])
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			// A finding on a table counts for the table's element type
			// when that has a verdict of its own (the fix pads the
			// element), else for the holder; so does one on a member
			// holding a struct of the package by value.
			names := declsAt(act.Package, d.Pos)
			if len(names) > 1 && judged[act.Package.PkgPath+"\t"+names[len(names)-1]] {
				names = names[len(names)-1:]
			}
			for _, name := range names {
				key := act.Package.PkgPath + "\t" + name
				out[key] = append(out[key], found{act.Package.Fset.Position(d.Pos), d.Category, d.Message})
			}
		}
	}
	return out
}

// declsAt names the type or package-level variable whose declaration
// holds pos, and the type of a member declared there: its element type
// for an array or slice.
func declsAt(p *packages.Package, pos token.Pos) []string {
	var names []string
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gen, ok := d.(*ast.GenDecl)
			if !ok || pos < gen.Pos() || pos >= gen.End() {
				continue
			}
			for _, spec := range gen.Specs {
				if pos < spec.Pos() || pos >= spec.End() {
					continue
				}
				switch s := spec.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					names = append(names, s.Names[0].Name)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || id.Pos() != pos {
				return true
			}
			if obj := p.TypesInfo.Defs[id]; obj != nil {
				// A member holding a struct type of its own by value
				// (embedded), or a table of them.
				elem := obj.Type()
				switch t := obj.Type().Underlying().(type) {
				case *types.Array:
					elem = t.Elem()
				case *types.Slice:
					elem = t.Elem()
				}
				if n, ok := types.Unalias(elem).(*types.Named); ok && n.Obj().Pkg() == p.Types {
					names = append(names, n.Obj().Name())
				}
			}
			return false
		})
	}
	return names
}

// score holds the counts of one GOARCH.
type score struct {
	tp, fp, fn, tn        int
	wasteHit, wasteMissed int
	wasteFalse            int
	misses                []string
}

func (s score) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s score) recall() float64    { return ratio(s.tp, s.tp+s.fn) }
func (s score) wasteRecall() float64 {
	return ratio(s.wasteHit, s.wasteHit+s.wasteMissed)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// The corpus goals, and the floors below which the test fails: the
// scores of today's analyzer, so that no change makes it worse. The
// floors rise to the goals as the analyzer does.
const (
	goalPrecision = 0.95
	goalRecall    = 0.90
	goalWaste     = 0.80
)

var floors = map[string]struct{ precision, recall, waste float64 }{
	"amd64": {1.0, 0.96, 1.0},
	"arm64": {1.0, 0.93, 1.0},
}

// TestCorpus scores the analyzer on reproductions of real false-sharing
// fixes and of deliberate padding (testdata/src/corpus, each citing its
// upstream repository and commit; the verdicts in testdata/corpus):
// precision and recall of the types flagged, per GOARCH, and the recall
// of whole-line waste (FS5) with no waste reported on a clean type.
func TestCorpus(t *testing.T) {
	rows := readCorpus(t)
	var pkgs []string
	for _, r := range rows {
		if !slices.Contains(pkgs, r.pkg) {
			pkgs = append(pkgs, r.pkg)
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		t.Run(arch, func(t *testing.T) {
			judged := map[string]bool{}
			for _, r := range rows {
				judged[r.pkg+"\t"+strings.Split(r.typ, "[")[0]] = true
			}
			got := analyseCorpus(t, arch, pkgs, judged)
			var s score
			for _, r := range rows {
				key := r.pkg + "\t" + strings.Split(r.typ, "[")[0]
				fs := got[key]
				flagged := len(fs) > 0
				waste := slices.ContainsFunc(fs, func(f found) bool { return f.rule == falsesharing.WholeLinePadding.ID })
				switch want := r.want[arch]; {
				case want && flagged:
					s.tp++
				case want:
					s.fn++
					s.misses = append(s.misses, fmt.Sprintf("missed %s %s (%s, %s)", r.pkg, r.typ, r.rule, r.upstream))
				case flagged:
					s.fp++
					for _, f := range fs {
						s.misses = append(s.misses, fmt.Sprintf("false alarm %s %s: %s: %s", r.pkg, r.typ, f.pos, f.msg))
					}
				default:
					s.tn++
				}
				if r.rule == falsesharing.WholeLinePadding.ID && r.want[arch] {
					if waste {
						s.wasteHit++
					} else {
						s.wasteMissed++
					}
				} else if waste && !r.want[arch] {
					s.wasteFalse++
				}
			}
			for key, fs := range got {
				if !judged[key] {
					for _, f := range fs {
						s.misses = append(s.misses, fmt.Sprintf("unjudged finding in %s: %s: %s", strings.ReplaceAll(key, "\t", " "), f.pos, f.msg))
					}
				}
			}
			slices.Sort(s.misses)
			for _, m := range s.misses {
				t.Log(m)
			}
			t.Logf("%s: %d verdicts; precision %.2f (goal %.2f), recall %.2f (goal %.2f), waste recall %.2f (goal %.2f), %d waste false alarms; tp %d fp %d fn %d tn %d",
				arch, len(rows), s.precision(), goalPrecision, s.recall(), goalRecall, s.wasteRecall(), goalWaste, s.wasteFalse, s.tp, s.fp, s.fn, s.tn)
			f := floors[arch]
			if s.precision() < f.precision || s.recall() < f.recall || s.wasteRecall() < f.waste {
				t.Errorf("%s: below the floor (precision %.2f, recall %.2f, waste recall %.2f)", arch, f.precision, f.recall, f.waste)
			}
		})
	}
}
