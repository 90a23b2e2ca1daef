package elfdwarf

import (
	"bytes"
	"debug/dwarf"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
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
	// Vars names variables whose types to read, named after the
	// variable and aligned as it is (an anonymous struct has no other
	// name); with Vars and no Types, no other struct is read.
	Vars []string
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
	return loadFrom(path, opts, func() (*file, error) { return open(path, opts.Arch) })
}

// loadBytes is Load of an ELF file held in memory, named name in errors:
// how the fuzz tests feed the loader, with no file per input.
func loadBytes(name string, data []byte, opts Options) ([]*layout.Struct, []string, error) {
	return loadFrom(name, opts, func() (*file, error) {
		return read(name, bytes.NewReader(data), data, int64(len(data)), opts.Arch)
	})
}

// loadFrom loads from the file openFile opens, named name in errors, a
// panic while reading it being an error too.
func loadFrom(name string, opts Options, openFile func() (*file, error)) (structs []*layout.Struct, notes []string, err error) {
	if catchPanics {
		defer func() {
			if r := recover(); r != nil {
				structs, notes = nil, nil
				err = fmt.Errorf("%s: corrupt DWARF (%v); rebuild the file with -g", name, r)
			}
		}()
	}
	f, err := openFile()
	if err != nil {
		return nil, nil, err
	}
	return load(f, opts)
}

func load(f *file, opts Options) ([]*layout.Struct, []string, error) {
	defer f.close()
	if f.image != nil {
		// A mapped file truncated while it is read faults: a panic,
		// which catchPanics turns into an error, rather than a crash.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	}
	l := &loader{
		f:       f,
		seen:    map[string]*definition{},
		matched: map[string]bool{},
		exact:   map[string]bool{},
		unions:  map[string]bool{},
	}
	l.vars, l.varsFound, l.varKinds = opts.Vars, map[string]bool{}, map[string]string{}
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
	vars []string // the requested variables
	// varsFound are the variables laid out, varKinds what the others
	// hold when it is no struct.
	varsFound map[string]bool
	varKinds  map[string]string

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
	defer func() {
		// The reader stops within a few thousand entries; until then it reads the
		// file's mapping, which closing the file releases.
		close(quit)
		for range units {
		}
	}()
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

// stopped reports whether quit is closed.
func stopped(quit <-chan struct{}) bool {
	select {
	case <-quit:
		return true
	default:
		return false
	}
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
	if l.f.image != nil {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true)) // see load
	}
	r := l.f.dw.Reader()
	var u *unit
	var last dwarf.Offset // the entries' offsets grow
	open := 0             // entries whose children have not ended yet
	for n := 0; ; n++ {
		if n%4096 == 0 && stopped(quit) {
			return // done with what was read: the rest of a unit is not read
		}
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
		if e.Tag == dwarf.TagVariable && len(l.vars) > 0 {
			l.noteVar(e, u)
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

// finish builds the selected structs that unit u defines and the types
// of the requested variables it declares, then forgets its entries.
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
	if err := l.finishVars(u); err != nil {
		return err
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
		return name, len(l.vars) == 0
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
	if len(l.want) == 0 && len(l.vars) == 0 {
		return false
	}
	for _, w := range l.want {
		if !l.exact[w] {
			return false
		}
	}
	for _, v := range l.vars {
		if !l.varsFound[v] {
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
	if err := l.varsMissing(); err != nil {
		return nil, nil, err
	}
	if len(l.want) > 0 || len(l.vars) > 0 {
		// Types in the order asked, then variables in theirs.
		order := slices.Clone(l.want)
		for _, v := range l.vars {
			order = append(order, varRequest+v)
		}
		slices.SortStableFunc(l.out, func(a, b built) int {
			return slices.Index(order, a.request) - slices.Index(order, b.request)
		})
	}
	structs := make([]*layout.Struct, len(l.out))
	var vars []*layout.Struct
	for i, b := range l.out {
		structs[i] = b.s
		if strings.HasPrefix(b.request, varRequest) {
			vars = append(vars, b.s)
		}
	}
	if err := l.place(vars); err != nil {
		return nil, nil, err
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
		Decl:   d.name,
		DeclAt: l.declAt(d),

		FromGoBinary: d.u.isGo(),
	}
	s.Doc = l.doc(s.DeclAt)
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
func (l *loader) doc(declAt string) string {
	from := "Read from the DWARF of " + filepath.Base(l.f.path) + "."
	if declAt == "" {
		return from
	}
	return "Declared at " + declAt + ". " + from
}

// declAt says where the type d is declared, "file:line", or "".
func (l *loader) declAt(d *die) string {
	if d.line <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", l.declFile(d.u, d.file), d.line)
}

// declFile returns the name of file number idx of the unit's line table,
// relative to the unit's directory where it lies below it.
func (l *loader) declFile(u *unit, idx int64) string {
	if !u.filesOK {
		u.filesOK = true
		// A line table whose counts its size cannot hold is not read:
		// reading it would take as long as the counts say.
		if l.f.lineTableOK(u) {
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
