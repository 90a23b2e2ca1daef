package gosrc

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Builder turns Go types into layouts for one GOARCH.
type Builder struct {
	Arch       string
	Sizes      types.Sizes // types.SizesFor("gc", Arch)
	Source     layout.Source
	Directives Directives
	// CNames spells member types as C does ("struct tk_read_base",
	// "u64", "struct clocksource *"), for Go mirrors of C structs.
	CNames bool
	// Qualifier spells package names in member types; nil writes full
	// import paths.
	Qualifier types.Qualifier
	// Lens holds the lengths of arrays on Arch where they differ from
	// those of the type-check (ArrayLens): a package checked for one
	// GOARCH is laid out for another.
	Lens map[*types.Array]int64
}

// NewBuilder returns a builder with the compiler's sizes for arch, or an
// error naming the GOARCH when go/types does not know it.
func NewBuilder(arch string, source layout.Source, dirs Directives) (*Builder, error) {
	sizes := types.SizesFor("gc", arch)
	if sizes == nil {
		return nil, fmt.Errorf("unknown GOARCH %q (see `go tool dist list` for the valid ones)", arch)
	}
	return &Builder{Arch: arch, Sizes: sizes, Source: source, Directives: dirs}, nil
}

// Build returns the layout of typ under the given name. align, when larger
// than the type's own alignment, is the alignment the object is known to
// start at (a variable's forced alignment).
func (b *Builder) Build(name string, typ types.Type, align int64, doc string) (*layout.Struct, error) {
	st, ok := typ.Underlying().(*types.Struct)
	if !ok {
		return nil, fmt.Errorf("%s is a %s, not a struct", name, typ.Underlying())
	}
	size, typeAlign := b.measure(typ)
	s := &layout.Struct{
		Name:   name,
		Source: b.Source,
		Arch:   b.Arch,
		Size:   size,
		Align:  max(typeAlign, align),
		Doc:    doc,
	}
	s.Decl = declName(typ)
	if n, ok := types.Unalias(typ).(*types.Named); ok {
		if d := b.directives(n); d != nil {
			s.PaddedTo = d.Padded
		}
	}
	s.Pointers = HasPointers(typ)
	b.members(s, -1, "", 0, 0, typ, st)
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	return s, nil
}

// members appends the members of st, which starts at base, to s.Fields.
func (b *Builder) members(s *layout.Struct, parent int, prefix string, base int64, depth int, typ types.Type, st *types.Struct) {
	offsets := b.offsets(typ, st)
	for i := range st.NumFields() {
		v := st.Field(i)
		ft := v.Type()
		size, align := b.measure(ft)
		kind := b.kind(ft)
		f := layout.Field{
			Name:   v.Name(),
			Type:   b.typeName(ft, reflect.StructTag(st.Tag(i))),
			Offset: base + offsets[i],
			Size:   size,
			Align:  align,
			Kind:   kind,
			Depth:  depth,
			Parent: parent,
		}
		if a, ok := ft.Underlying().(*types.Array); ok {
			f.Len = b.arrayLen(a)
			f.Elem = b.element(a.Elem())
		}
		f.Decl = declName(ft)
		childPrefix := join(prefix, v.Name())
		if b.anonymous(v, kind) {
			// A C anonymous struct or union: its members are reached
			// through the enclosing object, as in C.
			f.Name, f.Type = "", kind.String()
			childPrefix = prefix
			f.Path = join(prefix, kind.String()+"{"+strings.Join(fieldNames(ft.Underlying().(*types.Struct)), ",")+"}")
		} else {
			f.Path = childPrefix
		}
		s.Fields = append(s.Fields, f)
		if kind == layout.KindStruct || kind == layout.KindUnion {
			b.members(s, len(s.Fields)-1, childPrefix, f.Offset, depth+1, ft, ft.Underlying().(*types.Struct))
		}
	}
}

// element returns the layout of an array element that is a struct whose
// members are worth naming, or nil.
func (b *Builder) element(t types.Type) *layout.Struct {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || b.kind(t) != layout.KindStruct {
		return nil
	}
	size, align := b.measure(t)
	e := &layout.Struct{Name: b.typeName(t, ""), Source: b.Source, Arch: b.Arch, Size: size, Align: align, Decl: declName(t)}
	b.members(e, -1, "", 0, 0, t, st)
	return e
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func fieldNames(st *types.Struct) []string {
	names := make([]string, st.NumFields())
	for i := range names {
		names[i] = st.Field(i).Name()
	}
	return names
}

// anonymous reports whether v stands for a C anonymous struct or union
// member, which a Go mirror writes as a blank field.
func (b *Builder) anonymous(v *types.Var, kind layout.Kind) bool {
	return b.CNames && v.Name() == "_" && (kind == layout.KindStruct || kind == layout.KindUnion)
}

// kind says how the analysis treats a member. Types of sync and sync/atomic
// are kept whole: their insides are the runtime's business, and the value
// is accessed as one unit.
func (b *Builder) kind(t types.Type) layout.Kind {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return layout.KindArray
	case *types.Struct:
		if d := b.directives(t); d != nil && d.Union {
			return layout.KindUnion
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && (opaque(n) || isCacheLinePad(n)) {
			return layout.KindScalar
		}
		if u.NumFields() == 0 {
			return layout.KindScalar
		}
		return layout.KindStruct
	}
	return layout.KindScalar
}

// declName returns the name of the named struct type whose declaration
// lists t's members, or "" for other types.
func declName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if _, ok := n.Underlying().(*types.Struct); ok {
			return n.Obj().Name()
		}
	}
	return ""
}

// opaque reports whether a named type belongs to sync or sync/atomic,
// whose values are used as one unit.
func opaque(n *types.Named) bool {
	if pkg := n.Obj().Pkg(); pkg != nil {
		return pkg.Path() == "sync" || pkg.Path() == "sync/atomic"
	}
	return false
}

func (b *Builder) directives(t types.Type) *TypeDirectives {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return b.Directives.Type(n.Origin().Obj())
	}
	return nil
}

// arrayLen is an array's length on the builder's GOARCH.
func (b *Builder) arrayLen(a *types.Array) int64 {
	if n, ok := b.Lens[a]; ok {
		return n
	}
	return a.Len()
}

// custom reports whether t's layout depends on directives, so that the C
// rules below must compute it instead of go/types.
func (b *Builder) custom(t types.Type) bool {
	if d := b.directives(t); d != nil && (d.Union || d.Align > 0) || isCacheLinePad(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		_, other := b.Lens[u]
		return other || b.custom(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if b.custom(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// measure returns the size and alignment of t.
func (b *Builder) measure(t types.Type) (size, align int64) {
	if !b.custom(t) {
		return b.Sizes.Sizeof(t), b.Sizes.Alignof(t)
	}
	if isCacheLinePad(t) {
		if n, ok := linePad[b.Arch]; ok {
			return n, 1
		}
		return b.Sizes.Sizeof(t), 1
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		size, align = b.measure(u.Elem())
		return size * b.arrayLen(u), align
	case *types.Struct:
		d := b.directives(t)
		align = 1
		var end int64
		offsets := b.offsets(t, u)
		for i := range u.NumFields() {
			fs, fa := b.measure(u.Field(i).Type())
			align = max(align, fa)
			end = max(end, offsets[i]+fs)
		}
		if d != nil {
			align = max(align, d.Align)
		}
		return roundUp(end, align), align
	}
	panic(fmt.Sprintf("custom layout for %s", t))
}

// offsets returns the offsets of st's fields: the compiler's for plain Go
// types, C's rules where directives are involved (each member at the next
// multiple of its alignment; all at zero in a union).
func (b *Builder) offsets(t types.Type, st *types.Struct) []int64 {
	fields := make([]*types.Var, st.NumFields())
	for i := range fields {
		fields[i] = st.Field(i)
	}
	if !b.custom(t) {
		return b.Sizes.Offsetsof(fields)
	}
	union := false
	if d := b.directives(t); d != nil {
		union = d.Union
	}
	offsets := make([]int64, len(fields))
	var off int64
	for i, f := range fields {
		if union {
			continue
		}
		size, align := b.measure(f.Type())
		off = roundUp(off, align)
		offsets[i] = off
		off += size
	}
	return offsets
}

func roundUp(n, align int64) int64 { return (n + align - 1) / align * align }

// typeName spells a member's type.
func (b *Builder) typeName(t types.Type, tag reflect.StructTag) string {
	if !b.CNames {
		return types.TypeString(t, b.Qualifier)
	}
	if c, ok := tag.Lookup("c"); ok {
		return c
	}
	return b.cName(t)
}

// cName spells a type of a Go mirror as C does: aliases such as
// `type u64 = uint64` keep their name, struct types are "struct NAME"
// (or NAME for typedefs, which end in _t), pointers add " *".
func (b *Builder) cName(t types.Type) string {
	switch t := t.(type) {
	case *types.Alias:
		return t.Obj().Name()
	case *types.Named:
		name := t.Obj().Name()
		if _, ok := t.Underlying().(*types.Struct); !ok || strings.HasSuffix(name, "_t") {
			return name
		}
		if d := b.directives(t); d != nil && d.Union {
			return "union " + name
		}
		return "struct " + name
	case *types.Pointer:
		return b.cName(t.Elem()) + " *"
	case *types.Array:
		return fmt.Sprintf("%s[%d]", b.cName(t.Elem()), t.Len())
	case *types.Struct:
		return "struct"
	}
	return t.String()
}
