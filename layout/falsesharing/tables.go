package falsesharing

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/placement"
)

// elementUses returns the members of an element type that are used
// through sync/atomic or that facts mark hot, as paths under prefix.
func (c *checker) elementUses(elem types.Type, prefix string) []string {
	var out []string
	for _, m := range c.hot.paddedMembers(elem) {
		out = append(out, prefix+"."+m)
	}
	if n, ok := types.Unalias(elem).(*types.Named); ok && !c.hot.keptWhole(n) {
		for _, m := range c.hot.hotMembers(n.Obj()) {
			out = append(out, prefix+"."+m)
		}
		if n.Obj().Pkg() != c.pass.Pkg {
			if fact, ok := c.hot.fact(n.Obj()); ok {
				for _, m := range fact.Members {
					out = append(out, prefix+"."+m)
				}
			}
		}
	}
	for _, m := range c.hot.memberFacts(types.NewStruct([]*types.Var{types.NewField(token.NoPos, c.pass.Pkg, "e", elem, false)}, nil)) {
		out = append(out, prefix+strings.TrimPrefix(m, "e"))
	}
	return out
}

// shardElements is how many elements stand for a slice's backing array:
// enough for the neighbours of one element at any line size up to 4096
// bytes, when elements are 64 bytes or more, and never so many that the
// analysis grows large.
const shardElements = 16

// checkTables checks the tables whose elements live outside any struct
// type: the backing arrays of slice members, and package-level arrays and
// slices. Each is checked as a struct holding the array, placed where the
// allocator or the linker puts it.
func (c *checker) checkTables(arch string) error {
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		switch obj := obj.(type) {
		case *types.Var:
			if err := c.checkTable(obj, obj, obj.Type(), arch); err != nil {
				return err
			}
		case *types.TypeName:
			if obj.IsAlias() {
				continue
			}
			if d := c.dirs.Type(obj); d != nil && d.Ignore != "" {
				continue
			}
			// A named slice type is a table of its own: type
			// stripes []sync.RWMutex.
			if _, ok := obj.Type().Underlying().(*types.Slice); ok {
				v := types.NewVar(obj.Pos(), c.pass.Pkg, obj.Name(), obj.Type())
				if err := c.checkTable(obj, v, obj.Type(), arch); err != nil {
					return err
				}
				continue
			}
			st, ok := obj.Type().Underlying().(*types.Struct)
			if !ok {
				continue
			}
			if n, ok := obj.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
				continue // a generic type's fields have no size until instantiated
			}
			if err := c.checkSliceMembers(obj, st, arch); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSliceMembers checks the backing arrays of a struct type's slice
// members, and the arrays its members point to (of an instance of a
// generic type, with its type arguments).
func (c *checker) checkSliceMembers(obj *types.TypeName, st *types.Struct, arch string) error {
	for i := range st.NumFields() {
		f := st.Field(i)
		_, isSlice := f.Type().Underlying().(*types.Slice)
		if !isSlice && pointeeArray(f.Type()) == nil {
			continue
		}
		if d := c.dirs.Field(f.Origin()); d != nil && (d.Ignore != "" || d.Cold) {
			continue
		}
		if err := c.checkTable(obj, f, f.Type(), arch); err != nil {
			return err
		}
	}
	return nil
}

// checkTable checks one slice or package-level array v of type t.
func (c *checker) checkTable(owner types.Object, v *types.Var, t types.Type, arch string) error {
	var arr *types.Array
	place := placement.Policy{placement.Backing}
	pointee := pointeeArray(t)
	switch u := t.Underlying().(type) {
	case *types.Slice:
		arr = types.NewArray(u.Elem(), shardElements)
	case *types.Array:
		if pointee != nil {
			arr = pointedTo(pointee)
			break
		}
		if _, isVar := owner.(*types.Var); !isVar {
			return nil // arrays inside struct types are checked with the type
		}
		arr = u
		place = placement.Policy{placement.Global}
	case *types.Pointer:
		if pointee == nil {
			return nil
		}
		arr = pointedTo(pointee)
	default:
		return nil
	}
	if pointee != nil {
		place = placement.Policy{placement.Backing}
	}
	words := isWord(arr.Elem()) && c.hot.atomicElements()
	if _, ok := arr.Elem().Underlying().(*types.Struct); !ok && !concurrentElem(arr.Elem()) && !words {
		return nil
	}
	holder := types.NewStruct([]*types.Var{types.NewField(v.Pos(), c.pass.Pkg, v.Name(), arr, false)}, nil)
	_, slice := t.Underlying().(*types.Slice)
	slice = slice || pointee != nil
	uses := c.elementUses(arr.Elem(), v.Name()+"[]")
	if len(uses) == 0 {
		uses = c.ownedShards(owner, v.Name(), arr.Elem())
	}
	if len(uses) == 0 && words {
		uses = c.stripedWords(owner, v.Name())
	}
	return c.checkObject(object{tn: owner, typ: holder, name: v.Name(), uses: uses,
		placement: place, pos: v.Pos(), slice: slice}, arch)
}

// ownedShards returns the members of a table's elements that goroutines
// write in an element of their own (one per CPU, or one goroutine per
// element): shards written with plain stores, which share lines as
// atomics do. Only a package that starts goroutines has them, and only
// then is the model asked.
func (c *checker) ownedShards(owner types.Object, table string, elem types.Type) []string {
	if !c.hot.startsGoroutines() {
		return nil
	}
	m := c.model()
	if m == nil {
		return nil
	}
	var out []string
	for _, p := range m.StripedWrites(owner, table+"[]") {
		if p != table+"[]" {
			out = append(out, p)
			continue
		}
		// Whole elements stored: each of their members is written; a
		// word is its element.
		st, ok := elem.Underlying().(*types.Struct)
		if !ok {
			out = append(out, p)
			continue
		}
		for i := range st.NumFields() {
			out = append(out, p+"."+st.Field(i).Name())
		}
	}
	return out
}

// ownedMemberShards returns, of the arrays that a struct type holds as
// members, the members of their elements that goroutines write in an
// element of their own (ownedShards): counts [8]int64 that worker w
// adds to at counts[w].
func (c *checker) ownedMemberShards(tn *types.TypeName, named *types.Named) []string {
	if !c.hot.startsGoroutines() {
		return nil
	}
	var out []string
	for path, v := range c.hot.memberVars(named) {
		if a, ok := v.Type().Underlying().(*types.Array); ok && a.Len() > 2 && (isWord(a.Elem()) || isStructType(a.Elem())) {
			out = append(out, c.ownedShards(tn, path, a.Elem())...)
		}
	}
	slices.Sort(out)
	return out
}

func isStructType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// stripedWords returns the table itself as its hot member when some
// operation writes its words in elements chosen per CPU or goroutine:
// cells []uint64 added to atomically at a random index.
func (c *checker) stripedWords(owner types.Object, table string) []string {
	m := c.model()
	if m == nil || len(m.StripedWrites(owner, table+"[]")) == 0 {
		return nil
	}
	return []string{table + "[]"}
}

// pointedTo is the array that stands for one a member points to, each
// an allocation of its own like a slice's backing array: as many
// elements as it has, up to shardElements.
func pointedTo(a *types.Array) *types.Array {
	return types.NewArray(a.Elem(), min(a.Len(), shardElements))
}

// pointeeArray returns the array a member of type t points to: of
// *[N]T, or of each element of [K]*[N]T; nil for any other type.
func pointeeArray(t types.Type) *types.Array {
	if a, ok := t.Underlying().(*types.Array); ok {
		t = a.Elem()
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if a, ok := p.Elem().Underlying().(*types.Array); ok {
			return a
		}
	}
	return nil
}

// tableElem returns the element type of a table in another allocation
// that a member of type t names: a slice's, or a pointed-to array's.
func tableElem(t types.Type) (types.Type, bool) {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem(), true
	}
	if a := pointeeArray(t); a != nil {
		return a.Elem(), true
	}
	return nil, false
}

// isWord reports whether t is an integer or pointer-sized word, as
// sync/atomic's functions update.
func isWord(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Info()&types.IsInteger != 0 || b.Kind() == types.UnsafePointer)
}

// concurrentElem reports whether array elements of type t are themselves
// accessed concurrently (atomics, mutexes).
func concurrentElem(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == "sync/atomic" || isMutex(t)
}
