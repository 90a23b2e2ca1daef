package probe

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
	"github.com/mglayout/mglayout/layout/sharing"
)

// TestPlaceNativeEveryPhase places several layouts together, each at every
// phase it can start at, and checks the address of every member: modulo
// the line size it is the phase plus the member's offset, and no two
// objects share a page.
func TestPlaceNativeEveryPhase(t *testing.T) {
	layouts := []*layout.Struct{
		kernel(t, "tk_core@v6.1").Layout,
		kernel(t, "mg_floor@v6.13").Layout,
		kernel(t, "tk_data@v6.13").Layout,
		kernel(t, "tk_fast@v6.1").Layout,
		// Go-like layouts aligned below a line start at many phases.
		synth(t, "align8", 8, 200, []member{scalar("a", 0, 8), scalar("b", 8, 4), scalar("c", 16, 8), scalar("d", 192, 8)}),
		synth(t, "align4", 4, 68, []member{scalar("a", 0, 4), scalar("b", 4, 4), scalar("c", 64, 4)}),
		synth(t, "big", 64, 3*pageSize, []member{scalar("a", 0, 8), scalar("b", pageSize+8, 8), scalar("c", 3*pageSize-8, 8)}),
	}
	for _, line := range []int64{64, 128} {
		rounds := 0
		for _, s := range layouts {
			rounds = max(rounds, len(s.Phases(line)))
		}
		for k := range rounds {
			phases := make([]int64, len(layouts))
			for i, s := range layouts {
				ps := s.Phases(line)
				phases[i] = ps[k%len(ps)]
			}
			n, err := placeNative(layouts, phases)
			if err != nil {
				t.Fatal(err)
			}
			type pages struct{ first, last uintptr }
			var used []pages
			for obj, s := range layouts {
				for _, f := range s.Fields {
					if f.Size == 0 {
						continue
					}
					for _, off := range []int64{f.Offset, f.End() - 1} {
						addr := int64(uintptr(n.addr(obj, off)))
						if got, want := addr%line, (phases[obj]+off)%line; got != want {
							t.Errorf("%d-byte lines, %s at phase %d: byte %d of %s is at %#x, %d bytes into its line, want %d",
								line, s.Name, phases[obj], off, f.Path, addr, got, want)
						}
					}
				}
				// The object's bytes are mapped and writable.
				for off := int64(0); off < s.Size; off++ {
					*(*byte)(n.addr(obj, off)) = 0xa5
				}
				first := uintptr(n.addr(obj, 0))
				p := pages{first / pageSize, (first + uintptr(s.Size) - 1) / pageSize}
				for j, q := range used {
					if p.first <= q.last && q.first <= p.last {
						t.Errorf("%d-byte lines: %s (pages %#x-%#x) shares a page with %s (pages %#x-%#x)",
							line, s.Name, p.first, p.last, layouts[j].Name, q.first, q.last)
					}
				}
				used = append(used, p)
			}
			if err := n.close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// emulatedWord is one accessed word of a path with its emulated address.
type emulatedWord struct {
	path  string
	obj   int
	w     wordSpan
	addr  uintptr
	tline int64 // target line of the object's bytes at its phase
}

// emulate plans v and places it for the running paths, returning the
// words they access with their addresses.
func emulate(t *testing.T, v Variant, o Options, running []string) ([]emulatedWord, *variantPlan, placement, error) {
	t.Helper()
	p, err := plan(v, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.place(o, running)
	if err != nil {
		return nil, p, nil, err
	}
	var out []emulatedWord
	for _, name := range running {
		for _, tc := range p.touches[name] {
			for _, w := range wordsOf(tc) {
				out = append(out, emulatedWord{name, tc.obj, w, uintptr(m.addr(tc.obj, w.off)), (p.phases[tc.obj] + w.off) / o.Emulate})
			}
		}
	}
	return out, p, m, nil
}

// slotsNeeded is the contract of the packing: within a target line, words
// accessed by the same paths with the same operations share an 8-byte
// slot, so a line needs as many slots as it has distinct signatures.
func slotsNeeded(p *variantPlan, running []string, target int64) map[[2]int64]int {
	who := map[[2]int64]map[wordSpan][]string{}
	for _, name := range running {
		for _, tc := range p.touches[name] {
			for _, w := range wordsOf(tc) {
				k := [2]int64{int64(tc.obj), (p.phases[tc.obj] + w.off) / target}
				if who[k] == nil {
					who[k] = map[wordSpan][]string{}
				}
				sig := name + ":" + tc.Op.String()
				if !slices.Contains(who[k][w], sig) {
					who[k][w] = append(who[k][w], sig)
				}
			}
		}
	}
	out := map[[2]int64]int{}
	for k, words := range who {
		sigs := map[string]bool{}
		for _, s := range words {
			s = slices.Clone(s)
			slices.Sort(s)
			sigs[strings.Join(s, ",")] = true
		}
		out[k] = len(sigs)
	}
	return out
}

// checkEmulation checks the invariants of an emulated placement: two
// accessed words share a host line exactly when they shared a target
// line; every path touches as many host lines as it touched target lines;
// host lines are spacing bytes apart; words are aligned and within one
// host line.
func checkEmulation(t *testing.T, desc string, words []emulatedWord, e emulation) {
	t.Helper()
	hostLine := func(a uintptr) uintptr { return a / uintptr(e.host) }
	for i, a := range words {
		width := uintptr(a.w.end - a.w.off)
		if a.addr%width != 0 {
			t.Errorf("%s: the %d-byte word %d of object %d (%s) is at %#x, not aligned", desc, width, a.w.off, a.obj, a.path, a.addr)
		}
		if hostLine(a.addr) != hostLine(a.addr+width-1) {
			t.Errorf("%s: the word %d of object %d (%s) at %#x straddles two host lines", desc, a.w.off, a.obj, a.path, a.addr)
		}
		for _, b := range words[i+1:] {
			sameTarget := a.obj == b.obj && a.tline == b.tline
			sameHost := hostLine(a.addr) == hostLine(b.addr)
			if sameTarget != sameHost {
				t.Errorf("%s: words %d (%s) and %d (%s) of objects %d/%d: same %d-byte target line %v, same host line %v (%#x, %#x)",
					desc, a.w.off, a.path, b.w.off, b.path, a.obj, b.obj, e.target, sameTarget, sameHost, a.addr, b.addr)
				return
			}
		}
	}
	targets, hosts := map[string]map[[2]int64]bool{}, map[string]map[uintptr]bool{}
	allHosts := map[uintptr]bool{}
	for _, w := range words {
		if targets[w.path] == nil {
			targets[w.path], hosts[w.path] = map[[2]int64]bool{}, map[uintptr]bool{}
		}
		targets[w.path][[2]int64{int64(w.obj), w.tline}] = true
		hosts[w.path][hostLine(w.addr)] = true
		allHosts[hostLine(w.addr)*uintptr(e.host)] = true
	}
	for name := range targets {
		if len(targets[name]) != len(hosts[name]) {
			t.Errorf("%s: path %s touches %d target lines but %d host lines", desc, name, len(targets[name]), len(hosts[name]))
		}
	}
	for start := range allHosts {
		if start%uintptr(e.spacing) != 0 {
			t.Errorf("%s: a host line starts at %#x, not on a %d-byte spacing boundary of the page-aligned arena", desc, start, e.spacing)
		}
	}
}

// TestEmulationPreservesSharing is a property test over random layouts and
// random paths, for a 128-byte target on 64-byte lines and a 64-byte
// target on 128-byte lines.
func TestEmulationPreservesSharing(t *testing.T) {
	configs := []emulation{
		{target: 128, host: 64, spacing: 128},
		{target: 128, host: 64, spacing: 256},
		{target: 64, host: 128, spacing: 256},
	}
	// All of them even with -short: they take milliseconds, and fewer
	// seeds would not reach a layout that does not fit.
	const trials = 300
	var placed, refused int
	for _, e := range configs {
		for trial := range trials {
			seed := uint64(trial)*1000 + uint64(e.target)
			r := rand.New(rand.NewPCG(seed, 42))
			var objects []*sharing.Object
			for i := range 1 + r.IntN(2) {
				s := randomLayout(t, r, fmt.Sprintf("T%d", i))
				objects = append(objects, &sharing.Object{Layout: s, Paths: randomPaths(r, s, 1+r.IntN(5))})
			}
			// A phase that every object can start at.
			phase := int64(-1)
			if r.IntN(2) == 0 {
				common := objects[0].Layout.Phases(e.target)
				for _, o := range objects[1:] {
					common = slices.DeleteFunc(common, func(p int64) bool { return !slices.Contains(o.Layout.Phases(e.target), p) })
				}
				phase = common[r.IntN(len(common))]
			}
			o := Options{Line: e.target, Phase: phase, Emulate: e.target, HostLine: e.host, Spacing: e.spacing}
			v := Variant{Name: "random", Objects: objects}
			p, err := plan(v, o)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			var running []string
			for _, path := range p.paths {
				if r.IntN(4) != 0 || len(running) == 0 {
					running = append(running, path.Name)
				}
			}
			desc := fmt.Sprintf("%d on %d, spacing %d, seed %d", e.target, e.host, e.spacing, seed)
			words, _, m, err := emulate(t, v, o, running)
			need := slotsNeeded(p, running, e.target)
			tooMany := false
			for _, n := range need {
				tooMany = tooMany || int64(n)*8 > e.host
			}
			if err != nil {
				refused++
				if !tooMany {
					t.Errorf("%s: refused though every target line fits %d slots: %v", desc, e.host/8, err)
				}
				if !strings.Contains(err.Error(), "line ") || !strings.Contains(err.Error(), "of T") {
					t.Errorf("%s: the refusal does not name the line and the object: %v", desc, err)
				}
				continue
			}
			placed++
			if tooMany {
				t.Errorf("%s: a target line needs more than %d slots, yet the emulation was accepted", desc, e.host/8)
			}
			checkEmulation(t, desc, words, e)
			if err := m.close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d placements checked, %d refused", placed, refused)
	if placed == 0 || refused == 0 {
		t.Errorf("the random cases should both fit and not fit (placed %d, refused %d)", placed, refused)
	}
}

// TestEmulationKernelModels emulates the built-in models as Run does: each
// path with the writers that run beside it. Where a target line needs more
// slots than a host line holds, the refusal must be the documented one.
func TestEmulationKernelModels(t *testing.T) {
	for _, name := range []string{"tk_core@v6.1", "tk_core@v6.1+guohui", "tk_core@v6.1+rt", "tk_data@v6.13", "tk_data@v7.1", "mg_floor@v6.13", "tk_fast@v6.1"} {
		obj := kernel(t, name)
		v := Variant{Name: name, Objects: []*sharing.Object{obj}}
		for _, e := range []emulation{{128, 64, 128}, {64, 128, 256}} {
			for _, phase := range obj.Layout.Phases(e.target) {
				o := Options{Line: e.target, Phase: phase, Emulate: e.target, HostLine: e.host, Spacing: e.spacing}
				p, err := plan(v, o)
				if err != nil {
					t.Fatal(err)
				}
				for _, focus := range p.paths {
					running := []string{focus.Name}
					for _, w := range p.paths {
						if w.Name != focus.Name && p.writes(w.Name) {
							running = append(running, w.Name)
						}
					}
					desc := fmt.Sprintf("%s, %d on %d at phase %d, running %v", name, e.target, e.host, phase, running)
					words, _, m, err := emulate(t, v, o, running)
					tooMany := false
					for _, n := range slotsNeeded(p, running, e.target) {
						tooMany = tooMany || int64(n)*8 > e.host
					}
					if err != nil {
						if !tooMany {
							t.Errorf("%s: refused though every line fits: %v", desc, err)
						}
						t.Logf("%s: %v", desc, err)
						continue
					}
					checkEmulation(t, desc, words, e)
					m.close()
				}
			}
		}
	}
}

// TestEmulationRefuses: a 128-byte target line accessed in nine different
// ways needs nine 8-byte slots, more than a 64-byte host line holds; the
// error names the line, the object and the members.
func TestEmulationRefuses(t *testing.T) {
	var ms []member
	var specs []string
	for i := range 9 {
		ms = append(ms, scalar(fmt.Sprintf("m%d", i), int64(8*i), 8))
		specs = append(specs, fmt.Sprintf("w%d write=m%d", i, i))
	}
	ms = append(ms, scalar("far", 200, 8))
	s := synth(t, "nine", 64, 256, ms)
	v := Variant{Name: "nine", Objects: []*sharing.Object{{Layout: s, Paths: mustParse(t, specs...)}}}
	o := Options{Line: 128, Phase: 0, Emulate: 128, HostLine: 64, Spacing: 128}
	var running []string
	for i := range 9 {
		running = append(running, fmt.Sprintf("w%d", i))
	}
	_, _, _, err := emulate(t, v, o, running)
	if err == nil {
		t.Fatal("nine differently accessed words of one 128-byte line were packed into a 64-byte line")
	}
	for _, want := range []string{"line 0", "nine", "m0", "m8"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not mention %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "far") {
		t.Errorf("the refusal names a member of another line: %v", err)
	}
	if strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("the refusal is not one line: %q", err)
	}
	// Eight of them fit exactly.
	if _, _, m, err := emulate(t, v, o, running[:8]); err != nil {
		t.Errorf("eight differently accessed words should fill a 64-byte host line exactly: %v", err)
	} else {
		m.close()
	}
}

// TestEmulationWholeLineWriter: a tick that rewrites a whole 128-byte line
// while a reader reads one word of it fits a 64-byte host line, since the
// words nobody else reads behave alike.
func TestEmulationWholeLineWriter(t *testing.T) {
	s := synth(t, "tk", 64, 256, []member{
		scalar("seq", 0, 4),
		{name: "data", off: 8, size: 120, kind: layout.KindArray, len: 15, parent: -1, typeString: "u64[15]"},
		scalar("other", 128, 8),
	})
	paths := mustParse(t, "tick cpus=1 rate=250/s seqwrite=seq write=data", "reader seqread=seq read=data[3]")
	v := Variant{Name: "tk", Objects: []*sharing.Object{{Layout: s, Paths: paths}}}
	e := emulation{128, 64, 128}
	o := Options{Line: 128, Phase: 0, Emulate: 128, HostLine: 64, Spacing: 128}
	words, _, m, err := emulate(t, v, o, []string{"tick", "reader"})
	if err != nil {
		t.Fatalf("a whole-line writer and a one-word reader should fit: %v", err)
	}
	defer m.close()
	checkEmulation(t, "whole-line writer", words, e)
	// The reader's word is still the word the tick writes: true sharing
	// stays true.
	var readerAddr uintptr
	for _, w := range words {
		if w.path == "reader" && w.w.off == 8+3*8 {
			readerAddr = w.addr
		}
	}
	written := false
	for _, w := range words {
		written = written || w.path == "tick" && w.addr == readerAddr
	}
	if !written {
		t.Errorf("the reader's word data[3] is not at an address the tick writes")
	}
}

// TestEmulationDeterministic: the same paths over the same layout are
// packed the same way every time, relative to the arena. A word accessed
// with two widths at one offset (a 4-byte member read alone and written as
// part of an aggregate's 8-byte word, as ktime_get reads
// timekeeper.tkr_mono.shift while tick writes timekeeper) must not land in
// a slot chosen by map iteration order.
func TestEmulationDeterministic(t *testing.T) {
	s := synth(t, "mixed", 64, 128, []member{
		{name: "agg", off: 0, size: 16, kind: layout.KindStruct, parent: -1, typeString: "struct agg"},
		{name: "x", off: 0, size: 4, kind: layout.KindScalar, parent: 0},
		{name: "y", off: 4, size: 4, kind: layout.KindScalar, parent: 0},
		{name: "z", off: 8, size: 8, kind: layout.KindScalar, parent: 0},
		scalar("q", 16, 8),
	})
	paths := mustParse(t, "r read=agg.x,q", "w write=agg", "y write=agg.y")
	v := Variant{Name: "mixed", Objects: []*sharing.Object{{Layout: s, Paths: paths}}}
	o := Options{Line: 128, Phase: 0, Emulate: 128, HostLine: 64, Spacing: 128}
	running := []string{"r", "w", "y"}
	var first []int64
	for try := range 40 {
		words, _, m, err := emulate(t, v, o, running)
		if err != nil {
			t.Fatal(err)
		}
		base := m.(*emulated).arena.base()
		var rel []int64
		for _, w := range words {
			rel = append(rel, int64(w.addr-base))
		}
		m.close()
		if try == 0 {
			first = rel
			continue
		}
		if !slices.Equal(rel, first) {
			t.Fatalf("placement %d differs from the first (offsets from the arena %v, then %v): the packing of words accessed with different widths at one offset depends on map order (probe/place.go, placeEmulated: em.slots is keyed by the word's offset alone)", try, first, rel)
		}
	}
}

// TestRunRejectsBadSpacing: the library must not place emulated lines
// closer than a host line, or off host-line boundaries; mglayout probe
// defaults -spacing, but Options{Spacing: 0} put every target line on the
// same host line.
func TestRunRejectsBadSpacing(t *testing.T) {
	cpus := usable(t)
	obj := kernel(t, "mg_floor@v6.13")
	for _, spacing := range []int64{0, 32, 96} {
		o := Options{Line: 128, Phase: -1, Emulate: 128, HostLine: 64, Spacing: spacing, Duration: MinDuration, Count: 1, CPUs: cpus[:2]}
		_, err := Run(context.Background(), []Variant{{Name: "mg", Objects: []*sharing.Object{obj}}}, o)
		if err == nil {
			t.Errorf("Spacing %d with 64-byte host lines: Run accepted it; want an error (spacing must be a positive multiple of the host line)", spacing)
		} else if !strings.Contains(strings.ToLower(err.Error()), "spacing") {
			t.Errorf("Spacing %d: the error does not mention the spacing: %v", spacing, err)
		}
	}
}

// TestWordsOf checks the expansion of accesses into aligned words.
func TestWordsOf(t *testing.T) {
	for _, c := range []struct {
		off, end int64
		want     []wordSpan
	}{
		{0, 8, []wordSpan{{0, 8}}},
		{0, 4, []wordSpan{{0, 4}}},
		{4, 8, []wordSpan{{4, 8}}},
		{4, 16, []wordSpan{{4, 8}, {8, 16}}},
		{8, 20, []wordSpan{{8, 16}, {16, 20}}},
		{6, 8, []wordSpan{{4, 8}}},         // a u16: the 4-byte word holding it
		{2, 6, []wordSpan{{0, 4}, {4, 8}}}, // unaligned: both words it overlaps
		{0, 24, []wordSpan{{0, 8}, {8, 16}, {16, 24}}},
	} {
		got := wordsOf(touch{0, access.Touch{Op: access.Read, Offset: c.off, End: c.end}})
		if !slices.Equal(got, c.want) {
			t.Errorf("wordsOf [%d,%d) = %v, want %v", c.off, c.end, got, c.want)
		}
	}
}
