package concurrency_test

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
)

// load type-checks a package of testdata/src, GOPATH-style, and builds
// its model.
func load(t *testing.T, path string) *concurrency.Model {
	t.Helper()
	p := loadPackage(t, path)
	m, err := concurrency.Build(p.Fset, p.Types, p.Syntax, p.TypesInfo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loadPackage(t *testing.T, path string) *packages.Package {
	t.Helper()
	dir, _ := filepath.Abs("testdata")
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: filepath.Join(dir, "src", path),
		Env: append(envWithout("GOPATH", "GO111MODULE", "GOFLAGS"), "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS=")}
	pkgs, err := packages.Load(cfg, path)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load %s: %v %v", path, err, pkgs)
	}
	return pkgs[0]
}

// dump writes each operation and its accesses, one line each, sorted.
func dump(m *concurrency.Model) string {
	var lines []string
	for _, op := range m.Ops {
		lines = append(lines, fmt.Sprintf("op %s: %s", op.Name, rareText(op)))
		for _, a := range op.Accesses {
			lines = append(lines, "  "+accessText(a))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// dumpOf writes the accesses to the objects keep keeps, each with its
// operation, one line each, sorted, without duplicates.
func dumpOf(m *concurrency.Model, keep func(types.Object) bool) string {
	var lines []string
	for _, op := range m.Ops {
		for _, a := range op.Accesses {
			if keep(a.Obj) {
				lines = append(lines, fmt.Sprintf("%s (%s): %s", op.Name, rareText(op), accessText(a)))
			}
		}
	}
	slices.Sort(lines)
	return strings.Join(slices.Compact(lines), "\n")
}

func rareText(op *concurrency.Op) string {
	if op.Rare == "" {
		return "steady"
	}
	return op.Rare
}

func accessText(a concurrency.Access) string {
	var locks []string
	for _, l := range a.Locks {
		locks = append(locks, l.Obj.Name()+"."+l.Member)
	}
	errPath := ""
	if a.ErrPath {
		errPath = " after an error"
	}
	return fmt.Sprintf("%s %s.%s atomic=%v fresh=%v const=%q locks=%v index=%v%s",
		[]string{"load", "store", "update"}[a.Kind], a.Obj.Name(), a.Member, a.Atomic, a.Fresh, a.ConstStore, locks, a.Index, errPath)
}

// TestModel checks what the model reads from testdata/src/model: who
// runs on the steady state, which accesses are atomic, locked, made
// before publication, and how a shard is chosen.
func TestModel(t *testing.T) {
	got := dump(load(t, "model"))
	for _, want := range []string{
		"op (*Stats).Add: steady",
		"op (*Stats).Push: steady",
		"op (*Stats).Close: a lifecycle method",
		"op (*Stats).SetLimit: a setter",
		"op NewStats: a constructor",
		"op the goroutine running (*Stats).loop: runs on a timer",
		// inc's atomic add on c.v is Add's update of its member hits.v.
		`  update Stats.hits.v atomic=true fresh=false const="" locks=[] index=`,
		// NewStats initialises what it allocated.
		`  store Stats.limit atomic=false fresh=true const="10" locks=[] index=`,
		// pushLocked's append runs under Push's lock.
		`  store Stats.items atomic=false fresh=false const="" locks=[Stats.mu] index=`,
		`  update Stats.slots[].n atomic=true fresh=false const="" locks=[] index=per CPU, at random or by a ticket`,
		`  store Stats.done atomic=true fresh=false const="true" locks=[] index=`,
		// Do counts a failure under the lock only if f failed.
		`  store Stats.cfg atomic=false fresh=false const="" locks=[Stats.mu] index= after an error`,
	} {
		if !strings.Contains("\n"+got+"\n", "\n"+want+"\n") {
			t.Errorf("model lacks %q; it is:\n%s", want, got)
		}
	}
	if strings.Contains(got, "op (*counter).inc") || strings.Contains(got, "op (*Stats).pushLocked") {
		t.Errorf("a function the package calls is an operation of its own:\n%s", got)
	}
}

// TestInterest checks that a model built for some types only, which
// leaves out the functions that cannot reach them, reads what the model
// of the whole package reads of those types: helpers that name other
// types, a cycle of calls entered from a function of no interest, a
// package-level table.
func TestInterest(t *testing.T) {
	p := loadPackage(t, "pruned")
	scope := p.Types.Scope()
	for _, names := range [][]string{{"Table"}, {"tables"}, {"inner"}, {"Table", "tables", "inner"}} {
		var objs []types.Object
		for _, name := range names {
			objs = append(objs, scope.Lookup(name))
		}
		keep := func(obj types.Object) bool { return slices.Contains(objs, obj) }
		whole, err := concurrency.Build(p.Fset, p.Types, p.Syntax, p.TypesInfo, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		some, err := concurrency.Build(p.Fset, p.Types, p.Syntax, p.TypesInfo, nil, keep)
		if err != nil {
			t.Fatal(err)
		}
		want, got := dumpOf(whole, keep), dumpOf(some, keep)
		if want == "" || got != want {
			t.Errorf("the model built for %v reads:\n%s\nthe model of the whole package reads of them:\n%s", names, got, want)
		}
	}
}

func envWithout(names ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if k == n {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
