package falsesharing_test

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing"
)

// TestFacts checks that the hot members of an exported type travel to the
// packages that import it. shard.Counter's n is a plain int64 that only
// shard updates, through atomic.AddInt64(&c.n, 1); analysing shard
// exports the fact hot(n) on Counter, and only that fact tells the
// analysis of user that Table's [8]shard.Counter is a table of 8-byte
// hot shards (FS1). Running user analyses shard first, as go vet does.
func TestFacts(t *testing.T) {
	runEach(t, "amd64", "", []string{"shard", "user"})
}

// TestFactsNested checks the fact where the imported counter is not the
// element itself but a member of it: an anonymous struct element holding
// a Counter and a tag, and a local named wrapper of a Counter. Each
// element holds a hot n, so the tables are FS1 like user.Table.
func TestFactsNested(t *testing.T) {
	runEach(t, "amd64", "", []string{"usernested"})
}

// TestHotFacts checks the facts HotMembers exports, the part of the
// analysis that runs on every dependency: members written through
// sync/atomic whatever their type, members marked //mglayout:hot, and
// imported facts and the package's own wrappers carried into the types
// that hold them. Atomics and
// locks are hot by their type and need no fact.
func TestHotFacts(t *testing.T) {
	want := map[string][]string{
		"shard":         {"Counter: hot(n)", "Meter: hot(g.v)"},
		"user":          {"Padded: hot(cs[].c.n)", "Single: hot(c.n)", "Table: hot(cs[].n)"},
		"usernested":    {"Slots: hot(s[].c.n)", "Tagged: hot(cs[].c.n)"},
		"common/paths":  {"Hot: hot(seq)"},
		"amd64/metrics": {"CacheStats: hot(shards[].hits, shards[].misses)"},
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: analysistest.TestData(),
		Env: append(envGOPATH(t), "GOARCH=amd64")}
	var paths []string
	for p := range want {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatal(err)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{falsesharing.HotMembers}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range g.Roots {
		var got []string
		for _, f := range act.AllObjectFacts() {
			if f.Object.Pkg() == act.Package.Types {
				got = append(got, fmt.Sprintf("%s: %s", f.Object.Name(), f.Fact))
			}
		}
		slices.Sort(got)
		if w := want[act.Package.PkgPath]; !slices.Equal(got, w) {
			t.Errorf("%s: facts %q, want %q", act.Package.PkgPath, got, w)
		}
	}
}
