package elfdwarf

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mglayout/mglayout/layout"
)

// cVariant is one way of compiling the features: the DWARF version and
// form of bitfields, compressed sections, the 32-bit ABI.
type cVariant struct {
	name  string
	flags []string
	// strict DWARF has no DW_AT_alignment: alignments forced by
	// attributes are unknown to the loader (and to pahole).
	strict bool
}

var cVariants = []cVariant{
	{name: "dwarf5", flags: []string{"-g", "-gdwarf-5"}},
	{name: "dwarf4", flags: []string{"-g", "-gdwarf-4"}},                                 // DW_AT_bit_offset bitfields
	{name: "dwarf2", flags: []string{"-g", "-gdwarf-2", "-gstrict-dwarf"}, strict: true}, // DW_OP_plus_uconst locations
	{name: "zlib", flags: []string{"-g", "-gz=zlib"}},                                    // SHF_COMPRESSED
	{name: "zlib-gnu", flags: []string{"-g", "-gdwarf-4", "-gz=zlib-gnu"}},               // .zdebug_* sections
	{name: "m32", flags: []string{"-g", "-m32"}},
	{name: "m32-dwarf4", flags: []string{"-g", "-m32", "-gdwarf-4"}},
}

// featureStructs are the structs layout_features.c defines, by the names
// the loader gives them.
var featureStructs = []string{
	"holes", "point", "nested", "anon", "with_union", "arrays", "flex", "bits", "bits_packed", "tiny_packed",
	"bits_tail", "packed", "holds_packed", "holds_packed_natural", "vectors", "forced", "aligned_type", "uses_aligned",
	"____cacheline", "pointers", "tail_padding", "empty", "has_empty", "padded_t",
}

// TestCFeatures compiles layout_features.c in every variant and checks
// every struct the loader reads, member by member, against gcc (offsetof,
// sizeof, __alignof__, and the bits a bitfield occupies, all computed by
// gcc into the object's data) and against pahole (member offsets and
// sizes, holes, bit holes, padding, forced alignments, cachelines at 64
// and 128 bytes).
func TestCFeatures(t *testing.T) {
	requireGCC(t)
	_, pahole := exec.LookPath("pahole")
	if pahole != nil {
		t.Log("pahole not found in PATH: the comparison with pahole is skipped (Debian: apt-get install dwarves)")
	}
	for _, v := range cVariants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			if !gccCan(v.flags...) {
				t.Skipf("gcc %s does not compile here (for -m32: no multilib; apt-get install gcc-multilib)", strings.Join(v.flags, " "))
			}
			dir := t.TempDir()
			obj := gcc(t, dir, featuresC, "features.o", v.flags...)
			structs, notes, err := Load(obj, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) > 0 {
				t.Errorf("notes: %q", notes)
			}
			got := byName(structs)
			for _, name := range featureStructs {
				if got[name] == nil {
					t.Errorf("no struct %s (read %d structs)", name, len(structs))
				}
			}
			if len(structs) != len(featureStructs) {
				t.Errorf("read %d structs, want %d", len(structs), len(featureStructs))
			}
			members := compareGCC(t, dir, v, structs)
			paholed := 0
			if pahole == nil {
				paholed = comparePahole(t, obj, structs, nil)
			}
			if members < 100 || pahole == nil && paholed < 80 {
				t.Errorf("compared %d members with gcc and %d with pahole; the features have more", members, paholed)
			}
			t.Logf("%s: %d structs, %d members compared with gcc, %d with pahole", v.name, len(structs), members, paholed)
		})
	}
}

// cType is how C names the type of a layout: "struct NAME", or the
// typedef's name for an anonymous struct named by a typedef.
func cType(s *layout.Struct) string {
	if strings.HasSuffix(s.Name, "_t") {
		return s.Name
	}
	return "struct " + s.Name
}

// fact is one number gcc computes.
type fact struct {
	what, strct, path string
	want              int64
}

// compareGCC writes a C file that includes the features and has gcc
// compute, as constants in the object's data, every struct's sizeof and
// _Alignof and every named member's offsetof, sizeof and __alignof__,
// plus for every bitfield a constant object with only that bitfield's
// bits set; then it compares them with the layouts. It returns the number
// of members compared.
func compareGCC(t *testing.T, dir string, v cVariant, structs []*layout.Struct) int {
	t.Helper()
	var facts []fact
	var table, bitfields bytes.Buffer
	type bitfield struct {
		sym, strct string
		f          *layout.Field
	}
	var bfs []bitfield
	compared := 0
	for _, s := range structs {
		ct := cType(s)
		facts = append(facts, fact{"sizeof", s.Name, "", s.Size})
		fmt.Fprintf(&table, "\tsizeof(%s),\n", ct)
		if !v.strict {
			facts = append(facts, fact{"_Alignof", s.Name, "", s.Align})
			fmt.Fprintf(&table, "\t_Alignof(%s),\n", ct)
		}
		for i := range s.Fields {
			f := &s.Fields[i]
			if f.Name == "" {
				continue // an anonymous struct or union: C cannot name it
			}
			compared++
			if f.BitSize > 0 {
				sym := fmt.Sprintf("mgl_bf%d", len(bfs))
				fmt.Fprintf(&bitfields, "const %s %s = { .%s = -1 };\n", ct, sym, f.Path)
				bfs = append(bfs, bitfield{sym, s.Name, f})
				continue
			}
			m := fmt.Sprintf("((%s *)0)->%s", ct, f.Path)
			facts = append(facts, fact{"offsetof", s.Name, f.Path, f.Offset})
			fmt.Fprintf(&table, "\toffsetof(%s, %s),\n", ct, f.Path)
			if f.Kind == layout.KindArray && f.Size == 0 {
				continue // a flexible array member has no sizeof
			}
			facts = append(facts, fact{"sizeof", s.Name, f.Path, f.Size})
			fmt.Fprintf(&table, "\tsizeof(%s),\n", m)
			if !v.strict && !inPacked(s, i) {
				facts = append(facts, fact{"__alignof__", s.Name, f.Path, f.Align})
				fmt.Fprintf(&table, "\t__alignof__(%s),\n", m)
			}
		}
	}
	src := fmt.Sprintf("#include %q\n\nconst unsigned long long mgl_facts[] = {\n%s};\n\n%s", filepath.Base(featuresC), table.String(), bitfields.String())
	if err := os.WriteFile(filepath.Join(dir, "facts.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := gcc(t, dir, filepath.Join(dir, "facts.c"), "facts.o", append(v.flags, "-w")...)
	ef, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	data := symbolData(t, ef, "mgl_facts")
	if len(data) != 8*len(facts) {
		t.Fatalf("mgl_facts has %d bytes, want %d", len(data), 8*len(facts))
	}
	for i, fc := range facts {
		if got := int64(ef.ByteOrder.Uint64(data[8*i:])); got != fc.want {
			t.Errorf("%s(%s %s): gcc %d, loader %d", fc.what, fc.strct, fc.path, got, fc.want)
		}
	}
	if ef.ByteOrder != binary.LittleEndian {
		t.Logf("bitfields not compared on a big-endian target")
		return compared
	}
	for _, bf := range bfs {
		b := symbolData(t, ef, bf.sym)
		first, n := -1, 0
		for bit := 0; bit < 8*len(b); bit++ {
			if b[bit/8]&(1<<(bit%8)) != 0 {
				if first < 0 {
					first = bit
				}
				n++
			}
		}
		want := bf.f.Offset*8 + bf.f.BitOffset
		if int64(first) != want || int64(n) != bf.f.BitSize {
			t.Errorf("bitfield %s.%s: gcc sets %d bits from bit %d, loader says %d from %d", bf.strct, bf.f.Path, n, first, bf.f.BitSize, want)
		}
	}
	return compared
}

// inPacked reports whether member i of s lies in a packed struct, where
// gcc's __alignof__ of a member is 1 and the layout keeps the alignment
// of the member's type.
func inPacked(s *layout.Struct, i int) bool {
	for p := s.Fields[i].Parent; ; p = s.Fields[p].Parent {
		align := s.Align
		if p >= 0 {
			align = s.Fields[p].Align
		}
		for _, m := range s.Members(p) {
			if s.Fields[m].Align > align {
				return true
			}
		}
		if p < 0 {
			return false
		}
	}
}

var (
	paholeMember = regexp.MustCompile(`^\t[^\t/].*/\*\s*(\d+)(?::\s*(\d+))?\s+(\d+)\s*\*/$`)
	paholeStruct = regexp.MustCompile(`^struct (\S+) \{$`)
)

// paholeStats are pahole's figures for one struct.
type paholeStats struct {
	members [][3]int64 // offset, bit offset, size of each direct member
	summary map[string]int64
}

// runPahole runs pahole on obj with the given cache line size and parses
// every struct it prints, or with -C the one named, which may be an
// anonymous struct named by a typedef (that pahole prints only when
// asked).
func runPahole(t *testing.T, obj string, line int64, name string) map[string]*paholeStats {
	t.Helper()
	args := []string{"--cacheline_size=" + strconv.FormatInt(line, 10)}
	if name != "" {
		args = append(args, "-C", name)
	}
	out, err := exec.Command("pahole", append(args, obj)...).CombinedOutput()
	if err != nil {
		t.Fatalf("pahole %s: %v\n%s", obj, err, out)
	}
	stats := map[string]*paholeStats{}
	var cur *paholeStats
	for _, l := range strings.Split(string(out), "\n") {
		m := paholeStruct.FindStringSubmatch(l)
		if m == nil && name != "" && l == "typedef struct {" {
			m = []string{l, name}
		}
		if m != nil {
			cur = &paholeStats{summary: map[string]int64{}}
			if stats[m[1]] == nil {
				stats[m[1]] = cur
			}
			continue
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(l, "}") {
			cur = nil
			continue
		}
		if m := paholeMember.FindStringSubmatch(l); m != nil {
			off, _ := strconv.ParseInt(m[1], 10, 64)
			bit, _ := strconv.ParseInt(m[2], 10, 64)
			size, _ := strconv.ParseInt(m[3], 10, 64)
			cur.members = append(cur.members, [3]int64{off, bit, size})
			continue
		}
		if c, ok := strings.CutPrefix(l, "\t/* "); ok && strings.HasSuffix(c, " */") {
			parseSummary(strings.TrimSuffix(c, " */"), cur.summary)
		}
	}
	return stats
}

// parseSummary reads "size: 16, cachelines: 1, members: 7" and the like
// into keys and numbers; "sum bitfield members: 72 bits (9 bytes)" keeps
// the bits.
func parseSummary(c string, into map[string]int64) {
	for _, part := range strings.Split(c, ", ") {
		key, val, ok := strings.Cut(part, ": ")
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(val, " ")
		if n, err := strconv.ParseInt(num, 10, 64); err == nil {
			into[key] = n
		}
	}
}

// ourSummary is the same figures from a layout, with pahole's keys; zero
// figures are left out, as pahole leaves them out.
func ourSummary(s *layout.Struct, line int64) map[string]int64 {
	sum := s.Summary(-1)
	m := map[string]int64{
		"size":       s.Size,
		"cachelines": s.LineCount(line),
		"members":    int64(sum.Members),
	}
	put := func(k string, v int64) {
		if v != 0 {
			m[k] = v
		}
	}
	if sum.HoleSum > 0 || sum.BitSum > 0 {
		put("sum members", sum.Bytes)
		put("sum bitfield members", sum.Bits)
	}
	put("holes", int64(sum.Holes))
	put("sum holes", sum.HoleSum)
	put("bit holes", int64(sum.BitHoles))
	put("sum bit holes", sum.BitSum)
	put("padding", sum.Padding)
	put("paddings", int64(sum.Paddings))
	put("sum paddings", sum.PaddingSum)
	put("bit_padding", sum.BitPadding)
	put("forced alignments", int64(sum.Forced))
	put("forced holes", int64(sum.ForcedHoles))
	put("sum forced holes", sum.ForcedSum)
	put("last cacheline", s.Size%line)
	return m
}

// comparePahole checks every layout against pahole at 64- and 128-byte
// lines: the offset, bit offset and size of each direct member, and the
// summary. stats64 is pahole's output at 64-byte lines when the caller
// has it already (nil: run it). It returns the number of members
// compared.
func comparePahole(t *testing.T, obj string, structs []*layout.Struct, stats64 map[string]*paholeStats) int {
	t.Helper()
	n := 0
	for _, line := range []int64{64, 128} {
		stats := stats64
		if line != 64 || stats == nil {
			stats = runPahole(t, obj, line, "")
		}
		for _, s := range structs {
			p := stats[s.Name]
			if p == nil {
				p = runPahole(t, obj, line, s.Name)[s.Name]
			}
			if p == nil {
				t.Errorf("pahole --cacheline_size=%d prints no struct %s", line, s.Name)
				continue
			}
			var ours [][3]int64
			for _, i := range s.Members(-1) {
				f := &s.Fields[i]
				ours = append(ours, [3]int64{f.Offset, f.BitOffset, f.Size})
			}
			if fmt.Sprint(ours) != fmt.Sprint(p.members) {
				t.Errorf("%s: members (offset, bit, size)\n ours   %v\n pahole %v", s.Name, ours, p.members)
			}
			n += len(ours)
			if got, want := ourSummary(s, line), p.summary; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s at %d-byte lines: summary\n ours   %v\n pahole %v", s.Name, line, got, want)
			}
		}
	}
	return n / 2
}

// TestCFeatureDetails checks what gcc's numbers do not: how member types
// are spelled, the paths of anonymous members, kinds, array lengths and
// elements, and the flags pahole's figures depend on.
func TestCFeatureDetails(t *testing.T) {
	requireGCC(t)
	obj := gcc(t, t.TempDir(), featuresC, "features.o", "-g")
	structs, _, err := Load(obj, Options{Types: []string{"pointers", "arrays", "nested", "anon", "forced", "uses_aligned", "bits", "padded_t"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(structs) != 8 || structs[0].Name != "pointers" || structs[7].Name != "padded_t" {
		t.Fatalf("got %d structs, not in the order -type gives", len(structs))
	}
	got := byName(structs)
	field := func(strct, path string) *layout.Field {
		f := got[strct].Field(path)
		if f == nil {
			t.Fatalf("%s has no member %s", strct, path)
		}
		return f
	}
	for _, tc := range []struct{ strct, path, typ string }{
		{"pointers", "color", "enum color"},
		{"pointers", "name", "const char *"},
		{"pointers", "fixed", "char * const"},
		{"pointers", "cvp", "volatile const int *"},
		{"pointers", "opaque", "void *"},
		{"pointers", "callback", "void (*)(int, void *)"},
		{"pointers", "table", "int (*)[3]"},
		{"pointers", "next", "struct pointers *"},
		{"pointers", "argv", "char **"},
		{"pointers", "counter", "volatile long unsigned int"},
		{"pointers", "ratio", "const double"},
		{"pointers", "ok", "_Bool"},
		{"arrays", "grid", "short int[2][3]"},
		{"arrays", "cube", "int[2][2][2]"},
		{"arrays", "pts", "struct point[3]"},
		{"arrays", "names", "char *[4]"},
		{"nested", "p", "point_t"},
		{"nested", "q", "struct point"},
		{"nested", "cq", "const struct point"},
		{"nested", "pad", "padded_t"},
		{"nested", "inl", "struct {...}"},
		{"nested", "big", "u64"},
		{"uses_aligned", "a16", "aligned16_int"},
		{"bits", "big", "u64"},
		{"bits", "col", "enum color"},
		{"anon", "union{x,y,struct{lo,hi}}", "union"},
		{"anon", "struct{p,q,union{r,s}}", "struct"},
		{"anon", "struct{lo,hi}", "struct"}, // inside the anonymous union, also named as C would
	} {
		if f := field(tc.strct, tc.path); f.Type != tc.typ {
			t.Errorf("%s.%s: type %q, want %q", tc.strct, tc.path, f.Type, tc.typ)
		}
	}
	// Members of anonymous aggregates are named as C names them.
	for _, path := range []string{"x", "y", "lo", "hi", "p", "q", "r", "s", "z"} {
		field("anon", path)
	}
	if f := field("anon", "lo"); f.Depth != 2 || f.Offset != 4 {
		t.Errorf("anon.lo: depth %d offset %d, want 2 and 4", f.Depth, f.Offset)
	}
	pts := field("arrays", "pts")
	if pts.Kind != layout.KindArray || pts.Len != 3 || pts.Elem == nil || pts.Elem.Field("y") == nil || pts.Elem.Field("y").Offset != 4 {
		t.Errorf("arrays.pts: kind %v len %d elem %+v, want an array of 3 struct point", pts.Kind, pts.Len, pts.Elem)
	}
	if f := field("arrays", "grid"); f.Len != 2 || f.Elem != nil {
		t.Errorf("arrays.grid: len %d elem %v, want 2 and none", f.Len, f.Elem)
	}
	if f := field("arrays", "zero"); f.Size != 0 || f.Len != 0 {
		t.Errorf("arrays.zero: size %d len %d, want 0 and 0", f.Size, f.Len)
	}
	for _, tc := range []struct {
		strct, path string
		kind        layout.Kind
		viaTypedef  bool
	}{
		{"nested", "p", layout.KindStruct, true},
		{"nested", "q", layout.KindStruct, false},
		{"nested", "cq", layout.KindStruct, true},
		{"nested", "pad2", layout.KindStruct, true},
		{"nested", "inl", layout.KindStruct, false},
		{"nested", "big", layout.KindScalar, false},
	} {
		if f := field(tc.strct, tc.path); f.Kind != tc.kind || f.ViaTypedef != tc.viaTypedef {
			t.Errorf("%s.%s: kind %v via typedef %v, want %v and %v", tc.strct, tc.path, f.Kind, f.ViaTypedef, tc.kind, tc.viaTypedef)
		}
	}
	for _, tc := range []struct {
		strct, path string
		forced      bool
		align       int64
	}{
		{"forced", "x", true, 64},
		{"forced", "d", false, 1},
		{"uses_aligned", "t", true, 32},
		{"uses_aligned", "a16", true, 16},
		{"uses_aligned", "i", false, 4},
	} {
		if f := field(tc.strct, tc.path); f.ForcedAlign != tc.forced || f.Align != tc.align {
			t.Errorf("%s.%s: forced %v align %d, want %v and %d", tc.strct, tc.path, f.ForcedAlign, f.Align, tc.forced, tc.align)
		}
	}
	if s := got["forced"]; s.Align != 64 || !strings.Contains(s.Doc, "layout_features.c:") {
		t.Errorf("forced: align %d doc %q, want 64 and the declaring file", s.Align, s.Doc)
	}
}

// TestSystemDebugFiles compares the loader with pahole on real programs'
// debug info where the system has some installed (Debian's *-dbg
// packages put it under /usr/lib/debug): every struct pahole prints, its
// members' offsets and sizes and its summary at 64- and 128-byte lines.
func TestSystemDebugFiles(t *testing.T) {
	if _, err := exec.LookPath("pahole"); err != nil {
		t.Skip("pahole not found in PATH (Debian: apt-get install dwarves)")
	}
	files := systemDebugFiles()
	if len(files) == 0 {
		t.Skip("no debug files under /usr/lib/debug (Debian: apt-get install libc6-dbg)")
	}
	for _, file := range files[:min(3, len(files))] {
		structs, _, err := Load(file, Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		// pahole prints the structs named by a typedef only when asked.
		printed := runPahole(t, file, 64, "")
		var both []*layout.Struct
		for _, s := range structs {
			if printed[s.Name] != nil {
				both = append(both, s)
			}
		}
		if len(both) < len(printed) {
			t.Errorf("%s: pahole prints %d structs, the loader read %d of them", file, len(printed), len(both))
		}
		n := comparePahole(t, file, both, printed)
		t.Logf("%s: %d structs, %d members compared with pahole", file, len(both), n)
	}
}

// TestDeclAtHeader checks where a struct declared in a header is said to
// be declared, in every form of the DWARF: the line table names the
// header, compressed (SHF_COMPRESSED, GNU's .zdebug_line) or not.
func TestDeclAtHeader(t *testing.T) {
	requireGCC(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Enough functions that gcc compresses the line table too.
	src := "#include \"src/h.h\"\nstruct in_header v;\n"
	for i := range 200 {
		src += fmt.Sprintf("int f%d(int x) {\n\tx += %d;\n\treturn x * 3;\n}\n", i, i)
	}
	for name, text := range map[string]string{
		"src/h.h": "struct in_header { long a; char b; };\n",
		"x.c":     src,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range cVariants {
		if !gccCan(v.flags...) {
			continue
		}
		obj := gcc(t, dir, filepath.Join(dir, "x.c"), v.name+".o", v.flags...)
		structs, _, err := Load(obj, Options{Types: []string{"in_header"}})
		if err != nil {
			t.Fatalf("%s: %v", v.name, err)
		}
		if got := structs[0].DeclAt; got != "src/h.h:1" {
			t.Errorf("%s: declared at %q, want src/h.h:1", v.name, got)
		}
	}
}
