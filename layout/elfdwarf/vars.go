package elfdwarf

import (
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// varRef is a variable a request names, as its compile unit declares
// it: the type it holds and the alignment the declaration asks for
// (DW_AT_alignment: the kernel's ____cacheline_aligned on the variable).
type varRef struct {
	name  string
	typ   dwarf.Offset
	align int64
}

// noteVar keeps a compile unit's variable that a request names.
func (l *loader) noteVar(e *dwarf.Entry, u *unit) {
	name, _ := e.Val(dwarf.AttrName).(string)
	if name == "" || !slices.Contains(l.vars, name) {
		return
	}
	typ, ok := e.Val(dwarf.AttrType).(dwarf.Offset)
	if !ok {
		return
	}
	align, _ := e.Val(dwarf.AttrAlignment).(int64)
	u.vars = append(u.vars, varRef{name, typ, align})
}

// finishVars lays out the type of each requested variable the unit
// declares, named after the variable, aligned as the variable is: an
// anonymous struct variable (the kernel's tk_core) has no other name.
func (l *loader) finishVars(u *unit) error {
	for _, v := range u.vars {
		if l.varsFound[v.name] {
			continue
		}
		r, err := l.resolve(v.typ, true, u)
		if err != nil {
			return corrupt(l.f.path, fmt.Errorf("variable %s: %v", v.name, err))
		}
		d := r.d
		if d == nil || d.tag != dwarf.TagStructType || d.decl {
			l.varKinds[v.name] = "not a struct"
			if d != nil && d.tag == dwarf.TagUnionType {
				l.varKinds[v.name] = "a union"
			}
			continue
		}
		s, err := l.build(d, v.name)
		if err != nil {
			return corrupt(l.f.path, fmt.Errorf("variable %s: %v", v.name, err))
		}
		s.Align = max(s.Align, v.align, r.align) // an aligned typedef's too
		s.VarType = strings.TrimSpace("struct " + d.name)
		l.out = append(l.out, built{varRequest + v.name, s})
		l.varsFound[v.name] = true
	}
	return nil
}

// varRequest prefixes a variable's request among the built layouts.
const varRequest = "var "

// varsMissing returns the error for requested variables the file lacks,
// or whose type is not a struct; nil when every one was found.
func (l *loader) varsMissing() error {
	for _, v := range l.vars {
		switch {
		case l.varsFound[v]:
		case l.varKinds[v] != "":
			return fmt.Errorf("%s: variable %s is %s; -var names variables that hold a struct (name the struct with -type)", l.f.path, v, l.varKinds[v])
		default:
			return fmt.Errorf("%s: no variable %s in its DWARF (nm %s lists its symbols; a variable the compiler dropped has none)", l.f.path, v, l.f.path)
		}
	}
	return nil
}

// neighbourLine is the widest line the neighbours of a placed variable
// are looked for in: 128 bytes, the arm64 LLC's and the adjacent-line
// prefetcher's pair.
const neighbourLine = 128

// place gives the layouts of variables the file's symbol table has their
// addresses, and the symbols within a 128-byte line of their first and
// last bytes. An object file's addresses are offsets in its sections,
// which the linker moves: only an executable or a vmlinux is placed, and
// one without a symbol table is an error, since where its variables are
// is what -var asks of it.
func (l *loader) place(structs []*layout.Struct) error {
	if len(l.vars) == 0 || l.f.elf.Type == elf.ET_REL {
		return nil
	}
	syms, err := l.f.elf.Symbols()
	if errors.Is(err, elf.ErrNoSymbols) {
		return fmt.Errorf("%s: no symbol table to place %s by (give the unstripped file: strip and objcopy --strip-all drop .symtab)", l.f.path, strings.Join(l.vars, ", "))
	}
	if err != nil {
		return corrupt(l.f.path, err)
	}
	for _, s := range structs {
		i, n := -1, 0
		for k, sym := range syms {
			if sym.Name == s.Name && elf.ST_TYPE(sym.Info) == elf.STT_OBJECT && sym.Section != elf.SHN_UNDEF {
				if n++; i < 0 {
					i = k
				}
			}
		}
		if i < 0 {
			continue
		}
		if n > 1 {
			// Static variables of one name in several units: the layout
			// is the first unit's, and the place the first symbol's,
			// which need not be the same variable.
			l.notes = append(l.notes, fmt.Sprintf("%d symbols are named %s; placed at the first, %#x", n, s.Name, syms[i].Value))
		}
		v := syms[i]
		s.Placed, s.Address = true, v.Value
		lo := v.Value - v.Value%neighbourLine
		hi := v.Value + max(v.Size, uint64(s.Size))
		hi += (neighbourLine - hi%neighbourLine) % neighbourLine
		for j, sym := range syms {
			if j == i || elf.ST_TYPE(sym.Info) != elf.STT_OBJECT || sym.Section != v.Section || sym.Size == 0 {
				continue
			}
			end := sym.Value + sym.Size
			if end <= lo || sym.Value >= hi || sym.Value >= v.Value && sym.Value < v.Value+uint64(s.Size) {
				continue
			}
			// Only what shares the first or the last line.
			firstEnd, lastStart := lo+neighbourLine, hi-neighbourLine
			if sym.Value >= firstEnd && end <= lastStart {
				continue
			}
			s.Neighbours = append(s.Neighbours, layout.Neighbour{Name: sym.Name, Offset: int64(sym.Value - v.Value), Size: int64(sym.Size)})
		}
		slices.SortFunc(s.Neighbours, func(a, b layout.Neighbour) int { return int(a.Offset - b.Offset) })
	}
	return nil
}
