package elfdwarf

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Attributes of the Go linker's DWARF (cmd/internal/dwarf).
const (
	attrGoKind = dwarf.Attr(0x2900) // the reflect.Kind of a Go type
)

// Go's reflect kinds that DWARF describes as something else than what the
// analysis sees: a string, a slice or an interface is a DWARF struct (or a
// typedef of one) but one value to Go code.
const (
	goKindArray  = 17
	goKindStruct = 25
)

// Languages of a compile unit (DW_AT_language) that change how types are
// spelled and aligned.
const langGo = 0x16

// maxDepth bounds every walk over types: a chain of typedefs, qualifiers,
// arrays or nested aggregates longer than this is a cycle in corrupt DWARF.
const maxDepth = 64

var errCycle = errors.New("type references form a cycle")

// maxSteps bounds the work of spelling one type name: a function type
// whose parameters are pointers to itself, in a corrupt file, would
// otherwise take exponential time.
const maxSteps = 10000

// unit is a compile unit: what its entries share.
type unit struct {
	name     string
	lang     int64
	addrSize int64
	entry    *dwarf.Entry // for its line table, read when a struct needs a file name
	files    []string     // file names of its line table, by DW_AT_decl_file index
	filesOK  bool
	compDir  string
	// dies are the unit's type entries; structs and typedefs those
	// that define structs and typedefs.
	dies     map[dwarf.Offset]*die
	structs  []dwarf.Offset
	typedefs []dwarf.Offset
	vars     []varRef // the unit's variables that a request names
}

func (u *unit) isGo() bool { return u.lang == langGo }

// die is one type entry, reduced to what layouts need.
type die struct {
	off    dwarf.Offset
	tag    dwarf.Tag
	name   string
	typ    dwarf.Offset // DW_AT_type; see hasTyp
	hasTyp bool
	sig    bool  // DW_AT_type is a signature into a type unit
	size   int64 // DW_AT_byte_size; -1 when absent
	align  int64 // DW_AT_alignment; 0 when absent
	decl   bool  // DW_AT_declaration: an incomplete type
	goKind int64 // DW_AT_go_kind; 0 when absent
	enc    int64 // DW_AT_encoding of a base type
	line   int64 // DW_AT_decl_line
	file   int64 // DW_AT_decl_file

	members    []member       // of a struct or union
	dims       []int64        // of an array: element counts, -1 where unknown (flexible)
	params     []dwarf.Offset // parameter types of a function type
	variadic   bool
	prototyped bool

	u        *unit
	typedef  string // the typedef naming an anonymous struct
	vector   bool   // DW_AT_GNU_vector: an array that is a SIMD vector
	alignMem int64  // memoized alignment of a struct or union
	sigHash  uint64 // memoized hash of a struct or union's layout (sigOf); 0 before
}

// member is a DW_TAG_member.
type member struct {
	name       string
	typ        dwarf.Offset
	loc        int64 // DW_AT_data_member_location; -1 when absent
	bitSize    int64 // DW_AT_bit_size; 0 for other members
	dataBitOff int64 // DW_AT_data_bit_offset; -1 when absent
	bitOff     int64 // DW_AT_bit_offset (DWARF 2 and 3), when hasBitOff; negative when the field passes the unit's end
	hasBitOff  bool
	byteSize   int64 // DW_AT_byte_size of a bitfield's storage unit; -1 when absent
	align      int64 // DW_AT_alignment; 0 when absent
	sig        bool  // the type is a signature into a type unit
}

// isType reports whether entries with tag describe types that layouts may
// refer to.
func isType(tag dwarf.Tag) bool {
	switch tag {
	case dwarf.TagBaseType, dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType,
		dwarf.TagTypedef, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType, dwarf.TagAtomicType,
		dwarf.TagArrayType, dwarf.TagEnumerationType, dwarf.TagStructType, dwarf.TagUnionType, dwarf.TagClassType,
		dwarf.TagSubroutineType, dwarf.TagPtrToMemberType, dwarf.TagUnspecifiedType, dwarf.TagPackedType,
		dwarf.TagSharedType:
		return true
	}
	return false
}

func isAggregate(tag dwarf.Tag) bool {
	return tag == dwarf.TagStructType || tag == dwarf.TagUnionType || tag == dwarf.TagClassType
}

// isQualifier reports whether a type entry only names or qualifies its
// DW_AT_type, with the same layout.
func isQualifier(tag dwarf.Tag) bool {
	switch tag {
	case dwarf.TagTypedef, dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType,
		dwarf.TagAtomicType, dwarf.TagPackedType, dwarf.TagSharedType:
		return true
	}
	return false
}

// readDIE turns e, which r has just returned, into a die, reading e's
// children from r: members, array dimensions, parameters, and the types
// declared inside it (C++), which it keeps through put. It touches nothing
// else, so that a unit can be read while another is laid out.
func readDIE(r *dwarf.Reader, e *dwarf.Entry, u *unit, put func(*die), depth int) (*die, error) {
	if depth > maxDepth {
		return nil, errCycle
	}
	d := &die{off: e.Offset, tag: e.Tag, size: -1, u: u}
	for _, f := range e.Field {
		switch f.Attr {
		case dwarf.AttrName:
			d.name, _ = f.Val.(string)
		case dwarf.AttrType:
			d.typ, d.hasTyp = f.Val.(dwarf.Offset)
			_, d.sig = f.Val.(uint64)
		case dwarf.AttrByteSize:
			if n, ok := f.Val.(int64); ok && n >= 0 {
				d.size = n
			}
		case dwarf.AttrAlignment:
			d.align = positive(f.Val)
		case dwarf.AttrDeclaration:
			d.decl, _ = f.Val.(bool)
		case attrGoKind:
			d.goKind, _ = f.Val.(int64)
		case dwarf.AttrEncoding:
			d.enc, _ = f.Val.(int64)
		case dwarf.AttrDeclLine:
			d.line, _ = f.Val.(int64)
		case dwarf.AttrDeclFile:
			d.file, _ = f.Val.(int64)
		case dwarf.AttrPrototyped:
			d.prototyped, _ = f.Val.(bool)
		case attrGNUVector:
			d.vector, _ = f.Val.(bool)
		}
	}
	if !e.Children {
		return d, nil
	}
	last := e.Offset
	for {
		c, err := r.Next()
		if err != nil {
			return nil, err
		}
		if c == nil {
			return nil, errors.New("entries end inside " + d.tag.String())
		}
		if c.Tag != 0 {
			if c.Offset <= last {
				return nil, fmt.Errorf("entry at %#x after one at %#x", c.Offset, last)
			}
			last = c.Offset
		}
		switch {
		case c.Tag == 0:
			return d, nil
		case c.Tag == dwarf.TagMember && isAggregate(d.tag):
			if m, ok := readMember(c); ok {
				d.members = append(d.members, m)
			}
		case c.Tag == dwarf.TagSubrangeType && d.tag == dwarf.TagArrayType:
			d.dims = append(d.dims, count(c))
		case c.Tag == dwarf.TagFormalParameter && d.tag == dwarf.TagSubroutineType:
			if t, ok := c.Val(dwarf.AttrType).(dwarf.Offset); ok {
				d.params = append(d.params, t)
			}
		case c.Tag == dwarf.TagUnspecifiedParameters:
			d.variadic = true
		case isType(c.Tag):
			sub, err := readDIE(r, c, u, put, depth+1)
			if err != nil {
				return nil, err
			}
			put(sub)
			continue
		}
		if c.Children {
			r.SkipChildren()
		}
	}
}

// readMember reads a DW_TAG_member; a static member (a declaration) is
// not part of the layout.
func readMember(c *dwarf.Entry) (member, bool) {
	m := member{loc: -1, dataBitOff: -1, byteSize: -1}
	for _, f := range c.Field {
		switch f.Attr {
		case dwarf.AttrName:
			m.name, _ = f.Val.(string)
		case dwarf.AttrType:
			switch v := f.Val.(type) {
			case dwarf.Offset:
				m.typ = v
			case uint64:
				m.sig = true
			}
		case dwarf.AttrDataMemberLoc:
			m.loc = location(f.Val)
		case dwarf.AttrBitSize:
			m.bitSize = positive(f.Val)
		case dwarf.AttrDataBitOffset:
			if n, ok := f.Val.(int64); ok && n >= 0 {
				m.dataBitOff = n
			}
		case dwarf.AttrBitOffset:
			m.bitOff, m.hasBitOff = f.Val.(int64)
		case dwarf.AttrByteSize:
			if n, ok := f.Val.(int64); ok && n > 0 {
				m.byteSize = n
			}
		case dwarf.AttrAlignment:
			m.align = positive(f.Val)
		case dwarf.AttrDeclaration, dwarf.AttrExternal:
			if b, _ := f.Val.(bool); b {
				return m, false
			}
		}
	}
	return m, true
}

func positive(v any) int64 {
	if n, ok := v.(int64); ok && n > 0 {
		return n
	}
	return 0
}

// location decodes DW_AT_data_member_location: a constant (DWARF 3 and
// later) or the expression DW_OP_plus_uconst N (DWARF 2). Anything else
// (C++ virtual bases) is unknown: -2.
func location(v any) int64 {
	switch v := v.(type) {
	case int64:
		if v >= 0 {
			return v
		}
	case []byte:
		const opPlusUconst = 0x23
		if len(v) > 1 && v[0] == opPlusUconst {
			var n int64
			var shift uint
			for _, b := range v[1:] { // ULEB128
				if shift > 56 {
					break
				}
				n |= int64(b&0x7f) << shift
				shift += 7
				if b < 0x80 {
					return n
				}
			}
		}
	}
	return -2
}

// count returns the number of elements a DW_TAG_subrange_type gives, or -1
// when it gives none (a flexible array member, or a variable length).
func count(c *dwarf.Entry) int64 {
	if n, ok := c.Val(dwarf.AttrCount).(int64); ok {
		return max(n, 0)
	}
	ub, ok := c.Val(dwarf.AttrUpperBound).(int64)
	if !ok {
		return -1
	}
	lb, _ := c.Val(dwarf.AttrLowerBound).(int64)
	if ub < lb { // int z[0]: upper bound -1
		return 0
	}
	return ub - lb + 1
}

// resolved is a type with its typedefs and qualifiers followed.
type resolved struct {
	d *die // nil for void
	// viaTypedef is set when a typedef or qualifier was followed.
	viaTypedef bool
	// goScalar is set for Go types that DWARF describes as structs but
	// that are one value to Go code (strings, slices, interfaces), and for
	// the types of sync and sync/atomic, which the analysis keeps whole.
	goScalar bool
	// align is the first DW_AT_alignment met on the way, 0 if none.
	align int64
	// atomic is set when a C11 _Atomic qualifier was followed.
	atomic bool
}

// resolve follows typedefs and qualifiers from the type at off.
func (l *loader) resolve(off dwarf.Offset, ok bool, u *unit) (resolved, error) {
	var r resolved
	for i := 0; ; i++ {
		if !ok {
			return r, nil
		}
		if i > maxDepth {
			return r, errCycle
		}
		d, err := l.get(off, u)
		if err != nil {
			return r, err
		}
		if d.sig {
			return r, errors.New("a type in a type unit, which mglayout does not read (rebuild without -fdebug-types-section)")
		}
		if r.align == 0 {
			r.align = d.align
		}
		if u.isGo() {
			if d.goKind != 0 && d.goKind != goKindStruct && d.goKind != goKindArray {
				r.goScalar = true
			}
			if i == 0 && opaqueGo(d.name) {
				r.goScalar = true
			}
		}
		if !isQualifier(d.tag) {
			r.d = d
			return r, nil
		}
		r.viaTypedef = true
		r.atomic = r.atomic || d.tag == dwarf.TagAtomicType
		off, ok = d.typ, d.hasTyp
	}
}

// opaqueGo reports whether a Go type belongs to sync or sync/atomic, whose
// values are used as one unit, as layout/gosrc keeps them.
func opaqueGo(name string) bool {
	name = strings.TrimLeft(name, "*")
	return strings.HasPrefix(name, "sync.") || strings.HasPrefix(name, "sync/atomic.")
}

// sizeOf returns the size in bytes of the type at off (void: 0).
func (l *loader) sizeOf(off dwarf.Offset, ok bool, u *unit, depth int) (int64, error) {
	if depth > maxDepth {
		return 0, errCycle
	}
	r, err := l.resolve(off, ok, u)
	if err != nil || r.d == nil {
		return 0, err
	}
	d := r.d
	switch {
	case d.size >= 0:
		return d.size, nil
	case d.tag == dwarf.TagArrayType:
		n, err := l.sizeOf(d.typ, d.hasTyp, u, depth+1)
		if err != nil {
			return 0, err
		}
		for _, c := range d.dims {
			n *= max(c, 0)
		}
		return n, nil
	case d.tag == dwarf.TagPointerType, d.tag == dwarf.TagReferenceType, d.tag == dwarf.TagRvalueReferenceType:
		return d.u.addrSize, nil
	}
	return 0, nil
}

// cName spells the type at off as C declares it, with the abstract
// declarator inner: "unsigned int", "struct timespec64", "u64" (typedefs
// keep their name), "char *", "const char *", "char * const",
// "short int[2][3]", "void (*)(int)".
func (l *loader) cName(off dwarf.Offset, ok bool, inner string, u *unit, depth int) string {
	if l.steps--; depth > maxDepth || l.steps < 0 {
		return "?"
	}
	join := func(base string) string {
		switch {
		case inner == "":
			return base
		case strings.HasPrefix(inner, "["):
			return base + inner
		}
		return base + " " + inner
	}
	if !ok {
		return join("void")
	}
	d, err := l.get(off, u)
	if err != nil {
		return join("?")
	}
	switch d.tag {
	case dwarf.TagStructType, dwarf.TagUnionType, dwarf.TagClassType, dwarf.TagEnumerationType:
		kw := map[dwarf.Tag]string{dwarf.TagStructType: "struct", dwarf.TagUnionType: "union", dwarf.TagClassType: "class", dwarf.TagEnumerationType: "enum"}[d.tag]
		if d.name == "" {
			return join(kw + " {...}")
		}
		return join(kw + " " + d.name)
	case dwarf.TagPointerType, dwarf.TagReferenceType, dwarf.TagRvalueReferenceType:
		star := map[dwarf.Tag]string{dwarf.TagPointerType: "*", dwarf.TagReferenceType: "&", dwarf.TagRvalueReferenceType: "&&"}[d.tag]
		in := star + inner
		if t, err := l.get(d.typ, u); d.hasTyp && err == nil && (t.tag == dwarf.TagArrayType || t.tag == dwarf.TagSubroutineType) {
			in = "(" + in + ")"
		}
		return l.cName(d.typ, d.hasTyp, in, u, depth+1)
	case dwarf.TagConstType, dwarf.TagVolatileType, dwarf.TagRestrictType, dwarf.TagAtomicType:
		q := map[dwarf.Tag]string{dwarf.TagConstType: "const", dwarf.TagVolatileType: "volatile", dwarf.TagRestrictType: "restrict", dwarf.TagAtomicType: "_Atomic"}[d.tag]
		if t, err := l.get(d.typ, u); d.hasTyp && err == nil && t.tag == dwarf.TagPointerType {
			// char * const: the qualifier binds to the pointer.
			in := "* " + q
			if inner != "" {
				in += " " + inner
			}
			return l.cName(t.typ, t.hasTyp, in, u, depth+1)
		}
		return q + " " + l.cName(d.typ, d.hasTyp, inner, u, depth+1)
	case dwarf.TagArrayType:
		dims := ""
		for _, c := range d.dims {
			if c < 0 {
				dims += "[]"
			} else {
				dims += "[" + strconv.FormatInt(c, 10) + "]"
			}
		}
		if len(d.dims) == 0 {
			dims = "[]"
		}
		return l.cName(d.typ, d.hasTyp, inner+dims, u, depth+1)
	case dwarf.TagSubroutineType:
		var params []string
		for _, p := range d.params {
			params = append(params, l.cName(p, true, "", u, depth+1))
		}
		if d.variadic {
			params = append(params, "...")
		}
		if len(params) == 0 && d.prototyped {
			params = []string{"void"}
		}
		return l.cName(d.typ, d.hasTyp, inner+"("+strings.Join(params, ", ")+")", u, depth+1)
	}
	if d.name == "" {
		return join("?")
	}
	return join(d.name)
}

// typeName spells the type of a member: as C declares it, or for Go as
// go/types writes it relative to the package pkg.
func (l *loader) typeName(off dwarf.Offset, u *unit, pkg string) string {
	key := elemKey{off, pkg}
	if name, ok := l.names[key]; ok {
		return name
	}
	l.steps = maxSteps
	var name string
	if d, err := l.get(off, u); u.isGo() && err == nil && d.name != "" {
		name = goSpelling(d.name, pkg)
	} else {
		name = l.cName(off, true, "", u, 0)
	}
	if l.names == nil {
		l.names = map[elemKey]string{}
	}
	l.names[key] = name
	return name
}

// goSpelling rewrites a type name as the Go linker writes it in DWARF
// ("*mglayout.test/awkward.Inner", "struct { main.x int16 }",
// "Pair[int8,int64]") as go/types writes it with package pkg unqualified
// and other packages by name ("*Inner", "struct{x int16}",
// "Pair[int8, int64]").
func goSpelling(name, pkg string) string {
	var b strings.Builder
	var brackets []bool // per open '[': whether it holds type arguments
	for i := 0; i < len(name); {
		c := name[i]
		if isIdentByte(c) && !(c >= '0' && c <= '9') {
			j := i
			for j < len(name) && (isIdentByte(name[j]) || name[j] == '.' || name[j] == '/' || name[j] == '-' || name[j] == '~') {
				j++
			}
			tok := strings.TrimRight(name[i:j], ".")
			j = i + len(tok)
			if k := strings.LastIndexByte(tok, '.'); k > 0 {
				path, id := tok[:k], tok[k+1:]
				before := strings.TrimRight(name[:i], " ")
				after := strings.TrimLeft(name[j:], " ")
				fieldName := (strings.HasSuffix(before, "{") || strings.HasSuffix(before, ";")) &&
					!strings.HasPrefix(after, ";") && !strings.HasPrefix(after, "}")
				switch {
				case fieldName, path == pkg:
					tok = id
				default:
					tok = packageName(path) + "." + id
				}
			}
			b.WriteString(tok)
			i = j
			continue
		}
		switch c {
		case '[':
			// Type arguments follow a type's name; an array length
			// starts a type.
			prev := byte(0)
			if i > 0 {
				prev = name[i-1]
			}
			brackets = append(brackets, isIdentByte(prev) || prev == ']')
		case ']':
			if len(brackets) > 0 {
				brackets = brackets[:len(brackets)-1]
			}
		case ',':
			if len(brackets) > 0 && brackets[len(brackets)-1] {
				b.WriteString(", ")
				i++
				for i < len(name) && name[i] == ' ' {
					i++
				}
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	s := b.String()
	s = strings.ReplaceAll(s, "struct {", "struct{")
	s = strings.ReplaceAll(s, "interface {", "interface{")
	s = strings.ReplaceAll(s, "{ ", "{")
	s = strings.ReplaceAll(s, " }", "}")
	return s
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// packageName guesses a package's name from its import path, which is all
// DWARF gives: the last element, without a major version suffix
// (example.com/foo/v2 and gopkg.in/foo.v2 are foo).
func packageName(path string) string {
	version := func(s string) bool { return len(s) > 1 && s[0] == 'v' && strings.Trim(s[1:], "0123456789") == "" }
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && version(name) {
		name = elems[len(elems)-2]
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 && version(name[i+1:]) {
		name = name[:i]
	}
	return name
}

// goPackage returns the import path of a named Go type: the part of its
// name before the last dot outside type arguments.
func goPackage(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return ""
}

func (d *die) String() string {
	return fmt.Sprintf("%s %q at %#x", d.tag, d.name, d.off)
}
