package gosrc

import "go/types"

// HasPointers reports whether values of t hold pointers that the garbage
// collector must scan, as the compiler decides it (types.HasPointers in
// cmd/compile): the runtime allocates such objects differently (no tiny
// allocator, a malloc header above 512 bytes on 64-bit GOARCHes). Strings,
// slices, maps, channels, functions and interfaces all hold a pointer; an
// array holds pointers only if it has elements that do. (The compiler also
// ignores pointers to not-in-heap types, which only the runtime declares.)
func HasPointers(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.String || u.Kind() == types.UnsafePointer
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Array:
		return u.Len() > 0 && HasPointers(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if HasPointers(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}
