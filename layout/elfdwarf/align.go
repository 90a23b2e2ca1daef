package elfdwarf

import (
	"debug/dwarf"
)

// DW_ATE_complex_float: a complex number is aligned like one of its parts.
const ateComplexFloat = 0x3

// DW_AT_GNU_vector marks an array type that is a GCC vector
// (__attribute__((vector_size(N)))).
const attrGNUVector dwarf.Attr = 0x2107

// maxAtomicAlign is the largest size up to which gcc aligns an _Atomic
// object to its size, so that one instruction can access it.
const maxAtomicAlign = 16

// alignOf returns the alignment of the type at off inside a struct: the
// DW_AT_alignment the compiler wrote for an alignment an attribute forced
// (on the type or a typedef of it), otherwise the natural alignment the
// target's ABI gives it.
func (l *loader) alignOf(off dwarf.Offset, ok bool, u *unit, depth int) (int64, error) {
	if depth > maxDepth {
		return 0, errCycle
	}
	r, err := l.resolve(off, ok, u)
	if err != nil {
		return 0, err
	}
	if r.align > 0 {
		return r.align, nil
	}
	d := r.d
	if d == nil {
		return 1, nil
	}
	a, err := l.naturalAlign(r, off, ok, u, depth)
	if err != nil || !r.atomic && !(d.tag == dwarf.TagArrayType && d.vector) {
		return a, err
	}
	// A vector, and an _Atomic object of a power-of-two size, is aligned
	// to its size (gcc aligns _Atomic long long to 8 on 386), except an
	// 8-byte vector on a target that aligns 8-byte integers to less in
	// structs (386), since gcc gives it an integer's mode.
	size, err := l.sizeOf(off, ok, u, depth+1)
	if err != nil {
		return 0, err
	}
	switch {
	case size <= a || size&(size-1) != 0:
	case d.vector && size == 8:
		a = max(a, l.scalarAlign(size, u))
	case d.vector || size <= maxAtomicAlign:
		a = size
	}
	return a, nil
}

// naturalAlign is alignOf for a type that no attribute aligned, with r its
// resolution.
func (l *loader) naturalAlign(r resolved, off dwarf.Offset, ok bool, u *unit, depth int) (int64, error) {
	d := r.d
	switch d.tag {
	case dwarf.TagStructType, dwarf.TagUnionType, dwarf.TagClassType:
		return l.aggregateAlign(d, depth+1)
	case dwarf.TagArrayType:
		return l.alignOf(d.typ, d.hasTyp, u, depth+1)
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		return l.scalarAlign(d.u.addrSize, u), nil
	}
	size, err := l.sizeOf(off, ok, u, depth+1)
	if err != nil {
		return 0, err
	}
	if d.tag == dwarf.TagBaseType && d.enc == ateComplexFloat {
		size /= 2
	}
	return l.scalarAlign(size, u), nil
}

// scalarAlign is the natural alignment of a scalar of the given size: the
// largest power of two that divides it, capped by the target (a C long
// long is 4-aligned in structs on 386; Go's int64 is 4-aligned on every
// 32-bit GOARCH, whose MaxAlign is the word).
func (l *loader) scalarAlign(size int64, u *unit) int64 {
	limit := l.f.maxAlign
	if u.isGo() {
		limit = max(u.addrSize, 1)
	}
	a := int64(1)
	for a < limit && size%(2*a) == 0 && 2*a <= size {
		a *= 2
	}
	return a
}

// aggregateAlign returns the alignment of a struct or union: the largest
// of its members' (one if it has none), or one for a packed C struct,
// which the compiler records only in its offsets: a member at an offset
// that is not a multiple of its alignment, or a size that is not a
// multiple of the members' largest alignment (pahole's inference).
// Go's sync/atomic.align64 is the marker that makes 64-bit atomics
// 8-aligned on 32-bit GOARCHes.
func (l *loader) aggregateAlign(d *die, depth int) (int64, error) {
	if d.align > 0 {
		return d.align, nil
	}
	if d.alignMem > 0 {
		return d.alignMem, nil
	}
	if depth > maxDepth {
		return 0, errCycle
	}
	u := d.u
	if u.isGo() && (d.name == "sync/atomic.align64" || d.name == "internal/runtime/atomic.align64" || d.name == "runtime/internal/atomic.align64") {
		d.alignMem = 8
		return 8, nil
	}
	natural := int64(1)
	packed := false
	for i := range d.members {
		a, misplaced, err := l.placedAlign(&d.members[i], u, depth+1)
		if err != nil {
			return 0, err
		}
		natural = max(natural, a)
		packed = packed || misplaced
	}
	if !u.isGo() && d.size > 0 && d.size%natural != 0 {
		packed = true
	}
	if packed {
		natural = 1
	}
	d.alignMem = natural
	return natural, nil
}

// placedAlign returns the alignment member m has where it sits: its
// DW_AT_alignment, or its type's. A C struct or union member at an offset
// its type's alignment does not divide is packed itself or sits in a
// packed struct, and is 1-aligned either way (struct { char c; struct
// packed p; int z; } is still 4-aligned). misplaced reports a scalar at
// such an offset, which only a packed holder explains.
func (l *loader) placedAlign(m *member, u *unit, depth int) (align int64, misplaced bool, err error) {
	align = m.align
	if align == 0 {
		if align, err = l.alignOf(m.typ, true, u, depth); err != nil {
			return 0, false, err
		}
	}
	if u.isGo() || m.bitSize > 0 || m.loc <= 0 || m.loc%align == 0 {
		return align, false, nil
	}
	r, err := l.resolve(m.typ, true, u)
	if err != nil {
		return 0, false, err
	}
	if r.d != nil && isAggregate(r.d.tag) {
		return 1, false, nil
	}
	return align, true, nil
}
