package placement

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout"
)

// Context says who places an object, which decides its phases.
type Context int

const (
	// Heap is a Go object allocated on its own: new(T), &T{}, or a
	// one-element make.
	Heap Context = iota
	// Global is a Go package-level variable.
	Global
	// Declared is an object known to start at a multiple of Struct.Align:
	// a C object, or a Go type or variable with //mglayout:align, where
	// the user guarantees the alignment.
	Declared
	// Element is an element of an array or slice of Go values: at any
	// multiple of its type's alignment, as the array starts where its
	// own placement puts it.
	Element
	// Variables is a run of Go package-level variables of one size and
	// section, which the linker puts side by side in the order declared,
	// laid out as one struct: placed as a global of its size.
	Variables
	// Backing is a table of Go values that a slice, or a member pointing
	// to an array, holds, laid out as one struct: at any multiple of its
	// elements' alignment.
	Backing
	// SpanStart is a run of Go objects of one size class, allocated one
	// after another from the start of a span, laid out as one struct:
	// at phase 0, spans being page-aligned.
	SpanStart
)

var contextNames = []string{Heap: "heap", Global: "global", Declared: "declared", Element: "element", Variables: "variables", Backing: "backing", SpanStart: "span-start"}

func (c Context) String() string {
	if c >= 0 && int(c) < len(contextNames) {
		return contextNames[c]
	}
	return fmt.Sprintf("Context(%d)", int(c))
}

// MarshalText writes a context by its name, as the layout JSON records it.
func (c Context) MarshalText() ([]byte, error) {
	if c < 0 || int(c) >= len(contextNames) {
		return nil, fmt.Errorf("unknown placement context %d", int(c))
	}
	return []byte(contextNames[c]), nil
}

// UnmarshalText reads a context's name.
func (c *Context) UnmarshalText(text []byte) error {
	i := slices.Index(contextNames, string(text))
	if i < 0 {
		return fmt.Errorf("placement %q is not one of %s", text, strings.Join(contextNames, ", "))
	}
	*c = Context(i)
	return nil
}

// Placement is where an object can start relative to lines of one size.
type Placement struct {
	Context Context
	// Phases are the reachable offsets modulo the line size, ascending.
	// They are empty only for a zero-size heap object, which occupies no
	// line.
	Phases []int64
	// Reason names the rule that gives the phases, e.g. "pointerful,
	// 520 B > 512: 8-byte malloc header, then size class 576".
	Reason string
}

// Contexts returns the contexts in which an object of the layout can be
// placed: Declared for a C layout (kernel or DWARF), whose alignment is
// part of its declaration; Heap and Global for a Go type, which the
// allocator and the linker place by its size.
//
// A Go type with //mglayout:align is the exception that a layout cannot
// show, because the builder folds the directive into Struct.Align: the
// caller, which has the directives, asks for Declared instead.
func Contexts(s *layout.Struct) []Context {
	if s.Source == layout.SourceGo {
		return []Context{Heap, Global}
	}
	return []Context{Declared}
}

// Phases returns where an object of the layout can start relative to lines
// of the given size in the given context. Heap and Global apply to Go
// layouts of a GOARCH the gc toolchain supports.
func Phases(s *layout.Struct, line int64, ctx Context) (Placement, error) {
	if err := layout.CheckLineSize(line); err != nil {
		return Placement{}, err
	}
	switch ctx {
	case Declared:
		return declared(s, line), nil
	case Element:
		return Placement{Context: Element, Phases: s.Phases(line),
			Reason: fmt.Sprintf("an element of an array or slice: at any multiple of its alignment (%d)", s.Align)}, nil
	case Backing:
		return Placement{Context: Backing, Phases: s.Phases(line),
			Reason: "a slice's backing array, or an array a member points to: at any multiple of its elements' alignment"}, nil
	case SpanStart:
		return Placement{Context: SpanStart, Phases: []int64{0}, Reason: "objects a size class apart from the start of a span"}, nil
	case Heap, Global, Variables:
		if s.Source != layout.SourceGo {
			return Placement{}, fmt.Errorf("%s: %s placement follows the Go runtime and linker, but this is a %s layout (use %s)", s.Name, ctx, s.Source, Declared)
		}
		a, ok := arches[s.Arch]
		if !ok {
			return Placement{}, fmt.Errorf("%s: GOARCH %q is not one the gc toolchain supports (see `go tool dist list`)", s.Name, s.Arch)
		}
		switch ctx {
		case Heap:
			return heap(s.Size, s.Pointers, a, line), nil
		case Variables:
			p := global(s.Size, a, line)
			p.Context = Variables
			p.Reason = "package-level variables of one size and section, which the linker puts side by side in the order declared: " + p.Reason
			return p, nil
		}
		return global(s.Size, a, line), nil
	}
	return Placement{}, fmt.Errorf("%s: unknown placement context %d", s.Name, int(ctx))
}

// declared places the object at any multiple of its alignment.
func declared(s *layout.Struct, line int64) Placement {
	why := "declared"
	if s.Source == layout.SourceKernel || s.Source == layout.SourceDWARF {
		why = "____cacheline_aligned or declared"
	} else if s.Source == layout.SourceGo {
		why = "//mglayout:align"
	}
	reason := fmt.Sprintf("aligned to %d (%s)", s.Align, why)
	if s.Placed {
		reason = fmt.Sprintf("at %#x (the symbol table)", s.Address)
		if s.BlockOffset(line) > 0 {
			reason += "; its first line is the second of a 128-byte block"
		}
	}
	return Placement{Context: Declared, Phases: s.Phases(line), Reason: reason}
}

// arch holds what placement needs to know of a GOARCH.
type arch struct {
	ptrSize int64 // goarch.PtrSize: picks the malloc header threshold
	// maxAlign and minAlign are the linker's bounds on the alignment of a
	// data symbol (cmd/link/internal/<arch>/l.go).
	maxAlign, minAlign int64
}

// arches lists the GOARCHes of the gc toolchain (Go 1.26). The tests check
// the numbers against go/types and the installed linker's source.
var arches = map[string]arch{
	"386":      {4, 32, 1},
	"amd64":    {8, 32, 1},
	"arm":      {4, 8, 1},
	"arm64":    {8, 32, 1},
	"loong64":  {8, 32, 1},
	"mips":     {4, 32, 1},
	"mipsle":   {4, 32, 1},
	"mips64":   {8, 32, 1},
	"mips64le": {8, 32, 1},
	"ppc64":    {8, 32, 1},
	"ppc64le":  {8, 32, 1},
	"riscv64":  {8, 32, 1},
	"s390x":    {8, 32, 2},
	"wasm":     {8, 32, 1},
}

// global places a package-level variable as cmd/link does. The compiler
// records no alignment for a variable's symbol (cmd/internal/obj/objfile.go
// sets one only for functions and content-addressable data), so symalign
// in cmd/link/internal/ld/data.go derives it from the size alone: maxAlign,
// halved while it exceeds the size and minAlign. The type's own alignment
// needs no separate term: Go sizes are multiples of the alignment, so it is
// at most the largest power of two not above the size, and at most 8.
func global(size int64, a arch, line int64) Placement {
	align := a.maxAlign
	for align > size && align > a.minAlign {
		align >>= 1
	}
	return Placement{
		Context: Global,
		Phases:  spread([]int64{0}, align, line),
		Reason:  fmt.Sprintf("package-level variable of %d B: the linker aligns it to %d (its size's power of two, at most %d)", size, align, a.maxAlign),
	}
}

// spread returns the phases of objects that start at the given offsets
// past a base that is a multiple of unit (a power of two): the offsets
// moved by every multiple of unit below the line, modulo the line, sorted
// and without duplicates.
func spread(offsets []int64, unit, line int64) []int64 {
	var phases []int64
	for base := int64(0); base < line; base += unit {
		for _, off := range offsets {
			phases = append(phases, (base+off)%line)
		}
	}
	slices.Sort(phases)
	return slices.Compact(phases)
}
