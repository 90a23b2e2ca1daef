package gosrc

import (
	"go/types"
	"strings"
)

// A generic struct type that its package creates only through generic
// code (a NewQueue[T] constructor, methods on Queue[T]) has no concrete
// instance there to lay out, though its users create many. StandIn lays
// it out as an instance whose type parameters stand for what they
// hold in most instances.

// StandIn returns the instance of a generic struct type that stands for
// its instances: each type parameter is its constraint's single
// underlying type where it has one (~int64 is int64), else a
// pointer-sized word (unsafe.Pointer: a pointer, a map, a channel, an
// int). note says so, to be shown with the layout; it names the
// assumption when a member holds a type parameter by value, so that the
// offsets after it depend on the instance (one that holds it behind a
// slice, pointer, map or channel does not).
func StandIn(origin *types.Named) (inst *types.Named, note string) {
	tparams := origin.TypeParams()
	args := make([]types.Type, tparams.Len())
	for i := range args {
		args[i] = standInArg(tparams.At(i))
	}
	t, err := types.Instantiate(nil, origin, args, false)
	if err != nil {
		return nil, ""
	}
	inst, _ = t.(*types.Named)
	note = "a stand-in for its instances"
	if st, ok := origin.Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			if holdsInline(f.Type()) {
				return inst, note + ", each type parameter a pointer-sized word"
			}
		}
	}
	return inst, note
}

// StandInName names a stand-in instance by its type parameters, as the
// declaration does: Queue[T], cache[K, V].
func StandInName(origin *types.Named) string {
	var names []string
	for tp := range origin.TypeParams().TypeParams() {
		names = append(names, tp.Obj().Name())
	}
	return origin.Obj().Name() + "[" + strings.Join(names, ", ") + "]"
}

// standInArg is what a type parameter stands for in StandIn.
func standInArg(tp *types.TypeParam) types.Type {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if ok {
		for i := range iface.NumEmbeddeds() {
			if u, ok := iface.EmbeddedType(i).(*types.Union); ok && u.Len() == 1 {
				return u.Term(0).Type().Underlying()
			}
		}
	}
	return types.Typ[types.UnsafePointer]
}

// holdsInline reports whether values of t hold a type parameter in
// their own bytes: by value, in an array or in a struct.
func holdsInline(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Array:
		return holdsInline(t.Elem())
	case *types.Struct:
		for f := range t.Fields() {
			if holdsInline(f.Type()) {
				return true
			}
		}
	case *types.Named:
		// An instance's members hold its arguments as it declares them:
		// atomic.Pointer[T] holds a *T.
		if t.TypeArgs().Len() > 0 {
			return holdsInline(t.Underlying())
		}
	}
	return false
}
