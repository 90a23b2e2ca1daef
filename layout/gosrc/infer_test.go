package gosrc

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/placement"
)

// checked is one type-checked source file with its directives.
type checked struct {
	files []*ast.File
	info  *types.Info
	pkg   *types.Package
	dirs  Directives
}

// typecheck parses and type-checks src as package p, importing the
// standard library (sync, sync/atomic) from source.
func typecheck(t *testing.T, src string) *checked {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Types:      map[ast.Expr]types.TypeAndValue{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	dirs, err := ParseDirectives(fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("directives: %v", err)
	}
	return &checked{files: []*ast.File{f}, info: info, pkg: pkg, dirs: dirs}
}

// uses returns AtomicUses keyed by type name.
func (c *checked) uses() map[string][]string {
	out := map[string][]string{}
	for tn, members := range AtomicUses(c.files, c.info) {
		out[tn.Name()] = members
	}
	return out
}

// infer builds the amd64 layout of the named type and returns it with the
// paths InferPaths gives it, the sync/atomic address uses included.
func (c *checked) infer(t *testing.T, name string) (*layout.Struct, []*access.Path) {
	t.Helper()
	tn, ok := c.pkg.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		t.Fatalf("no type %s", name)
	}
	b, err := NewBuilder("amd64", layout.SourceGo, c.dirs)
	if err != nil {
		t.Fatal(err)
	}
	s, err := b.Build("p."+name, tn.Type(), 0, "")
	if err != nil {
		t.Fatal(err)
	}
	paths := InferPaths(s, tn.Type(), c.dirs, AtomicUses(c.files, c.info)[tn])
	for _, p := range paths {
		if !p.Inferred || !strings.HasPrefix(p.Doc, "inferred: ") {
			t.Errorf("%s: path %s: Inferred %v, Doc %q; want an inferred path whose Doc says why", name, p.Name, p.Inferred, p.Doc)
		}
		if _, err := access.Resolve(p, s); err != nil {
			t.Errorf("%s: inferred path %s does not resolve: %v", name, p, err)
		}
	}
	return s, paths
}

func specs(paths []*access.Path) []string {
	var out []string
	for _, p := range paths {
		out = append(out, p.String())
	}
	return out
}

func TestAtomicUses(t *testing.T) {
	c := typecheck(t, `package p

import (
	"sync/atomic"
	at "sync/atomic"
)

type Inner struct {
	b int64
	c int32
}

type Shard struct{ state uint32 }

type S struct {
	n      int64
	arr    [4]uint32
	a      Inner
	Inner  // embedded: b and c are promoted
	shards [4]struct{ n int64 }
	v      atomic.Int64
	p      *int64
	m      int64
	plain  int64
}

func (s *S) f(i int) {
	atomic.AddInt64(&s.n, 1)
	atomic.AddInt64(&s.n, 2) // once only
	atomic.LoadUint32(&s.arr[i])
	atomic.AddInt64(&s.a.b, 1)
	atomic.AddInt32(&s.c, 1) // promoted through the embedded Inner
	atomic.AddInt64(&s.shards[i].n, 1)
	s.v.Add(1) // a method of an atomic type, not a sync/atomic function
	add := s.v.Add
	add(1)
	atomic.AddInt64(s.p, 1) // no address taken: the pointee is not a member
	at.StoreInt64(&(s.m), 2)
	_ = s.plain
}

func g() {
	var in Inner
	atomic.AddInt64(&in.b, 1)
	var anon struct{ n int64 }
	atomic.AddInt64(&anon.n, 1) // not a named struct: nobody's member
}
`)
	got := c.uses()
	want := map[string][]string{
		"S":     {"n", "arr[]", "a.b", "Inner.c", "shards[].n", "m"},
		"Inner": {"b"},
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if !slices.Equal(got[name], want[name]) {
			t.Errorf("AtomicUses[%s] = %q, want %q", name, got[name], want[name])
		}
	}
	for name, members := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("AtomicUses[%s] = %q, want nothing", name, members)
		}
	}
}

// TestAtomicUsesNamedElement checks an atomic on a member of an element of
// an array whose element type is a named struct: the use names the
// element's member, "shards[].state", as for an anonymous element type,
// and each shard's path writes that member only, not the element's
// padding.
func TestAtomicUsesNamedElement(t *testing.T) {
	c := typecheck(t, `package p

import "sync/atomic"

type Shard struct {
	state uint32
	_     [60]byte
}

type Table struct {
	shards [8]Shard
	size   int64
}

func (t *Table) Load(i int) uint32 { return atomic.LoadUint32(&t.shards[i].state) }
`)
	if got := c.uses()["Table"]; !slices.Equal(got, []string{"shards[].state"}) {
		t.Errorf("AtomicUses[Table] = %q, want [shards[].state]", got)
	}
	s, paths := c.infer(t, "Table")
	if len(paths) != 9 || paths[0].String() != "shards[0] cpus=1 rate=hot write=shards[0].state" || paths[8].String() != "readers cpus=all rate=hot read=size" {
		t.Errorf("%s: paths %q; want shards[0]..shards[7], one CPU each, and readers of size", s.Name, specs(paths))
	}
}

func TestInferPaths(t *testing.T) {
	c := typecheck(t, `package p

import (
	"sync"
	"sync/atomic"
)

type Counters struct {
	shards [8]struct{ n atomic.Int64 }
}

type Padded struct {
	shards [8]struct {
		n atomic.Int64
		_ [56]byte
	}
}

type Limiter struct {
	hits  atomic.Int64
	limit int64
	name  string
}

type T struct {
	a atomic.Int64
	_ [48]byte
	b atomic.Int64
}

type Locked struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	n    int
	_    [16]byte
	_    int64
	zero struct{}
	none [0]int64
	tail int32
	end  [0]func()
}

type Stats struct {
	hits atomic.Int64
	//mglayout:cold
	resets atomic.Int64
	limit  int64
	name   string //mglayout:ignore set before sharing
}

type Outer struct {
	st    Stats
	Stats // embedded
	//mglayout:ignore the owner's business
	skip Limiter
	cfg  int64
}

type Marked struct {
	a int64
	//mglayout:hot
	b int64
	p *int64
}

type Addr struct {
	n   int64
	max int64
}

func (a *Addr) inc() { atomic.AddInt64(&a.n, 1) }

type Quiet struct {
	a, b int64
	s    string
}

type ColdOnly struct {
	//mglayout:cold
	a atomic.Int64
	//mglayout:ignore only at start-up
	mu sync.Mutex
	b  int64
}

type Big struct {
	slots [100]atomic.Uint32
}

type One struct {
	slot [1]atomic.Int64
	x    int64
}

type Ptr struct {
	p atomic.Pointer[int]
	x bool
}
`)
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"Limiter", []string{"hits cpus=all rate=hot add=hits", "readers cpus=all rate=hot read=limit,name"}},
		// Padding is nobody's: no readers at all.
		{"T", []string{"a cpus=all rate=hot add=a", "b cpus=all rate=hot add=b"}},
		// A lock is taken with a CAS; padding and zero-size members are
		// never read.
		{"Locked", []string{"mu cpus=all rate=hot cas=mu", "rw cpus=all rate=hot cas=rw", "readers cpus=all rate=hot read=n,tail"}},
		// Cold and ignored members take no part.
		{"Stats", []string{"hits cpus=all rate=hot add=hits", "readers cpus=all rate=hot read=limit"}},
		// Nested and embedded structs: their members, by full path; an
		// ignored member with everything inside it left out.
		{"Outer", []string{
			"st.hits cpus=all rate=hot add=st.hits", "Stats.hits cpus=all rate=hot add=Stats.hits",
			"readers cpus=all rate=hot read=st.limit,Stats.limit,cfg",
		}},
		{"Marked", []string{"b cpus=all rate=hot add=b", "readers cpus=all rate=hot read=a,p"}},
		// A member whose address goes to sync/atomic.
		{"Addr", []string{"n cpus=all rate=hot add=n", "readers cpus=all rate=hot read=max"}},
		{"One", []string{"slot cpus=all rate=hot add=slot", "readers cpus=all rate=hot read=x"}},
		{"Ptr", []string{"p cpus=all rate=hot add=p", "readers cpus=all rate=hot read=x"}},
		// Nothing written concurrently: no paths at all, not even readers.
		{"Quiet", nil},
		{"ColdOnly", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, paths := c.infer(t, tc.name)
			if got := specs(paths); !slices.Equal(got, tc.want) {
				t.Errorf("paths:\n got %q\nwant %q", got, tc.want)
			}
			for _, p := range paths {
				if p.Rate != access.Hot {
					t.Errorf("path %s: rate %v, want hot", p.Name, p.Rate)
				}
			}
		})
	}

	// A sharded counter: one path per shard, one CPU each, storing into
	// its own 8 bytes; no readers.
	s, paths := c.infer(t, "Counters")
	if len(paths) != 8 {
		t.Errorf("Counters: paths %q, want one per shard", specs(paths))
	}
	for i, p := range paths {
		if p.Name != fmt.Sprintf("shards[%d]", i) || p.CPUs != 1 || p.Rate != access.Hot {
			t.Errorf("Counters: path %s, want shards[%d] cpus=1 rate=hot", p, i)
		}
		if got, want := stores(t, p, s), fmt.Sprintf("[%d,%d)", 8*i, 8*i+8); got != want {
			t.Errorf("Counters: path %s stores into %s, want %s", p, got, want)
		}
	}

	// Why each is hot, in its Doc.
	_, paths = c.infer(t, "Locked")
	if paths[0].Doc != "inferred: sync.Mutex" || paths[1].Doc != "inferred: sync.RWMutex" {
		t.Errorf("Locked: docs %q, %q", paths[0].Doc, paths[1].Doc)
	}
	_, paths = c.infer(t, "Addr")
	if paths[0].Doc != "inferred: address passed to sync/atomic" {
		t.Errorf("Addr: doc %q", paths[0].Doc)
	}
	_, paths = c.infer(t, "Marked")
	if paths[0].Doc != "inferred: marked //mglayout:hot" {
		t.Errorf("Marked: doc %q", paths[0].Doc)
	}
	_, paths = c.infer(t, "Counters")
	// The element is a struct holding an atomic, not an atomic itself.
	if want := "inferred: elements holding atomics or locks, one CPU per element"; paths[0].Doc != want {
		t.Errorf("Counters: doc %q, want %q", paths[0].Doc, want)
	}

	// An array of more than 64 hot elements gets a path for each of the
	// first 64.
	_, paths = c.infer(t, "Big")
	if len(paths) != maxShardPaths || paths[63].String() != "slots[63] cpus=1 rate=hot write=slots[63]" {
		t.Errorf("Big: %d paths, the last %s; want %d, the last slots[63]", len(paths), paths[len(paths)-1], maxShardPaths)
	}
	if paths[0].Doc != "inferred: sync/atomic.Uint32 elements, one CPU per element" {
		t.Errorf("Big: doc %q", paths[0].Doc)
	}
}

// TestInferPathsPaddedShards checks what the per-shard writers of a padded
// shard array touch: the atomic in each element, not the padding that
// keeps the elements apart. Nobody stores into the padding, so a shard's
// writes must not reach the next element's line.
func TestInferPathsPaddedShards(t *testing.T) {
	c := typecheck(t, `package p

import "sync/atomic"

type Padded struct {
	shards [8]struct {
		n atomic.Int64
		_ [56]byte
	}
}
`)
	s, paths := c.infer(t, "Padded")
	if len(paths) != 8 {
		t.Fatalf("%d paths %q, want 8", len(paths), specs(paths))
	}
	for i, p := range paths {
		if got, want := stores(t, p, s), fmt.Sprintf("[%d,%d)", 64*i, 64*i+8); got != want {
			t.Errorf("path %s stores into %s, want %s (shards[%d].n only, not its padding)", p, got, want, i)
		}
	}
}

// stores returns the byte ranges of s that p stores into.
func stores(t *testing.T, p *access.Path, s *layout.Struct) string {
	t.Helper()
	touches, err := access.Resolve(p, s)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, tc := range touches {
		if tc.Op.Writes() {
			stored = append(stored, fmt.Sprintf("[%d,%d)", tc.Offset, tc.End))
		}
	}
	return strings.Join(stored, " ")
}

// TestLoadDeclaredPaths loads the paths package of the testdata module:
// declared paths come through as written, a type marked //mglayout:ignore
// is reported with its reason, and //mglayout:align makes the alignment
// declared.
func TestLoadDeclaredPaths(t *testing.T) {
	requireGoCommand(t)
	res, err := Load(Config{Dir: testdataModule, Archs: []string{"amd64"}}, []string{"./paths"})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*layout.Struct{}
	for _, s := range res.Structs {
		byName[strings.TrimPrefix(s.Name, "mglayout.test/paths.")] = s
	}
	ring := byName["Ring"]
	if ring == nil {
		t.Fatalf("no Ring in %d structs", len(res.Structs))
	}
	got := specs(res.Paths[ring])
	want := []string{
		"producer cpus=1 rate=hot write=tail read=head,buf",
		"consumer cpus=1 rate=hot write=head read=tail,buf",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Ring paths %q, want %q", got, want)
	}
	for _, p := range res.Paths[ring] {
		if p.Inferred || !strings.Contains(p.Pos, "paths.go:") {
			t.Errorf("Ring path %s: Inferred %v, Pos %q; want declared with its position", p.Name, p.Inferred, p.Pos)
		}
	}
	if got := res.Paths[ring][0].Doc; got != "the producer publishes tail" {
		t.Errorf("Ring producer doc %q, want the note after --", got)
	}

	tick := byName["Clock"]
	if tick == nil {
		t.Fatal("no Clock")
	}
	if got := specs(res.Paths[tick]); !slices.Equal(got, []string{"tick cpus=1 rate=250/s seqwrite=seq write=sec,nsec", "reader cpus=all rate=hot seqread=seq read=sec,nsec"}) {
		t.Errorf("Clock paths %q", got)
	}
	if !slices.Equal(res.Placement[tick], placement.Policy{placement.Declared}) || tick.Align != 64 {
		t.Errorf("Clock: placement %v, align %d; want a declared alignment of 64", res.Placement[tick], tick.Align)
	}

	legacy := byName["Legacy"]
	if legacy == nil || res.Ignored[legacy] != "replaced by Ring" {
		t.Errorf("Legacy: ignored %q, want the reason %q", res.Ignored[legacy], "replaced by Ring")
	}
	if ring != nil && res.Ignored[ring] != "" {
		t.Errorf("Ring ignored: %q", res.Ignored[ring])
	}
}

// TestAtomicElements checks which atomics name elements of other
// allocations: of a slice, or of an array through a pointer; an array
// inside a struct is a member, named by AtomicUses.
func TestAtomicElements(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"atomic.AddUint64(&s.cells[i], 1)", true},
		{"slots := s.all[i&1]; atomic.AddUint64(&slots[i], 1)", true},
		{"atomic.AddUint64(&s.inline[i], 1)", false},
		{"atomic.AddUint64(s.p, 1)", false},
		{"_ = s.cells[i]", false},
	} {
		c := typecheck(t, `package p

import "sync/atomic"

type S struct {
	cells  []uint64
	all    [2]*[8]uint64
	inline [8]uint64
	p      *uint64
}

var _ = atomic.AddUint64

func (s *S) f(i int) { `+tc.body+` }
`)
		if got := AtomicElements(c.files, c.info); got != tc.want {
			t.Errorf("%s: AtomicElements = %v, want %v", tc.body, got, tc.want)
		}
	}
}
