package elfdwarf

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Options select what Load reads.
type Options struct {
	// Types names the structs to read: C tag names, typedef names of
	// structs, or Go type names (import/path.T, pkg.T or T); nil reads
	// every named struct.
	Types []string
	// Arch, when set, is the GOARCH-style name of the architecture the
	// caller expects (amd64, arm64, 386, ...); Load fails for a file of
	// another one. The layouts carry the file's architecture either way.
	Arch string
}

// catchPanics turns a panic while reading a file into an error naming the
// file. The fuzz tests turn it off to see the panics.
var catchPanics = true

// Load reads the layouts of the structs in the ELF file's DWARF, in the
// order Types names them (or the file defines them), and notes about what
// it could not read. A struct defined in several compile units is read
// from the first; a name defined differently in another unit is noted.
//
// The file is read in one pass over its debug entries. Type entries are
// kept while the pass is in their compile unit (one goroutine reads the
// next unit while the structs of the last are laid out), so memory
// follows the largest units rather than the file, and a struct's layout
// is built only when it is selected. Time grows with the file: each type
// is read once, and a type that several units share is laid out once.
//
// Errors name the file and say what to do: not an ELF file, no DWARF,
// corrupt or truncated DWARF, a type that is not there.
func Load(path string, opts Options) (structs []*layout.Struct, notes []string, err error) {
	if catchPanics {
		defer func() {
			if r := recover(); r != nil {
				structs, notes = nil, nil
				err = fmt.Errorf("%s: corrupt DWARF (%v); rebuild the file with -g", path, r)
			}
		}()
	}
	f, err := open(path, opts.Arch)
	if err != nil {
		return nil, nil, err
	}
	defer f.close()
	l := &loader{
		f:       f,
		seen:    map[string]*definition{},
		matched: map[string]bool{},
		exact:   map[string]bool{},
		unions:  map[string]bool{},
	}
	for _, t := range opts.Types {
		if t = strings.TrimSpace(strings.ReplaceAll(t, ", ", ",")); t != "" {
			l.want = append(l.want, t)
		}
	}
	if err := l.run(); err != nil {
		return nil, nil, err
	}
	return l.result()
}

// loader is the state of one Load.
type loader struct {
	f    *file
	want []string // the requested names; none: every named struct

	extra map[dwarf.Offset]*die // type entries read out of order, for the current unit
	rr    *dwarf.Reader         // reads entries out of order

	seen    map[string]*definition // struct name -> its first definition
	out     []built
	matched map[string]bool // requests answered
	exact   map[string]bool // requests answered by a struct of exactly that name
	unions  map[string]bool // requested names that are unions
	notes   []string
	steps   int // steps left to spell a type name
	// elems holds the element layouts built in the current unit, by
	// the array's element type: every array of the same structs shares
	// one.
	elems map[elemKey]*layout.Struct
	// directs holds the direct members of the struct and union types
	// laid out in the current unit (nil while one is being laid out),
	// names the spelling of the types named.
	directs map[elemKey]*directs
	// shared holds the direct members of named aggregates across
	// compile units.
	shared map[typeSig]*directs
	names  map[elemKey]string
}

type elemKey struct {
	typ dwarf.Offset
	pkg string
}

// maxFields bounds the members of one layout at every depth: far more
// than any real struct has, and what keeps a corrupt file whose types hold
// each other many times over from taking forever.
const maxFields = 1 << 20

// definition is what is kept of a struct's first definition, to tell a
// later one apart.
type definition struct {
	size    int64
	members int
	unit    string
	noted   bool
}

type built struct {
	request string
	s       *layout.Struct
}

// run makes the one pass over the entries: one goroutine reads a compile
// unit's type entries while this one lays out the structs of the unit
// read before, so that at most two units are held at a time.
func (l *loader) run() error {
	units := make(chan readResult, 1)
	quit := make(chan struct{})
	defer close(quit)
	go l.read(units, quit)
	for res := range units {
		if res.err != nil {
			return res.err
		}
		if err := l.finish(res.u); err != nil {
			return err
		}
		if l.done() {
			return nil
		}
	}
	return nil
}

// readResult is a compile unit read, or why reading stopped.
type readResult struct {
	u   *unit
	err error
}

// read reads the entries in order and sends each compile unit, with its
// type entries, when the next begins. It stops when quit is closed.
func (l *loader) read(out chan<- readResult, quit <-chan struct{}) {
	defer close(out)
	send := func(res readResult) bool {
		select {
		case out <- res:
			return true
		case <-quit:
			return false
		}
	}
	if catchPanics {
		defer func() {
			if r := recover(); r != nil {
				send(readResult{err: fmt.Errorf("%s: corrupt DWARF (%v); rebuild the file with -g", l.f.path, r)})
			}
		}()
	}
	fail := func(err error) { send(readResult{err: corrupt(l.f.path, err)}) }
	r := l.f.dw.Reader()
	var u *unit
	var last dwarf.Offset // the entries' offsets grow
	open := 0             // entries whose children have not ended yet
	for {
		e, err := r.Next()
		if err != nil {
			fail(err)
			return
		}
		if e == nil {
			break
		}
		if e.Tag != 0 {
			if e.Offset < last {
				fail(fmt.Errorf("entry at %#x after one at %#x", e.Offset, last))
				return
			}
			last = e.Offset
		}
		switch e.Tag {
		case dwarf.TagCompileUnit, dwarf.TagPartialUnit, dwarf.TagTypeUnit, dwarf.TagSkeletonUnit:
			if u != nil && !send(readResult{u: u}) {
				return
			}
			open = 0
			if e.Children {
				open = 1
			}
			u = &unit{addrSize: int64(r.AddressSize()), entry: e, dies: map[dwarf.Offset]*die{}}
			u.name, _ = e.Val(dwarf.AttrName).(string)
			u.lang, _ = e.Val(dwarf.AttrLanguage).(int64)
			u.compDir, _ = e.Val(dwarf.AttrCompDir).(string)
			continue
		case 0:
			// The end of a unit's or a namespace's entries. More ends
			// than beginnings: debug/dwarf returns empty entries
			// forever past the end of broken data.
			if open--; open < 0 {
				fail(errors.New("entries end where none began"))
				return
			}
			continue
		case dwarf.TagNamespace:
			// A namespace's entries follow it.
			if e.Children {
				open++
			}
			continue
		}
		if u == nil {
			fail(fmt.Errorf("%s entry at %#x outside a compile unit", e.Tag, e.Offset))
			return
		}
		if !isType(e.Tag) {
			// Functions, variables and what they hold: types declared
			// inside functions are not read.
			if e.Children {
				r.SkipChildren()
			}
			continue
		}
		d, err := readDIE(r, e, u, u.put, 0)
		if err != nil {
			fail(err)
			return
		}
		u.put(d)
	}
	if u != nil {
		send(readResult{u: u})
	}
}

// put keeps a type entry of the unit.
func (u *unit) put(d *die) {
	u.dies[d.off] = d
	switch {
	case isAggregate(d.tag) && !d.decl && d.size >= 0:
		u.structs = append(u.structs, d.off)
	case d.tag == dwarf.TagTypedef:
		u.typedefs = append(u.typedefs, d.off)
	}
}

// get returns the type entry at off: one of unit u's, or one read where it
// is for references across units (the Go linker's, LTO's, dwz's).
func (l *loader) get(off dwarf.Offset, u *unit) (*die, error) {
	if d, ok := u.dies[off]; ok {
		return d, nil
	}
	if d, ok := l.extra[off]; ok {
		return d, nil
	}
	if l.rr == nil {
		l.rr = l.f.dw.Reader()
	}
	l.rr.Seek(off)
	e, err := l.rr.Next()
	if err != nil {
		return nil, err
	}
	if e == nil || e.Offset != off || !isType(e.Tag) {
		return nil, fmt.Errorf("a type reference to %#x, where there is no type", off)
	}
	fu := &unit{name: u.name, lang: u.lang, addrSize: int64(l.rr.AddressSize()), entry: u.entry, compDir: u.compDir, dies: u.dies}
	if l.extra == nil {
		l.extra = map[dwarf.Offset]*die{}
	}
	put := func(d *die) { l.extra[d.off] = d }
	d, err := readDIE(l.rr, e, fu, put, 0)
	if err != nil {
		return nil, err
	}
	put(d)
	return d, nil
}

// finish builds the selected structs that unit u defines, then forgets
// its entries.
func (l *loader) finish(u *unit) error {
	// A typedef names the anonymous struct it stands for (typedef struct
	// {...} atomic64_t); a request may name a typedef of a named struct.
	alias := map[dwarf.Offset]string{}
	for _, off := range u.typedefs {
		td := u.dies[off]
		if td == nil || !td.hasTyp || td.name == "" {
			continue
		}
		t, ok := u.dies[td.typ]
		// typedef anon_t anon2_t: through typedefs to the struct.
		for i := 0; ok && t.tag == dwarf.TagTypedef && t.hasTyp && i < maxDepth; i++ {
			t, ok = u.dies[t.typ]
		}
		if !ok || !isAggregate(t.tag) || t.decl {
			continue
		}
		if t.name == "" && t.typedef == "" && u.dies[td.typ] == t {
			t.typedef = td.name
		} else if t.name != td.name && len(l.want) > 0 {
			if _, ok := l.selects(td.name, u); ok {
				alias[t.off] = td.name
			}
		}
	}
	for _, off := range u.structs {
		d := u.dies[off]
		name := d.name
		if name == "" {
			name = d.typedef
		}
		if name == "" || u.isGo() && (strings.HasPrefix(name, "struct {") || d.goKind != 0 && d.goKind != goKindStruct) {
			continue
		}
		req, ok := l.selects(name, u)
		if !ok && alias[off] != "" {
			req, ok = alias[off], true
		}
		if !ok {
			continue
		}
		if d.tag == dwarf.TagUnionType {
			if len(l.want) > 0 {
				l.unions[req] = true
			}
			continue
		}
		if prev := l.seen[name]; prev != nil {
			if !prev.noted && (prev.size != d.size || prev.members != len(d.members)) {
				prev.noted = true
				l.notes = append(l.notes, fmt.Sprintf("struct %s is defined differently in %s and %s; this shows the one in %s", name, prev.unit, u.name, prev.unit))
			}
			continue
		}
		l.seen[name] = &definition{size: d.size, members: len(d.members), unit: u.name}
		s, err := l.build(d, name)
		if err != nil {
			if len(l.want) == 0 {
				l.notes = append(l.notes, fmt.Sprintf("struct %s skipped: %v", name, err))
				continue
			}
			return corrupt(l.f.path, fmt.Errorf("struct %s: %v", name, err))
		}
		l.out = append(l.out, built{req, s})
		l.matched[req] = true
		if req == name {
			l.exact[req] = true
		}
		if a := alias[off]; a != "" && a != req {
			// -type foo,foo_t: the typedef names the struct already read.
			l.matched[a], l.exact[a] = true, true
		}
	}
	clear(l.elems)
	clear(l.directs)
	clear(l.names)
	clear(l.extra)
	return nil
}

// selects returns the request that the struct name answers. A Go type
// answers to its full name, to pkg.T and to T.
func (l *loader) selects(name string, u *unit) (string, bool) {
	if len(l.want) == 0 {
		return name, true
	}
	for _, w := range l.want {
		if name == w || u.isGo() && (strings.HasSuffix(name, "."+w) || strings.HasSuffix(name, "/"+w)) {
			return w, true
		}
	}
	return "", false
}

// done reports whether every request has been answered by a struct of
// exactly its name, so that the rest of the file cannot change the result.
func (l *loader) done() bool {
	if len(l.want) == 0 {
		return false
	}
	for _, w := range l.want {
		if !l.exact[w] {
			return false
		}
	}
	return true
}

// result orders the layouts and checks that every request was answered.
func (l *loader) result() ([]*layout.Struct, []string, error) {
	var missing []string
	for _, w := range l.want {
		if !l.matched[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		w := missing[0]
		if l.unions[w] {
			return nil, nil, fmt.Errorf("%s: %s is a union; mglayout lays out structs (name the struct that holds it)", l.f.path, w)
		}
		return nil, nil, fmt.Errorf("%s: no struct %s in its DWARF (mglayout layout -elf %s lists those it has)", l.f.path, strings.Join(missing, ", "), l.f.path)
	}
	if len(l.want) > 0 {
		slices.SortStableFunc(l.out, func(a, b built) int {
			return slices.Index(l.want, a.request) - slices.Index(l.want, b.request)
		})
	}
	structs := make([]*layout.Struct, len(l.out))
	for i, b := range l.out {
		structs[i] = b.s
	}
	return structs, l.notes, nil
}

// build returns the layout of the struct d under the given name.
func (l *loader) build(d *die, name string) (*layout.Struct, error) {
	align, err := l.aggregateAlign(d, 0)
	if err != nil {
		return nil, err
	}
	pkg := ""
	if d.u.isGo() {
		pkg = goPackage(name)
	}
	s := &layout.Struct{
		Name:   name,
		Source: layout.SourceDWARF,
		Arch:   l.f.arch,
		Size:   d.size,
		Align:  align,
		Doc:    l.doc(d),
	}
	fields, err := l.fieldsOf(d, pkg)
	if err != nil {
		return nil, err
	}
	s.Fields = fields
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("inconsistent layout: %v", err)
	}
	return s, nil
}

// doc says where a struct is declared and where it was read from.
func (l *loader) doc(d *die) string {
	from := "Read from the DWARF of " + filepath.Base(l.f.path) + "."
	if d.line <= 0 {
		return from
	}
	return fmt.Sprintf("Declared at %s:%d. %s", l.declFile(d.u, d.file), d.line, from)
}

// declFile returns the name of file number idx of the unit's line table,
// relative to the unit's directory where it lies below it.
func (l *loader) declFile(u *unit, idx int64) string {
	if !u.filesOK {
		u.filesOK = true
		if lr, err := l.f.dw.LineReader(u.entry); err == nil && lr != nil {
			for _, f := range lr.Files() {
				name := ""
				if f != nil {
					name = f.Name
				}
				u.files = append(u.files, name)
			}
		}
	}
	if idx < 0 || idx >= int64(len(u.files)) || u.files[idx] == "" {
		return u.name
	}
	name := u.files[idx]
	if rel, err := filepath.Rel(u.compDir, name); u.compDir != "" && err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return name
}

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

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
