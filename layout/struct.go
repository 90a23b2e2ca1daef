package layout

import "fmt"

// Source says where a layout came from.
type Source string

const (
	SourceKernel Source = "kernel" // a built-in model of a Linux kernel struct
	SourceGo     Source = "go"     // a Go type, sized by go/types for one GOARCH
	SourceDWARF  Source = "dwarf"  // a struct read from an object's debug info
)

// Kind classifies a member by how the analysis treats its bytes.
type Kind uint8

const (
	KindScalar Kind = iota // a value that is read and written as a whole (numbers, pointers, strings, interfaces)
	KindStruct             // a nested struct; its members follow it in Struct.Fields
	KindUnion              // a nested union; its members follow it, all at its offset
	KindArray              // an array, kept as one member
)

func (k Kind) String() string {
	switch k {
	case KindStruct:
		return "struct"
	case KindUnion:
		return "union"
	case KindArray:
		return "array"
	}
	return "scalar"
}

// Field is one member at any depth. Offsets are absolute: bytes from the
// start of the outermost object, so that line arithmetic needs no context.
type Field struct {
	Path   string // dotted path from the outermost object, e.g. "timekeeper.tkr_mono.shift"
	Name   string // last element of Path; empty for an anonymous struct or union
	Type   string // the type as the source spells it ("u64", "struct timekeeper", "atomic.Int64")
	Offset int64
	Size   int64
	Align  int64
	Kind   Kind
	Depth  int   // 0 for members of the outermost object
	Parent int   // index in Struct.Fields of the enclosing member, -1 at depth 0
	Len    int64 // number of elements of an array member
	// Elem is the layout of one element of an array of structs, with
	// offsets from the element's start, so that a path can name a member
	// of an element (shards[3].n); nil for other members.
	Elem *Struct

	// Decl names the type that declares the members of an aggregate (a
	// Go type's name, a C struct's or union's tag), so that a suggested
	// order can be written back as source; empty where there is none (an
	// anonymous struct).
	Decl string
	// DeclAt is where the type of an aggregate read from DWARF is
	// declared, "file:line", so that a suggested order names the
	// declaration it changes; empty where the DWARF does not say.
	DeclAt string

	// BitSize is non-zero for a bitfield, whose first bit is BitOffset bits
	// past Offset.
	BitOffset int64
	BitSize   int64

	// ForcedAlign is set when an attribute raised the member's alignment
	// above its type's natural one (C's __attribute__((aligned(N))) on the
	// member or on its type, DWARF's DW_AT_alignment on the member):
	// pahole's "forced alignments", and the holes before such members its
	// "forced holes".
	ForcedAlign bool
	// ViaTypedef is set when a struct member's type is reached through a
	// typedef or a qualifier (seqcount_t, const struct x) rather than
	// declared as "struct x": pahole counts only the latter in its
	// "paddings".
	ViaTypedef bool
}

// bitStart is the first byte holding a bitfield's bits, or the offset of
// any other member.
func (f *Field) bitStart() int64 { return f.Offset + f.BitOffset/8 }

// End is the offset of the first byte past the field.
func (f *Field) End() int64 { return f.Offset + f.Size }

// Aggregate reports whether the field's members follow it in the list.
func (f *Field) Aggregate() bool { return f.Kind == KindStruct || f.Kind == KindUnion }

// Neighbour is a symbol beside a placed variable: its name, its offset
// from the variable's address (negative before it), and its size.
type Neighbour struct {
	Name   string
	Offset int64
	Size   int64
}

// NaturalAlign is the alignment the members of an aggregate (parent; -1
// for the object itself) require by their types, other than a member's
// forced alignment: where the aggregate's own alignment is larger, an
// attribute raised it (__aligned__); where it is smaller, it is packed.
func (s *Struct) NaturalAlign(parent int) int64 {
	a := int64(1)
	for _, i := range s.Members(parent) {
		if f := &s.Fields[i]; !f.ForcedAlign {
			a = max(a, f.Align)
		}
	}
	return a
}

// Struct is the layout of one type (or one object of a type) for one
// architecture.
type Struct struct {
	Name   string // "tk_core@v6.1", "import/path.Type", or a C tag name
	Source Source
	Arch   string // GOARCH whose sizes were used, e.g. "amd64"
	Size   int64
	// Align is the alignment the object is guaranteed to start at: the
	// type's own, or a declared one such as the kernel's
	// ____cacheline_aligned. It decides the reachable phases.
	Align int64
	// Fields lists every member at every depth, depth first: each aggregate
	// comes before its members, and the members of one aggregate are in
	// offset order (so the list is in offset order unless a union holds
	// a struct).
	Fields []Field
	// Decl names the type declaring the outermost members, as Field.Decl
	// does for nested ones; DeclAt is where a type read from DWARF is
	// declared, as Field.DeclAt.
	Decl   string
	DeclAt string
	// FromGoBinary is set for a struct read from the DWARF of a Go
	// binary: its members' types are spelled as Go spells them.
	FromGoBinary bool
	// VarType is set for the layout of a variable (named after it): its
	// type as C names it, "struct timekeeper", or "struct" for an
	// anonymous struct such as the kernel's tk_core.
	VarType string
	// PaddedTo, when non-zero, says that whatever follows the object
	// starts at a multiple of PaddedTo bytes, as in a section whose
	// objects are all cache-line aligned (.data..cacheline_aligned): the
	// bytes up to there are padding, not a neighbour's.
	PaddedTo int64
	// Pointers is set for a Go type whose values hold pointers, which
	// changes where the allocator places it.
	Pointers bool
	// Doc says where the layout comes from (kernel version and commit for
	// the built-in models, file:line for Go types).
	Doc string
	// Placed is set for a variable of an image whose symbol table gives
	// its Address: the one phase it has at each line size. Neighbours
	// are the symbols beside it within a 128-byte line of its first
	// and last bytes.
	Placed     bool
	Address    uint64
	Neighbours []Neighbour

	index   map[string]int // Path → index in Fields, built by Field
	indexed *Field         // &Fields[0] when index was built
}

// Members returns the indexes of the direct members of the aggregate at
// index parent (-1 for the outermost object), in offset order.
func (s *Struct) Members(parent int) []int {
	var idx []int
	for i := range s.Fields {
		if s.Fields[i].Parent == parent {
			idx = append(idx, i)
		}
	}
	return idx
}

// Field returns the member with the given dotted path, or nil. Members
// are indexed by path on first use, and again when Fields is a different
// slice (a copy of the Struct with new members).
func (s *Struct) Field(path string) *Field {
	if len(s.Fields) == 0 {
		return nil
	}
	if s.indexed != &s.Fields[0] || len(s.index) == 0 {
		s.index = make(map[string]int, len(s.Fields))
		for i := len(s.Fields) - 1; i >= 0; i-- {
			s.index[s.Fields[i].Path] = i
		}
		s.indexed = &s.Fields[0]
	}
	if i, ok := s.index[path]; ok && i < len(s.Fields) {
		return &s.Fields[i]
	}
	return nil
}

// Validate checks the invariants every loader must keep: members lie inside
// their parents and the object, parents come before their members, and
// offsets respect alignments. A violation is a loader bug, so the error
// names the member.
func (s *Struct) Validate() error {
	if s.Size < 0 || s.Align <= 0 || s.Align&(s.Align-1) != 0 {
		return fmt.Errorf("%s: size %d, align %d", s.Name, s.Size, s.Align)
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		lo, hi := int64(0), s.Size
		if f.Parent < -1 {
			return fmt.Errorf("%s: %s has parent %d", s.Name, f.Path, f.Parent)
		}
		if f.Parent >= 0 {
			if f.Parent >= i {
				return fmt.Errorf("%s: %s listed before its parent", s.Name, f.Path)
			}
			p := &s.Fields[f.Parent]
			lo, hi = p.Offset, p.End()
		}
		// A bitfield's storage unit may reach past a packed parent; its
		// bits may not.
		if from, to := f.Offset, f.End(); from < lo || to > hi {
			if f.BitSize == 0 || f.bitStart() < lo || f.byteEnd() > hi {
				return fmt.Errorf("%s: %s [%d,%d) outside its parent [%d,%d)", s.Name, f.Path, from, to, lo, hi)
			}
		}
		if f.Align > 0 && f.BitSize == 0 && f.Offset%f.Align != 0 && s.Source != SourceDWARF {
			return fmt.Errorf("%s: %s at %d is not %d-aligned", s.Name, f.Path, f.Offset, f.Align)
		}
	}
	// last[p+1] is where the last member seen of the aggregate at p
	// starts, -1 before any.
	last := make([]int64, len(s.Fields)+1)
	for i := range last {
		last[i] = -1
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		// A bitfield's storage unit may start before the previous member
		// (pahole's "bitfield combined with previous fields"); its first
		// bit may not.
		if prev := last[f.Parent+1]; prev >= 0 && f.bitStart() < prev {
			return fmt.Errorf("%s: %s at %d listed after a sibling at %d", s.Name, f.Path, f.bitStart(), prev)
		}
		last[f.Parent+1] = f.bitStart()
	}
	return nil
}
