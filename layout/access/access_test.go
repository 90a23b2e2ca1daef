package access_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
	"github.com/mglayout/mglayout/layout/access"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		spec string
		want access.Path
	}{
		{"reader read=a", access.Path{Name: "reader", CPUs: access.AllCPUs, Rate: access.Hot,
			Accesses: []access.Access{{Op: access.Read, Member: "a"}}}},
		{"w cpus=all rate=hot write=a", access.Path{Name: "w", CPUs: access.AllCPUs, Rate: access.Hot,
			Accesses: []access.Access{{Op: access.Write, Member: "a"}}}},
		{"tick cpus=1 rate=250/s seqwrite=seq write=base[0],base[1]", access.Path{Name: "tick", CPUs: 1, Rate: 250,
			Accesses: []access.Access{{Op: access.SeqWrite, Member: "seq"}, {Op: access.Write, Member: "base[0]"}, {Op: access.Write, Member: "base[1]"}}}},
		{"all_ops cpus=4 rate=0.5/s read=r write=w add=n cas=c seqread=s seqwrite=t", access.Path{Name: "all_ops", CPUs: 4, Rate: 0.5,
			Accesses: []access.Access{{Op: access.Read, Member: "r"}, {Op: access.Write, Member: "w"}, {Op: access.Add, Member: "n"}, {Op: access.CAS, Member: "c"},
				{Op: access.SeqRead, Member: "s"}, {Op: access.SeqWrite, Member: "t"}}}},
		// Repeated groups of one operation keep their order.
		{"rep read=a write=b read=c,d", access.Path{Name: "rep", CPUs: access.AllCPUs, Rate: access.Hot,
			Accesses: []access.Access{{Op: access.Read, Member: "a"}, {Op: access.Write, Member: "b"}, {Op: access.Read, Member: "c"}, {Op: access.Read, Member: "d"}}}},
		// Dotted members, aggregates and array elements; extra blanks.
		{"  coarse \t cpus=all  seqread=seq   read=timekeeper.tkr_mono.shift,timekeeper,base[1]  ", access.Path{Name: "coarse", CPUs: access.AllCPUs, Rate: access.Hot,
			Accesses: []access.Access{{Op: access.SeqRead, Member: "seq"}, {Op: access.Read, Member: "timekeeper.tkr_mono.shift"}, {Op: access.Read, Member: "timekeeper"}, {Op: access.Read, Member: "base[1]"}}}},
		// The last of repeated settings wins; the keys may follow operations.
		{"late read=a cpus=2 rate=1e3/s cpus=3", access.Path{Name: "late", CPUs: 3, Rate: 1000,
			Accesses: []access.Access{{Op: access.Read, Member: "a"}}}},
		{"big cpus=1024 rate=1.5e9/s add=x", access.Path{Name: "big", CPUs: 1024, Rate: 1.5e9,
			Accesses: []access.Access{{Op: access.Add, Member: "x"}}}},
	}
	for _, tt := range tests {
		p, err := access.Parse(tt.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(*p, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.spec, *p, tt.want)
		}
		// String round-trips.
		s := p.String()
		q, err := access.Parse(s)
		if err != nil {
			t.Errorf("Parse(%q) (String of %q): %v", s, tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(p, q) {
			t.Errorf("Parse(String()) of %q = %+v via %q, want %+v", tt.spec, *q, s, *p)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"r read=a", "r cpus=all rate=hot read=a"},
		{"tick cpus=1 rate=250/s seqwrite=seq write=base[0] write=base[1]", "tick cpus=1 rate=250/s seqwrite=seq write=base[0],base[1]"},
		{"x rate=0.25/s read=a write=b read=c", "x cpus=all rate=0.25/s read=a write=b read=c"},
		{"y cpus=+2 rate=1e3/s cas=c", "y cpus=2 rate=1000/s cas=c"},
	}
	for _, tt := range tests {
		p, err := access.Parse(tt.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.spec, err)
			continue
		}
		if got := p.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.spec, got, tt.want)
		}
	}
	// Extreme rates are spelled in full and read back exactly.
	for _, r := range []float64{math.SmallestNonzeroFloat64, 1e-300, 1.0 / 3, 123456.789, 1e300, math.MaxFloat64} {
		p := &access.Path{Name: "p", CPUs: 7, Rate: r, Accesses: []access.Access{{Op: access.Read, Member: "a"}}}
		q, err := access.Parse(p.String())
		if err != nil {
			t.Errorf("rate %g: Parse(%q): %v", r, p.String(), err)
			continue
		}
		if q.Rate != r {
			t.Errorf("rate %g: read back as %g from %q", r, q.Rate, p.String())
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		spec string
		want []string // substrings of the error
	}{
		{"", []string{"empty path"}},
		{"   \t ", []string{"empty path"}},
		{"read=a", []string{"no name", "read=a"}},
		{"cpus=1 read=a", []string{"no name", "cpus=1"}},
		{"p cpus=0 read=a", []string{"path p", "cpus=0"}},
		{"p cpus=-1 read=a", []string{"path p", "cpus=-1"}},
		{"p cpus=many read=a", []string{"path p", "cpus=many"}},
		{"p cpus=1.5 read=a", []string{"path p", "cpus=1.5"}},
		{"p cpus= read=a", []string{"path p", `"cpus="`}},
		{"p rate=0/s read=a", []string{"path p", "rate=0/s"}},
		{"p rate=-1/s read=a", []string{"path p", "rate=-1/s"}},
		{"p rate=1e400/s read=a", []string{"path p", "rate=1e400/s"}},
		{"p rate=NaN/s read=a", []string{"path p", "rate=NaN/s"}},
		{"p rate=Inf/s read=a", []string{"path p", "rate=Inf/s"}},
		{"p rate=fast read=a", []string{"path p", "rate=fast"}},
		{"p rate=250 read=a", []string{"path p", "rate=250"}},
		{"p rate=/s read=a", []string{"path p", "rate=/s"}},
		{"p load=a", []string{"path p", `unknown operation "load"`}},
		{"p =a", []string{"path p", `unknown operation ""`}},
		{"p READ=a", []string{"path p", `unknown operation "READ"`}},
		{"p read=a,,b", []string{"path p", "empty member", "read=a,,b"}},
		{"p read=,", []string{"path p", "empty member", "read=,"}},
		{"p write=a,", []string{"path p", "empty member", "write=a,"}},
		{"p read=", []string{"path p", `"read="`}},
		{"p read", []string{"path p", `"read"`}},
		{"p", []string{"path p", "accesses nothing"}},
		{"p cpus=2 rate=hot", []string{"path p", "accesses nothing"}},
	}
	for _, tt := range tests {
		p, err := access.Parse(tt.spec)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", tt.spec, p)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("Parse(%q): error is not one line: %q", tt.spec, msg)
		}
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("Parse(%q): error %q does not mention %q", tt.spec, msg, w)
			}
		}
	}
}

func TestOp(t *testing.T) {
	writes := map[access.Op]bool{
		access.Read: false, access.Write: true, access.Add: true,
		access.CAS: true, access.SeqRead: false, access.SeqWrite: true,
	}
	for op, want := range writes {
		if got := op.Writes(); got != want {
			t.Errorf("%v.Writes() = %v, want %v", op, got, want)
		}
		back, ok := access.ParseOp(op.String())
		if !ok || back != op {
			t.Errorf("ParseOp(%q) = %v, %v, want %v", op.String(), back, ok, op)
		}
	}
	if _, ok := access.ParseOp("load"); ok {
		t.Errorf("ParseOp(load) succeeded")
	}

	reader := &access.Path{Name: "r", Accesses: []access.Access{{Op: access.SeqRead, Member: "s"}, {Op: access.Read, Member: "a"}}}
	if reader.Writes() {
		t.Errorf("a seqread+read path writes")
	}
	writer := &access.Path{Name: "w", Accesses: []access.Access{{Op: access.Read, Member: "a"}, {Op: access.CAS, Member: "b"}}}
	if !writer.Writes() {
		t.Errorf("a read+cas path does not write")
	}
}

func TestWeight(t *testing.T) {
	tests := []struct {
		cpus  int
		rate  float64
		nCPUs int
		want  float64
	}{
		{1, access.Hot, 8, 1e9},
		{access.AllCPUs, access.Hot, 8, 8e9},
		{access.AllCPUs, access.Hot, 0, 1e9}, // at least one CPU
		{access.AllCPUs, 250, 4, 1000},
		{3, 250, 64, 750},
		{2, 0.5, 8, 1},
	}
	for _, tt := range tests {
		p := &access.Path{Name: "p", CPUs: tt.cpus, Rate: tt.rate}
		if got := p.Weight(tt.nCPUs); got != tt.want {
			t.Errorf("cpus=%s rate=%s: Weight(%d) = %g, want %g", p.CPUsString(), p.RateString(), tt.nCPUs, got, tt.want)
		}
	}
	if (&access.Path{CPUs: 1}).Contended() {
		t.Errorf("a path on one CPU is contended")
	}
	if !(&access.Path{CPUs: access.AllCPUs}).Contended() || !(&access.Path{CPUs: 2}).Contended() {
		t.Errorf("a path on several CPUs is not contended")
	}
}

// resolveLayout is
//
//	struct obj {                       // size 64
//		u64 seq;                       //  0  8
//		struct { u32 a; u32 b; } in;   //  8  8
//		struct { u64 x; } base[3];     // 16 24
//		u64 tail;                      // 40  8
//	};
func resolveLayout(t *testing.T) *layout.Struct {
	s := &layout.Struct{Name: "obj", Source: layout.SourceKernel, Arch: "amd64", Size: 64, Align: 64,
		Fields: []layout.Field{
			{Path: "seq", Name: "seq", Type: "u64", Offset: 0, Size: 8, Align: 8, Parent: -1},
			{Path: "in", Name: "in", Type: "struct in", Offset: 8, Size: 8, Align: 4, Kind: layout.KindStruct, Parent: -1},
			{Path: "in.a", Name: "a", Type: "u32", Offset: 8, Size: 4, Align: 4, Depth: 1, Parent: 1},
			{Path: "in.b", Name: "b", Type: "u32", Offset: 12, Size: 4, Align: 4, Depth: 1, Parent: 1},
			{Path: "base", Name: "base", Type: "struct x[3]", Offset: 16, Size: 24, Align: 8, Kind: layout.KindArray, Len: 3, Parent: -1},
			{Path: "tail", Name: "tail", Type: "u64", Offset: 40, Size: 8, Align: 8, Parent: -1},
		}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestResolve(t *testing.T) {
	s := resolveLayout(t)
	p, err := access.Parse("p cpus=1 seqwrite=seq write=in read=in.b,base[0],base[2] add=base cas=tail")
	if err != nil {
		t.Fatal(err)
	}
	got, err := access.Resolve(p, s)
	if err != nil {
		t.Fatal(err)
	}
	want := []access.Touch{
		{Op: access.SeqWrite, Member: "seq", Offset: 0, End: 8},
		{Op: access.Write, Member: "in", Offset: 8, End: 16},
		{Op: access.Read, Member: "in.b", Offset: 12, End: 16},
		{Op: access.Read, Member: "base[0]", Offset: 16, End: 24},
		{Op: access.Read, Member: "base[2]", Offset: 32, End: 40},
		{Op: access.Add, Member: "base", Offset: 16, End: 40},
		{Op: access.CAS, Member: "tail", Offset: 40, End: 48},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Resolve:\n got %+v\nwant %+v", got, want)
	}
}

func TestResolveErrors(t *testing.T) {
	s := resolveLayout(t)
	tests := []struct {
		member string
		want   []string
	}{
		{"nosuch", []string{`"nosuch"`, "obj"}},
		{"in.c", []string{`"in.c"`, "obj"}},
		{"base[3]", []string{`"base[3]"`, "obj"}},   // out of range
		{"base[-1]", []string{`"base[-1]"`, "obj"}}, // out of range
		{"base[x]", []string{`"base[x]"`, "obj"}},
		{"base[]", []string{`"base[]"`, "obj"}},
		{"base[1", []string{`"base[1"`, "obj"}},
		{"base[0][0]", []string{`"base[0][0]"`, "obj"}},
		{"seq[0]", []string{`"seq[0]"`, "obj"}}, // index on a non-array
		{"in[0]", []string{`"in[0]"`, "obj"}},   // index on a struct
		{"nosuch[0]", []string{`"nosuch"`, "obj"}},
	}
	for _, tt := range tests {
		p := &access.Path{Name: "reader", CPUs: 1, Accesses: []access.Access{{Op: access.Read, Member: "seq"}, {Op: access.Read, Member: tt.member}}}
		got, err := access.Resolve(p, s)
		if err == nil {
			t.Errorf("Resolve(%s) = %+v, want an error", tt.member, got)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("Resolve(%s): error is not one line: %q", tt.member, msg)
		}
		for _, w := range append(tt.want, "path reader") {
			if !strings.Contains(msg, w) {
				t.Errorf("Resolve(%s): error %q does not mention %s", tt.member, msg, w)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"tick cpus=1 rate=250/s seqwrite=seq write=base[0],base[1]",
		"ktime_get cpus=all rate=hot seqread=seq read=timekeeper.tkr_mono.base,timekeeper.tkr_mono.mult",
		"x rate=0.001/s read=a write=b read=c add=d cas=e",
		"p cpus=0 read=a",
		"p rate=1e400/s read=a",
		"p read=a,,b",
		"read=a",
		"",
		"p rate=NaN/s read=a",
		"p cpus=+3 rate=1_0/s read=a",
		"p rate=0x1p4/s read=a=b",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := access.Parse(spec)
		if err != nil {
			if p != nil {
				t.Errorf("Parse(%q) returned a path and an error", spec)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("Parse(%q): error is not one line: %q", spec, err)
			}
			return
		}
		if p.Name == "" || len(p.Accesses) == 0 || p.CPUs < 0 || p.Rate < 0 || math.IsInf(p.Rate, 0) || math.IsNaN(p.Rate) {
			t.Errorf("Parse(%q) = %+v: not a valid path", spec, *p)
		}
		s := p.String()
		q, err := access.Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) = %+v, but its String %q does not parse: %v", spec, *p, s, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Errorf("Parse(%q) = %+v, but Parse(%q) = %+v", spec, *p, s, *q)
		}
		if s2 := q.String(); s2 != s {
			t.Errorf("String is not stable: %q then %q", s, s2)
		}
	})
}
