package gosrc

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"runtime"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/layout"
)

// dwarfArchs are the GOARCHes whose layouts are checked against the
// compiler without running anything: 64- and 32-bit, little- and
// big-endian, and the ones whose cache lines differ (arm64 and ppc64le
// 128, s390x 256, arm 32).
var dwarfArchs = []string{"amd64", "arm64", "386", "arm", "ppc64le", "s390x", "riscv64"}

// TestCompilerDWARF cross-compiles the probe program for each GOARCH and
// checks the layouts Load computes for that GOARCH against the binary:
// every member's offset, size, name and kind against DWARF (which the
// linker writes from the compiler's type descriptors, blank fields and
// members of other packages' structs included), and every struct's size
// and alignment and every addressable member's offset, size and alignment
// against the probe's table of unsafe.Offsetof/Sizeof/Alignof constants,
// read from the binary's data.
func TestCompilerDWARF(t *testing.T) {
	requireGoCommand(t)
	dir := t.TempDir()
	entries := writeProbe(t, dir, loadAwkward(t, runtime.GOARCH))
	for _, arch := range dwarfArchs {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			structs := loadAwkward(t, arch)
			f, err := elf.Open(buildProbe(t, dir, "linux", arch))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			members := compareDWARF(t, f, structs)
			words := compareTable(t, f, entries, structs)
			t.Logf("%s: %d structs, %d members compared with DWARF, %d with the compiler's constants", arch, len(structs), members, words)
		})
	}
}

// compareDWARF compares every struct with the DWARF type of the same
// name and returns the number of members compared.
func compareDWARF(t *testing.T, f *elf.File, structs []*layout.Struct) int {
	t.Helper()
	d, err := f.DWARF()
	if err != nil {
		t.Fatalf("no DWARF in the probe: %v", err)
	}
	types := dwarfStructs(t, d)
	total := 0
	for _, s := range structs {
		name := dwarfName(instanceName(s))
		off, ok := types[name]
		if !ok {
			t.Errorf("%s: no DWARF struct %q", s.Name, name)
			continue
		}
		typ, err := d.Type(off)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		st := typ.(*dwarf.StructType)
		if st.ByteSize != s.Size {
			t.Errorf("%s: DWARF size %d, model %d", s.Name, st.ByteSize, s.Size)
		}
		n := compareMembers(t, s, -1, st, 0)
		// Every member of the model, at every depth, must have been
		// matched; a struct with none would prove nothing.
		if n != len(s.Fields) || n == 0 {
			t.Errorf("%s: %d of %d members compared", s.Name, n, len(s.Fields))
		}
		total += n
	}
	return total
}

// dwarfName is the name Go's linker gives a struct type: the import path,
// a dot and the name, with the type arguments of an instantiation in the
// same form and separated by a bare comma, e.g.
// "mglayout.test/awkward.Pair[string,mglayout.test/awkward.Inner]" (so that
// generics are compared on every GOARCH, not only on the host). go/types
// writes ", " between type arguments, so the model may too.
//
// Member names need no mapping: an embedded field is named after its type
// without package or type arguments ("Inner", "Mutex" for *sync.Mutex,
// "Pair" for Pair[int8,int64]), as go/types names the field.
func dwarfName(name string) string { return strings.ReplaceAll(name, ", ", ",") }

// instanceName names the instance a layout is of: a stand-in (StandIn)
// is named by its type parameters, and is the instance of unsafe.Pointer
// for each, the stand-in of the awkward package's unconstrained
// parameters.
func instanceName(s *layout.Struct) string {
	if !strings.Contains(s.Doc, "a stand-in") {
		return s.Name
	}
	base, params, _ := strings.Cut(strings.TrimSuffix(s.Name, "]"), "[")
	args := strings.Split(params, ", ")
	for i := range args {
		args[i] = "unsafe.Pointer"
	}
	return base + "[" + strings.Join(args, ", ") + "]"
}

// dwarfStructs maps the name of every struct type in d to its offset.
func dwarfStructs(t *testing.T, d *dwarf.Data) map[string]dwarf.Offset {
	t.Helper()
	types := map[string]dwarf.Offset{}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatalf("reading DWARF: %v", err)
		}
		if e == nil {
			return types
		}
		if name, ok := e.Val(dwarf.AttrName).(string); ok && e.Tag == dwarf.TagStructType {
			types[name] = e.Offset
		}
	}
}

// compareMembers compares the direct members of the aggregate at parent,
// which DWARF describes as st at offset base, one by one in declaration
// order (which also matches blank fields), and recurses into those the
// model expands. It returns the number of members compared.
func compareMembers(t *testing.T, s *layout.Struct, parent int, st *dwarf.StructType, base int64) int {
	t.Helper()
	idx := s.Members(parent)
	where := s.Name
	if parent >= 0 {
		where += "." + s.Fields[parent].Path
	}
	if len(idx) != len(st.Field) {
		t.Errorf("%s: %d members in DWARF, %d in the model", where, len(st.Field), len(idx))
		return 0
	}
	n := 0
	for i, fi := range idx {
		f, df := &s.Fields[fi], st.Field[i]
		typ := stripTypedefs(df.Type)
		_, isArray := typ.(*dwarf.ArrayType)
		got := fmt.Sprintf("%s at %d size %d array %v", df.Name, base+df.ByteOffset, df.Type.Size(), isArray)
		want := fmt.Sprintf("%s at %d size %d array %v", f.Name, f.Offset, f.Size, f.Kind == layout.KindArray)
		if got != want {
			t.Errorf("%s: DWARF member %d is %s, model %s", where, i, got, want)
			continue
		}
		n++
		if f.Aggregate() {
			sub, ok := typ.(*dwarf.StructType)
			if !ok {
				t.Errorf("%s.%s: a %s in the model, %T in DWARF", s.Name, f.Path, f.Kind, typ)
				continue
			}
			n += compareMembers(t, s, fi, sub, f.Offset)
		}
	}
	return n
}

func stripTypedefs(t dwarf.Type) dwarf.Type {
	for {
		td, ok := t.(*dwarf.TypedefType)
		if !ok {
			return t
		}
		t = td.Type
	}
}

// compareTable reads the probe's mglayoutTable from the binary's data (the
// compiler's unsafe.Offsetof/Sizeof/Alignof for the target GOARCH, three
// words per entry) and compares it with the model. It returns the number
// of members compared.
func compareTable(t *testing.T, f *elf.File, entries []probeEntry, structs []*layout.Struct) int {
	t.Helper()
	words := probeTable(t, f)
	if len(words) != 3*len(entries) {
		t.Fatalf("probe table has %d words, want %d", len(words), 3*len(entries))
	}
	byName := map[string]*layout.Struct{}
	for _, s := range structs {
		byName[s.Name] = s
	}
	compared := map[string]int{}
	for i, e := range entries {
		s := byName[e.Struct]
		if s == nil {
			t.Errorf("%s: not in the layouts for %s", e.Struct, f.Machine)
			continue
		}
		want := compilerFacts{Size: s.Size, Align: s.Align}
		if e.Path != "" {
			m := s.Field(e.Path)
			if m == nil {
				t.Errorf("%s: not in the layout for %s", e, f.Machine)
				continue
			}
			want = compilerFacts{Offset: m.Offset, Size: m.Size, Align: m.Align}
			compared[e.Struct]++
		}
		got := compilerFacts{int64(words[3*i]), int64(words[3*i+1]), int64(words[3*i+2])}
		if got != want {
			t.Errorf("%s: compiler constants %+v, model %+v", e, got, want)
		}
	}
	total := 0
	for _, s := range structs {
		if compared[s.Name] == 0 && isLocal(s.Name) {
			t.Errorf("%s: no member compared with the compiler's constants", s.Name)
		}
		total += compared[s.Name]
	}
	return total
}

// probeTable returns the words of the probe's mglayoutTable symbol, in the
// target's word size and byte order.
func probeTable(t *testing.T, f *elf.File) []uint64 {
	t.Helper()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatalf("probe symbols: %v", err)
	}
	for _, sym := range syms {
		if sym.Name != awkwardPkg+".mglayoutTable" {
			continue
		}
		if int(sym.Section) >= len(f.Sections) {
			t.Fatalf("%s in section %d", sym.Name, sym.Section)
		}
		sec := f.Sections[sym.Section]
		data, err := sec.Data()
		if err != nil || sym.Value < sec.Addr || sym.Value-sec.Addr+sym.Size > uint64(len(data)) {
			t.Fatalf("%s not in the data of %s: %v", sym.Name, sec.Name, err)
		}
		b := data[sym.Value-sec.Addr:][:sym.Size]
		size := 8
		if f.Class == elf.ELFCLASS32 {
			size = 4
		}
		var words []uint64
		for ; len(b) >= size; b = b[size:] {
			if size == 4 {
				words = append(words, uint64(f.ByteOrder.Uint32(b)))
			} else {
				words = append(words, f.ByteOrder.Uint64(b))
			}
		}
		return words
	}
	t.Fatalf("no symbol %s.mglayoutTable in the probe", awkwardPkg)
	return nil
}
