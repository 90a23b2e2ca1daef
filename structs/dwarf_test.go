package structs_test

import (
	"debug/dwarf"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mglayout/mglayout/internal/golden" // -update, which go test ./... -update gives every package
	"github.com/mglayout/mglayout/internal/kernelfacts"
	"github.com/mglayout/mglayout/layout"
)

// dwarfMember is one member of a C struct as the debug info gives it, with
// its absolute offset. Anonymous structs and unions have an empty path
// element: their members are named through the enclosing aggregate, as in
// C, and they are compared by position (see anonKey).
type dwarfMember struct {
	path      string
	off, size int64
	anon      bool
	union     bool
}

// dwarfReader is the minimal DWARF reading this test needs: struct and union
// types, their members and byte sizes. (The full DWARF loader is a feature
// of its own; this one is kept small so that it can be trusted by reading.)
type dwarfReader struct {
	t *testing.T
	d *dwarf.Data
}

func (r dwarfReader) entry(off dwarf.Offset) *dwarf.Entry {
	rd := r.d.Reader()
	rd.Seek(off)
	e, err := rd.Next()
	if err != nil || e == nil {
		r.t.Fatalf("DWARF entry at %#x: %v", off, err)
	}
	return e
}

// children returns the direct children of the entry at off.
func (r dwarfReader) children(off dwarf.Offset) []*dwarf.Entry {
	rd := r.d.Reader()
	rd.Seek(off)
	e, err := rd.Next()
	if err != nil || !e.Children {
		return nil
	}
	var kids []*dwarf.Entry
	for {
		c, err := rd.Next()
		if err != nil {
			r.t.Fatalf("DWARF children of %#x: %v", off, err)
		}
		if c == nil || c.Tag == 0 {
			return kids
		}
		kids = append(kids, c)
		if c.Children {
			rd.SkipChildren()
		}
	}
}

// strip follows typedefs and qualifiers to the type that has a layout.
func (r dwarfReader) strip(e *dwarf.Entry) *dwarf.Entry {
	for {
		switch e.Tag {
		case dwarf.TagTypedef, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType, dwarf.TagAtomicType:
			e = r.entry(e.Val(dwarf.AttrType).(dwarf.Offset))
		default:
			return e
		}
	}
}

// size returns the byte size of a type: DW_AT_byte_size where present, the
// element size times the element count for arrays.
func (r dwarfReader) size(e *dwarf.Entry) int64 {
	e = r.strip(e)
	if n, ok := e.Val(dwarf.AttrByteSize).(int64); ok {
		return n
	}
	if e.Tag == dwarf.TagArrayType {
		n := r.size(r.entry(e.Val(dwarf.AttrType).(dwarf.Offset)))
		for _, sub := range r.children(e.Offset) {
			if c, ok := sub.Val(dwarf.AttrCount).(int64); ok {
				n *= c
			} else if ub, ok := sub.Val(dwarf.AttrUpperBound).(int64); ok {
				n *= ub + 1
			}
		}
		return n
	}
	r.t.Fatalf("DWARF type %v at %#x has no byte size", e.Tag, e.Offset)
	return 0
}

// members appends the members of the struct or union e, which starts at
// base, at every depth.
func (r dwarfReader) members(out []dwarfMember, prefix string, e *dwarf.Entry, base int64) []dwarfMember {
	for _, c := range r.children(e.Offset) {
		if c.Tag != dwarf.TagMember {
			continue
		}
		if c.Val(dwarf.AttrBitSize) != nil || c.Val(dwarf.AttrDataBitOffset) != nil {
			r.t.Fatalf("DWARF member %s.%v is a bitfield, which this reader does not handle", prefix, c.Val(dwarf.AttrName))
		}
		loc := r.location(c)
		typ := r.entry(c.Val(dwarf.AttrType).(dwarf.Offset))
		under := r.strip(typ)
		m := dwarfMember{off: base + loc, size: r.size(typ), union: under.Tag == dwarf.TagUnionType}
		name, _ := c.Val(dwarf.AttrName).(string)
		childPrefix := prefix
		if name == "" {
			m.anon, m.path = true, prefix
		} else {
			m.path = join(prefix, name)
			childPrefix = m.path
		}
		out = append(out, m)
		if under.Tag == dwarf.TagStructType || under.Tag == dwarf.TagUnionType {
			out = r.members(out, childPrefix, under, base+loc)
		}
	}
	return out
}

// location returns a member's DW_AT_data_member_location: a constant
// (DWARF 3 and later), or DW_OP_plus_uconst N (DWARF 2). A union member has
// none: it is at the union's start.
func (r dwarfReader) location(c *dwarf.Entry) int64 {
	switch v := c.Val(dwarf.AttrDataMemberLoc).(type) {
	case nil:
		return 0
	case int64:
		return v
	case []byte:
		const opPlusUconst = 0x23
		if len(v) > 1 && v[0] == opPlusUconst {
			var n, shift int64
			for _, b := range v[1:] { // ULEB128
				n |= int64(b&0x7f) << shift
				shift += 7
				if b < 0x80 {
					return n
				}
			}
		}
	}
	r.t.Fatalf("DWARF member %v: location %v is not a constant offset", c.Val(dwarf.AttrName), c.Val(dwarf.AttrDataMemberLoc))
	return 0
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// find returns the first top-level entry with the given tag and name.
func (r dwarfReader) find(tag dwarf.Tag, name string) *dwarf.Entry {
	rd := r.d.Reader()
	for {
		e, err := rd.Next()
		if err != nil {
			r.t.Fatal(err)
		}
		if e == nil {
			return nil
		}
		if e.Tag == tag && e.Val(dwarf.AttrName) == name {
			return e
		}
		if e.Tag != dwarf.TagCompileUnit && e.Children {
			rd.SkipChildren()
		}
	}
}

// compile builds tk_layout.c as the kernel facts were made (BUILD.txt), with
// extra defines, and returns its DWARF and the GOARCH whose sizes the object
// has. -fno-eliminate-unused-debug-types keeps types that only sizeof and
// offsetof use (struct tk_data_v6_15 has no variable, so gcc would drop it;
// that is the "type 'tk_data_v6_15' not found" in the pahole files).
func compile(t *testing.T, src string, defines ...string) (dwarfReader, string) {
	t.Helper()
	obj := filepath.Join(t.TempDir(), "tk.o")
	args := append([]string{"-g", "-O0", "-fno-eliminate-unused-debug-types", "-DSMP_CACHE_BYTES=64"}, defines...)
	args = append(args, "-c", src, "-o", obj)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	arch := map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64"}[f.Machine]
	if arch == "" || f.Class != elf.ELFCLASS64 {
		t.Skipf("gcc here targets %v %v; the models hold for LP64 x86_64 and arm64 only", f.Machine, f.Class)
	}
	d, err := f.DWARF()
	if err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	return dwarfReader{t, d}, arch
}

// TestDWARF compiles tk_layout.c with gcc and checks each model against the
// struct's debug info: every named member at every depth has the same
// absolute offset and size in both, neither has a member the other lacks
// (anonymous unions compared by position), and the sizes and declared
// alignments agree.
func TestDWARF(t *testing.T) {
	src := filepath.Join(kernelfacts.Dir(), "tk_layout.c")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found in PATH: the DWARF comparison needs it to compile " + src)
	}
	builds := []struct {
		defines []string
		structs map[string]string // C struct tag -> model
	}{
		{nil, map[string]string{
			"tk_core_v6_1":  "tk_core@v6.1",
			"tk_data_v6_13": "tk_data@v6.13",
			"tk_data_v6_15": "tk_data@v6.15",
			"tk_data_v6_17": "tk_data@v6.17",
			"tk_data_v7_1":  "tk_data@v7.1",
			"tk_fast":       "tk_fast@v6.1",
		}},
		{[]string{"-DGUOHUI_PADDING"}, map[string]string{"tk_core_v6_1": "tk_core@v6.1+guohui"}},
		{[]string{"-DRT_OR_LOCKDEP_SEQ"}, map[string]string{"tk_core_v6_1": "tk_core@v6.1+rt"}},
	}
	total := 0
	for _, b := range builds {
		r, arch := compile(t, src, b.defines...)
		for tag, name := range b.structs {
			where := strings.TrimSpace("gcc "+strings.Join(b.defines, " ")) + ": struct " + tag
			e := r.find(dwarf.TagStructType, tag)
			if e == nil {
				t.Errorf("%s: not in the DWARF", where)
				continue
			}
			s := lookupArch(t, name, arch)
			if got := r.size(e); got != s.Size {
				t.Errorf("%s: %d bytes, %s is %d", where, got, name, s.Size)
			}
			// ____cacheline_aligned on the type shows as DW_AT_alignment.
			// struct tk_fast has it on its variables instead (below).
			if a, ok := e.Val(dwarf.AttrAlignment).(int64); ok && a != s.Align {
				t.Errorf("%s: aligned %d, %s is %d", where, a, name, s.Align)
			}
			total += compareDWARF(t, where, r.members(nil, "", e, 0), s)
		}
		if b.defines != nil {
			continue
		}
		// The variables: tk_fast_mono carries the alignment of tk_fast@v6.1,
		// mg_floor (an atomic64_t, a typedef of an anonymous struct) is
		// mg_floor@v6.13 whole.
		for _, v := range []struct{ variable, model string }{{"tk_fast_mono", "tk_fast@v6.1"}, {"mg_floor", "mg_floor@v6.13"}} {
			e := r.find(dwarf.TagVariable, v.variable)
			if e == nil {
				t.Errorf("variable %s: not in the DWARF", v.variable)
				continue
			}
			s := lookupArch(t, v.model, arch)
			typ := r.entry(e.Val(dwarf.AttrType).(dwarf.Offset))
			if got := r.size(typ); got != s.Size {
				t.Errorf("variable %s: %d bytes, %s is %d", v.variable, got, v.model, s.Size)
			}
			// gcc emits DW_AT_alignment (DWARF 5) for an explicit
			// alignment; older producers may not, and then there is
			// nothing to compare.
			if a, ok := e.Val(dwarf.AttrAlignment).(int64); ok {
				if a != s.Align {
					t.Errorf("variable %s: aligned %d, %s is %d", v.variable, a, v.model, s.Align)
				}
			} else {
				t.Logf("variable %s: no DW_AT_alignment, alignment not compared", v.variable)
			}
			if v.variable == "mg_floor" {
				total += compareDWARF(t, "variable mg_floor", r.members(nil, "", r.strip(typ), 0), s)
			}
		}
	}
	// Named members: tk_core 47, tk_data 94, 96, 108 and 116 (v6.17 and
	// v7.1 also have two anonymous unions in each timekeeper, compared by
	// position), tk_fast 4, mg_floor 1, guohui 48, rt 48.
	const want = 47 + 94 + 96 + 108 + 116 + 4 + 1 + 48 + 48
	if total != want {
		t.Errorf("compared %d DWARF members, want %d", total, want)
	}
	t.Logf("%d DWARF members compared", total)
}

// anonKey identifies an anonymous struct or union by where it is: the path
// its members are named under, its offset and size.
type anonKey struct {
	prefix    string
	off, size int64
	union     bool
}

// compareDWARF checks the members read from DWARF against the model both
// ways and returns the number of named members compared.
func compareDWARF(t *testing.T, where string, members []dwarfMember, s *layout.Struct) int {
	t.Helper()
	named := map[string]bool{}
	anon := map[anonKey]int{}
	n := 0
	for _, m := range members {
		if m.anon {
			anon[anonKey{m.path, m.off, m.size, m.union}]++
			continue
		}
		n++
		named[m.path] = true
		f := s.Field(m.path)
		switch {
		case f == nil:
			t.Errorf("%s: member %s (at %d, %d bytes) is not in %s", where, m.path, m.off, m.size, s.Name)
		case f.Offset != m.off || f.Size != m.size:
			t.Errorf("%s: %s at %d size %d, %s has it at %d size %d", where, m.path, m.off, m.size, s.Name, f.Offset, f.Size)
		}
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		if f.Name != "" {
			if !named[f.Path] {
				t.Errorf("%s: %s has %s (at %d), which the DWARF lacks", where, s.Name, f.Path, f.Offset)
			}
			continue
		}
		k := anonKey{namePrefix(s, i), f.Offset, f.Size, f.Kind == layout.KindUnion}
		if anon[k] == 0 {
			t.Errorf("%s: %s has an anonymous %v %s at %d size %d, which the DWARF lacks", where, s.Name, f.Kind, f.Path, f.Offset, f.Size)
		}
		anon[k]--
	}
	for k, left := range anon {
		if left > 0 {
			t.Errorf("%s: the DWARF has an anonymous aggregate under %q at %d size %d that %s lacks", where, k.prefix, k.off, k.size, s.Name)
		}
	}
	return n
}

// namePrefix returns the path under which the members of the anonymous
// aggregate at i are named: that of its nearest named ancestor.
func namePrefix(s *layout.Struct, i int) string {
	for p := s.Fields[i].Parent; p >= 0; p = s.Fields[p].Parent {
		if s.Fields[p].Name != "" {
			return s.Fields[p].Path
		}
	}
	return ""
}
