package elfdwarf

import (
	"debug/dwarf"
	"fmt"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// directs are the direct members of a struct or union type, laid out
// relative to it, with what expanding them needs.
type directs struct {
	fields []layout.Field // offsets from the aggregate's start; Path is the member's own path element
	subs   []*directs     // for each member that is an aggregate, its type's members; nil for the others
	named  []bool         // whether the members of subs[i] are named through fields[i] (not anonymous)
	total  int            // members at every depth, elements aside
	// expanded is the members at every depth, once asked for.
	expanded []layout.Field
}

// typeSig identifies a named struct or union type across compile units:
// every unit that includes a header repeats its types, and a type is laid
// out once for all of them when name, size and members agree.
type typeSig struct {
	pkg, name string
	tag       dwarf.Tag
	size      int64
	members   int
	hash      uint64
}

// sigOf returns the signature of a named aggregate, from its members'
// names and places, and their types' names, sizes and alignments, through
// typedefs, qualifiers and arrays down to the members of nested structs:
// two units may give the same typedef (val_t) or struct name different
// contents. ok is false for an anonymous aggregate.
func (l *loader) sigOf(d *die, pkg string) (typeSig, bool) {
	if d.name == "" {
		return typeSig{}, false
	}
	return typeSig{pkg, d.name, d.tag, d.size, len(d.members), l.layoutHash(d, 0)}, true
}

// layoutHash hashes what lays out the aggregate d: FNV-1a, inline, as this
// runs for every named aggregate of every unit; memoized in d.
func (l *loader) layoutHash(d *die, depth int) uint64 {
	if d.sigHash != 0 {
		return d.sigHash
	}
	// A struct that holds itself (only corrupt DWARF does) hashes as 1
	// inside itself, rather than once per path down to maxDepth.
	d.sigHash = 1
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	str := func(s string) {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * prime
		}
		h = (h ^ 0xff) * prime
	}
	num := func(n int64) { h = (h ^ uint64(n)) * prime }
	str(d.name)
	num(d.size)
	for i := range d.members {
		m := &d.members[i]
		str(m.name)
		num(m.loc)
		num(m.bitSize)
		num(m.dataBitOff)
		num(m.bitOff)
		num(m.align)
		if t, err := l.get(m.typ, d.u); err == nil {
			num(int64(t.tag))
			str(t.name)
		}
		size, err := l.sizeOf(m.typ, true, d.u, 0)
		num(size)
		if err != nil {
			num(-1)
		}
		// The aggregate under typedefs, qualifiers and arrays, whose own
		// members decide the nested fields.
		if depth < maxDepth {
			r, err := l.resolve(m.typ, true, d.u)
			for err == nil && r.d != nil && r.d.tag == dwarf.TagArrayType {
				num(int64(len(r.d.dims)))
				for _, n := range r.d.dims {
					num(n)
				}
				r, err = l.resolve(r.d.typ, r.d.hasTyp, d.u)
			}
			if err == nil && r.d != nil {
				num(int64(r.d.tag))
				str(r.d.name)
				num(r.d.enc)
				switch r.d.tag {
				case dwarf.TagStructType, dwarf.TagUnionType, dwarf.TagClassType:
					num(int64(l.layoutHash(r.d, depth+1)))
				}
			}
		}
	}
	h = max(h, 1)
	d.sigHash = h
	return h
}

// directsOf lays out the direct members of the struct or union d, once per
// compile unit: resolving, sizing and naming a type is done once however
// many structs hold it.
func (l *loader) directsOf(d *die, pkg string) (*directs, error) {
	key := elemKey{d.off, pkg}
	if ds, ok := l.directs[key]; ok {
		if ds == nil {
			return nil, errCycle // d holds itself
		}
		return ds, nil
	}
	if l.directs == nil {
		l.directs = map[elemKey]*directs{}
	}
	sig, named := l.sigOf(d, pkg)
	if ds, ok := l.shared[sig]; named && ok {
		l.directs[key] = ds
		return ds, nil
	}
	l.directs[key] = nil
	u := d.u
	ds := &directs{fields: make([]layout.Field, len(d.members)), subs: make([]*directs, len(d.members)), named: make([]bool, len(d.members))}
	ds.total = len(d.members)
	for i := range d.members {
		m := &d.members[i]
		if m.sig {
			return nil, fmt.Errorf("member %s: its type is in a type unit, which mglayout does not read (rebuild without -fdebug-types-section)", m.name)
		}
		if m.loc == -2 {
			return nil, fmt.Errorf("member %s: its location is an expression, not an offset (a virtual base?)", m.name)
		}
		r, err := l.resolve(m.typ, true, u)
		if err != nil {
			return nil, fmt.Errorf("member %s: %v", m.name, err)
		}
		size, err := l.sizeOf(m.typ, true, u, 0)
		if err != nil {
			return nil, fmt.Errorf("member %s: %v", m.name, err)
		}
		align, _, err := l.placedAlign(m, u, 0)
		if err != nil {
			return nil, fmt.Errorf("member %s: %v", m.name, err)
		}
		forced := m.align > 0
		kind := kindOf(r)
		f := layout.Field{
			Name:        m.name,
			Path:        m.name,
			Type:        l.typeName(m.typ, u, pkg),
			Offset:      max(m.loc, 0),
			Size:        size,
			Align:       align,
			Kind:        kind,
			Parent:      -1,
			ForcedAlign: forced,
			ViaTypedef:  kind == layout.KindStruct && r.viaTypedef,
		}
		if m.bitSize > 0 {
			if size <= 0 {
				return nil, fmt.Errorf("bitfield %s: its type has no size", m.name)
			}
			pos, err := bitPosition(m, size, l.f.bigEndian)
			if err != nil {
				return nil, err
			}
			unit, bit := storageUnit(pos, size)
			f.Offset, f.BitOffset, f.BitSize, f.Kind = unit, bit, m.bitSize, layout.KindScalar
		}
		if f.Kind == layout.KindArray {
			if dims := r.d.dims; len(dims) > 0 {
				f.Len = max(dims[0], 0)
			}
			if len(r.d.dims) <= 1 {
				if f.Elem, err = l.element(r.d, pkg); err != nil {
					return nil, err
				}
			}
		}
		ds.named[i] = m.name != ""
		switch {
		case m.name == "" && (kind == layout.KindStruct || kind == layout.KindUnion):
			// A C11 anonymous struct or union: its members are named
			// through the enclosing object, as in C. Its own path lists
			// them, as layout/gosrc names the blank fields of Go
			// mirrors.
			f.Type = kind.String()
			l.steps = maxSteps
			f.Path = l.anonName(r.d, kind, 0)
		case m.name == "":
			f.Path = "_"
		}
		if f.Kind == layout.KindStruct || f.Kind == layout.KindUnion {
			f.Decl, f.DeclAt = r.d.name, l.declAt(r.d)
		}
		ds.fields[i] = f
		if f.Kind == layout.KindStruct || f.Kind == layout.KindUnion {
			sub, err := l.directsOf(r.d, pkg)
			if err != nil {
				return nil, err
			}
			ds.subs[i] = sub
			// Capped, so that types holding each other many times over
			// cannot overflow the count.
			ds.total = min(ds.total+sub.total, maxFields+1)
		}
	}
	l.directs[key] = ds
	if named {
		if l.shared == nil {
			l.shared = map[typeSig]*directs{}
		}
		l.shared[sig] = ds
	}
	return ds, nil
}

// fieldsOf returns the members of the struct or union d at every depth,
// as layout.Struct.Fields lists them for an object of type d.
// The layouts are read-only: a struct and the elements of arrays of it
// share theirs.
func (l *loader) fieldsOf(d *die, pkg string) ([]layout.Field, error) {
	ds, err := l.directsOf(d, pkg)
	if err != nil {
		return nil, err
	}
	if ds.expanded != nil {
		return ds.expanded, nil
	}
	if ds.total > maxFields {
		return nil, fmt.Errorf("more than %d members at every depth: types that contain each other", maxFields)
	}
	ds.expanded = expand(make([]layout.Field, 0, ds.total), ds, -1, "", 0, 0)
	return ds.expanded, nil
}

// expand appends the members of an aggregate with the direct members ds,
// which starts at base and whose members' paths start with prefix, at
// every depth.
func expand(out []layout.Field, ds *directs, parent int, prefix string, base int64, depth int) []layout.Field {
	for i, f := range ds.fields {
		f.Offset += base
		f.Depth, f.Parent = depth, parent
		if prefix != "" {
			f.Path = prefix + "." + f.Path
		}
		out = append(out, f)
		if sub := ds.subs[i]; sub != nil {
			inner := prefix
			if ds.named[i] {
				inner = f.Path
			}
			out = expand(out, sub, len(out)-1, inner, f.Offset, depth+1)
		}
	}
	return out
}

// anonName is the path element of an anonymous struct or union:
// "union{offs_tai,offs_aux}", with the anonymous members inside it named
// the same way.
func (l *loader) anonName(d *die, kind layout.Kind, depth int) string {
	var names []string
	for _, m := range d.members {
		name := m.name
		if l.steps--; name == "" && depth < maxDepth && l.steps > 0 {
			if r, err := l.resolve(m.typ, true, d.u); err == nil {
				if k := kindOf(r); k == layout.KindStruct || k == layout.KindUnion {
					name = l.anonName(r.d, k, depth+1)
				}
			}
		}
		names = append(names, name)
	}
	return kind.String() + "{" + strings.Join(names, ",") + "}"
}

// element returns the layout of one element of the array d when the
// elements are structs or unions, so that paths can name their members
// (shards[3].n); nil otherwise.
func (l *loader) element(d *die, pkg string) (*layout.Struct, error) {
	key := elemKey{d.typ, pkg}
	if e, ok := l.elems[key]; ok {
		return e, nil
	}
	r, err := l.resolve(d.typ, d.hasTyp, d.u)
	if err != nil {
		return nil, err
	}
	kind := kindOf(r)
	if kind != layout.KindStruct && kind != layout.KindUnion {
		return nil, nil
	}
	size, err := l.sizeOf(d.typ, d.hasTyp, d.u, 0)
	if err != nil {
		return nil, err
	}
	align, err := l.alignOf(d.typ, d.hasTyp, d.u, 0)
	if err != nil {
		return nil, err
	}
	fields, err := l.fieldsOf(r.d, pkg)
	if err != nil {
		return nil, err
	}
	e := &layout.Struct{Name: l.typeName(d.typ, d.u, pkg), Source: layout.SourceDWARF, Arch: l.f.arch, Size: size, Align: align, Fields: fields}
	if l.elems == nil {
		l.elems = map[elemKey]*layout.Struct{}
	}
	l.elems[key] = e
	return e, nil
}

// kindOf says how the analysis treats a member of the resolved type.
func kindOf(r resolved) layout.Kind {
	if r.d == nil || r.goScalar {
		return layout.KindScalar
	}
	switch r.d.tag {
	case dwarf.TagStructType, dwarf.TagClassType:
		if len(r.d.members) > 0 {
			return layout.KindStruct
		}
	case dwarf.TagUnionType:
		if len(r.d.members) > 0 {
			return layout.KindUnion
		}
	case dwarf.TagArrayType:
		return layout.KindArray
	}
	return layout.KindScalar
}
