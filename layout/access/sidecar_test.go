package access

import (
	"strings"
	"testing"
)

func TestParseSidecar(t *testing.T) {
	const text = `# paths for tk_core
ktime_get cpus=all rate=hot seqread=seq read=timekeeper.tkr_mono.base

[tk_core_v6_1]
align 64
padded 128
  tick cpus=1 rate=250/s seqwrite=seq write=timekeeper -- the tick, once per jiffy
[pkg.T]
reader read=a,b
`
	sc, err := ParseSidecar("t.paths", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	un := sc.Unnamed()
	if un == nil || len(un.Paths) != 1 || un.Paths[0].Name != "ktime_get" || un.Paths[0].Pos != "t.paths:2" || un.Paths[0].Doc != "declared at t.paths:2" {
		t.Fatalf("unnamed section: %+v", un)
	}
	tk := sc.For("tk_core_v6_1")
	if tk == nil || tk.Align != 64 || tk.Padded != 128 || len(tk.Paths) != 1 || tk.Pos != "t.paths:4" {
		t.Fatalf("[tk_core_v6_1]: %+v", tk)
	}
	if p := tk.Paths[0]; p.Name != "tick" || p.CPUs != 1 || p.Rate != 250 || p.Doc != "the tick, once per jiffy" || len(p.Accesses) != 2 {
		t.Errorf("tick: %+v", p)
	}
	// A Go type's section answers to its full name.
	if s := sc.For("example.com/pkg.T"); s == nil || s.Paths[0].Name != "reader" {
		t.Errorf("For(example.com/pkg.T) = %+v", s)
	}
	if s := sc.For("other"); s != nil {
		t.Errorf("For(other) = %+v, want nil", s)
	}
	if err := sc.AddPath("extra cpus=2 write=x", "-path #1"); err != nil || len(sc.Unnamed().Paths) != 2 {
		t.Errorf("AddPath: %v, %+v", err, sc.Unnamed())
	}
}

func TestParseSidecarErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"[a\n", `t.paths:1: "[a" is not a [TypeName] header`},
		{"[]\n", `t.paths:1: "[]" is not a [TypeName] header`},
		{"[a]\n[a]\n", "t.paths:2: [a] again (first at t.paths:1)"},
		{"[a]\nalign 48\n", `t.paths:2: align "48" is not a power of two`},
		{"[a]\npadded x\n", `t.paths:2: padded "x" is not a power of two`},
		{"[a]\np read=x\np write=y\n", "t.paths:3: path p is declared twice (first at t.paths:2)"},
		{"[a]\np frob=x\n", `t.paths:2: path p: unknown operation "frob"`},
		{"[a]\njustaname\n", "t.paths:2: path justaname accesses nothing"},
	} {
		_, err := ParseSidecar("t.paths", strings.NewReader(tc.text))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestSidecarMerge joins what several paths files say about one struct,
// and refuses a path that two of them declare.
func TestSidecarMerge(t *testing.T) {
	parse := func(name, text string) *Sidecar {
		t.Helper()
		sc, err := ParseSidecar(name, strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	sc := parse("a.paths", "r1 read=a\n[PS]\nalign 64\nw1 write=a\n")
	if err := sc.Merge(parse("b.paths", "r2 read=b\n[PS]\npadded 128\nw2 write=b\n[Other]\nw read=c\n")); err != nil {
		t.Fatal(err)
	}
	if un := sc.Unnamed(); un == nil || len(un.Paths) != 2 {
		t.Errorf("lines before the headers: %+v, want r1 and r2", un)
	}
	if ps := sc.For("PS"); ps == nil || len(ps.Paths) != 2 || ps.Align != 64 || ps.Padded != 128 {
		t.Errorf("[PS]: %+v, want w1 and w2, align 64, padded 128", ps)
	}
	if sc.For("Other") == nil {
		t.Errorf("[Other] was lost")
	}
	err := sc.Merge(parse("a.paths", "[PS]\nw1 write=a\n"))
	if err == nil || err.Error() != "a.paths:2: path w1 is declared twice (first at a.paths:4)" {
		t.Errorf("the same path from a file given twice: %v", err)
	}
}
