package falsesharing_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// The panel is a set of popular, concurrency-heavy modules at pinned
// versions (testdata/panel/go.mod), whose packages named in
// testdata/panel/packages.txt are checked as they are. It downloads the
// modules from the module proxy, so it runs only when asked:
//
//	go test ./layout/falsesharing -run 'TestPanel' -panel -v -timeout 30m
var panelFlag = flag.Bool("panel", false,
	"check the panel of real modules in testdata/panel (downloads them; see TestPanel)")

// panelArches are the GOARCHes the panel is checked for, each on its own
// build: their line sizes differ, and so may the findings.
var panelArches = []string{"amd64", "arm64"}

const panelDir = "testdata/panel"

// skipUnlessPanel skips a panel test unless -panel was given.
func skipUnlessPanel(t *testing.T) {
	t.Helper()
	if !*panelFlag {
		t.Skip("the panel downloads real modules; run it with: go test ./layout/falsesharing -run 'TestPanel' -panel -v -timeout 30m")
	}
}

// panelEnv is the environment the panel is loaded in for goarch. GOOS
// and CGO_ENABLED are fixed too, so that the files built, and so the
// findings, are the same on every host.
func panelEnv(goarch string) []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod", "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0")
}

// downloadPanel fetches the modules of a panel's directory.
func downloadPanel(t testing.TB, dir string) {
	t.Helper()
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
	}
}

// panelPackages reads the import paths in packages.txt.
func panelPackages(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(panelDir, "packages.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			paths = append(paths, line)
		}
	}
	if len(paths) == 0 {
		t.Fatalf("no packages in %s/packages.txt", panelDir)
	}
	return paths
}

// loadPanel loads the packages of a panel's directory for goarch, with
// all their dependencies' syntax, as the analyzer's facts need. A package
// that does not load fails the test.
func loadPanel(t *testing.T, dir, goarch string, paths []string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  panelEnv(goarch),
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != len(paths) {
		t.Fatalf("GOARCH=%s: loaded %d packages for the %d asked for", goarch, len(pkgs), len(paths))
	}
	bad := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("GOARCH=%s: %s: %v", goarch, p.ID, e)
			bad = true
		}
	})
	if bad {
		t.FailNow()
	}
	return pkgs
}

// panelFinding is one diagnostic on the panel, keyed by what stays put at
// pinned versions whatever the wording of the message.
type panelFinding struct {
	goarch, file string
	line         int
	rule         string
	msg          string
}

func (f panelFinding) key() string {
	return fmt.Sprintf("%s\t%s\t%d\t%s", f.goarch, f.file, f.line, f.rule)
}

// moduleFile names a file as its module's path and its path in the module,
// e.g. github.com/puzpuzpuz/xsync/v4/map.go, leaving out the version and
// where the module cache is.
func moduleFile(p *packages.Package, filename string) string {
	for _, m := range []*packages.Module{p.Module, moduleReplace(p.Module)} {
		if m == nil || m.Dir == "" {
			continue
		}
		if rel, err := filepath.Rel(m.Dir, filename); err == nil && !strings.HasPrefix(rel, "..") {
			return m.Path + "/" + filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filename)
}

func moduleReplace(m *packages.Module) *packages.Module {
	if m == nil || m.Replace == nil {
		return nil
	}
	return &packages.Module{Path: m.Path, Dir: m.Replace.Dir}
}

// analyzePanel runs the falsesharing analyzer on pkgs, built for goarch,
// at goarch's line size, and returns the findings sorted by key, each key
// once.
func analyzePanel(t *testing.T, goarch string, pkgs []*packages.Package) []panelFinding {
	t.Helper()
	setFlags(t, goarch, "")
	g, err := checker.Analyze([]*analysis.Analyzer{falsesharing.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatalf("GOARCH=%s: %v", goarch, err)
	}
	var found []panelFinding
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("GOARCH=%s: %s: %v", goarch, act.Package.ID, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			rule := d.Category
			if rule == "" {
				rule = "-"
			}
			found = append(found, panelFinding{
				goarch: goarch,
				file:   moduleFile(act.Package, pos.Filename),
				line:   pos.Line,
				rule:   rule,
				msg:    d.Message,
			})
		}
	}
	slices.SortFunc(found, func(a, b panelFinding) int { return strings.Compare(a.key(), b.key()) })
	return slices.CompactFunc(found, func(a, b panelFinding) bool { return a.key() == b.key() })
}

// A judgement is one row of judged.tsv: a finding read against the
// module's code and found true, debatable or false.
type judgement struct {
	verdict, reason string
	row             int
}

var verdicts = []string{"true", "debatable", "false"}

const judgedHeader = "goarch\tfile\tline\trule\tverdict\treason"

// readJudged reads a panel's judged.tsv into judgements keyed as
// panelFinding.key.
func readJudged(t *testing.T, dir string) map[string]judgement {
	t.Helper()
	name := filepath.Join(dir, "judged.tsv")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	judged := map[string]judgement{}
	sc := bufio.NewScanner(f)
	row := 0
	for sc.Scan() {
		row++
		line := sc.Text()
		if row == 1 {
			if line != judgedHeader {
				t.Fatalf("%s:1: header %q, want %q", name, line, judgedHeader)
			}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 6 {
			t.Errorf("%s:%d: %d columns, want 6", name, row, len(cols))
			continue
		}
		if _, err := strconv.Atoi(cols[2]); err != nil {
			t.Errorf("%s:%d: line %q is not a number", name, row, cols[2])
			continue
		}
		if !slices.Contains(verdicts, cols[4]) {
			t.Errorf("%s:%d: verdict %q, want one of %v", name, row, cols[4], verdicts)
			continue
		}
		if strings.TrimSpace(cols[5]) == "" {
			t.Errorf("%s:%d: no reason given", name, row)
			continue
		}
		k := strings.Join(cols[:4], "\t")
		if prev, ok := judged[k]; ok {
			t.Errorf("%s:%d: the finding of row %d judged again", name, row, prev.row)
			continue
		}
		judged[k] = judgement{verdict: cols[4], reason: cols[5], row: row}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return judged
}

// TestPanel checks the panel's packages for each of panelArches and holds
// the findings against judged.tsv: every finding must be judged, every
// judgement must still match a finding, and the share of the judged
// findings true or debatable must not fall below today's. Under -v each finding's message is
// printed too.
func TestPanel(t *testing.T) {
	skipUnlessPanel(t)
	downloadPanel(t, panelDir)
	paths := panelPackages(t)
	judged := readJudged(t, panelDir)

	var all []panelFinding
	for _, goarch := range panelArches {
		pkgs := loadPanel(t, panelDir, goarch, paths)
		found := analyzePanel(t, goarch, pkgs)
		t.Logf("GOARCH=%s: %d findings in %d packages", goarch, len(found), len(pkgs))
		all = append(all, found...)
	}

	if testing.Verbose() {
		for _, f := range all {
			t.Logf("%s:%d: [%s %s] %s", f.file, f.line, f.goarch, f.rule, f.msg)
		}
	}

	counts := map[string]int{}
	var unjudged []string
	seen := map[string]bool{}
	for _, f := range all {
		k := f.key()
		seen[k] = true
		j, ok := judged[k]
		if !ok {
			unjudged = append(unjudged, k+"\t?\t"+oneLine(f.msg))
			continue
		}
		counts[j.verdict]++
	}
	var stale []judgement
	var staleKeys []string
	for k, j := range judged {
		if !seen[k] {
			stale = append(stale, j)
			staleKeys = append(staleKeys, k)
		}
	}
	if len(unjudged) > 0 {
		t.Errorf("%d findings have no judgement; judge each and paste its row, with the verdict (true, debatable or false) and a one-line reason in place of ? and the message, into %s/judged.tsv:\n%s\n%s",
			len(unjudged), panelDir, judgedHeader, strings.Join(unjudged, "\n"))
	}
	if len(stale) > 0 {
		slices.Sort(staleKeys)
		t.Errorf("%d judgements in %s/judged.tsv match no finding; remove them or judge the findings that took their place:\n%s",
			len(stale), panelDir, strings.Join(staleKeys, "\n"))
	}

	n := counts["true"] + counts["debatable"] + counts["false"]
	t.Logf("%d findings: %d judged (%d true, %d debatable, %d false), %d not judged; %d stale judgements",
		len(all), n, counts["true"], counts["debatable"], counts["false"], len(unjudged), len(stale))
	if n > 0 {
		share := float64(counts["true"]+counts["debatable"]) / float64(n)
		t.Logf("share judged true or debatable: %.3f", share)
		// The floor is the share of 2026-12-02, so that no change makes
		// it worse; the goal is 0.90.
		if share < 0.70 {
			t.Errorf("only %.1f%% of the judged findings are true or debatable, want at least 70%% (the goal is 90%%)", 100*share)
		}
	}
}

// oneLine makes a message fit one TSV cell.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// BenchmarkPanelVet runs mglayout vet on the panel's packages, as a user
// runs it, for one GOARCH and for two, and fieldalignment's command on the
// same packages, each a process of its own that loads the packages
// afresh; each runs once first, untimed, so that the go command's build
// cache holds the export data both read. Besides the time of a run it
// reports the process's peak resident memory, as peak-MB. Compare the
// runs with benchstat:
//
//	go test ./layout/falsesharing -run '^$' -bench PanelVet -panel -count 5 -timeout 1h
func BenchmarkPanelVet(b *testing.B) {
	if !*panelFlag {
		b.Skip("the panel downloads real modules; run it with: go test ./layout/falsesharing -run '^$' -bench PanelVet -panel -count 5 -timeout 1h")
	}
	downloadPanel(b, panelDir)
	paths := panelPackages(b)
	bin := b.TempDir()
	mglayout := filepath.Join(bin, "mglayout")
	fieldalignment := filepath.Join(bin, "fieldalignment")
	for _, build := range [][]string{
		{mglayout, "github.com/mglayout/mglayout/cmd/mglayout"},
		{fieldalignment, "golang.org/x/tools/go/analysis/passes/fieldalignment/cmd/fieldalignment"},
	} {
		if out, err := exec.Command("go", "build", "-o", build[0], build[1]).CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", build[1], err, out)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
		ok   []int // exit statuses of a run that worked: with and without findings
	}{
		{"tool=mglayout/goarch=amd64", slices.Concat([]string{mglayout, "vet", "-falsesharing.arch=amd64"}, paths), []int{0, 1}},
		{"tool=mglayout/goarch=amd64,arm64", slices.Concat([]string{mglayout, "vet", "-falsesharing.arch=amd64,arm64"}, paths), []int{0, 1}},
		{"tool=fieldalignment/goarch=amd64", slices.Concat([]string{fieldalignment}, paths), []int{0, 3}},
	} {
		run := func(b *testing.B) int64 {
			cmd := exec.Command(tc.args[0], tc.args[1:]...)
			cmd.Dir = panelDir
			cmd.Env = panelEnv("amd64")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			if code := cmd.ProcessState.ExitCode(); !slices.Contains(tc.ok, code) {
				b.Fatalf("%s: %v\n%s", tc.name, err, stderr.String())
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				return int64(ru.Maxrss) // kilobytes on Linux
			}
			return 0
		}
		run(b)
		b.Run(tc.name, func(b *testing.B) {
			var peak int64
			for b.Loop() {
				peak = max(peak, run(b))
			}
			b.ReportMetric(float64(peak)/1024, "peak-MB")
		})
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
