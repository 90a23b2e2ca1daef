package concurrency_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
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
	scopes[m] = p.Types.Scope()
	return m
}

// scopes keeps each loaded model's package scope, to look types up in.
var scopes = map[*concurrency.Model]*types.Scope{}

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
	exceptional := ""
	if a.Exceptional {
		exceptional = " exceptional"
	}
	return fmt.Sprintf("%s %s.%s atomic=%v fresh=%v const=%q locks=%v index=%v%s",
		[]string{"load", "store", "update"}[a.Kind], a.Obj.Name(), a.Member, a.Atomic, a.Fresh, a.ConstStore, locks, a.Index, exceptional)
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
		`  update Stats.slots[].n atomic=true fresh=false const="" locks=[] index=per CPU or goroutine, at random or by a ticket`,
		`  store Stats.done atomic=true fresh=false const="true" locks=[] index=`,
		// Do counts a failure under the lock only if f failed.
		`  store Stats.cfg atomic=false fresh=false const="" locks=[Stats.mu] index= exceptional`,
		// A slot loaded from a token is as random as what was stored
		// there; Time.After is no timer.
		"op (*Readers).Enter: steady",
		`  update Readers.slots[] atomic=true fresh=false const="" locks=[] index=per CPU or goroutine, at random or by a ticket`,
		// An object received from a channel, or sent on one later, is
		// the operation's own.
		`  store Buf.tag atomic=false fresh=true const="\"x\"" locks=[] index=`,
		`  store Buf.n atomic=true fresh=true const="0" locks=[] index=`,
		`  update Ring.warned atomic=true fresh=false const="1" locks=[] index=`,
		"op Verbose: a setter",
		"op (*Stats).Limit: a getter",
		"op (*Cache).ForEachShard: a scrape",
		`  update Stats.slots[].n atomic=true fresh=false const="" locks=[] index=by a constant`,
		`  store Stats.cfg atomic=false fresh=false const="" locks=[Stats.mu] index=`,
		"op (*Stats).UpdateLimit: a setter",
		"op (*Vec).CurryWith: a constructor",
		"op the goroutine started in inParallel: started by a lifecycle method",
		"op (*Vec).CurryAny: a constructor",
		"op (*Vec).MustCurryWith: a constructor",
		"op (*Vec).WriteText: a scrape",
		// Exceptional paths: on the way to returning an error, beside
		// a sync.Cond's Wait, once the object is closed (two flags
		// joined by ||); the steady path is not.
		`  update Table.absent atomic=true fresh=false const="" locks=[] index= exceptional`,
		`  update Table.waiting atomic=true fresh=false const="" locks=[Table.mu] index= exceptional`,
		`  update Table.late atomic=true fresh=false const="" locks=[] index= exceptional`,
		`  update Table.hits atomic=true fresh=false const="" locks=[] index=`,
		"op (*RWBiased).Lock: the writer side of a lock whose doc says writers are rare",
		"op (*RWBiased).RLock: steady",
		"op (*RWPlain).Lock: steady",
		"op (*Table).CachedReport: a scrape",
		// A cached copy refreshed: the read of head is exceptional, the
		// read of tail is not.
		`  load CachedRing.head atomic=true fresh=false const="" locks=[] index= exceptional`,
		`  load CachedRing.tail atomic=true fresh=false const="" locks=[] index=`,
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

// TestBuildFailure checks that a package the SSA builder cannot handle
// is an error naming the package, not a crash: here, type information
// with no types recorded for the package's expressions.
func TestBuildFailure(t *testing.T) {
	p := loadPackage(t, "model")
	info := *p.TypesInfo
	info.Types = map[ast.Expr]types.TypeAndValue{}
	m, err := concurrency.Build(p.Fset, p.Types, p.Syntax, &info, nil, nil)
	if err == nil || m != nil {
		t.Fatalf("Build with no expression types = %v, %v; want an error", m, err)
	}
	if !strings.HasPrefix(err.Error(), "model: the concurrency model cannot be built: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q does not name the package in one line", err)
	}
}

// TestTouchesSliceHeader checks that a write to a slice member's element
// is a read of the member itself (its header) and a write of its
// elements.
func TestTouchesSliceHeader(t *testing.T) {
	m := load(t, "model")
	ring := scopes[m].Lookup("Ring")
	for _, tc := range []struct {
		member string
		slice  bool
		writes bool
	}{{"slots", false, false}, {"slots[]", true, true}} {
		ts := m.Touches(ring, tc.member, tc.slice)
		if len(ts) != 1 || ts[0].Writes != tc.writes {
			t.Errorf("Touches(Ring, %q, %v) = %+v; want one touch by Put, writing: %v", tc.member, tc.slice, ts, tc.writes)
		}
	}
}

// TestInterfaceCalls checks that a call through an interface runs the
// package's implementations: Timer.Record reports to the one Sink.
func TestInterfaceCalls(t *testing.T) {
	m := load(t, "model")
	for _, op := range m.Ops {
		if op.Name != "(*Timer).Record" {
			continue
		}
		for _, a := range op.Accesses {
			if a.Obj.Name() == "Sink" && a.Member == "total" && a.Kind == concurrency.Store && len(a.Locks) == 1 {
				return
			}
		}
		t.Fatalf("(*Timer).Record does not write Sink.total under Sink.mu: %+v", op.Accesses)
	}
	t.Fatal("no operation (*Timer).Record")
}

// TestCallbacks checks that a function value kept in a field runs in the
// calls through it: Shard.Delete runs the callback NewCache chose, under
// the shard's lock, and the callbacks are no operations of their own.
func TestCallbacks(t *testing.T) {
	m := load(t, "model")
	for _, op := range m.Ops {
		if strings.Contains(op.Name, "countRemove") || strings.Contains(op.Name, "logRemove") {
			t.Errorf("callback %s is an operation of its own", op.Name)
		}
	}
	for _, op := range m.Ops {
		if op.Name != "(*Shard).Delete" {
			continue
		}
		for _, a := range op.Accesses {
			if a.Obj.Name() == "Cache" && a.Member == "removed" && a.Kind == concurrency.Update && len(a.Locks) == 1 && a.Locks[0].Member == "mu" {
				return
			}
		}
		t.Fatalf("(*Shard).Delete does not update Cache.removed under Shard.mu: %+v", op.Accesses)
	}
	t.Fatal("no operation (*Shard).Delete")
}

// TestTestsAreNoOperations checks that functions of _test.go files,
// loaded with the package as go vet loads its test variant, are no
// operations: a test runs in the test binary, not beside the package's
// users.
func TestTestsAreNoOperations(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Tests: true, Dir: filepath.Join(dir, "src", "withtests"),
		Env: append(envWithout("GOPATH", "GO111MODULE", "GOFLAGS"), "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS=")}
	pkgs, err := packages.Load(cfg, "withtests")
	if err != nil {
		t.Fatal(err)
	}
	var p *packages.Package
	for _, q := range pkgs {
		if len(q.Syntax) == 2 {
			p = q // the package with its in-package tests
		}
	}
	if p == nil || len(p.Errors) > 0 {
		t.Fatalf("load withtests with its tests: %v", pkgs)
	}
	m, err := concurrency.Build(p.Fset, p.Types, p.Syntax, p.TypesInfo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := dump(m)
	if !strings.Contains(got, "op (*Stats).Add: steady") || strings.Contains(got, "TestLimit") {
		t.Errorf("want (*Stats).Add and no TestLimit among the operations:\n%s", got)
	}
}
