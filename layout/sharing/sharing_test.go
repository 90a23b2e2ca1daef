package sharing_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/placement"
	"github.com/mglayout/mglayout/layout/sharing"
)

// scalar is a depth-0 scalar member.
func scalar(name string, off, size int64) layout.Field {
	return layout.Field{Path: name, Name: name, Type: fmt.Sprintf("u%d", size*8), Offset: off, Size: size, Align: size, Parent: -1}
}

// newStruct builds a layout and checks the model's invariants.
func newStruct(t *testing.T, name string, size, align int64, fields ...layout.Field) *layout.Struct {
	t.Helper()
	s := &layout.Struct{Name: name, Source: layout.SourceKernel, Arch: "amd64", Size: size, Align: align, Fields: fields}
	if err := s.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return s
}

func parsePaths(t *testing.T, specs ...string) []*access.Path {
	t.Helper()
	var out []*access.Path
	for _, spec := range specs {
		p, err := access.Parse(spec)
		if err != nil {
			t.Fatalf("Parse(%q): %v", spec, err)
		}
		out = append(out, p)
	}
	return out
}

func analyze(t *testing.T, o *sharing.Object, lines ...int64) *sharing.ObjectAnalysis {
	t.Helper()
	a, err := sharing.Analyze([]*sharing.Object{o}, lines)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	if len(a.Objects) != 1 {
		t.Fatalf("Analyze: %d objects, want 1", len(a.Objects))
	}
	return &a.Objects[0]
}

func caseAt(t *testing.T, oa *sharing.ObjectAnalysis, line, phase int64) *sharing.Case {
	t.Helper()
	for i := range oa.Cases {
		if c := &oa.Cases[i]; c.Line == line && c.Phase == phase {
			return c
		}
	}
	t.Fatalf("no case for line %d phase %d", line, phase)
	return nil
}

func figures(t *testing.T, c *sharing.Case, path string) *sharing.PathFigures {
	t.Helper()
	for i := range c.Paths {
		if c.Paths[i].Path.Name == path {
			return &c.Paths[i]
		}
	}
	t.Fatalf("line %d phase %d: no figures for path %s", c.Line, c.Phase, path)
	return nil
}

// phasesOf lists the (line, phase) of every case in order.
func phasesOf(oa *sharing.ObjectAnalysis) [][2]int64 {
	var out [][2]int64
	for _, c := range oa.Cases {
		out = append(out, [2]int64{c.Line, c.Phase})
	}
	return out
}

func checkLines(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func checkPairs(t *testing.T, what string, got, want []sharing.Pair) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: pairs\n got %+v\nwant %+v", what, got, want)
	}
}

// (a) Two hot writers of different members on one 64-byte line share it
// falsely, each way.
func TestFalseSharing(t *testing.T) {
	s := newStruct(t, "two", 16, 64, scalar("a", 0, 8), scalar("b", 8, 8))
	o := &sharing.Object{Layout: s, Paths: parsePaths(t, "w1 cpus=1 write=a", "w2 cpus=1 rate=hot write=b")}
	oa := analyze(t, o, 64, 128)
	if got, want := phasesOf(oa), [][2]int64{{64, 0}, {128, 0}, {128, 64}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("cases %v, want %v", got, want)
	}
	for i := range oa.Cases {
		c := &oa.Cases[i]
		where := fmt.Sprintf("line %d phase %d", c.Line, c.Phase)
		if len(c.Lines) != 1 {
			t.Fatalf("%s: %d lines, want 1", where, len(c.Lines))
		}
		ls := c.Lines[0]
		if ls.Index != 0 || !slices.Equal(ls.Members, []string{"a", "b"}) ||
			!slices.Equal(ls.Writers, []string{"w1", "w2"}) || !slices.Equal(ls.Touchers, []string{"w1", "w2"}) {
			t.Errorf("%s: line %+v, want members [a b], writers and touchers [w1 w2]", where, ls)
		}
		checkPairs(t, where, ls.Pairs, []sharing.Pair{
			{Writer: "w1", Other: "w2", True: false, Members: []string{"b"}, Weight: 1e9},
			{Writer: "w2", Other: "w1", True: false, Members: []string{"a"}, Weight: 1e9},
		})
		for _, p := range []string{"w1", "w2"} {
			f := figures(t, c, p)
			checkLines(t, where+" "+p+" Lines", f.Lines, []int64{0})
			checkLines(t, where+" "+p+" FalseLines", f.FalseLines, []int64{0})
			checkLines(t, where+" "+p+" TrueLines", f.TrueLines, nil)
			checkLines(t, where+" "+p+" Exposed", f.Exposed, []int64{0})
			if f.Blocks128 != 1 {
				t.Errorf("%s %s: Blocks128 = %d, want 1", where, p, f.Blocks128)
			}
		}
		if w := c.FalseWeight(); w != 2e9 {
			t.Errorf("%s: FalseWeight = %g, want 2e9", where, w)
		}
		if fp := c.FalsePairs(); len(fp) != 2 || fp[0].Line != 0 || fp[1].Line != 0 {
			t.Errorf("%s: FalsePairs = %+v, want two on line 0", where, fp)
		}
	}
	// The object is 16 bytes: the rest of its line holds neighbours.
	c := caseAt(t, oa, 64, 0)
	if ls := c.Lines[0]; ls.ExposedBefore != 0 || ls.ExposedAfter != 48 {
		t.Errorf("64/0: exposed before %d after %d, want 0 and 48", ls.ExposedBefore, ls.ExposedAfter)
	}
	c = caseAt(t, oa, 128, 64)
	if ls := c.Lines[0]; ls.ExposedBefore != 64 || ls.ExposedAfter != 48 {
		t.Errorf("128/64: exposed before %d after %d, want 64 and 48", ls.ExposedBefore, ls.ExposedAfter)
	}
}

// (b) A writer and a reader of the same member share truly; (c) a reader
// that reads one member the writer writes and another it does not shares
// truly too, with only the written member named; a reader of only the
// other member shares falsely. A line where a path meets one writer
// truly and another falsely counts as false for it.
func TestTrueSharing(t *testing.T) {
	s := newStruct(t, "two", 64, 64, scalar("a", 0, 8), scalar("b", 8, 8))
	o := &sharing.Object{Layout: s, Paths: parsePaths(t,
		"w cpus=1 rate=250/s write=a",
		"same cpus=1 read=a",
		"both cpus=1 read=a,b",
		"other cpus=1 read=b",
	)}
	oa := analyze(t, o, 64, 128)
	c := caseAt(t, oa, 64, 0)
	checkPairs(t, "64/0", c.Lines[0].Pairs, []sharing.Pair{
		{Writer: "w", Other: "same", True: true, Members: []string{"a"}, Weight: 250},
		{Writer: "w", Other: "both", True: true, Members: []string{"a"}, Weight: 250},
		{Writer: "w", Other: "other", True: false, Members: []string{"b"}, Weight: 250},
	})
	if !slices.Equal(c.Lines[0].Writers, []string{"w"}) {
		t.Errorf("writers %v, want [w]", c.Lines[0].Writers)
	}
	for _, tt := range []struct {
		path        string
		true, false []int64
	}{
		{"same", []int64{0}, nil},
		{"both", []int64{0}, nil},
		{"other", nil, []int64{0}},
		{"w", nil, []int64{0}}, // meets "other" falsely
	} {
		f := figures(t, c, tt.path)
		checkLines(t, tt.path+" TrueLines", f.TrueLines, tt.true)
		checkLines(t, tt.path+" FalseLines", f.FalseLines, tt.false)
	}
	if w := c.FalseWeight(); w != 250 {
		t.Errorf("FalseWeight = %g, want 250", w)
	}

	// Without the reader of b, every pair is true and nothing weighs.
	o.Paths = o.Paths[:3]
	c = caseAt(t, analyze(t, o, 64), 64, 0)
	for _, p := range []string{"w", "same", "both"} {
		f := figures(t, c, p)
		checkLines(t, p+" TrueLines", f.TrueLines, []int64{0})
		checkLines(t, p+" FalseLines", f.FalseLines, nil)
	}
	if w := c.FalseWeight(); w != 0 {
		t.Errorf("FalseWeight = %g, want 0", w)
	}
	if fp := c.FalsePairs(); len(fp) != 0 {
		t.Errorf("FalsePairs = %+v, want none", fp)
	}
}

// (d) A path on every CPU that writes contends with itself: a true pair
// whose writer is the other. On one CPU it does not.
func TestContended(t *testing.T) {
	s := newStruct(t, "one", 8, 8, scalar("a", 0, 8))
	c := caseAt(t, analyze(t, &sharing.Object{Layout: s, Paths: parsePaths(t, "cas cpus=all cas=a")}, 64), 64, 0)
	checkPairs(t, "cpus=all", c.Lines[0].Pairs, []sharing.Pair{
		{Writer: "cas", Other: "cas", True: true, Members: []string{"a"}, Weight: c.Lines[0].Pairs[0].Weight},
	})
	if w := c.Lines[0].Pairs[0].Weight; w < 2e9 {
		t.Errorf("cpus=all hot: weight %g, want that of several CPUs (>= 2e9)", w)
	}
	f := figures(t, c, "cas")
	checkLines(t, "cpus=all TrueLines", f.TrueLines, []int64{0})
	checkLines(t, "cpus=all FalseLines", f.FalseLines, nil)

	c = caseAt(t, analyze(t, &sharing.Object{Layout: s, Paths: parsePaths(t, "cas cpus=1 cas=a")}, 64), 64, 0)
	checkPairs(t, "cpus=1", c.Lines[0].Pairs, nil)
	f = figures(t, c, "cas")
	checkLines(t, "cpus=1 Lines", f.Lines, []int64{0})
	checkLines(t, "cpus=1 TrueLines", f.TrueLines, nil)
	checkLines(t, "cpus=1 FalseLines", f.FalseLines, nil)

	// Several CPUs reading do not contend.
	c = caseAt(t, analyze(t, &sharing.Object{Layout: s, Paths: parsePaths(t, "r cpus=all read=a")}, 64), 64, 0)
	checkPairs(t, "reader cpus=all", c.Lines[0].Pairs, nil)
}

// (e) Exposure to unknown neighbours, and PaddedTo.
func TestExposure(t *testing.T) {
	s := newStruct(t, "small", 8, 64, scalar("x", 0, 8))
	o := &sharing.Object{Layout: s, Paths: parsePaths(t, "r cpus=1 read=x")}
	type exp struct {
		line, phase, before, after int64
	}
	check := func(oa *sharing.ObjectAnalysis, want []exp) {
		t.Helper()
		if got := len(oa.Cases); got != len(want) {
			t.Fatalf("PaddedTo %d: %d cases, want %d", s.PaddedTo, got, len(want))
		}
		for i, w := range want {
			c := &oa.Cases[i]
			if c.Line != w.line || c.Phase != w.phase {
				t.Errorf("case %d: line %d phase %d, want %d/%d", i, c.Line, c.Phase, w.line, w.phase)
				continue
			}
			ls := c.Lines[0]
			if len(c.Lines) != 1 || ls.ExposedBefore != w.before || ls.ExposedAfter != w.after {
				t.Errorf("PaddedTo %d, %d/%d: %d lines, exposed before %d after %d, want 1 line, %d and %d",
					s.PaddedTo, w.line, w.phase, len(c.Lines), ls.ExposedBefore, ls.ExposedAfter, w.before, w.after)
			}
			var wantExposed []int64
			if w.before > 0 || w.after > 0 {
				wantExposed = []int64{0}
			}
			if ls.Exposed() != (wantExposed != nil) {
				t.Errorf("PaddedTo %d, %d/%d: Exposed() = %v", s.PaddedTo, w.line, w.phase, ls.Exposed())
			}
			checkLines(t, fmt.Sprintf("PaddedTo %d, %d/%d: r Exposed", s.PaddedTo, w.line, w.phase), figures(t, c, "r").Exposed, wantExposed)
		}
	}
	oa := analyze(t, o, 64, 128)
	if !slices.Equal(s.Phases(128), []int64{0, 64}) {
		t.Fatalf("Phases(128) = %v, want [0 64]", s.Phases(128))
	}
	check(oa, []exp{{64, 0, 0, 56}, {128, 0, 0, 120}, {128, 64, 64, 56}})

	s.PaddedTo = 64
	check(analyze(t, o, 64, 128), []exp{{64, 0, 0, 0}, {128, 0, 0, 64}, {128, 64, 64, 0}})

	s.PaddedTo = 128
	check(analyze(t, o, 64, 128), []exp{{64, 0, 0, 0}, {128, 0, 0, 0}, {128, 64, 64, 0}})
}

// (f) 128-byte blocks at 64-byte lines: lines 0 and 1 are one aligned
// pair, lines 0 and 2 or 1 and 2 are two.
func TestBlocks128(t *testing.T) {
	s := newStruct(t, "three", 192, 64, scalar("f0", 0, 8), scalar("f1", 64, 8), scalar("f2", 128, 8))
	o := &sharing.Object{Layout: s, Paths: parsePaths(t, "p01 cpus=1 read=f0,f1", "p02 cpus=1 read=f0,f2", "p12 cpus=1 read=f1,f2")}
	oa := analyze(t, o, 64, 128)
	for _, tt := range []struct {
		line, phase int64
		path        string
		lines       []int64
		blocks      int
	}{
		{64, 0, "p01", []int64{0, 1}, 1},
		{64, 0, "p02", []int64{0, 2}, 2},
		{64, 0, "p12", []int64{1, 2}, 2},
		{128, 0, "p01", []int64{0}, 1},
		{128, 0, "p02", []int64{0, 1}, 2},
		{128, 0, "p12", []int64{0, 1}, 2},
		{128, 64, "p01", []int64{0, 1}, 2},
		{128, 64, "p02", []int64{0, 1}, 2},
		{128, 64, "p12", []int64{1}, 1},
	} {
		f := figures(t, caseAt(t, oa, tt.line, tt.phase), tt.path)
		where := fmt.Sprintf("%d/%d %s", tt.line, tt.phase, tt.path)
		checkLines(t, where+" Lines", f.Lines, tt.lines)
		if f.Blocks128 != tt.blocks {
			t.Errorf("%s: Blocks128 = %d, want %d", where, f.Blocks128, tt.blocks)
		}
	}
}

// (g) An object's placement decides the phases.
func TestPlacementPhases(t *testing.T) {
	s := newStruct(t, "pair", 16, 8, scalar("a", 0, 8), scalar("b", 8, 8))
	o := &sharing.Object{Layout: s, Paths: parsePaths(t, "w1 cpus=1 write=a", "w2 cpus=1 write=b"),
		Placement: placement.Policy{placement.SpanStart}}
	oa := analyze(t, o, 64, 128)
	if got, want := phasesOf(oa), [][2]int64{{64, 0}, {128, 0}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("cases %v, want %v", got, want)
	}
	for _, l := range []int64{64, 128} {
		if r := oa.PhaseReasons[l]; !strings.Contains(r, "start of a span") {
			t.Errorf("PhaseReasons[%d] = %q, want the placement's", l, r)
		}
		if w := caseAt(t, oa, l, 0).FalseWeight(); w != 2e9 {
			t.Errorf("%d/0: FalseWeight %g, want 2e9", l, w)
		}
	}
	// Without one, the layout's alignment decides: 8 phases at 64.
	o.Placement = nil
	oa = analyze(t, o, 64)
	if len(oa.Cases) != 8 || oa.PhaseReasons[64] == "" {
		t.Errorf("default phases: %v, reason %q; want 8 phases and a reason", phasesOf(oa), oa.PhaseReasons[64])
	}
}

// (h) Worst picks the case with the most false weight, then the most
// lines touched.
func TestWorst(t *testing.T) {
	s := newStruct(t, "apart", 256, 64, scalar("a", 64, 8), scalar("b", 128, 8))
	o := &sharing.Object{Layout: s, Paths: parsePaths(t, "w1 cpus=1 write=a", "w2 cpus=1 rate=100/s write=b")}
	oa := analyze(t, o, 64, 128)
	if w := caseAt(t, oa, 128, 0).FalseWeight(); w != 0 {
		t.Errorf("128/0: FalseWeight %g, want 0", w)
	}
	if w := caseAt(t, oa, 128, 64).FalseWeight(); w != 1e9+100 {
		t.Errorf("128/64: FalseWeight %g, want %g", w, 1e9+100)
	}
	if c := oa.Worst(128); c == nil || c.Line != 128 || c.Phase != 64 {
		t.Errorf("Worst(128) = %+v, want the case at phase 64", c)
	}
	if c := oa.Worst(64); c == nil || c.Line != 64 || c.Phase != 0 {
		t.Errorf("Worst(64) = %+v, want the only case", c)
	}
	if c := oa.Worst(256); c != nil {
		t.Errorf("Worst(256) = %+v, want nil for a line size not analysed", c)
	}
	fp := caseAt(t, oa, 128, 64).FalsePairs()
	if len(fp) != 2 || fp[0].Writer != "w1" || fp[0].Line != 1 || fp[1].Writer != "w2" {
		t.Errorf("FalsePairs = %+v, want w1's then w2's on line 1", fp)
	}

	// No false sharing anywhere: the phase where the reader touches the
	// most lines is the worst.
	s = newStruct(t, "straddle", 16, 8, scalar("a", 0, 8), scalar("b", 8, 8))
	oa = analyze(t, &sharing.Object{Layout: s, Paths: parsePaths(t, "r cpus=1 read=a,b")}, 64)
	if c := oa.Worst(64); c == nil || c.Phase != 56 {
		t.Errorf("Worst(64) = %+v, want phase 56, the only one where a and b are on two lines", c)
	}
}

// (i) A path naming a member the object lacks is an error naming it.
func TestAnalyzeErrors(t *testing.T) {
	s := newStruct(t, "obj", 16, 8, scalar("a", 0, 8), scalar("b", 8, 8))
	for _, tt := range []struct{ spec, member string }{
		{"reader cpus=1 read=a,nosuch", "nosuch"},
		{"reader cpus=1 read=a[0]", "a[0]"},
	} {
		o := &sharing.Object{Layout: s, Paths: parsePaths(t, "w cpus=1 write=a", tt.spec)}
		a, err := sharing.Analyze([]*sharing.Object{o}, []int64{64, 128})
		if err == nil {
			t.Errorf("%s: Analyze = %+v, want an error", tt.spec, a)
			continue
		}
		for _, w := range []string{tt.member, "obj", "reader"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not name %s", tt.spec, err, w)
			}
		}
	}
}

// A zero-size member at the very end of an object (a C flexible array
// member) occupies no byte of it. Touching it must not make the analysis
// look past the object's last line.
func TestZeroSizeAtEnd(t *testing.T) {
	s := newStruct(t, "flex", 64, 64, scalar("n", 0, 8),
		layout.Field{Path: "data", Name: "data", Type: "u8[]", Offset: 64, Size: 0, Align: 1, Kind: layout.KindArray, Parent: -1})
	o := &sharing.Object{Layout: s, Paths: parsePaths(t, "r cpus=1 read=n,data", "w cpus=1 write=n")}
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("Analyze of a path reading a zero-size member at the end (offset 64 of a 64-byte object) panicked: %v", r)
		}
	}()
	oa := analyze(t, o, 64, 128)
	for _, c := range oa.Cases {
		for _, f := range c.Paths {
			for _, l := range f.Lines {
				if l < 0 || l >= int64(len(c.Lines)) {
					t.Errorf("%d/%d: %s touches line %d of an object of %d lines", c.Line, c.Phase, f.Path.Name, l, len(c.Lines))
				}
			}
		}
	}
}

// TestInvariants checks the figures of random layouts and paths against
// a recomputation from access.Resolve and layout.SpanOf.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []access.Op{access.Read, access.Write, access.Add, access.CAS, access.SeqRead, access.SeqWrite}
	// seen counts what the random cases exercised, so that a generator
	// that stops producing some kind of sharing is noticed.
	seen := map[string]int{}
	defer func() {
		for _, k := range []string{"true", "false", "contended", "exposed", "straddle", "multiblock"} {
			if seen[k] == 0 && !t.Failed() {
				t.Errorf("the random cases never produced %s sharing or lines (%v)", k, seen)
			}
		}
	}()
	for iter := range 400 {
		s := randomStruct(t, rng, iter)
		var members []string
		for _, f := range s.Fields {
			members = append(members, f.Path)
			if f.Kind == layout.KindArray {
				for i := range f.Len {
					members = append(members, fmt.Sprintf("%s[%d]", f.Path, i))
				}
			}
		}
		var paths []*access.Path
		for i := range 1 + rng.IntN(4) {
			p := &access.Path{Name: fmt.Sprintf("p%d", i), CPUs: rng.IntN(3), Rate: float64(rng.IntN(2) * 1000)}
			for range 1 + rng.IntN(4) {
				p.Accesses = append(p.Accesses, access.Access{Op: ops[rng.IntN(len(ops))], Member: members[rng.IntN(len(members))]})
			}
			paths = append(paths, p)
		}
		o := &sharing.Object{Layout: s, Paths: paths}
		lines := []int64{32, 64, 128, 256}
		a, err := sharing.Analyze([]*sharing.Object{o}, lines)
		if err != nil {
			t.Fatalf("layout %d: Analyze: %v", iter, err)
		}
		touches := make([][]access.Touch, len(paths))
		for i, p := range paths {
			if touches[i], err = access.Resolve(p, s); err != nil {
				t.Fatalf("layout %d: Resolve: %v", iter, err)
			}
		}
		oa := &a.Objects[0]
		ncases := 0
		for _, line := range lines {
			ncases += len(s.Phases(line))
		}
		if len(oa.Cases) != ncases {
			t.Fatalf("layout %d: %d cases, want %d", iter, len(oa.Cases), ncases)
		}
		for ci := range oa.Cases {
			c := &oa.Cases[ci]
			for _, ls := range c.Lines {
				for _, pr := range ls.Pairs {
					switch {
					case pr.Writer == pr.Other:
						seen["contended"]++
					case pr.True:
						seen["true"]++
					default:
						seen["false"]++
					}
				}
				if ls.Exposed() && len(ls.Touchers) > 0 {
					seen["exposed"]++
				}
			}
			for _, f := range c.Paths {
				if f.Blocks128 > 1 && c.Line < 128 {
					seen["multiblock"]++
				}
				if len(f.Lines) > 1 {
					seen["straddle"]++
				}
			}
			checkCase(t, fmt.Sprintf("layout %d (%s), %d/%d", iter, describe(s, paths), oa.Cases[ci].Line, oa.Cases[ci].Phase),
				s, paths, touches, &oa.Cases[ci])
		}
		if t.Failed() {
			return
		}
	}
}

// randomStruct places a few scalars and arrays at aligned offsets, with
// gaps that let them cross lines.
func randomStruct(t *testing.T, rng *rand.Rand, iter int) *layout.Struct {
	s := &layout.Struct{Name: fmt.Sprintf("rand%d", iter), Source: layout.SourceGo, Arch: "amd64", Align: 1 << rng.IntN(8)}
	off := int64(0)
	for i := range 1 + rng.IntN(5) {
		size := int64(1) << rng.IntN(4)
		f := layout.Field{Path: fmt.Sprintf("f%d", i), Type: "x", Size: size, Align: size, Parent: -1}
		if rng.IntN(4) == 0 {
			f.Kind, f.Len = layout.KindArray, 2+rng.Int64N(3)
			f.Size *= f.Len
		}
		f.Name = f.Path
		off += rng.Int64N(80)
		off = (off + f.Align - 1) / f.Align * f.Align
		f.Offset = off
		off += f.Size
		s.Fields = append(s.Fields, f)
	}
	s.Size = off + rng.Int64N(40)
	if rng.IntN(3) == 0 {
		s.PaddedTo = 1 << (4 + rng.IntN(4))
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("random layout %d: %v", iter, err)
	}
	return s
}

func describe(s *layout.Struct, paths []*access.Path) string {
	var b strings.Builder
	fmt.Fprintf(&b, "size %d align %d padded %d:", s.Size, s.Align, s.PaddedTo)
	for _, f := range s.Fields {
		fmt.Fprintf(&b, " %s@%d+%d", f.Path, f.Offset, f.Size)
	}
	for _, p := range paths {
		fmt.Fprintf(&b, "; %s", p)
	}
	return b.String()
}

type byteRange struct{ off, end int64 }

// clip returns the bytes of t on line l, in object coordinates.
func clip(t access.Touch, l, line, phase int64) (byteRange, bool) {
	lo, hi := l*line-phase, (l+1)*line-phase
	r := byteRange{max(t.Offset, lo), min(t.End, hi)}
	return r, r.off < r.end
}

func checkCase(t *testing.T, where string, s *layout.Struct, paths []*access.Path, touches [][]access.Touch, c *sharing.Case) {
	t.Helper()
	line, phase := c.Line, c.Phase
	obj := layout.SpanOf(0, s.Size, line, phase)
	if int64(len(c.Lines)) != obj.Last+1 {
		t.Errorf("%s: %d lines, want %d", where, len(c.Lines), obj.Last+1)
		return
	}
	for i, ls := range c.Lines {
		if ls.Index != int64(i) {
			t.Errorf("%s: Lines[%d].Index = %d", where, i, ls.Index)
		}
	}
	if len(c.Paths) != len(paths) {
		t.Fatalf("%s: figures for %d paths, want %d", where, len(c.Paths), len(paths))
	}

	// Which lines each path touches, and writes.
	touchedOn := make([]map[int64]bool, len(paths))
	writesOn := make([]map[int64]bool, len(paths))
	for pi, ts := range touches {
		touchedOn[pi], writesOn[pi] = map[int64]bool{}, map[int64]bool{}
		for _, tc := range ts {
			sp := layout.SpanOf(tc.Offset, tc.End-tc.Offset, line, phase)
			for l := sp.First; l <= sp.Last; l++ {
				touchedOn[pi][l] = true
				if tc.Op.Writes() {
					writesOn[pi][l] = true
				}
			}
		}
	}

	for pi, p := range paths {
		f := &c.Paths[pi]
		if f.Path != p {
			t.Errorf("%s: Paths[%d] is %s, want %s", where, pi, f.Path.Name, p.Name)
		}
		var want []int64
		for l := range touchedOn[pi] {
			want = append(want, l)
		}
		slices.Sort(want)
		checkLines(t, where+": "+p.Name+" Lines", f.Lines, want)
		for _, l := range f.Lines {
			if !touchedOn[pi][l] {
				t.Errorf("%s: %s lists line %d, which none of its accesses touches", where, p.Name, l)
			}
		}
		for _, l := range f.FalseLines {
			if !slices.Contains(f.Lines, l) {
				t.Errorf("%s: %s FalseLines %v not within Lines %v", where, p.Name, f.FalseLines, f.Lines)
			}
			if slices.Contains(f.TrueLines, l) {
				t.Errorf("%s: %s line %d both true and false", where, p.Name, l)
			}
		}
		for _, l := range f.TrueLines {
			if !slices.Contains(f.Lines, l) {
				t.Errorf("%s: %s TrueLines %v not within Lines %v", where, p.Name, f.TrueLines, f.Lines)
			}
		}
		if f.Blocks128 > len(f.Lines) {
			t.Errorf("%s: %s Blocks128 %d > %d lines", where, p.Name, f.Blocks128, len(f.Lines))
		}
		blocks := map[int64]bool{}
		for _, l := range f.Lines {
			blocks[l*line/128] = true
		}
		if line >= 128 && f.Blocks128 != len(f.Lines) || line < 128 && f.Blocks128 != len(blocks) {
			t.Errorf("%s: %s Blocks128 %d for lines %v", where, p.Name, f.Blocks128, f.Lines)
		}
		var exposed []int64
		for _, l := range f.Lines {
			if c.Lines[l].Exposed() {
				exposed = append(exposed, l)
			}
		}
		checkLines(t, where+": "+p.Name+" Exposed", f.Exposed, exposed)
	}

	// The pairs on each line, recomputed: a writer meets every other path
	// on the line, and itself when it runs on several CPUs; the pair is
	// true iff the other's bytes on the line intersect the writer's
	// written bytes there.
	inFalse := make([]map[int64]bool, len(paths))
	inPair := make([]map[int64]bool, len(paths))
	for pi := range paths {
		inFalse[pi], inPair[pi] = map[int64]bool{}, map[int64]bool{}
	}
	index := map[string]int{}
	for pi, p := range paths {
		index[p.Name] = pi
	}
	for l := range int64(len(c.Lines)) {
		ls := &c.Lines[l]
		var want []string
		for wi, w := range paths {
			if !writesOn[wi][l] {
				continue
			}
			for pi, p := range paths {
				if !touchedOn[pi][l] || pi == wi && p.CPUs == 1 {
					continue
				}
				isTrue := pi == wi
				for _, tw := range touches[wi] {
					if !tw.Op.Writes() {
						continue
					}
					rw, ok := clip(tw, l, line, phase)
					if !ok {
						continue
					}
					for _, to := range touches[pi] {
						if ro, ok := clip(to, l, line, phase); ok && ro.off < rw.end && rw.off < ro.end {
							isTrue = true
						}
					}
				}
				want = append(want, fmt.Sprintf("%s>%s:%v", w.Name, p.Name, isTrue))
			}
		}
		var got []string
		for _, pr := range ls.Pairs {
			got = append(got, fmt.Sprintf("%s>%s:%v", pr.Writer, pr.Other, pr.True))
			if pr.Weight <= 0 {
				t.Errorf("%s: line %d pair %s>%s weight %g", where, l, pr.Writer, pr.Other, pr.Weight)
			}
			for _, name := range []string{pr.Writer, pr.Other} {
				inPair[index[name]][l] = true
				if !pr.True {
					inFalse[index[name]][l] = true
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: line %d pairs %v, want %v", where, l, got, want)
		}
		var writers, touchers []string
		for pi, p := range paths {
			if touchedOn[pi][l] {
				touchers = append(touchers, p.Name)
			}
			if writesOn[pi][l] {
				writers = append(writers, p.Name)
			}
		}
		if !slices.Equal(ls.Writers, writers) || !slices.Equal(ls.Touchers, touchers) {
			t.Errorf("%s: line %d writers %v touchers %v, want %v and %v", where, l, ls.Writers, ls.Touchers, writers, touchers)
		}
		// Exposure: the line's bytes outside [0, padded end).
		start, end := l*line-phase, (l+1)*line-phase
		pend := s.Size
		if s.PaddedTo > 0 {
			skew := phase % s.PaddedTo
			pend = (s.Size+skew+s.PaddedTo-1)/s.PaddedTo*s.PaddedTo - skew
		}
		if b, a := max(0, -start), max(0, end-pend); ls.ExposedBefore != b || ls.ExposedAfter != a {
			t.Errorf("%s: line %d exposed before %d after %d, want %d and %d", where, l, ls.ExposedBefore, ls.ExposedAfter, b, a)
		}
	}
	// A path's line is false if any of its pairs there is, true if it
	// has pairs there and all are true.
	for pi, p := range paths {
		var wantFalse, wantTrue []int64
		for l := range int64(len(c.Lines)) {
			switch {
			case inFalse[pi][l]:
				wantFalse = append(wantFalse, l)
			case inPair[pi][l]:
				wantTrue = append(wantTrue, l)
			}
		}
		f := &c.Paths[pi]
		checkLines(t, where+": "+p.Name+" FalseLines", sorted(f.FalseLines), wantFalse)
		checkLines(t, where+": "+p.Name+" TrueLines", sorted(f.TrueLines), wantTrue)
	}
}

func sorted(s []int64) []int64 {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
